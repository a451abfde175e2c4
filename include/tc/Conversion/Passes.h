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
#include "tc/Dialect/Tc/IR/TcAttributes.h"

namespace mlir::tc {


#define GEN_PASS_DECL
#include "tc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tc/Conversion/Passes.h.inc"

} // namespace mlir::tc

#endif // TC_CONVERSION_PASSES_H
