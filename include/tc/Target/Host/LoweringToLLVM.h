//===- LoweringToLLVM.h - host code to the LLVM dialect --------*- C++ -*-===//

#ifndef TC_TARGET_HOST_LOWERINGTOLLVM_H
#define TC_TARGET_HOST_LOWERINGTOLLVM_H

#include "mlir/Pass/PassManager.h"

namespace mlir::tc::host {

/// The conversion of a model's host code (the CPU target's whole module,
/// a GPU target's host side) from the standard dialects to the LLVM
/// dialect, written once: math, vector, memref, arith, index, func,
/// control flow and ub, then `beforeReconcile` (a target's own ops,
/// converted by patterns while their operands are still behind unrealized
/// casts), then the casts reconciled.
void buildLoweringToLLVM(OpPassManager &pm,
                         function_ref<void(OpPassManager &)> beforeReconcile);

} // namespace mlir::tc::host

#endif // TC_TARGET_HOST_LOWERINGTOLLVM_H
