//===- ResizeHandlers.cpp - ONNX Resize and Upsample to tc.resize ---------===//
//
// Constant scales and sizes give tc.resize with the output sizes in its
// type; scales, sizes or a region of interest computed at run time give
// tc.dynamic_resize, with every dimension's scale and size worked out here
// in scalar arithmetic (and checked at run time). Resize-10 and Upsample
// predate coordinate_transformation_mode and map coordinates
// asymmetrically with floor rounding for nearest.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
std::optional<SmallVector<double>> constantFloats(NodeContext &ctx, Value v) {
  DenseElementsAttr attr = ctx.getConstant(v);
  if (!attr || !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  SmallVector<double> values;
  for (const APFloat &f : attr.getValues<APFloat>())
    values.push_back(f.convertToDouble());
  return values;
}

/// A computed output size as an integer, or -1 when it is no size at all
/// (NaN, negative, or beyond what a graph input may declare).
int64_t toSize(double size) {
  return size >= 0 && size <= static_cast<double>(int64_t(1) << 40)
             ? static_cast<int64_t>(size)
             : -1;
}

/// Builds tc.resize from per-dimension scales and output sizes.
LogicalResult buildResize(NodeContext &ctx, Value x, ArrayRef<double> scales,
                          ArrayRef<int64_t> sizes,
                          SmallVector<NamedAttribute> attrs,
                          SmallVectorImpl<Value> &results) {
  auto type = NodeContext::typeOf(x);
  if (llvm::any_of(scales, [](double s) { return !(s > 0); }))
    return ctx.invalid("scales must be positive");
  if (llvm::any_of(sizes, [](int64_t s) { return s < 0 && !ShapedType::isDynamic(s); }))
    return ctx.invalid("the output sizes must be non-negative and not absurd");
  SmallVector<float> f(scales.begin(), scales.end());
  attrs.push_back(ctx.namedAttr("scales", ctx.builder.getDenseF32ArrayAttr(f)));
  results.push_back(ctx.build<ResizeOp>(
      {x}, attrs, {RankedTensorType::get(sizes, type.getElementType())}));
  return success(results.back() != nullptr);
}

/// Scalar arithmetic of the run-time resize parameters (f64 and i64).
struct ParamMath {
  OpBuilder &b;
  Location loc;

  Value f(double v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF64Type(), APFloat(v));
  }
  Value i(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  /// Element `k` of a 1-D tensor, as f64 (floats) or i64 (integers).
  Value read(Value tensor, int64_t k) {
    Value index = arith::ConstantIndexOp::create(b, loc, k);
    Value v = tensor::ExtractOp::create(b, loc, tensor, ValueRange{index});
    if (auto ft = dyn_cast<FloatType>(v.getType())) {
      if (ft.getWidth() < 64)
        return arith::ExtFOp::create(b, loc, b.getF64Type(), v);
      if (ft.getWidth() > 64)
        return arith::TruncFOp::create(b, loc, b.getF64Type(), v);
      return v;
    }
    return v;
  }
  Value toF64(Value i64) {
    return arith::SIToFPOp::create(b, loc, b.getF64Type(), i64);
  }
  /// floor(x) as an i64 (x is checked to be a size first).
  Value floorToI64(Value x) {
    return arith::FPToSIOp::create(b, loc, b.getI64Type(),
                                   math::FloorOp::create(b, loc, x));
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value all(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
};

/// Resize whose scales, sizes or roi are known only at run time: the
/// per-dimension scales (f64) and output sizes (i64) computed here, as the
/// constant path does when importing, into tc.dynamic_resize. The
/// dimensions that `axes` lists get dynamic sizes.
LogicalResult dynamicResize(NodeContext &ctx, Value x, ArrayRef<int64_t> axes,
                            Value scalesIn, Value sizesIn, Value roiIn,
                            SmallVector<NamedAttribute> attrs,
                            SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  b.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  b.getContext()->getOrLoadDialect<math::MathDialect>();
  ParamMath m{b, loc};
  auto type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  int64_t n = axes.size();
  auto lengthIs = [&](Value v, int64_t length) {
    RankedTensorType t = NodeContext::typeOf(v);
    return t.getRank() == 1 && t.getDimSize(0) == length;
  };
  SmallVector<Value> inSizes, inSizesF, scales, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    Value size = type.isDynamicDim(d)
                     ? arith::IndexCastOp::create(
                           b, loc, b.getI64Type(),
                           tensor::DimOp::create(b, loc, x, d))
                           .getResult()
                     : m.i(type.getDimSize(d));
    inSizes.push_back(size);
    inSizesF.push_back(m.toF64(size));
    scales.push_back(m.f(1.0));
    sizes.push_back(size);
  }
  // Sizes beyond this are no sizes at all (as toSize says when importing).
  Value limit = m.f(static_cast<double>(int64_t(1) << 40));
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  std::string what;
  if (sizesIn) {
    if (!lengthIs(sizesIn, n))
      return ctx.invalid("sizes needs one value per axis");
    std::string policy = ctx.getString("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
      return ctx.invalid("unknown keep_aspect_ratio_policy '" + policy + "'");
    what = "sizes must be non-negative and at most 2^40";
    SmallVector<Value> given, ratios;
    Value common;
    for (auto [k, a] : llvm::enumerate(axes)) {
      Value g = m.read(sizesIn, k);
      Value gf = m.toF64(g);
      valid = m.all(valid, m.cmpf(arith::CmpFPredicate::OGE, gf, m.f(0)));
      valid = m.all(valid, m.cmpf(arith::CmpFPredicate::OLE, gf, limit));
      Value ratio = arith::DivFOp::create(b, loc, gf, inSizesF[a]);
      given.push_back(g);
      ratios.push_back(ratio);
      if (policy == "not_larger")
        common = common ? arith::MinimumFOp::create(b, loc, common, ratio).getResult()
                        : ratio;
      else if (policy == "not_smaller")
        common = common ? arith::MaximumFOp::create(b, loc, common, ratio).getResult()
                        : ratio;
    }
    for (auto [k, a] : llvm::enumerate(axes)) {
      if (policy == "stretch") {
        scales[a] = ratios[k];
        sizes[a] = given[k];
        continue;
      }
      scales[a] = common;
      Value size = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, common, inSizesF[a]), m.f(0.5));
      valid = m.all(valid, m.cmpf(arith::CmpFPredicate::OLE, size, limit));
      sizes[a] = m.floorToI64(size);
    }
  } else {
    if (!lengthIs(scalesIn, n))
      return ctx.invalid("scales needs one value per axis");
    what = "scales must be positive and give sizes of at most 2^40";
    for (auto [k, a] : llvm::enumerate(axes)) {
      Value s = m.read(scalesIn, k);
      valid = m.all(valid, m.cmpf(arith::CmpFPredicate::OGT, s, m.f(0)));
      Value size = arith::MulFOp::create(b, loc, inSizesF[a], s);
      valid = m.all(valid, m.cmpf(arith::CmpFPredicate::OLE, size, limit));
      scales[a] = s;
      sizes[a] = m.floorToI64(size);
    }
  }
  // Scales that are not positive numbers give sizes of garbage: the run
  // stops with this message.
  assertAtRunTime(ctx, valid,
                  llvm::formatv("the {0} computed at run time: {1}",
                                sizesIn ? "sizes" : "scales", what));
  // Extents may be computed before the check runs (to plan memory): a
  // select keeps garbage out of them.
  for (int64_t a : axes)
    sizes[a] = arith::SelectOp::create(b, loc, valid, sizes[a], m.i(0));

  SmallVector<Value> operands = {
      x, tensor::FromElementsOp::create(b, loc, scales),
      tensor::FromElementsOp::create(b, loc, sizes)};
  if (ctx.getString("coordinate_transformation_mode", "half_pixel") ==
          "tf_crop_and_resize" &&
      ctx.opset >= 11) {
    if (!roiIn)
      return ctx.invalid("tf_crop_and_resize needs a roi");
    if (!lengthIs(roiIn, 2 * n))
      return ctx.invalid("roi needs a start and an end per axis");
    SmallVector<Value> roi;
    for (int64_t d = 0; d < rank; ++d)
      roi.push_back(m.f(0.0));
    for (int64_t d = 0; d < rank; ++d)
      roi.push_back(m.f(1.0));
    for (auto [k, a] : llvm::enumerate(axes)) {
      roi[a] = m.read(roiIn, k);
      roi[rank + a] = m.read(roiIn, n + k);
    }
    operands.push_back(tensor::FromElementsOp::create(b, loc, roi));
  }
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t a : axes)
    shape[a] = ShapedType::kDynamic;
  llvm::erase_if(attrs, [](NamedAttribute a) { return a.getName() == "roi"; });
  results.push_back(ctx.build<DynamicResizeOp>(
      operands, attrs, {RankedTensorType::get(shape, type.getElementType())}));
  return success(results.back() != nullptr);
}

