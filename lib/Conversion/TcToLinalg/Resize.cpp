//===- Resize.cpp - tc.resize to a linalg.generic --------------------------===//
//
// One parallel generic over the output. Per resized dimension the body maps
// the output coordinate back to the input (the coordinate transformation
// modes of ONNX), then takes 1 (nearest), 2 (linear) or 4 (cubic) taps with
// their weights; out-of-range taps read the edge element, as ONNX's
// reference pads with edge values. The taps of all resized dimensions are
// combined (a product of weights) and read with tensor.extract. Coordinates
// and weights are computed in f64, like the reference. Antialiased resizes
// (whose filters widen with the downscale factor) run one generic per
// resized dimension instead, with the taps unrolled or, for a scale read at
// run time or a very wide filter, in a loop. tc.dynamic_resize, whose scales and sizes are
// read at run time, shares the interpolation: each dimension's parameters
// are values, constants where the compile knows them.
//
//===----------------------------------------------------------------------===//

#include "FloatMath.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include <algorithm>
#include <cmath>

namespace mlir::tc::to_linalg {
namespace {

struct Tap {
  Value index;  // index type, clamped into the input
  Value weight; // f64
};

/// One dimension's resampling, as values the generic's body captures:
/// constants when the compile knows them (tc.resize), so that the
/// arithmetic below folds to what a compile-time computation would give,
/// or values read at run time (tc.dynamic_resize).
struct DimParams {
  Value inSize;   // index
  Value outSize;  // index
  Value inSizeF;  // f64
  Value outSizeF; // f64, the integer output size
  Value scale;    // f64
  Value roiStart, roiEnd; // f64, tf_crop_and_resize only

  /// Whether the dimension is copied through: the compile knows that its
  /// scale is 1 and its size unchanged.
  bool isIdentity(bool crop) const {
    std::optional<int64_t> in = getConstantIntValue(inSize),
                           out = getConstantIntValue(outSize);
    auto s = scale.getDefiningOp<arith::ConstantFloatOp>();
    return !crop && in && out && *in == *out && s &&
           s.value().convertToDouble() == 1.0;
  }
};

/// The interpolation attributes of tc.resize and tc.dynamic_resize.
struct ResizeModes {
  StringRef mode, coordinateMode, nearestMode;
  double cubicCoeffA;
  bool excludeOutside;
  double extrapolation;

  template <typename OpTy> static ResizeModes of(OpTy op) {
    return {op.getMode(),
            op.getCoordinateTransformationMode(),
            op.getNearestMode(),
            op.getCubicCoeffA().convertToDouble(),
            op.getExcludeOutside(),
            op.getExtrapolationValue().convertToDouble()};
  }
  bool crop() const { return coordinateMode == "tf_crop_and_resize"; }
};

/// An index as an f64.
Value indexToF64(OpBuilder &b, Location loc, Value index) {
  Value asInt = b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(), index);
  return b.createOrFold<arith::SIToFPOp>(loc, b.getF64Type(), asInt);
}

/// The float arithmetic (FloatMath) is in f64, like the reference.
struct ResizeLowering : FloatMath {
  const ResizeModes &modes;

  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return b.createOrFold<arith::CmpFOp>(loc, p, x, y);
  }
  /// `then()` or `otherwise()` by `cond`, building only one when the
  /// condition is known.
  Value pick(Value cond, function_ref<Value()> then,
             function_ref<Value()> otherwise) {
    if (std::optional<int64_t> c = getConstantIntValue(cond))
      return *c ? then() : otherwise();
    return select(cond, then(), otherwise());
  }

  /// Whether input coordinate `xo` falls outside [0, inSize - 1], where
  /// tf_crop_and_resize takes the extrapolation value.
  Value outsideInput(Value xo, const DimParams &p) {
    return arith::OrIOp::create(
        b, loc, lt(xo, f(0)), gt(xo, sub(p.inSizeF, f(1))));
  }

