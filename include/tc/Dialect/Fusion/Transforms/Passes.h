//===- Passes.h - passes on fusion groups ---------------------------------===//

#ifndef TC_DIALECT_FUSION_TRANSFORMS_PASSES_H
#define TC_DIALECT_FUSION_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "tc/Dialect/Fusion/IR/FusionDialect.h"

namespace mlir::fusion {

#define GEN_PASS_DECL
#include "tc/Dialect/Fusion/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tc/Dialect/Fusion/Transforms/Passes.h.inc"

} // namespace mlir::fusion

#endif // TC_DIALECT_FUSION_TRANSFORMS_PASSES_H