LogicalResult resize(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  // Resize-10: (X, scales). Resize-11+: (X, roi, scales, sizes).
  Value roiIn = ctx.opset >= 11 ? ctx.input(1) : Value();
  Value scalesIn = ctx.opset >= 11 ? ctx.input(2) : ctx.input(1);
  Value sizesIn = ctx.opset >= 11 ? ctx.input(3) : Value();
  // An empty scales tensor means "absent".
  if (scalesIn && NodeContext::typeOf(scalesIn).getNumElements() == 0)
    scalesIn = nullptr;
  if (ctx.getInt("antialias", 0) && ctx.getString("mode", "nearest") == "nearest")
    return ctx.invalid("antialias does not apply to nearest");

  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (auto given = ctx.getInts("axes")) {
    axes.clear();
    for (int64_t a : *given) {
      FailureOr<int64_t> n = ctx.normalizeAxis(a, rank);
      if (failed(n))
        return failure();
      axes.push_back(*n);
    }
  }
  bool legacy = ctx.opset < 11;
  std::string coord = legacy ? "asymmetric"
                             : ctx.getString("coordinate_transformation_mode",
                                             "half_pixel");
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("mode", ctx.builder.getStringAttr(ctx.getString("mode", "nearest"))),
      ctx.namedAttr("coordinate_transformation_mode", ctx.builder.getStringAttr(coord)),
      ctx.namedAttr("nearest_mode",
                    ctx.builder.getStringAttr(legacy ? "floor"
                                                     : ctx.getString("nearest_mode",
                                                                     "round_prefer_floor"))),
      ctx.namedAttr("cubic_coeff_a",
                    ctx.builder.getF32FloatAttr(ctx.getFloat("cubic_coeff_a", -0.75f))),
      ctx.namedAttr("extrapolation_value",
                    ctx.builder.getF32FloatAttr(ctx.getFloat("extrapolation_value", 0.0f)))};
  if (ctx.getInt("exclude_outside", 0))
    attrs.push_back(ctx.namedAttr("exclude_outside", ctx.builder.getUnitAttr()));
  if (ctx.getInt("antialias", 0))
    attrs.push_back(ctx.namedAttr("antialias", ctx.builder.getUnitAttr()));
  // Any of scales, sizes and roi computed at run time makes the whole
  // resize a run-time one.
  bool crop = coord == "tf_crop_and_resize";
  bool runtime = sizesIn ? !ctx.getConstantInts(sizesIn)
                         : scalesIn && !constantFloats(ctx, scalesIn);
  if (crop && roiIn && !constantFloats(ctx, roiIn))
    runtime = true;
  if (runtime)
    return dynamicResize(ctx, *x, axes, sizesIn ? Value() : scalesIn, sizesIn,
                         roiIn, attrs, results);
  SmallVector<double> scales(rank, 1.0);
  SmallVector<int64_t> sizes(type.getShape());
  if (sizesIn) {
    std::optional<SmallVector<int64_t>> given = ctx.getConstantInts(sizesIn);
    if (given->size() != axes.size())
      return ctx.invalid("sizes needs one value per axis");
    std::string policy = ctx.getString("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
      return ctx.invalid("unknown keep_aspect_ratio_policy '" + policy + "'");
    for (int64_t a : axes)
      if (type.isDynamicDim(a))
        return ctx.unsupported("resizing a dynamic dimension to given sizes");
    double common = policy == "not_larger" ? INFINITY : 0.0;
    for (auto [i, a] : llvm::enumerate(axes)) {
      double s = static_cast<double>((*given)[i]) / type.getDimSize(a);
      scales[a] = s;
      common = policy == "not_larger" ? std::min(common, s) : std::max(common, s);
    }
    for (auto [i, a] : llvm::enumerate(axes)) {
      if (policy == "stretch") {
        sizes[a] = (*given)[i] <= (int64_t(1) << 40) ? (*given)[i] : -1;
      } else {
        scales[a] = common;
        sizes[a] = toSize(std::floor(common * type.getDimSize(a) + 0.5));
      }
    }
  } else if (scalesIn) {
    std::optional<SmallVector<double>> given = constantFloats(ctx, scalesIn);
    if (given->size() != axes.size())
      return ctx.invalid("scales needs one value per axis");
    for (auto [i, a] : llvm::enumerate(axes)) {
      if (!((*given)[i] > 0))
        return ctx.invalid("scales must be positive");
      scales[a] = (*given)[i];
      if (!type.isDynamicDim(a))
        sizes[a] = toSize(std::floor(type.getDimSize(a) * scales[a]));
      else if (scales[a] != 1.0)
        sizes[a] = ShapedType::kDynamic;
    }
  } else {
    return ctx.invalid("one of scales and sizes is required");
  }

  if (crop) {
    std::optional<SmallVector<double>> roi =
        roiIn ? constantFloats(ctx, roiIn) : std::nullopt;
    if (!roi)
      return ctx.unsupported("tf_crop_and_resize without a constant roi");
    if (roi->size() != 2 * axes.size())
      return ctx.invalid("roi needs a start and an end per axis");
    SmallVector<float> full(2 * rank, 0.0f);
    for (int64_t d = 0; d < rank; ++d)
      full[rank + d] = 1.0f;
    for (auto [i, a] : llvm::enumerate(axes)) {
      full[a] = (*roi)[i];
      full[rank + a] = (*roi)[axes.size() + i];
    }
    attrs.push_back(ctx.namedAttr("roi", ctx.builder.getDenseF32ArrayAttr(full)));
  }
  return buildResize(ctx, *x, scales, sizes, attrs, results);
}

