//===- TensorOps.cpp - tc.constant and tc.cast ----------------------------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  inferred.push_back(adaptor.getValue().getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}
