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
// resized dimension instead.
//
//===----------------------------------------------------------------------===//

#include "FloatMath.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include <algorithm>
#include <cmath>

namespace mlir::tc::to_linalg {
namespace {

struct Tap {
  Value index;  // index type, clamped into the input
  Value weight; // f64
};

/// The float arithmetic (FloatMath) is in f64, like the reference.
struct ResizeLowering : FloatMath {
  ResizeOp op;

  /// Whether input coordinate `xo` falls outside [0, inSize - 1], where
  /// tf_crop_and_resize takes the extrapolation value.
  Value outsideInput(Value xo, int64_t inSize) {
    return arith::OrIOp::create(b, loc, lt(xo, f(0)), gt(xo, f(double(inSize - 1))));
  }

  /// The input coordinate of output coordinate `x` along dim `d`. Like
  /// ONNX's reference, the output length in these formulas is the unrounded
  /// `scale * inSize`; only half_pixel_symmetric also uses the integer one.
  Value transform(Value x, int64_t d, int64_t inSize, int64_t outSizeInt,
                  double scale) {
    StringRef mode = op.getCoordinateTransformationMode();
    double outSize = scale * double(inSize);
    if (mode == "asymmetric")
      return div(x, f(scale));
    if (mode == "align_corners")
      return outSize == 1 ? f(0)
                          : mul(x, f(double(inSize - 1) / (outSize - 1)));
    if (mode == "pytorch_half_pixel")
      return outSize > 1 ? sub(div(add(x, f(0.5)), f(scale)), f(0.5)) : f(0);
    if (mode == "half_pixel_symmetric") {
      double adjustment = double(outSizeInt) / outSize;
      double offset = double(inSize) / 2.0 * (1.0 - adjustment);
      return add(f(offset), sub(div(add(x, f(0.5)), f(scale)), f(0.5)));
    }
    if (mode == "tf_crop_and_resize") {
      ArrayRef<float> roi = *op.getRoi();
      int64_t rank = op.getScales().size();
      double start = roi[d], end = roi[rank + d];
      if (outSize <= 1)
        return f(0.5 * (start + end) * double(inSize - 1));
      return add(f(start * double(inSize - 1)),
                 mul(x, f((end - start) * double(inSize - 1) / (outSize - 1))));
    }
    // half_pixel
    return sub(div(add(x, f(0.5)), f(scale)), f(0.5));
  }