/// Upsample-7 (scales attribute) and -9 (scales input).
LogicalResult upsample(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  std::optional<SmallVector<double>> scales;
  if (ctx.opset < 9) {
    if (const auto *a = ctx.attr("scales"))
      scales = SmallVector<double>(a->floats().begin(), a->floats().end());
  } else if (ctx.input(1)) {
    scales = constantFloats(ctx, ctx.input(1));
  }
  std::string mode = ctx.getString("mode", "nearest");
  if (mode == "bilinear")
    mode = "linear";
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("mode", ctx.builder.getStringAttr(mode)),
      ctx.namedAttr("coordinate_transformation_mode",
                    ctx.builder.getStringAttr("asymmetric")),
      ctx.namedAttr("nearest_mode", ctx.builder.getStringAttr("floor"))};
  if (!scales && ctx.opset >= 9 && ctx.input(1))
    return dynamicResize(ctx, *x,
                         llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())),
                         ctx.input(1), Value(), Value(), attrs, results);
  if (!scales)
    return ctx.invalid("scales is required");
  if (static_cast<int64_t>(scales->size()) != type.getRank())
    return ctx.invalid("scales needs one value per dimension");
  SmallVector<int64_t> sizes;
  for (auto [d, s] : llvm::enumerate(*scales))
    sizes.push_back(type.isDynamicDim(d)
                        ? ShapedType::kDynamic
                        : toSize(std::floor(type.getDimSize(d) * s)));
  return buildResize(ctx, *x, *scales, sizes, attrs, results);
}
} // namespace

void mlir::tc::onnx::registerResizeHandlers(OpRegistry &r) {
  r.add("Resize", 10, resize);
  r.add("Upsample", 7, upsample);
}
