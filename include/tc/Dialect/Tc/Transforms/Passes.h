//===- Passes.h - graph-level passes on the tc dialect --------------------===//

#ifndef TC_DIALECT_TC_TRANSFORMS_PASSES_H
#define TC_DIALECT_TC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"

namespace mlir::tc {

#define GEN_PASS_DECL
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"

} // namespace mlir::tc

#endif // TC_DIALECT_TC_TRANSFORMS_PASSES_H