  /// The input coordinate of output coordinate `x`. Like ONNX's reference,
  /// the output length in these formulas is the unrounded `scale * inSize`;
  /// only half_pixel_symmetric also uses the integer one.
  Value transform(Value x, const DimParams &p) {
    StringRef mode = modes.coordinateMode;
    Value outSize = mul(p.scale, p.inSizeF);
    auto halfPixel = [&] {
      return sub(div(add(x, f(0.5)), p.scale), f(0.5));
    };
    if (mode == "asymmetric")
      return div(x, p.scale);
    if (mode == "align_corners")
      return pick(
          cmp(arith::CmpFPredicate::OEQ, outSize, f(1)), [&] { return f(0); },
          [&] {
            return mul(x, div(sub(p.inSizeF, f(1)), sub(outSize, f(1))));
          });
    if (mode == "pytorch_half_pixel")
      return pick(cmp(arith::CmpFPredicate::OGT, outSize, f(1)), halfPixel,
                  [&] { return f(0); });
    if (mode == "half_pixel_symmetric") {
      Value adjustment = div(p.outSizeF, outSize);
      Value offset = mul(div(p.inSizeF, f(2)), sub(f(1), adjustment));
      return add(offset, halfPixel());
    }
    if (mode == "tf_crop_and_resize") {
      Value last = sub(p.inSizeF, f(1));
      return pick(
          cmp(arith::CmpFPredicate::OLE, outSize, f(1)),
          [&] { return mul(mul(f(0.5), add(p.roiStart, p.roiEnd)), last); },
          [&] {
            Value step = div(mul(sub(p.roiEnd, p.roiStart), last),
                             sub(outSize, f(1)));
            return add(mul(p.roiStart, last), mul(x, step));
          });
    }
    return halfPixel();
  }

