//===- CompositeHandlers.cpp - ONNX ops composed from several tc ops ------===//
//
// Hardmax, OneHot, EyeLike, CenterCropPad, LpPool, GroupNormalization, LRN:
// each is a short composition of existing tc ops, which fusion later
// regroups into one kernel.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "../TensorImport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// 0, 1, ..., n-1 laid along `axis` of a rank-`rank` tensor (unit sizes
/// elsewhere), as i64.
Value iotaAlong(NodeContext &ctx, int64_t n, int64_t axis, int64_t rank) {
  SmallVector<int64_t> values(n);
  for (int64_t i = 0; i < n; ++i)
    values[i] = i;
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = n;
  return reshapeTo(ctx, ctx.constantI64(values), shape);
}

/// 1 at the first maximum along `axis`, 0 elsewhere.
LogicalResult hardmax(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", ctx.opset < 13 ? 1 : -1), rank);
  if (failed(axis))
    return failure();
  if (ctx.opset < 13 && *axis != rank - 1)
    return ctx.unsupported("opset < 13 Hardmax over a flattened inner block");
  int64_t n = type.getDimSize(*axis);
  if (ShapedType::isDynamic(n))
    return ctx.unsupported("a dynamic reduced dimension");
  if (failed(checkMaterializedSize(ctx, n)))
    return failure();
  Value arg = ctx.build<ArgMaxOp>(
      {*x}, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis)),
             ctx.namedAttr("keepdims", ctx.builder.getUnitAttr())});
  Value hit = compareValues(ctx, ComparePredicate::eq,
                            iotaAlong(ctx, n, *axis, rank), arg);
  Value one = ctx.scalar(type.getElementType(), 1),
        zero = ctx.scalar(type.getElementType(), 0);
  results.push_back(hit ? ctx.build<SelectOp>({hit, one, zero}, {}, {type}) : nullptr);
  return success(results.back() != nullptr);
}

/// OneHot: values[1] where the (wrapped) index equals the position along
/// the new axis, values[0] elsewhere.
/// OneHot's depth read at run time: as an i64 scalar tensor (a float depth
/// truncated, as the reference's int() does), checked to be positive, and
/// the iota [0, depth) along `axis` of a rank-`rank` result.
std::pair<Value, Value> runtimeDepth(NodeContext &ctx, Value depthIn,
                                     int64_t axis, int64_t rank) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  auto [depth, scalar] = runtimeI64Scalar(ctx, depthIn);
  if (!depth)
    return {};
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  assertAtRunTime(ctx,
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                        scalar, zero),
                  "the depth computed at run time must be positive");
  Value iota = ctx.build<RangeOp>(
      {ctx.constantI64({0}, true), depth, ctx.constantI64({1}, true)}, {},
      {RankedTensorType::get({ShapedType::kDynamic}, b.getI64Type())});
  SmallVector<Value> sizes(rank, arith::ConstantIntOp::create(
                                     b, loc, b.getI64Type(), 1));
  sizes[axis] = scalar;
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = ShapedType::kDynamic;
  if (iota)
    iota = ctx.build<ReshapeOp>(
        {iota, tensor::FromElementsOp::create(b, loc, sizes)}, {},
        {RankedTensorType::get(shape, b.getI64Type())});
  return {depth, iota};
}

