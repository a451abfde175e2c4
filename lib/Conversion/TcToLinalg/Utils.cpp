//===- Utils.cpp - shared helpers of the tc-to-linalg conversion ----------===//

#include "Utils.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <functional>
#include <limits>

namespace mlir::tc::to_linalg {

TcTypeConverter::TcTypeConverter() {
  addConversion([](Type type) { return type; });
  // Narrow types become their one-byte storage (NarrowTypes.cpp).
  addConversion([](FloatType type) -> Type {
    if (Type storage = storageType(type))
      return storage;
    return type;
  });
  addConversion([](IntegerType type) -> Type {
    if (Type storage = storageType(type))
      return storage;
    if (type.isUnsigned())
      return IntegerType::get(type.getContext(), type.getWidth());
    return type;
  });
  addConversion([this](RankedTensorType type) -> Type {
    return type.clone(convertType(type.getElementType()));
  });
  // Values crossing the boundary keep their bits; only the signedness in the
  // type changes, which a cast records until both sides are converted.
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

bool isUnsignedInt(Type elementType) {
  auto intType = dyn_cast<IntegerType>(elementType);
  return intType && intType.isUnsigned();
}

Type elementTypeOf(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

Value dimValue(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

void checkAtRunTime(OpBuilder &b, Location loc, Operation *op, Value holds,
                    const Twine &message) {
  if (matchPattern(holds, m_One()))
    return;
  cf::AssertOp::create(b, loc, holds,
                       (describeNode(op) + ": " + message).str());
}

/// A run-time check that two extents (index values) are equal.
static void checkEqual(OpBuilder &b, Location loc, Operation *op, Value x,
                       Value y, const Twine &message) {
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  checkAtRunTime(b, loc, op, same, message);
}

void checkSameExtent(OpBuilder &b, Location loc, Operation *op, Value x,
                     int64_t xAxis, Value y, int64_t yAxis, const Twine &what) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto yType = cast<RankedTensorType>(y.getType());
  if (!xType.isDynamicDim(xAxis) && !yType.isDynamicDim(yAxis))
    return;
  checkEqual(b, loc, op, dimValue(b, loc, x, xAxis),
             dimValue(b, loc, y, yAxis), what + " differ");
}

Value windowedOutputSize(OpBuilder &b, Location loc, Operation *op, Value input,
                         int64_t axis, int64_t window, int64_t stride,
                         int64_t dilation, int64_t padBegin, int64_t padEnd,
                         bool ceilMode, StringRef windowName) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  int64_t span = dilation * (window - 1) + 1;
  Value size = dimValue(b, loc, input, 2 + axis);
  Value padded = arith::AddIOp::create(b, loc, size, c(padBegin + padEnd));
  Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                     padded, c(span));
  checkAtRunTime(b, loc, op, fits,
                 "spatial axis " + Twine(axis) +
                     " of the input, padded, is shorter than the " +
                     windowName + " (" + Twine(span) + ")");
  Value room = arith::SubIOp::create(b, loc, padded, c(span));
  Value out = arith::AddIOp::create(
      b, loc, arith::DivSIOp::create(b, loc, room, c(stride)), c(1));
  if (ceilMode) {
    Value remainder = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::RemSIOp::create(b, loc, room, c(stride)), c(0));
    Value startsInside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt,
        arith::MulIOp::create(b, loc, out, c(stride)),
        arith::AddIOp::create(b, loc, size, c(padBegin)));
    Value extra = arith::AndIOp::create(b, loc, remainder, startsInside);
    out = arith::SelectOp::create(b, loc, extra,
                                  arith::AddIOp::create(b, loc, out, c(1)), out);
  }
  return arith::SelectOp::create(b, loc, fits, out, c(0));
}

