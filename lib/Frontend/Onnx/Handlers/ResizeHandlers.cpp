//===- ResizeHandlers.cpp - ONNX Resize and Upsample to tc.resize ---------===//
//
// Output sizes must be known when importing: scales and sizes come from
// constants. Resize-10 and Upsample predate coordinate_transformation_mode
// and map coordinates asymmetrically with floor rounding for nearest.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// The widest antialiasing filter (taps per resized dimension) imported.
constexpr int64_t kMaxAntialiasTaps = 256;

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
  SmallVector<double> scales(rank, 1.0);
  SmallVector<int64_t> sizes(type.getShape());
  if (sizesIn) {
    std::optional<SmallVector<int64_t>> given = ctx.getConstantInts(sizesIn);
    if (!given)
      return ctx.unsupported("sizes computed at run time");
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
    if (!given)
      return ctx.unsupported("scales computed at run time");
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
  if (coord == "tf_crop_and_resize") {
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
  if (ctx.getInt("antialias", 0)) {
    // The lowering unrolls the filter taps; a filter that a huge downscale
    // widens to thousands of taps is reported instead.
    double support = ctx.getString("mode", "nearest") == "cubic" ? 2.0 : 1.0;
    for (double s : scales) {
      double taps = 2.0 * std::ceil(support / s);
      if (s < 1.0 && taps > kMaxAntialiasTaps)
        return ctx.unsupported(llvm::formatv(
            "an antialiasing filter of {0} taps (more than {1})",
            static_cast<int64_t>(std::min(taps, 1e18)), kMaxAntialiasTaps));
    }
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
  if (!scales)
    return ctx.unsupported("scales computed at run time");
  if (static_cast<int64_t>(scales->size()) != type.getRank())
    return ctx.invalid("scales needs one value per dimension");
  SmallVector<int64_t> sizes;
  for (auto [d, s] : llvm::enumerate(*scales))
    sizes.push_back(type.isDynamicDim(d)
                        ? ShapedType::kDynamic
                        : toSize(std::floor(type.getDimSize(d) * s)));
  std::string mode = ctx.getString("mode", "nearest");
  if (mode == "bilinear")
    mode = "linear";
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("mode", ctx.builder.getStringAttr(mode)),
      ctx.namedAttr("coordinate_transformation_mode",
                    ctx.builder.getStringAttr("asymmetric")),
      ctx.namedAttr("nearest_mode", ctx.builder.getStringAttr("floor"))};
  return buildResize(ctx, *x, *scales, sizes, attrs, results);
}
} // namespace

void mlir::tc::onnx::registerResizeHandlers(OpRegistry &r) {
  r.add("Resize", 10, resize);
  r.add("Upsample", 7, upsample);
}