LogicalResult oneHot(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> indices = ctx.requireInput(0), depthIn = ctx.requireInput(1),
                   values = ctx.requireInput(2, 1, 1);
  if (failed(indices) || failed(depthIn) || failed(values))
    return failure();
  auto it = NodeContext::typeOf(*indices);
  int64_t rank = it.getRank() + 1;
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  auto depthType = NodeContext::typeOf(*depthIn);
  if (depthType.getNumElements() != 1)
    return ctx.invalid("depth must hold one value");
  // The depth as an i64 scalar tensor, and the iota along the new axis.
  Value depthValue, iota;
  if (DenseElementsAttr depthAttr = ctx.getConstant(*depthIn)) {
    Attribute d0 = depthAttr.getValues<Attribute>()[0];
    // A float depth beyond int64 (or NaN) does not convert: it counts as 0.
    double fd = isa<FloatAttr>(d0) ? cast<FloatAttr>(d0).getValueAsDouble() : 0;
    int64_t depth = isa<FloatAttr>(d0)
                        ? (std::abs(fd) < 0x1p62 ? static_cast<int64_t>(fd) : 0)
                        : cast<IntegerAttr>(d0).getValue().getSExtValue();
    if (depth <= 0)
      return ctx.invalid("depth must be positive");
    if (failed(checkMaterializedSize(ctx, depth)))
      return failure();
    depthValue = ctx.constantI64({depth}, true);
    iota = iotaAlong(ctx, depth, *axis, rank);
  } else {
    std::tie(depthValue, iota) = runtimeDepth(ctx, *depthIn, *axis, rank);
  }
  // Indices as i64, negative ones counted from the end, with the new axis.
  Value idx = it.getElementType().isInteger(64)
                  ? *indices
                  : ctx.build<CastOp>({*indices}, {}, {it.clone(ctx.builder.getI64Type())});
  Value isNeg = compareValues(ctx, ComparePredicate::lt, idx, ctx.constantI64({0}, true));
  Value wrapped = idx && depthValue ? ctx.build<AddOp>({idx, depthValue}) : nullptr;
  idx = isNeg && wrapped ? ctx.build<SelectOp>({isNeg, wrapped, idx}) : nullptr;
  SmallVector<int64_t> expanded(it.getShape());
  expanded.insert(expanded.begin() + *axis, 1);
  idx = idx ? reshapeTo(ctx, idx, expanded) : nullptr;
  Value hit = idx && iota ? compareValues(ctx, ComparePredicate::eq, idx, iota) : nullptr;
  auto vt = NodeContext::typeOf(*values);
  auto pick = [&](int64_t i) {
    return ctx.build<SliceOp>({*values}, {ctx.namedAttr("starts", ctx.i64Array({i})),
                                          ctx.namedAttr("ends", ctx.i64Array({i + 1})),
                                          ctx.namedAttr("steps", ctx.i64Array({1}))});
  };
  if (vt.getRank() != 1 || vt.getDimSize(0) != 2)
    return ctx.invalid("values must be [off_value, on_value]");
  Value off = reshapeTo(ctx, pick(0), {}), on = reshapeTo(ctx, pick(1), {});
  results.push_back(hit && on && off ? ctx.build<SelectOp>({hit, on, off}) : nullptr);
  return success(results.back() != nullptr);
}

/// EyeLike: ones on diagonal k of a static 2-D shape.
LogicalResult eyeLike(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (type.getRank() != 2 || !type.hasStaticShape())
    return ctx.unsupported("only static 2-D inputs");
  Type element = type.getElementType();
  if (ctx.hasAttr("dtype")) {
    std::string why;
    element = convertElementType(ctx.builder.getContext(),
                                 static_cast<int32_t>(ctx.getInt("dtype", 1)), why);
    if (!element)
      return ctx.unsupported(why);
  }
  int64_t k = ctx.getInt("k", 0);
  if (failed(checkMaterializedSize(ctx, type.getShape())))
    return failure();
  auto resultType = RankedTensorType::get(type.getShape(), element);
  SmallVector<Attribute> values;
  TypedAttr one = isa<FloatType>(element)
                      ? TypedAttr(ctx.builder.getFloatAttr(element, 1.0))
                      : TypedAttr(ctx.builder.getIntegerAttr(element, 1));
  TypedAttr zero = isa<FloatType>(element)
                       ? TypedAttr(ctx.builder.getFloatAttr(element, 0.0))
                       : TypedAttr(ctx.builder.getIntegerAttr(element, 0));
  for (int64_t i = 0; i < type.getDimSize(0); ++i)
    for (int64_t j = 0; j < type.getDimSize(1); ++j)
      values.push_back(j - i == k ? one : zero);
  results.push_back(ctx.constant(DenseElementsAttr::get(resultType, values)));
  return success();
}

/// CenterCropPad to a shape known only at run time: per axis, the
/// difference between the wanted and the present size, half of it
/// (rounded toward zero) before and the rest after, as run-time pads
/// (negative ones crop) of tc.dynamic_pad.
LogicalResult runtimeCenterCropPad(NodeContext &ctx, Value x, Value shape,
                                   ArrayRef<int64_t> axes,
                                   SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  b.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  auto type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  RankedTensorType shapeType = NodeContext::typeOf(shape);
  if (shapeType.getRank() != 1 ||
      shapeType.getDimSize(0) != static_cast<int64_t>(axes.size()) ||
      !shapeType.getElementType().isInteger(64))
    return ctx.invalid("shape needs one int64 value per axis");
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  SmallVector<Value> pads(2 * rank, i64(0));
  SmallVector<int64_t> resultShape(type.getShape());
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  for (auto [i, a] : llvm::enumerate(axes)) {
    FailureOr<int64_t> axis = ctx.normalizeAxis(a, rank);
    if (failed(axis))
      return failure();
    Value want = tensor::ExtractOp::create(
        b, loc, shape, ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
    valid = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, want, i64(0)));
    Value size = arith::IndexCastOp::create(
        b, loc, b.getI64Type(), tensor::DimOp::create(b, loc, x, *axis));
    Value diff = arith::SubIOp::create(b, loc, want, size);
    pads[*axis] = arith::DivSIOp::create(b, loc, diff, i64(2));
    pads[rank + *axis] = arith::SubIOp::create(b, loc, diff, pads[*axis]);
    resultShape[*axis] = ShapedType::kDynamic;
  }
  assertAtRunTime(ctx, valid, "the shape computed at run time has a negative size");
  return buildDynamicPad(ctx, x, pads, resultShape, PadMode::constant, Value(),
                         results);
}