void checkBroadcastExtents(OpBuilder &b, Location loc, Operation *op,
                           Value result, ValueRange operands) {
  auto resultType = cast<RankedTensorType>(result.getType());
  int64_t rank = resultType.getRank();
  for (auto [index, operand] : llvm::enumerate(operands)) {
    auto type = cast<RankedTensorType>(operand.getType());
    int64_t offset = rank - type.getRank();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      // The result's extent, as tensor.empty was given it: nothing to check
      // when it was read from this very operand axis.
      Value expected;
      if (auto empty = result.getDefiningOp<tensor::EmptyOp>())
        if (resultType.isDynamicDim(d + offset))
          expected = empty.getDynamicSize(d + offset);
      if (auto dim = expected ? expected.getDefiningOp<tensor::DimOp>()
                              : tensor::DimOp())
        if (dim.getSource() == operand && dim.getConstantIndex() == d)
          continue;
      if (!expected)
        expected = dimValue(b, loc, result, d + offset);
      checkEqual(b, loc, op, tensor::DimOp::create(b, loc, operand, d),
                 expected,
                 "operand " + Twine(index) + " axis " + Twine(d) +
                         " does not match the result's extent (a run-time "
                         "extent must equal the others on its axis; "
                         "broadcasting an extent known only at run time to "
                         "be 1 is not supported)");
    }
  }
}

SmallVector<OpFoldResult> mixedSizes(OpBuilder &b, Location loc,
                                     Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (type.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, tensor, i).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
  }
  return sizes;
}

SmallVector<Value> dynamicSizesOf(OpBuilder &b, Location loc, Value tensor,
                                  std::optional<int64_t> skip) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i) && (!skip || *skip != i))
      sizes.push_back(tensor::DimOp::create(b, loc, tensor, i));
  return sizes;
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType(), dynamicSizes);
}

Value emptyBroadcastResult(OpBuilder &b, Location loc, RankedTensorType type,
                           ValueRange operands) {
  SmallVector<Value> dynamicSizes;
  int64_t rank = type.getRank();
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!type.isDynamicDim(dim))
      continue;
    Value size;
    // Prefer an operand whose extent is itself dynamic (and so not a
    // broadcast 1); a static extent other than 1 would have made the result
    // static.
    for (Value operand : operands) {
      auto operandType = cast<RankedTensorType>(operand.getType());
      int64_t operandDim = dim - (rank - operandType.getRank());
      if (operandDim < 0 || !operandType.isDynamicDim(operandDim))
        continue;
      size = tensor::DimOp::create(b, loc, operand, operandDim);
      break;
    }
    if (!size)
      size = arith::ConstantIndexOp::create(b, loc, 1);
    dynamicSizes.push_back(size);
  }
  return emptyTensor(b, loc, type, dynamicSizes);
}

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   ValueRange dynamicSizes, Value value) {
  Value empty = emptyTensor(b, loc, type, dynamicSizes);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType operandType,
                       ArrayRef<int64_t> resultShape) {
  int64_t resultRank = resultShape.size();
  int64_t offset = resultRank - operandType.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operandType.getRank(); ++i) {
    int64_t resultDim = i + offset;
    if (operandType.getDimSize(i) == 1 && resultShape[resultDim] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(resultDim, ctx));
  }
  return AffineMap::get(resultRank, 0, exprs, ctx);
}

Value scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, static_cast<int64_t>(value));
  auto intType = cast<IntegerType>(type);
  Type signless = b.getIntegerType(intType.getWidth());
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(signless, static_cast<int64_t>(value)));
}

static Value extremeValue(OpBuilder &b, Location loc, Type tcType, bool max) {
  if (auto floatType = dyn_cast<FloatType>(tcType)) {
    APFloat inf = APFloat::getInf(floatType.getFloatSemantics(), !max);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, inf));
  }
  auto intType = cast<IntegerType>(tcType);
  unsigned width = intType.getWidth();
  APInt bits;
  if (intType.isUnsigned() || width == 1)
    bits = max ? APInt::getMaxValue(width) : APInt::getMinValue(width);
  else
    bits = max ? APInt::getSignedMaxValue(width)
               : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(b.getIntegerType(width), bits));
}

Value maxValueOf(OpBuilder &b, Location loc, Type tcType) {
  return extremeValue(b, loc, tcType, /*max=*/true);
}
Value minValueOf(OpBuilder &b, Location loc, Type tcType) {
  return extremeValue(b, loc, tcType, /*max=*/false);
}

