//===- Passes.h - graph-level passes on the tc dialect --------------------===//

#ifndef TC_DIALECT_TC_TRANSFORMS_PASSES_H
#define TC_DIALECT_TC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"

#include <optional>

namespace mlir::tc {

#define GEN_PASS_DECL
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"

/// The raw row-major bytes of a constant (a dense_resource blob or dense
/// elements), when they are laid out one element after another: not for
/// splats, packed i1, or a blob that is not loaded.
std::optional<ArrayRef<char>> constantBytes(ElementsAttr value);

/// The ops `tc-apply-precision` would narrow (matmuls, convolutions,
/// attention, all of whose operands and results are f32), in the order a
/// walk of `root` visits them: what `tc-calibration-probes` measures.
SmallVector<Operation *> precisionPolicyOps(Operation *root);

} // namespace mlir::tc

#endif // TC_DIALECT_TC_TRANSFORMS_PASSES_H