/// CenterCropPad: per axis, a centered slice when shrinking and a centered
/// zero pad when growing.
LogicalResult centerCropPad(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), shapeIn = ctx.requireInput(1, 1, 1);
  if (failed(x) || failed(shapeIn))
    return failure();
  std::optional<SmallVector<int64_t>> target = ctx.getConstantInts(*shapeIn);
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  SmallVector<int64_t> axes = ctx.getInts("axes").value_or(
      llvm::to_vector(llvm::seq<int64_t>(0, rank)));
  if (!target)
    return runtimeCenterCropPad(ctx, *x, *shapeIn, axes, results);
  if (llvm::any_of(*target, [](int64_t size) { return size < 0; }))
    return ctx.invalid("the shape has a negative size");
  if (axes.size() != target->size())
    return ctx.invalid("shape needs one value per axis");
  SmallVector<int64_t> starts(rank, 0), ends = wholeSliceEnds(type),
                       steps(rank, 1), pads(2 * rank, 0);
  for (auto [i, a] : llvm::enumerate(axes)) {
    FailureOr<int64_t> axis = ctx.normalizeAxis(a, rank);
    if (failed(axis))
      return failure();
    int64_t dim = type.getDimSize(*axis), want = (*target)[i];
    if (ShapedType::isDynamic(dim))
      return ctx.unsupported("cropping or padding a dynamic dimension");
    if (want < dim) {
      starts[*axis] = (dim - want) / 2;
      ends[*axis] = starts[*axis] + want;
    } else {
      pads[*axis] = (want - dim) / 2;
      pads[rank + *axis] = want - dim - pads[*axis];
    }
  }
  Value v = ctx.build<SliceOp>({*x}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                      ctx.namedAttr("ends", ctx.i64Array(ends)),
                                      ctx.namedAttr("steps", ctx.i64Array(steps))});
  if (v && llvm::any_of(pads, [](int64_t p) { return p != 0; }))
    v = ctx.build<PadOp>({v}, {ctx.namedAttr("padding", ctx.i64Array(pads))});
  results.push_back(v);
  return success(v != nullptr);
}

/// LpPool: (sum over the window of |x|^p)^(1/p), from an average pool that
/// counts the padding, times the window size.
LogicalResult lpPool(NodeContext &ctx, SmallVectorImpl<Value> &results,
                     bool global) {
  FailureOr<Value> x = ctx.requireInput(0, 3);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  float p = static_cast<float>(ctx.getInt("p", 2));
  Type element = type.getElementType();
  Value mag = ctx.build<AbsOp>({*x});
  Value powered = mag ? ctx.build<PowOp>({mag, ctx.scalar(element, p)}) : nullptr;
  if (!powered)
    return failure();
  Value sum;
  if (global) {
    sum = ctx.build<ReduceSumOp>(
        {powered}, {ctx.namedAttr("axes", ctx.i64Array(llvm::to_vector(
                                              llvm::seq<int64_t>(2, type.getRank())))),
                    ctx.namedAttr("keepdims", ctx.builder.getUnitAttr())});
  } else {
    FailureOr<SmallVector<NamedAttribute>> attrs = readPoolAttributes(ctx, type);
    if (failed(attrs))
      return failure();
    attrs->push_back(ctx.namedAttr("count_include_pad", ctx.builder.getUnitAttr()));
    Value avg = ctx.build<AvgPoolOp>({powered}, *attrs);
    // readPoolAttributes succeeded, so kernel_shape is present.
    SmallVector<int64_t> kernel = *ctx.getInts("kernel_shape");
    int64_t window = 1;
    for (int64_t k : kernel)
      window *= k;
    sum = avg ? ctx.build<MulOp>({avg, ctx.scalar(element, window)}) : nullptr;
  }
  results.push_back(sum ? ctx.build<PowOp>({sum, ctx.scalar(element, 1.0 / p)})
                        : nullptr);
  return success(results.back() != nullptr);
}