  Value clampIndex(Value i, Value size) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value last = b.createOrFold<arith::SubIOp>(
        loc, size, arith::ConstantIndexOp::create(b, loc, 1));
    i = arith::MaxSIOp::create(b, loc, i, zero);
    return arith::MinSIOp::create(b, loc, i, last);
  }
  Value toIndexFromFloat(Value v) {
    Value asInt = arith::FPToSIOp::create(b, loc, b.getI64Type(), v);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), asInt);
  }
  Value inRange(Value index, Value size) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, size);
    return arith::AndIOp::create(b, loc, low, high);
  }

  SmallVector<Tap> taps(Value xo, Value inSize) {
    StringRef mode = modes.mode;
    if (mode == "nearest") {
      StringRef rounding = modes.nearestMode;
      Value rounded;
      if (rounding == "floor")
        rounded = math::FloorOp::create(b, loc, xo);
      else if (rounding == "ceil")
        rounded = math::CeilOp::create(b, loc, xo);
      else if (rounding == "round_prefer_ceil")
        rounded = math::FloorOp::create(b, loc, add(xo, f(0.5)));
      else // round_prefer_floor
        rounded = math::CeilOp::create(b, loc, sub(xo, f(0.5)));
      return {{clampIndex(toIndexFromFloat(rounded), inSize), f(1)}};
    }
    Value base = math::FloorOp::create(b, loc, xo);
    Value ratio = sub(xo, base);
    Value start = toIndexFromFloat(base);
    auto at = [&](int64_t offset) {
      return arith::AddIOp::create(
          b, loc, start, arith::ConstantIndexOp::create(b, loc, offset));
    };
    if (mode == "linear") {
      return {{clampIndex(at(0), inSize), sub(f(1), ratio)},
              {clampIndex(at(1), inSize), ratio}};
    }
    // cubic: taps at base-1 .. base+2 with Keys' coefficients.
    SmallVector<Value> weights = cubicWeights(ratio, modes.cubicCoeffA);
    SmallVector<Tap> result;
    SmallVector<Value> raw = {at(-1), at(0), at(1), at(2)};
    if (modes.excludeOutside) {
      Value total = f(0);
      for (int i = 0; i < 4; ++i) {
        weights[i] = arith::SelectOp::create(b, loc, inRange(raw[i], inSize),
                                             weights[i], f(0));
        total = add(total, weights[i]);
      }
      for (Value &w : weights)
        w = div(w, total);
    }
    for (int i = 0; i < 4; ++i)
      result.push_back({clampIndex(raw[i], inSize), weights[i]});
    return result;
  }

  /// Keys' cubic kernel at distance `t` >= 0 (zero from 2 on).
  Value keys(Value t) {
    double a = modes.cubicCoeffA;
    Value t2 = mul(t, t), t3 = mul(t2, t);
    Value near = add(sub(mul(f(a + 2), t3), mul(f(a + 3), t2)), f(1));
    Value far = sub(add(sub(mul(f(a), t3), mul(f(5 * a), t2)), mul(f(8 * a), t)),
                    f(4 * a));
    Value isNear = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, t, f(1));
    Value isFar = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, t, f(2));
    return arith::SelectOp::create(
        b, loc, isNear, near, arith::SelectOp::create(b, loc, isFar, far, f(0)));
  }

  /// The taps of antialiased linear or cubic interpolation at input
  /// coordinate `xo`. Downsampling by `scale` < 1 stretches the filter (the
  /// triangle of support 1 or Keys' kernel of support 2) by 1 / scale, so
  /// it covers 2 * ceil(support / scale) elements; the weights are divided
  /// by their sum. The window is floor(xo) - ceil(support / scale) + 1 ..
  /// floor(xo) + ceil(support / scale); when xo is an integer ONNX's
  /// reference shifts it one to the left, which only trades two taps of
  /// weight zero. Out-of-range taps read the edge element, or drop out with
  /// exclude_outside.
  /// The weight of the antialiasing tap `offset` (f64) taps from
  /// floor(xo), which reads input `index`, for a filter stretched by
  /// 1 / `s` (s = min(scale, 1)); `ratio` is xo - floor(xo). Zero outside
  /// the input with exclude_outside; not yet divided by the taps' total.
  Value antialiasWeight(Value offset, Value ratio, Value s, Value index,
                        Value inSize) {
    Value t = math::AbsFOp::create(b, loc, mul(sub(offset, ratio), s));
    Value w = modes.mode == "cubic"
                  ? keys(t)
                  : arith::MaximumFOp::create(b, loc, sub(f(1), t), f(0)).getResult();
    if (modes.excludeOutside)
      w = select(inRange(index, inSize), w, f(0));
    return w;
  }

  SmallVector<Tap> antialiasTaps(Value xo, Value inSize, double scale) {
    bool cubic = modes.mode == "cubic";
    double s = std::min(scale, 1.0);
    int64_t start = static_cast<int64_t>(std::floor(-(cubic ? 2.0 : 1.0) / s)) + 1;
    int64_t count = 2 - 2 * start;
    Value base = math::FloorOp::create(b, loc, xo);
    Value ratio = sub(xo, base);
    Value first = toIndexFromFloat(base);
    SmallVector<Value> raw, weights;
    Value total = f(0);
    for (int64_t j = 0; j < count; ++j) {
      Value index = arith::AddIOp::create(
          b, loc, first, arith::ConstantIndexOp::create(b, loc, start + j));
      Value w = antialiasWeight(f(double(start + j)), ratio, f(s), index, inSize);
      total = add(total, w);
      raw.push_back(index);
      weights.push_back(w);
    }
    SmallVector<Tap> result;
    for (int64_t j = 0; j < count; ++j)
      result.push_back({clampIndex(raw[j], inSize), div(weights[j], total)});
    return result;
  }

  /// Antialiased interpolation at `xo` with the taps of antialiasTaps in an
  /// scf.for, for a scale read at run time (the number of taps is then a
  /// run-time value) or a filter too wide to unroll: the weighted sum and
  /// the weights' total accumulate together and are divided at the end.
  /// `element(builder, loc, index)` reads the input at a clamped index as a
  /// float of this lowering's type.
  Value antialiasLoop(Value xo, Value inSize, Value scale,
                      function_ref<Value(OpBuilder &, Location, Value)> element) {
    bool cubic = modes.mode == "cubic";
    Value s = arith::MinimumFOp::create(b, loc, scale, f(1));
    Value start = add(floor(div(f(cubic ? -2.0 : -1.0), s)), f(1));
    // 2 - 2 * start taps; bounded so that the conversion is defined even
    // for a scale the run-time check is about to reject.
    Value count = arith::MinNumFOp::create(b, loc, sub(f(2), mul(f(2), start)),
                                           f(double(int64_t(1) << 40)));
    Value base = floor(xo);
    Value ratio = sub(xo, base);
    Value first = toIndexFromFloat(add(base, start));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(
        b, loc, zero, toIndexFromFloat(count), one, ValueRange{f(0), f(0)},
        [&](OpBuilder &nb, Location nl, Value j, ValueRange acc) {
          ResizeLowering r{{nb, nl, ft}, modes};
          Value index = arith::AddIOp::create(nb, nl, first, j);
          Value w = r.antialiasWeight(r.add(start, indexToF64(nb, nl, j)), ratio, s,
                                      index, inSize);
          Value v = element(nb, nl, r.clampIndex(index, inSize));
          scf::YieldOp::create(nb, nl,
                               ValueRange{r.add(acc[0], r.mul(v, w)), r.add(acc[1], w)});
        });
    return div(loop.getResult(0), loop.getResult(1));
  }

};


