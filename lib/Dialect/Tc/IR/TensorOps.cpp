//===- TensorOps.cpp - tc.constant, tc.cast and tc.random_uniform ---------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include <cmath>

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

std::optional<int64_t> RangeOp::getStaticLength(Attribute start,
                                                Attribute limit,
                                                Attribute delta) {
  auto s = dyn_cast_if_present<DenseElementsAttr>(start);
  auto l = dyn_cast_if_present<DenseElementsAttr>(limit);
  auto d = dyn_cast_if_present<DenseElementsAttr>(delta);
  if (!s || !l || !d)
    return std::nullopt;
  double length;
  if (isa<FloatType>(s.getElementType())) {
    double step = d.getSplatValue<APFloat>().convertToDouble();
    if (step == 0)
      return std::nullopt;
    length = std::ceil((l.getSplatValue<APFloat>().convertToDouble() -
                        s.getSplatValue<APFloat>().convertToDouble()) /
                       step);
  } else {
    bool isUnsigned = s.getElementType().isUnsignedInteger();
    auto value = [&](DenseElementsAttr a) {
      APInt v = a.getSplatValue<APInt>();
      return isUnsigned ? static_cast<double>(v.getZExtValue())
                        : static_cast<double>(v.getSExtValue());
    };
    double step = value(d);
    if (step == 0)
      return std::nullopt;
    length = std::ceil((value(l) - value(s)) / step);
  }
  return static_cast<int64_t>(std::max(length, 0.0));
}

LogicalResult RangeOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  inferred.push_back(RankedTensorType::get(
      {ShapedType::kDynamic},
      cast<RankedTensorType>(adaptor.getStart().getType()).getElementType()));
  return success();
}

OpFoldResult RangeOp::fold(FoldAdaptor adaptor) {
  std::optional<int64_t> length = getStaticLength(
      adaptor.getStart(), adaptor.getLimit(), adaptor.getDelta());
  if (!length || *length > 1024 || getType().getDimSize(0) != *length)
    return {};
  auto start = cast<DenseElementsAttr>(adaptor.getStart());
  auto delta = cast<DenseElementsAttr>(adaptor.getDelta());
  if (auto floatType = dyn_cast<FloatType>(start.getElementType())) {
    SmallVector<APFloat> values;
    APFloat s = start.getSplatValue<APFloat>(), d = delta.getSplatValue<APFloat>();
    for (int64_t i = 0; i < *length; ++i) {
      APFloat v = d;
      bool lost;
      APFloat index(static_cast<double>(i));
      index.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
      v.multiply(index, APFloat::rmNearestTiesToEven);
      v.add(s, APFloat::rmNearestTiesToEven);
      values.push_back(v);
    }
    return DenseElementsAttr::get(getType(), values);
  }
  SmallVector<APInt> values;
  APInt s = start.getSplatValue<APInt>(), d = delta.getSplatValue<APInt>();
  for (int64_t i = 0; i < *length; ++i)
    values.push_back(s + d * APInt(s.getBitWidth(), i));
  return DenseElementsAttr::get(getType(), values);
}

LogicalResult RandomUniformOp::verify() {
  RankedTensorType result = getType();
  double low = getLow().convertToDouble(), high = getHigh().convertToDouble();
  if (!(low <= high))
    return emitOpError() << "expects low <= high, got " << low << " and "
                         << high;
  if (Value like = getLike()) {
    auto shape = cast<RankedTensorType>(like.getType());
    if (shape.getRank() != result.getRank() ||
        !llvm::all_of(llvm::zip(shape.getShape(), result.getShape()),
                      [](auto p) {
                        return areCompatibleSizes(std::get<0>(p), std::get<1>(p));
                      }))
      return emitOpError() << "result [" << formatShape(result.getShape())
                           << "] does not have the shape of ["
                           << formatShape(shape.getShape()) << "]";
  } else if (!result.hasStaticShape()) {
    return emitOpError() << "needs a static result shape or a tensor to take "
                            "the shape of";
  }
  return success();
}

LogicalResult ImageDecodeOp::inferReturnTypes(MLIRContext *context,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  StringRef format = adaptor.getPixelFormat();
  if (format != "RGB" && format != "BGR" && format != "Grayscale")
    return detail::emitInferError(loc, getOperationName(), "pixel_format '", format,
                          "' is not RGB, BGR or Grayscale");
  int64_t channels = format == "Grayscale" ? 1 : 3;
  inferred.push_back(RankedTensorType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic, channels},
      IntegerType::get(context, 8, IntegerType::Unsigned)));
  return success();
}