/// GroupNormalization: statistics over [N, G, C/G * spatial], then the
/// per-channel (opset 21) or per-group (opset 18) scale and bias.
LogicalResult groupNorm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), scale = ctx.requireInput(1, 1, 1),
                   bias = ctx.requireInput(2, 1, 1);
  if (failed(x) || failed(scale) || failed(bias))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (type.getRank() < 3 || !type.hasStaticShape())
    return ctx.unsupported("only static [N, C, ...] inputs");
  int64_t n = type.getDimSize(0), c = type.getDimSize(1);
  int64_t groups = ctx.getInt("num_groups", 0);
  if (groups <= 0 || c % groups != 0)
    return ctx.invalid("num_groups must divide the channels");
  // C / G * spatial, not elements / (N * G): N may be 0.
  int64_t rest = c / groups;
  for (int64_t size : type.getShape().drop_front(2))
    rest *= size;
  Value grouped = reshapeTo(ctx, *x, {n, groups, rest});
  if (!grouped)
    return failure();
  FailureOr<Moments> m =
      moments(ctx, grouped, {2}, ctx.getFloat("epsilon", 1e-5f));
  if (failed(m))
    return failure();
  Value normalized = ctx.build<MulOp>({m->centered, m->invStdDev});
  normalized = normalized ? reshapeTo(ctx, normalized, type.getShape()) : nullptr;
  // Scale and bias per channel ([C]) from opset 21, per group ([G]) before.
  auto perChannel = [&](Value p) -> Value {
    auto pt = NodeContext::typeOf(p);
    if (pt.getDimSize(0) == groups && groups != c) {
      Value g = reshapeTo(ctx, p, {groups, 1});
      g = g ? ctx.build<BroadcastOp>({g}, {}, RankedTensorType::get({groups, c / groups},
                                                                    pt.getElementType()))
            : nullptr;
      p = g ? reshapeTo(ctx, g, {c}) : nullptr;
    }
    if (!p)
      return nullptr;
    SmallVector<int64_t> shape = {c};
    shape.resize(type.getRank() - 1, 1);
    return reshapeTo(ctx, p, shape);
  };
  Value s = perChannel(*scale), b = perChannel(*bias);
  Value y = normalized && s ? ctx.build<MulOp>({normalized, s}) : nullptr;
  results.push_back(y && b ? ctx.build<AddOp>({y, b}) : nullptr);
  return success(results.back() != nullptr);
}

/// LRN: x / (bias + alpha / size * sum of squares over `size` channels)^beta.
LogicalResult lrn(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (type.getRank() < 3 || !type.hasStaticShape())
    return ctx.unsupported("only static [N, C, ...] inputs");
  int64_t size = ctx.getInt("size", 0);
  if (size <= 0)
    return ctx.invalid("size must be positive");
  int64_t n = type.getDimSize(0), c = type.getDimSize(1);
  // The spatial sizes' product, not elements / (N * C): N or C may be 0.
  int64_t rest = 1;
  for (int64_t d : type.getShape().drop_front(2))
    rest *= d;
  Type element = type.getElementType();
  // Sum of squares over a channel window: an average pool over [N, 1, C, rest]
  // that counts its zero padding, times the window.
  Value sq = ctx.build<MulOp>({*x, *x});
  Value planes = sq ? reshapeTo(ctx, sq, {n, 1, c, rest}) : nullptr;
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  Value avg = planes ? ctx.build<AvgPoolOp>(
                           {planes},
                           {ctx.namedAttr("kernel_shape", ctx.i64Array({size, 1})),
                            ctx.namedAttr("padding", ctx.i64Array({before, 0, after, 0})),
                            ctx.namedAttr("count_include_pad", ctx.builder.getUnitAttr())})
                     : nullptr;
  Value sum = avg ? reshapeTo(ctx, avg, type.getShape()) : nullptr;
  float alpha = ctx.getFloat("alpha", 1e-4f), beta = ctx.getFloat("beta", 0.75f),
        bias = ctx.getFloat("bias", 1.0f);
  // avg * size * alpha / size = avg * alpha.
  Value scaled = sum ? ctx.build<MulOp>({sum, ctx.scalar(element, alpha)}) : nullptr;
  Value base = scaled ? ctx.build<AddOp>({scaled, ctx.scalar(element, bias)}) : nullptr;
  Value denom = base ? ctx.build<PowOp>({base, ctx.scalar(element, beta)}) : nullptr;
  results.push_back(denom ? ctx.build<DivOp>({*x, denom}) : nullptr);
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerCompositeHandlers(OpRegistry &r) {
  r.add("Hardmax", 1, hardmax);
  r.add("OneHot", 9, oneHot);
  r.add("EyeLike", 9, eyeLike);
  r.add("CenterCropPad", 18, centerCropPad);
  r.add("LpPool", 1, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    return lpPool(ctx, results, /*global=*/false);
  });
  r.add("GlobalLpPool", 1, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    return lpPool(ctx, results, /*global=*/true);
  });
  r.add("GroupNormalization", 18, groupNorm);
  r.add("LRN", 1, lrn);
}