/// One parallel generic over the output of `resultType`: every combination
/// of the per-dimension taps, weighted and summed.
Value interpolate(OpBuilder &builder, Location loc, const ResizeModes &modes,
                  Value input, Type tcType, RankedTensorType resultType,
                  ArrayRef<DimParams> params) {
  int64_t rank = resultType.getRank();
  bool crop = modes.crop();
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (resultType.isDynamicDim(d))
      dynamicSizes.push_back(params[d].outSize);
  return buildParallelGeneric(
      builder, loc, resultType, dynamicSizes, {}, {},
      [&](OpBuilder &b, Location l, ValueRange) -> Value {
        ResizeLowering r{{b, l, b.getF64Type()}, modes};
        SmallVector<SmallVector<Tap>> perDim;
        Value outside;
        for (int64_t d = 0; d < rank; ++d) {
          Value outIndex = linalg::IndexOp::create(b, l, d);
          if (params[d].isIdentity(crop)) {
            perDim.push_back({{outIndex, Value()}});
            continue;
          }
          Value x = indexToF64(b, l, outIndex);
          Value xo = r.transform(x, params[d]);
          if (crop) {
            Value out = r.outsideInput(xo, params[d]);
            outside = outside ? arith::OrIOp::create(b, l, outside, out) : out;
          }
          perDim.push_back(r.taps(xo, params[d].inSize));
        }
        // Sum over every combination of taps.
        Value sum = r.f(0);
        SmallVector<size_t> choice(rank, 0);
        while (true) {
          SmallVector<Value> indices;
          Value weight;
          for (int64_t d = 0; d < rank; ++d) {
            const Tap &tap = perDim[d][choice[d]];
            indices.push_back(tap.index);
            if (tap.weight)
              weight = weight ? r.mul(weight, tap.weight) : tap.weight;
          }
          Value element = tensor::ExtractOp::create(b, l, input, indices);
          Value value = castScalar(b, l, element, tcType, r.ft);
          sum = r.add(sum, weight ? r.mul(value, weight) : value);
          int64_t d = rank - 1;
          while (d >= 0 && ++choice[d] == perDim[d].size())
            choice[d--] = 0;
          if (d < 0)
            break;
        }
        if (outside)
          sum = arith::SelectOp::create(b, l, outside, r.f(modes.extrapolation), sum);
        if (isa<IntegerType>(tcType))
          sum = math::RoundEvenOp::create(b, l, sum);
        return castScalar(b, l, sum, r.ft, tcType);
      });
}

