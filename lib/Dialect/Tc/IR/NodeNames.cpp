//===- NodeNames.cpp - the ONNX node an op comes from ---------------------===//

#include "tc/Dialect/Tc/IR/NodeNames.h"

#include "mlir/IR/Location.h"

#include <functional>

namespace mlir::tc {

std::string describeNode(Operation *op) {
  std::function<std::string(Location)> find = [&](Location loc) {
    if (auto name = dyn_cast<NameLoc>(loc)) {
      std::string text = "node '" + name.getName().str() + "'";
      if (auto type = dyn_cast<NameLoc>(name.getChildLoc()))
        text += " (" + type.getName().str() + ")";
      return text;
    }
    if (auto fused = dyn_cast<FusedLoc>(loc))
      for (Location part : fused.getLocations())
        if (std::string text = find(part); !text.empty())
          return text;
    return std::string();
  };
  std::string text = find(op->getLoc());
  return text.empty() ? op->getName().getStringRef().str() : text;
}

} // namespace mlir::tc
