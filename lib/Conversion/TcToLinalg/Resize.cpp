//===- Resize.cpp - tc.resize to a linalg.generic --------------------------===//
//
// One parallel generic over the output. Per resized dimension the body maps
// the output coordinate back to the input (the coordinate transformation
// modes of ONNX), then takes 1 (nearest), 2 (linear) or 4 (cubic) taps with
// their weights; out-of-range taps read the edge element, as ONNX's
// reference pads with edge values. The taps of all resized dimensions are
// combined (a product of weights) and read with tensor.extract. Coordinates
// and weights are computed in f64, like the reference.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

struct Tap {
  Value index;  // index type, clamped into the input
  Value weight; // f64
};

struct ResizeLowering {
  ResizeOp op;
  OpBuilder &b;
  Location loc;
  Type f64;

  Value f(double v) { return scalarConstant(b, loc, f64, v); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }

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
    double a = op.getCubicCoeffA().convertToDouble();
    Value r = ratio, s = sub(f(1), ratio);
    Value r1 = add(r, f(1)), s1 = add(s, f(1));
    auto far = [&](Value t) { // a t^3 - 5a t^2 + 8a t - 4a, t in [1, 2]
      return sub(mul(add(mul(sub(mul(f(a), t), f(5 * a)), t), f(8 * a)), t),
                 f(4 * a));
    };
    auto near = [&](Value t) { // (a+2) t^3 - (a+3) t^2 + 1, t in [0, 1]
      return add(mul(mul(sub(mul(f(a + 2), t), f(a + 3)), t), t), f(1));
    };
    SmallVector<Value> weights = {far(r1), near(r), near(s), far(s1)};
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
};

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
    if (op.getAntialias())
      return rewriter.notifyMatchFailure(op, "antialiasing");
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic sizes");
    StringRef mode = op.getMode();
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
      return rewriter.notifyMatchFailure(op, "unknown mode");
    if (op.getCoordinateTransformationMode() == "tf_crop_and_resize" &&
        !op.getRoi())
      return rewriter.notifyMatchFailure(op, "tf_crop_and_resize without roi");
    Type tcType = elementTypeOf(op.getInput());
    int64_t rank = inputType.getRank();
    ArrayRef<float> scales = op.getScales();
    bool crop = op.getCoordinateTransformationMode() == "tf_crop_and_resize";
    double extrapolation = op.getExtrapolationValue().convertToDouble();

    Value result = buildParallelGeneric(
        rewriter, loc, resultType, {}, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          ResizeLowering r{op, b, l, b.getF64Type()};
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
                b, l, r.f64,
                arith::IndexCastOp::create(b, l, b.getI64Type(), outIndex));
            Value xo = r.transform(x, d, inSize, outSize, scales[d]);
            if (crop) {
              Value low = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT,
                                                xo, r.f(0));
              Value high = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                                 xo, r.f(double(inSize - 1)));
              Value out = arith::OrIOp::create(b, l, low, high);
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
            Value value = castScalar(b, l, element, tcType, r.f64);
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
          return castScalar(b, l, sum, r.f64, tcType);
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