Value castScalar(OpBuilder &b, Location loc, Value value, Type from,
                 Type to, bool saturate) {
  if (from == to)
    return value;
  // Narrow types: decode to f32 / i8, cast, encode (NarrowTypes.cpp).
  if (isByteStored(from)) {
    std::tie(value, from) = decodeNarrow(b, loc, value, from);
    if (from == to)
      return value;
  }
  if (isByteStored(to))
    return encodeNarrow(b, loc, value, from, to, saturate);
  auto toInt = dyn_cast<IntegerType>(to);
  auto fromInt = dyn_cast<IntegerType>(from);
  // Anything to bool: value != 0.
  if (toInt && toInt.getWidth() == 1) {
    if (fromInt && fromInt.getWidth() == 1)
      return value;
    if (fromInt)
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                   scalarConstant(b, loc, from, 0));
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                 scalarConstant(b, loc, from, 0));
  }
  Type target = toInt ? Type(b.getIntegerType(toInt.getWidth())) : to;
  bool fromUnsigned = fromInt && (fromInt.isUnsigned() || fromInt.getWidth() == 1);
  if (fromInt && toInt) {
    if (toInt.getWidth() == fromInt.getWidth())
      return value;
    if (toInt.getWidth() < fromInt.getWidth())
      return arith::TruncIOp::create(b, loc, target, value);
    if (fromUnsigned)
      return arith::ExtUIOp::create(b, loc, target, value);
    return arith::ExtSIOp::create(b, loc, target, value);
  }
  if (fromInt) {
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, target, value);
    return arith::SIToFPOp::create(b, loc, target, value);
  }
  auto fromFloat = cast<FloatType>(from);
  if (toInt) {
    if (toInt.isUnsigned())
      return arith::FPToUIOp::create(b, loc, target, value);
    return arith::FPToSIOp::create(b, loc, target, value);
  }
  auto toFloat = cast<FloatType>(to);
  if (toFloat.getWidth() > fromFloat.getWidth() ||
      (toFloat.getWidth() == fromFloat.getWidth() && toFloat.isF32()))
    return arith::ExtFOp::create(b, loc, target, value);
  if (toFloat.getWidth() == fromFloat.getWidth()) {
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, target, wide);
  }
  return arith::TruncFOp::create(b, loc, target, value);
}

Type accumulatorType(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return Float32Type::get(elementType.getContext());
  return elementType;
}

SmallVector<utils::IteratorType> parallelIterators(unsigned n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat,
                               ArrayRef<Value> extents) {
  SmallVector<Value> indices(extents.size());
  for (int64_t d = static_cast<int64_t>(extents.size()) - 1; d >= 0; --d) {
    indices[d] = arith::RemUIOp::create(b, loc, flat, extents[d]);
    flat = arith::DivUIOp::create(b, loc, flat, extents[d]);
  }
  return indices;
}

Value toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

Value normalizeIndex(OpBuilder &b, Location loc, Value index, Value size,
                     bool isUnsigned, Operation *checkFor) {
  Value i = isUnsigned ? Value(arith::IndexCastUIOp::create(
                             b, loc, b.getIndexType(), index))
                       : toIndex(b, loc, index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  if (checkFor) {
    // In [-size, size): one unsigned comparison of i + size against 2 size.
    Value shifted = arith::AddIOp::create(b, loc, i, size);
    Value twice = arith::AddIOp::create(b, loc, size, size);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          shifted, twice);
    checkAtRunTime(b, loc, checkFor, inRange,
                   "an index is out of range for the axis it indexes (valid: "
                   "-n to n - 1 for an axis of extent n)");
  }
  i = arith::SelectOp::create(b, loc, negative,
                              arith::AddIOp::create(b, loc, i, size), i);
  Value last = arith::SubIOp::create(
      b, loc, size, arith::ConstantIndexOp::create(b, loc, 1));
  i = arith::MinSIOp::create(b, loc, i, last);
  return arith::MaxSIOp::create(b, loc, i, zero);
}

Value fromIndex(OpBuilder &b, Location loc, Value index, Type type) {
  if (type.isIndex())
    return index;
  return arith::IndexCastOp::create(b, loc, type, index);
}