/// tc.resize's parameters for dimension `d` of `input`: its scale and
/// region of interest from the attributes, its output size from the result
/// type or, for a dynamic one, floor(inSize * scale) as ONNX computes it.
DimParams staticParams(OpBuilder &b, Location loc, ResizeOp op, Value input,
                       RankedTensorType resultType, int64_t d) {
  FloatMath m{b, loc, b.getF64Type()};
  DimParams p;
  p.inSize = dimValue(b, loc, input, d);
  p.inSizeF = indexToF64(b, loc, p.inSize);
  p.scale = m.f(op.getScales()[d]);
  if (resultType.isDynamicDim(d)) {
    Value size = math::FloorOp::create(b, loc, m.mul(p.inSizeF, p.scale));
    p.outSize = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        arith::FPToSIOp::create(b, loc, b.getI64Type(), size));
    p.outSizeF = size;
  } else {
    p.outSize = arith::ConstantIndexOp::create(b, loc, resultType.getDimSize(d));
    p.outSizeF = m.f(double(resultType.getDimSize(d)));
  }
  if (std::optional<ArrayRef<float>> roi = op.getRoi()) {
    int64_t rank = resultType.getRank();
    p.roiStart = m.f((*roi)[d]);
    p.roiEnd = m.f((*roi)[rank + d]);
  }
  return p;
}

/// The widest antialiasing filter (taps per resized dimension) whose taps
/// are unrolled; wider ones, and those whose scale is read at run time,
/// loop over their taps.
constexpr int64_t kMaxUnrolledTaps = 64;

/// The antialiasing filter is separable but its footprint grows with the
/// downscale factor, so instead of one generic over every combination of
/// taps this resamples one dimension at a time, innermost first (the order
/// of ONNX's reference, which matters for tf_crop_and_resize's
/// extrapolation). Intermediate results are f32 for float inputs of up to 32
/// bits, f64 otherwise. A dimension the compile knows to be copied through
/// is skipped.
Value antialiasedResize(OpBuilder &b, Location loc, const ResizeModes &modes,
                        Value input, Type tcType, RankedTensorType resultType,
                        ArrayRef<DimParams> params) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  bool crop = modes.crop();
  Type midType = isa<FloatType>(tcType) && tcType.getIntOrFloatBitWidth() <= 32
                     ? b.getF32Type()
                     : b.getF64Type();
  SmallVector<int64_t> dims;
  for (int64_t d = rank - 1; d >= 0; --d)
    if (!params[d].isIdentity(crop))
      dims.push_back(d);
  if (dims.empty())
    return input;

  Value current = input;
  Type currentTc = tcType;
  SmallVector<bool> resized(rank, false);
  for (size_t k = 0; k < dims.size(); ++k) {
    int64_t d = dims[k];
    resized[d] = true;
    bool last = k + 1 == dims.size();
    auto currentType = cast<RankedTensorType>(current.getType());
    SmallVector<int64_t> shape(currentType.getShape());
    shape[d] = resultType.getDimSize(d);
    auto passType = last ? resultType : RankedTensorType::get(shape, midType);
    Type passTc = last ? tcType : midType;
    SmallVector<Value> dynamicSizes;
    for (int64_t e = 0; e < rank; ++e)
      if (passType.isDynamicDim(e))
        dynamicSizes.push_back(resized[e] ? params[e].outSize : params[e].inSize);
    const DimParams &p = params[d];
    // The taps are unrolled when the compile knows the scale and the filter
    // is narrow enough.
    std::optional<double> scale;
    if (auto c = p.scale.getDefiningOp<arith::ConstantFloatOp>())
      scale = c.value().convertToDouble();
    double support = modes.mode == "cubic" ? 2.0 : 1.0;
    bool unroll =
        scale && 2.0 * std::ceil(support / std::min(*scale, 1.0)) <= kMaxUnrolledTaps;
    Value source = current;
    Type sourceTc = currentTc;
    current = buildParallelGeneric(
        b, loc, passType, dynamicSizes, {}, {},
        [&](OpBuilder &nb, Location l, ValueRange) -> Value {
          ResizeLowering r{{nb, l, nb.getF64Type()}, modes};
          SmallVector<Value> indices;
          for (int64_t e = 0; e < rank; ++e)
            indices.push_back(linalg::IndexOp::create(nb, l, e));
          Value xo = r.transform(indexToF64(nb, l, indices[d]), p);
          Value sum;
          if (unroll) {
            sum = r.f(0);
            for (const Tap &tap : r.antialiasTaps(xo, p.inSize, *scale)) {
              indices[d] = tap.index;
              Value element = tensor::ExtractOp::create(nb, l, source, indices);
              sum = r.add(sum, r.mul(castScalar(nb, l, element, sourceTc, r.ft),
                                     tap.weight));
            }
          } else {
            sum = r.antialiasLoop(
                xo, p.inSize, p.scale, [&](OpBuilder &ib, Location il, Value index) {
                  SmallVector<Value> at(indices);
                  at[d] = index;
                  Value element = tensor::ExtractOp::create(ib, il, source, at);
                  return castScalar(ib, il, element, sourceTc, r.ft);
                });
          }
          if (crop) {
            sum = arith::SelectOp::create(nb, l, r.outsideInput(xo, p),
                                          r.f(modes.extrapolation), sum);
          }
          if (last && isa<IntegerType>(passTc))
            sum = math::RoundEvenOp::create(nb, l, sum);
          return castScalar(nb, l, sum, r.ft, passTc);
        });
    currentTc = passTc;
  }
  return current;
}

