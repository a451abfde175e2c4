//===- TensorHandlers.cpp - Constant, ConstantOfShape, Cast, ImageDecoder -===//

#include "HandlerUtils.h"

#include "../TensorImport.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
LogicalResult constant(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  MLIRContext *context = ctx.builder.getContext();
  if (const auto *a = ctx.attr("value")) {
    // The tensor is copied so that the node stays untouched.
    ::onnx::TensorProto tensor = a->t();
    if (tensor.name().empty())
      tensor.set_name(ctx.node.output(0));
    std::string error, unsupported;
    TensorImporter importer(context, /*externalDataDir=*/"", 16);
    ElementsAttr attr = importer.import(tensor, error, unsupported);
    if (!attr)
      return error.empty() ? ctx.unsupported(unsupported) : ctx.invalid(error);
    results.push_back(ConstantOp::create(ctx.builder, ctx.loc, attr));
    return success();
  }
  Type f32 = ctx.builder.getF32Type();
  if (const auto *a = ctx.attr("value_float")) {
    results.push_back(ctx.scalar(f32, a->f()));
    return success();
  }
  if (const auto *a = ctx.attr("value_int")) {
    results.push_back(ctx.constantI64({a->i()}, /*scalar=*/true));
    return success();
  }
  if (const auto *a = ctx.attr("value_floats")) {
    SmallVector<float> values(a->floats().begin(), a->floats().end());
    results.push_back(ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)values.size()}, f32),
        ArrayRef<float>(values))));
    return success();
  }
  if (const auto *a = ctx.attr("value_ints")) {
    SmallVector<int64_t> values(a->ints().begin(), a->ints().end());
    results.push_back(ctx.constantI64(values));
    return success();
  }
  if (ctx.hasAttr("sparse_value"))
    return ctx.unsupported("sparse constants");
  if (ctx.hasAttr("value_string") || ctx.hasAttr("value_strings"))
    return ctx.unsupported("string constants");
  return ctx.invalid("a Constant needs a value attribute");
}

/// ConstantOfShape: a splat of `value` (default float 0) shaped by a
/// constant input.
LogicalResult constantOfShape(NodeContext &ctx,
                              SmallVectorImpl<Value> &results) {
  FailureOr<Value> shapeIn = ctx.requireInput(0, 1, 1);
  if (failed(shapeIn))
    return failure();
  std::optional<SmallVector<int64_t>> shape = ctx.getConstantInts(*shapeIn);
  if (!shape) {
    int64_t rank = NodeContext::typeOf(*shapeIn).getDimSize(0);
    if (ShapedType::isDynamic(rank))
      return ctx.unsupported("a shape of unknown length");
    if (rank > kMaxShapeLength)
      return ctx.unsupported(llvm::formatv("a shape of {0} sizes (at most {1})",
                                           rank, kMaxShapeLength));
    shape = SmallVector<int64_t>(rank, ShapedType::kDynamic);
  }
  if (llvm::any_of(*shape, [](int64_t d) { return d < 0 && !ShapedType::isDynamic(d); }))
    return ctx.invalid("the shape has a negative size");
  // The splat is cheap at any size, but folders count elements in int64.
  int64_t count = 1;
  for (int64_t d : *shape)
    if (!ShapedType::isDynamic(d) && llvm::MulOverflow(count, d, count))
      return ctx.unsupported("a shape with more elements than int64 counts");
  DenseElementsAttr value;
  if (const auto *a = ctx.attr("value")) {
    ::onnx::TensorProto tensor = a->t();
    std::string error, unsupported;
    TensorImporter importer(ctx.builder.getContext(), "", 16);
    value = dyn_cast_if_present<DenseElementsAttr>(
        importer.import(tensor, error, unsupported));
    if (!value || value.getNumElements() != 1)
      return error.empty() && !unsupported.empty()
                 ? ctx.unsupported(unsupported)
                 : ctx.invalid("value must be a one-element tensor");
  } else {
    value = DenseElementsAttr::get(
        RankedTensorType::get({1}, ctx.builder.getF32Type()), 0.0f);
  }
  auto type = RankedTensorType::get(*shape, value.getElementType());
  if (type.hasStaticShape()) {
    results.push_back(ctx.constant(
        DenseElementsAttr::get(type, value.getValues<Attribute>()[0])));
    return success();
  }
  // Sizes known only at run time: broadcast the scalar.
  Value scalar = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({}, value.getElementType()),
      value.getValues<Attribute>()[0]));
  Value sizes = *shapeIn;
  auto sizesType = NodeContext::typeOf(sizes);
  if (!sizesType.getElementType().isInteger(64))
    sizes = ctx.build<CastOp>({sizes}, {}, {sizesType.clone(ctx.builder.getI64Type())});
  results.push_back(ctx.build<BroadcastOp>({scalar, sizes}, {}, type));
  return success(results.back() != nullptr);
}

