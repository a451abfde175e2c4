//===- FusionDialect.cpp - fusion dialect registration --------------------===//

#include "tc/Dialect/Fusion/IR/FusionDialect.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fusion;

#include "tc/Dialect/Fusion/IR/FusionDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tc/Dialect/Fusion/IR/FusionAttrs.cpp.inc"

void FusionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tc/Dialect/Fusion/IR/FusionOps.cpp.inc"
      >();
  registerAttributes();
}

void FusionDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tc/Dialect/Fusion/IR/FusionAttrs.cpp.inc"
      >();
}

LogicalResult
KernelConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         StringRef strategy, ArrayRef<int64_t> tile,
                         int64_t workgroups, int64_t stages) {
  auto positive = [&] {
    return llvm::all_of(tile, [](int64_t t) { return t > 0; });
  };
  if (strategy == "register-tile") {
    if (tile.size() != 2 || !positive())
      return emitError() << "a register-tile config takes tile = [rows, "
                            "lanes], both positive";
    if (workgroups < 1)
      return emitError() << "a register-tile config's workgroups must be "
                            "positive";
    if (stages != 0)
      return emitError() << "a register-tile config has no stages";
    return success();
  }
  if (strategy == "tiled-contraction") {
    if (tile.size() != 3 || !positive())
      return emitError() << "a tiled-contraction config takes tile = [M, N, "
                            "K], all positive";
    if (workgroups < 0)
      return emitError() << "a tiled-contraction config's workgroups must be "
                            "0 (as many as the extents need) or positive";
    if (stages != 0 && stages != 2 && stages != 3)
      return emitError() << "a tiled-contraction config's stages are 2 or 3 "
                            "(or absent: the build's default)";
    return success();
  }
  return emitError() << "unknown kernel strategy '" << strategy
                     << "' (known: register-tile, tiled-contraction)";
}

LogicalResult FusionDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == kConfigAttr) {
    if (!isa<KernelConfigAttr>(attr.getValue()))
      return op->emitError() << "'" << kConfigAttr
                             << "' must be a #fusion.kernel_config";
    return success();
  }
  if (attr.getName() == kCandidatesAttr) {
    auto candidates = dyn_cast<ArrayAttr>(attr.getValue());
    if (!candidates || candidates.empty() ||
        !llvm::all_of(candidates, llvm::IsaPred<KernelConfigAttr>))
      return op->emitError() << "'" << kCandidatesAttr
                             << "' must be a non-empty array of "
                                "#fusion.kernel_config";
    return success();
  }
  if (attr.getName() == kKernelKeyAttr) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << kKernelKeyAttr << "' must be a string";
    return success();
  }
  return op->emitError() << "unknown fusion attribute '" << attr.getName().getValue()
                         << "'";
}
