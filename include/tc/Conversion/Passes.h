//===- Passes.h - conversions out of the tc dialect -----------------------===//

#ifndef TC_CONVERSION_PASSES_H
#define TC_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tc {

/// On a call of a host helper (the image codecs) that reads or writes the
/// elements of a buffer through a pointer operand (an i64 from
/// memref.extract_aligned_pointer_as_index): that operand's index. GPU
/// targets, whose buffers are device memory, stage such buffers through
/// host memory around the call (--tc-gpu-stage-host-buffers).
constexpr llvm::StringLiteral kReadsBufferAttr = "tc.reads_buffer";
constexpr llvm::StringLiteral kWritesBufferAttr = "tc.writes_buffer";

#define GEN_PASS_DECL
#include "tc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tc/Conversion/Passes.h.inc"

} // namespace mlir::tc

#endif // TC_CONVERSION_PASSES_H
