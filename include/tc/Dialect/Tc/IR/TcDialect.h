//===- TcDialect.h - the tc dialect ---------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCDIALECT_H
#define TC_DIALECT_TC_IR_TCDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tc/Dialect/Tc/IR/TcDialect.h.inc"

namespace mlir::tc {

/// On a contraction (tc.matmul, tc.batch_matmul, tc.conv, and the
/// linalg.generic each lowers to): its factors hold TF32 values, rounded by
/// `--precision=tf32`, so that a GPU kernel may multiply them on tensor
/// cores in TF32 with the same result. Dropping it is always correct: the
/// contraction then runs in f32 on the same rounded values.
inline constexpr llvm::StringLiteral kTf32FactorsAttr = "tc.tf32_factors";

/// On an op the precision policy would narrow: the largest magnitude among
/// its operands and result over a calibration run (`tc-compile
/// --calibrate`), an f32. Under `--precision=fp16` an op whose value is
/// beyond fp16's range keeps f32.
inline constexpr llvm::StringLiteral kCalibratedMaxAttr = "tc.calibrated_max";

} // namespace mlir::tc

#endif // TC_DIALECT_TC_IR_TCDIALECT_H