  Value clampIndex(Value i, int64_t size) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value last = arith::ConstantIndexOp::create(b, loc, size - 1);
    i = arith::MaxSIOp::create(b, loc, i, zero);
    return arith::MinSIOp::create(b, loc, i, last);
  }
  Value toIndexFromFloat(Value v) {
    Value asInt = arith::FPToSIOp::create(b, loc, b.getI64Type(), v);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), asInt);
  }
  Value inRange(Value index, int64_t size) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value bound = arith::ConstantIndexOp::create(b, loc, size);
    Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, bound);
    return arith::AndIOp::create(b, loc, low, high);
  }

  SmallVector<Tap> taps(Value xo, int64_t inSize) {
    StringRef mode = op.getMode();
    if (mode == "nearest") {
      StringRef rounding = op.getNearestMode();
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
    SmallVector<Value> weights =
        cubicWeights(ratio, op.getCubicCoeffA().convertToDouble());
    SmallVector<Tap> result;
    SmallVector<Value> raw = {at(-1), at(0), at(1), at(2)};
    if (op.getExcludeOutside()) {
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
    double a = op.getCubicCoeffA().convertToDouble();
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
  SmallVector<Tap> antialiasTaps(Value xo, int64_t inSize, double scale) {
    bool cubic = op.getMode() == "cubic";
    double s = std::min(scale, 1.0);
    int64_t start = static_cast<int64_t>(std::floor(-(cubic ? 2.0 : 1.0) / s)) + 1;
    int64_t count = 2 - 2 * start;
    Value base = math::FloorOp::create(b, loc, xo);
    Value ratio = sub(xo, base);
    Value first = toIndexFromFloat(base);
    SmallVector<Value> raw, weights;
    Value total = f(0);
    for (int64_t j = 0; j < count; ++j) {
      Value t = math::AbsFOp::create(b, loc,
                                     mul(sub(f(double(start + j)), ratio), f(s)));
      Value w = cubic ? keys(t)
                      : arith::MaximumFOp::create(b, loc, sub(f(1), t), f(0));
      Value index = arith::AddIOp::create(
          b, loc, first, arith::ConstantIndexOp::create(b, loc, start + j));
      if (op.getExcludeOutside())
        w = arith::SelectOp::create(b, loc, inRange(index, inSize), w, f(0));
      total = add(total, w);
      raw.push_back(index);
      weights.push_back(w);
    }
    SmallVector<Tap> result;
    for (int64_t j = 0; j < count; ++j)
      result.push_back({clampIndex(raw[j], inSize), div(weights[j], total)});
    return result;
  }
};

/// The antialiasing filter is separable but its footprint grows with the
/// downscale factor, so instead of one generic over every combination of
/// taps this resamples one dimension at a time, innermost first (the order
/// of ONNX's reference, which matters for tf_crop_and_resize's
/// extrapolation). Intermediate results are f32 for float inputs of up to 32
/// bits, f64 otherwise.
Value antialiasedResize(OpBuilder &b, ResizeOp op, Value input,
                        RankedTensorType resultType) {
  Location loc = op.getLoc();
  Type tcType = elementTypeOf(op.getInput());
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  ArrayRef<float> scales = op.getScales();
  bool crop = op.getCoordinateTransformationMode() == "tf_crop_and_resize";
  double extrapolation = op.getExtrapolationValue().convertToDouble();
  Type midType = isa<FloatType>(tcType) && tcType.getIntOrFloatBitWidth() <= 32
                     ? b.getF32Type()
                     : b.getF64Type();
  SmallVector<int64_t> dims;
  for (int64_t d = rank - 1; d >= 0; --d)
    if (crop || scales[d] != 1.0f ||
        inputType.getDimSize(d) != resultType.getDimSize(d))
      dims.push_back(d);
  if (dims.empty())
    return input;

  Value current = input;
  Type currentTc = tcType;
  for (size_t k = 0; k < dims.size(); ++k) {
    int64_t d = dims[k];
    bool last = k + 1 == dims.size();
    auto currentType = cast<RankedTensorType>(current.getType());
    int64_t inSize = currentType.getDimSize(d), outSize = resultType.getDimSize(d);
    SmallVector<int64_t> shape(currentType.getShape());
    shape[d] = outSize;
    auto passType = last ? resultType : RankedTensorType::get(shape, midType);
    Type passTc = last ? tcType : midType;
    Value source = current;
    Type sourceTc = currentTc;
    current = buildParallelGeneric(
        b, loc, passType, {}, {}, {},
        [&](OpBuilder &nb, Location l, ValueRange) -> Value {
          ResizeLowering r{{nb, l, nb.getF64Type()}, op};
          SmallVector<Value> indices;
          for (int64_t e = 0; e < rank; ++e)
            indices.push_back(linalg::IndexOp::create(nb, l, e));
          Value x = arith::SIToFPOp::create(
              nb, l, r.ft,
              arith::IndexCastOp::create(nb, l, nb.getI64Type(), indices[d]));
          Value xo = r.transform(x, d, inSize, outSize, scales[d]);
          Value sum = r.f(0);
          for (const Tap &tap : r.antialiasTaps(xo, inSize, scales[d])) {
            indices[d] = tap.index;
            Value element = tensor::ExtractOp::create(nb, l, source, indices);
            sum = r.add(sum, r.mul(castScalar(nb, l, element, sourceTc, r.ft),
                                   tap.weight));
          }
          if (crop) {
            sum = arith::SelectOp::create(nb, l, r.outsideInput(xo, inSize),
                                          r.f(extrapolation), sum);
          }
          if (last && isa<IntegerType>(passTc))
            sum = math::RoundEvenOp::create(nb, l, sum);
          return castScalar(nb, l, sum, r.ft, passTc);
        });
    currentTc = passTc;
  }
  return current;
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
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic sizes");
    StringRef mode = op.getMode();
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
      return rewriter.notifyMatchFailure(op, "unknown mode");
    if (op.getCoordinateTransformationMode() == "tf_crop_and_resize" &&
        !op.getRoi())
      return rewriter.notifyMatchFailure(op, "tf_crop_and_resize without roi");
    if (op.getAntialias()) {
      if (mode == "nearest")
        return rewriter.notifyMatchFailure(op, "antialiased nearest");
      rewriter.replaceOp(op, antialiasedResize(rewriter, op, input, resultType));
      return success();
    }
    Type tcType = elementTypeOf(op.getInput());
    int64_t rank = inputType.getRank();
    ArrayRef<float> scales = op.getScales();
    bool crop = op.getCoordinateTransformationMode() == "tf_crop_and_resize";
    double extrapolation = op.getExtrapolationValue().convertToDouble();

    Value result = buildParallelGeneric(
        rewriter, loc, resultType, {}, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          ResizeLowering r{{b, l, b.getF64Type()}, op};
          SmallVector<SmallVector<Tap>> perDim;
          Value outside;
          for (int64_t d = 0; d < rank; ++d) {
            Value outIndex = linalg::IndexOp::create(b, l, d);
            int64_t inSize = inputType.getDimSize(d);
            int64_t outSize = resultType.getDimSize(d);
            if (inSize == outSize && scales[d] == 1.0f && !crop) {
              perDim.push_back({{outIndex, Value()}});
              continue;
            }
            Value x = arith::SIToFPOp::create(
                b, l, r.ft,
                arith::IndexCastOp::create(b, l, b.getI64Type(), outIndex));
            Value xo = r.transform(x, d, inSize, outSize, scales[d]);
            if (crop) {
              Value out = r.outsideInput(xo, inSize);
              outside = outside ? arith::OrIOp::create(b, l, outside, out) : out;
            }
            perDim.push_back(r.taps(xo, inSize));
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
            sum = arith::SelectOp::create(b, l, outside, r.f(extrapolation), sum);
          if (isa<IntegerType>(tcType))
            sum = math::RoundEvenOp::create(b, l, sum);
          return castScalar(b, l, sum, r.ft, tcType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateResizePatterns(TcTypeConverter &converter,
                            RewritePatternSet &patterns) {
  patterns.add<ResizePattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