/// Range: folded to a constant when its operands are constant.
LogicalResult range(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  SmallVector<Value> operands;
  for (size_t i = 0; i < 3; ++i) {
    FailureOr<Value> v = ctx.requireInput(i, 0, 0);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  auto type = NodeContext::typeOf(operands[0]);
  for (Value v : operands)
    if (NodeContext::typeOf(v).getElementType() != type.getElementType())
      return ctx.invalid("start, limit and delta must have one type");
  // The length of constant operands, checked here: RangeOp::getStaticLength
  // converts it to int64 unchecked (NaN, infinity, a zero delta).
  std::optional<int64_t> length;
  if (llvm::all_of(operands, [&](Value v) { return ctx.getConstant(v); })) {
    SmallVector<double> v;
    for (Value operand : operands) {
      Attribute a = ctx.getConstant(operand).getValues<Attribute>()[0];
      if (auto f = dyn_cast<FloatAttr>(a))
        v.push_back(f.getValueAsDouble());
      else if (type.getElementType().isUnsignedInteger())
        v.push_back(static_cast<double>(cast<IntegerAttr>(a).getValue().getZExtValue()));
      else
        v.push_back(static_cast<double>(cast<IntegerAttr>(a).getValue().getSExtValue()));
    }
    double n = std::ceil((v[1] - v[0]) / v[2]);
    if (!std::isfinite(n))
      return ctx.invalid("the range has no finite length");
    if (n > static_cast<double>(int64_t(1) << 40))
      return ctx.unsupported(llvm::formatv("a range of {0} elements", n));
    length = RangeOp::getStaticLength(ctx.getConstant(operands[0]),
                                      ctx.getConstant(operands[1]),
                                      ctx.getConstant(operands[2]));
  }
  auto resultType = RankedTensorType::get(
      {length ? *length : ShapedType::kDynamic}, type.getElementType());
  results.push_back(ctx.build<RangeOp>(operands, {}, {resultType}));
  return success(results.back() != nullptr);
}

/// ONNX Cast to `to`, honouring `saturate` (opset 19+, default 1; it only
/// concerns float8 results) and `round_mode` (opset 24+, float8e8m0 only; tc
/// implements its default, "up").
Value buildCast(NodeContext &ctx, Value x, Type to) {
  auto type = NodeContext::typeOf(x);
  SmallVector<NamedAttribute> attrs;
  bool float8 = isa<FloatType>(to) && to.getIntOrFloatBitWidth() == 8;
  if (float8 && ctx.getInt("saturate", 1) != 0)
    attrs.push_back(ctx.namedAttr("saturate", ctx.builder.getUnitAttr()));
  if (isa<Float8E8M0FNUType>(to)) {
    std::string mode = ctx.getString("round_mode", "up");
    if (mode != "up") {
      (void)ctx.unsupported("Cast to FLOAT8E8M0 with round_mode '" + mode + "'");
      return nullptr;
    }
  }
  return ctx.build<CastOp>({x}, attrs, {type.clone(to)});
}

LogicalResult castOp(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  std::string why;
  int32_t dataType = static_cast<int32_t>(ctx.getInt("to", 0));
  // Cast-1 named the type with a string.
  if (const auto *to = ctx.attr("to"); to && to->type() == ::onnx::AttributeProto::STRING) {
    ::onnx::TensorProto_DataType parsed;
    if (!::onnx::TensorProto_DataType_Parse(to->s(), &parsed))
      return ctx.invalid("unknown type name '" + to->s() + "'");
    dataType = parsed;
  }
  Type to = convertElementType(ctx.builder.getContext(), dataType, why);
  if (!to)
    return ctx.unsupported("cast to " + why);
  results.push_back(buildCast(ctx, *x, to));
  return success(results.back() != nullptr);
}

LogicalResult castLike(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), like = ctx.requireInput(1);
  if (failed(x) || failed(like))
    return failure();
  results.push_back(
      buildCast(ctx, *x, NodeContext::typeOf(*like).getElementType()));
  return success(results.back() != nullptr);
}

/// ImageDecoder: the encoded bytes to [H, W, C] pixels (tc.image_decode).
LogicalResult imageDecoder(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> encoded = ctx.requireInput(0, 1, 1);
  if (failed(encoded))
    return failure();
  std::string format = ctx.getString("pixel_format", "RGB");
  if (format != "RGB" && format != "BGR" && format != "Grayscale")
    return ctx.unsupported("pixel_format '" + format +
                           "' (expected RGB, BGR or Grayscale)");
  results.push_back(ctx.build<ImageDecodeOp>(
      {*encoded},
      {ctx.namedAttr("pixel_format", ctx.builder.getStringAttr(format))}));
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerTensorHandlers(OpRegistry &r) {
  r.add("Constant", 1, constant);
  r.add("ImageDecoder", 20, imageDecoder);
  r.add("ConstantOfShape", 9, constantOfShape);
  r.add("Range", 11, range);
  r.add("Cast", 1, castOp);
  r.add("CastLike", 15, castLike);
}
