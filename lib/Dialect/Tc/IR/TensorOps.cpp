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

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // Integer <-> integer casts of small constants (shape arithmetic).
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(adaptor.getInput());
  auto toType = dyn_cast<IntegerType>(getType().getElementType());
  if (!dense || !toType || dense.getNumElements() > 1024 ||
      !getType().hasStaticShape())
    return {};
  bool fromUnsigned = dense.getElementType().isUnsignedInteger();
  SmallVector<APInt> values;
  for (const APInt &v : dense.getValues<APInt>()) {
    if (toType.getWidth() == 1)
      values.push_back(APInt(1, v.isZero() ? 0 : 1));
    else
      values.push_back(fromUnsigned ? v.zextOrTrunc(toType.getWidth())
                                    : v.sextOrTrunc(toType.getWidth()));
  }
  return DenseElementsAttr::get(getType(), values);
}