Value buildParallelGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange dynamicSizes, ValueRange inputs, ArrayRef<AffineMap> inputMaps,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value init = emptyTensor(b, loc, resultType, dynamicSizes);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
      parallelIterators(resultType.getRank()),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

} // namespace mlir::tc::to_linalg

namespace mlir::tc::to_linalg {

Value padTensor(OpBuilder &b, Location loc, Value source,
                ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                Value padValue) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return source;
  auto sourceType = cast<RankedTensorType>(source.getType());
  RankedTensorType resultType =
      tensor::PadOp::inferResultType(sourceType, low, high);
  SmallVector<OpFoldResult> lowSizes, highSizes;
  for (int64_t v : low)
    lowSizes.push_back(b.getIndexAttr(v));
  for (int64_t v : high)
    highSizes.push_back(b.getIndexAttr(v));
  return tensor::PadOp::create(b, loc, resultType, source, lowSizes, highSizes,
                               padValue);
}

Value castTensor(OpBuilder &b, Location loc, Value tensor, Type fromTcType,
                 Type toTcType) {
  if (fromTcType == toTcType)
    return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  Type signless = toTcType;
  if (auto intType = dyn_cast<IntegerType>(toTcType))
    signless = b.getIntegerType(intType.getWidth());
  if (signless == type.getElementType() &&
      (!isa<IntegerType>(toTcType) ||
       toTcType.getIntOrFloatBitWidth() == fromTcType.getIntOrFloatBitWidth()))
    return tensor;
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, tensor, i));
  return buildParallelGeneric(
      b, loc, type.clone(signless), dynamicSizes, tensor,
      b.getMultiDimIdentityMap(type.getRank()),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        return castScalar(nested, nestedLoc, args[0], fromTcType, toTcType);
      });
}

} // namespace mlir::tc::to_linalg

namespace mlir::tc::to_linalg {

AffineMap dropAxesMap(MLIRContext *ctx, int64_t rank, ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(axes, i))
      exprs.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value reduceTensor(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    Type accType, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i) {
    if (llvm::is_contained(axes, i)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    shape.push_back(inputType.getDimSize(i));
    if (inputType.isDynamicDim(i))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, input, i));
  }
  auto resultType = RankedTensorType::get(shape, accType);
  Value filled = filledTensor(b, loc, resultType, dynamicSizes, init);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 dropAxesMap(b.getContext(), rank, axes)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input},
             ValueRange{filled}, maps, iterators,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l,
                                       combine(nested, l, args[0], args[1]));
             })
      .getResult(0);
}

Value expandTo(OpBuilder &b, Location loc, Value reduced,
               RankedTensorType resultType) {
  auto reducedType = cast<RankedTensorType>(reduced.getType());
  if (reducedType.getShape() == resultType.getShape())
    return reduced;
  int64_t rank = resultType.getRank(), keptRank = reducedType.getRank();
  // Match every kept dim to a result position, in order; the other result
  // dims are inserted 1s and join the group of a neighbouring kept dim.
  SmallVector<int64_t> position;
  for (int64_t i = 0, k = 0; i < rank && k < keptRank; ++i) {
    bool fits = resultType.getDimSize(i) == reducedType.getDimSize(k);
    if (fits || rank - i == keptRank - k) {
      position.push_back(i);
      ++k;
    }
  }
  SmallVector<ReassociationIndices> reassociation;
  int64_t next = 0;
  for (int64_t k = 0; k < keptRank; ++k) {
    ReassociationIndices group;
    int64_t last = k + 1 == keptRank ? rank - 1 : position[k];
    for (; next <= last; ++next)
      group.push_back(next);
    reassociation.push_back(group);
  }
  SmallVector<OpFoldResult> outputShape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!resultType.isDynamicDim(i)) {
      outputShape.push_back(b.getIndexAttr(resultType.getDimSize(i)));
      continue;
    }
    int64_t k = llvm::find(position, i) - position.begin();
    outputShape.push_back(
        tensor::DimOp::create(b, loc, reduced, k).getResult());
  }
  return tensor::ExpandShapeOp::create(b, loc, resultType, reduced,
                                       reassociation, outputShape);
}

} // namespace mlir::tc::to_linalg