/// Either lowering of a resize, by its parameters.
Value resample(OpBuilder &b, Location loc, const ResizeModes &modes,
               bool antialias, Value input, Type tcType,
               RankedTensorType resultType, ArrayRef<DimParams> params) {
  if (antialias)
    return antialiasedResize(b, loc, modes, input, tcType, resultType, params);
  return interpolate(b, loc, modes, input, tcType, resultType, params);
}

struct ResizePattern : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    if (op.getCoordinateTransformationMode() == "tf_crop_and_resize" &&
        !op.getRoi())
      return rewriter.notifyMatchFailure(op, "tf_crop_and_resize without roi");
    SmallVector<DimParams> params;
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      params.push_back(staticParams(rewriter, loc, op, input, resultType, d));
    rewriter.replaceOp(op, resample(rewriter, loc, ResizeModes::of(op),
                                    op.getAntialias(), input,
                                    elementTypeOf(op.getInput()), resultType,
                                    params));
    return success();
  }
};

/// Scales, sizes and the region of interest read from their tensors (the
/// importer builds them with tensor.from_elements, so the reads of what
/// the compile knows fold to constants).
struct DynamicResizePattern : OpConversionPattern<DynamicResizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    int64_t rank = resultType.getRank();
    auto read = [&](Value tensor, int64_t i) -> Value {
      Value index = arith::ConstantIndexOp::create(rewriter, loc, i);
      return rewriter.createOrFold<tensor::ExtractOp>(loc, tensor,
                                                      ValueRange{index});
    };
    SmallVector<DimParams> params;
    for (int64_t d = 0; d < rank; ++d) {
      DimParams p;
      p.inSize = dimValue(rewriter, loc, input, d);
      p.inSizeF = indexToF64(rewriter, loc, p.inSize);
      p.scale = read(adaptor.getScales(), d);
      p.outSize = resultType.isDynamicDim(d)
                      ? rewriter.createOrFold<arith::IndexCastOp>(
                            loc, rewriter.getIndexType(),
                            read(adaptor.getSizes(), d))
                      : arith::ConstantIndexOp::create(rewriter, loc,
                                                       resultType.getDimSize(d));
      p.outSizeF = indexToF64(rewriter, loc, p.outSize);
      if (Value roi = adaptor.getRoi()) {
        p.roiStart = read(roi, d);
        p.roiEnd = read(roi, rank + d);
      }
      params.push_back(p);
    }
    rewriter.replaceOp(op, resample(rewriter, loc, ResizeModes::of(op),
                                    op.getAntialias(), input,
                                    elementTypeOf(op.getInput()), resultType,
                                    params));
    return success();
  }
};

} // namespace

void populateResizePatterns(TcTypeConverter &converter,
                            RewritePatternSet &patterns) {
  patterns.add<ResizePattern, DynamicResizePattern>(converter,
                                                    patterns.getContext());
}

} // namespace mlir::tc::to_linalg
