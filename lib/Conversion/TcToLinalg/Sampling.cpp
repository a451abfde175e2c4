//===- Sampling.cpp - tc.grid_sample and tc.roi_align to linalg ------------===//
//
// Both are one parallel linalg.generic over the output whose body computes
// the sampling positions from data (the grid, the region boxes), takes the
// interpolation taps around them and reads the input with tensor.extract.
// Every index is clamped into the input before it is read, so out-of-range
// or NaN coordinates read a wrong element instead of wild memory; taps that
// ONNX defines as zero are masked after the read.
//
// Coordinates are computed in f32 (f64 for f64 tensors), in the order of
// operations of ONNX's reference implementation, so that rounding (nearest
// mode rounds half to even) lands on the same elements.
//
//===----------------------------------------------------------------------===//

#include "FloatMath.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include <cmath>

namespace mlir::tc::to_linalg {
namespace {

/// One interpolation tap along one dimension.
struct Tap {
  Value index;  // index type, inside the input
  Value weight; // null for weight 1
  Value valid;  // i1; null when the tap always reads the input
};

/// Sums weight * input[indices] over every combination of one tap per
/// dimension (taps[d] for dimension d; `fixed` gives the leading indices),
/// masking invalid taps to zero. Accumulates in `math.ft`.
Value sumOverTaps(FloatMath &math, Value input, Type tcType,
                  ArrayRef<Value> fixed, ArrayRef<SmallVector<Tap>> taps) {
  Value sum;
  SmallVector<size_t> choice(taps.size(), 0);
  while (true) {
    SmallVector<Value> indices(fixed);
    Value weight, valid;
    for (auto [d, options] : llvm::enumerate(taps)) {
      const Tap &tap = options[choice[d]];
      indices.push_back(tap.index);
      if (tap.weight)
        weight = weight ? math.mul(weight, tap.weight) : tap.weight;
      if (tap.valid)
        valid = math.and_(valid, tap.valid);
    }
    Value element = tensor::ExtractOp::create(math.b, math.loc, input, indices);
    Value value = castScalar(math.b, math.loc, element, tcType, math.ft);
    if (valid)
      value = math.select(valid, value, math.f(0));
    if (weight)
      value = math.mul(value, weight);
    sum = sum ? math.add(sum, value) : value;
    int64_t d = static_cast<int64_t>(taps.size()) - 1;
    while (d >= 0 && ++choice[d] == taps[d].size())
      choice[d--] = 0;
    if (d < 0)
      return sum;
  }
}

/// The float type sampling positions and sums are computed in.
Type computeTypeFor(Type a, Type b) {
  auto wide = [](Type t) { return t.isF64() || (isa<IntegerType>(t)); };
  if (wide(a) || wide(b))
    return Float64Type::get(a.getContext());
  return Float32Type::get(a.getContext());
}

//===----------------------------------------------------------------------===//
// grid_sample
//===----------------------------------------------------------------------===//

struct GridSampler {
  GridSampleOp op;
  FloatMath &m;
  int64_t size;      // of the spatial dimension being sampled
  double low, high;  // the borders: where -1 and 1 map to

  /// Mirrors `x` at the borders until it lies between them (ONNX's
  /// reflection padding; identity inside).
  Value reflect(Value x) {
    if (high == low)
      return m.f(low);
    double range = high - low;
    Value below = m.lt(x, m.f(low)), above = m.gt(x, m.f(high));
    Value distance = m.select(below, m.sub(m.f(low), x), m.sub(x, m.f(high)));
    Value folds = math::TruncOp::create(m.b, m.loc, m.div(distance, m.f(range)));
    Value rest = m.sub(distance, m.mul(folds, m.f(range)));
    Value half = m.mul(folds, m.f(0.5));
    Value even = arith::CmpFOp::create(m.b, m.loc, arith::CmpFPredicate::OEQ,
                                       m.floor(half), half);
    // Below and an even number of folds, or above and an odd one, ends up
    // measured from the low border.
    Value fromHigh = arith::XOrIOp::create(m.b, m.loc, below, even);
    Value reflected = m.select(fromHigh, m.sub(m.f(high), rest),
                               m.add(m.f(low), rest));
    Value outside = arith::OrIOp::create(m.b, m.loc, below, above);
    return m.select(outside, reflected, x);
  }

  /// The input position of normalized coordinate `g`, moved inside by the
  /// padding mode when it lies beyond the borders.
  Value position(Value g) {
    Value x;
    if (op.getUnnormalized())
      x = g;
    else if (op.getAlignCorners()) // (g + 1) / 2 * (size - 1)
      x = m.mul(m.div(m.add(g, m.f(1)), m.f(2)), m.f(double(size - 1)));
    else // ((g + 1) * size - 1) / 2
      x = m.div(m.sub(m.mul(m.add(g, m.f(1)), m.f(double(size))), m.f(1)),
                m.f(2));
    if (op.getMode() == "nearest")
      x = math::RoundEvenOp::create(m.b, m.loc, x);
    StringRef padding = op.getPaddingMode();
    if (padding == "border") {
      Value outside = arith::OrIOp::create(m.b, m.loc, m.lt(x, m.f(low)),
                                           m.gt(x, m.f(high)));
      x = m.select(outside, m.clamp(x, 0, double(size - 1)), x);
    } else if (padding == "reflection") {
      x = reflect(x);
    }
    return x;
  }

  /// The tap reading integer-valued position `x` (any float) under the
  /// padding mode, with `weight`. `inside`: x is known to lie between the
  /// borders (a nearest position after border or reflection padding).
  Tap tap(Value x, Value weight, bool inside = false) {
    StringRef padding = op.getPaddingMode();
    if (padding == "zeros") {
      Value valid = arith::AndIOp::create(
          m.b, m.loc,
          arith::CmpFOp::create(m.b, m.loc, arith::CmpFPredicate::OGE, x, m.f(0)),
          arith::CmpFOp::create(m.b, m.loc, arith::CmpFPredicate::OLE, x,
                                m.f(double(size - 1))));
      return {m.toIndex(x, size), weight, valid};
    }
    if (padding == "reflection" && !inside)
      x = math::TruncOp::create(m.b, m.loc, reflect(x));
    return {m.toIndex(x, size), weight, Value()};
  }

  SmallVector<Tap> taps(Value g) {
    Value x = position(g);
    StringRef mode = op.getMode();
    if (mode == "nearest")
      return {tap(math::TruncOp::create(m.b, m.loc, x), Value(),
                  /*inside=*/true)};
    Value base = m.floor(x);
    Value ratio = m.sub(x, base);
    if (mode == "linear")
      return {tap(base, m.sub(m.f(1), ratio)),
              tap(m.add(base, m.f(1)), ratio)};
    SmallVector<Value> weights = m.cubicWeights(ratio, -0.75);
    SmallVector<Tap> result;
    for (int64_t i = 0; i < 4; ++i)
      result.push_back(tap(m.add(base, m.f(double(i - 1))), weights[i]));
    return result;
  }
};

struct GridSamplePattern : OpConversionPattern<GridSampleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput(), grid = adaptor.getGrid();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto gridType = cast<RankedTensorType>(grid.getType());
    int64_t rank = inputType.getRank(), spatial = rank - 2;
    ArrayRef<int64_t> inputSizes = inputType.getShape().drop_front(2);
    if (ShapedType::isDynamicShape(inputSizes))
      return rewriter.notifyMatchFailure(op, "dynamic input spatial sizes");
    if (llvm::is_contained(inputSizes, 0))
      return rewriter.notifyMatchFailure(op, "an empty input spatial size");
    Type tcType = elementTypeOf(op.getInput());
    Type gridElement = gridType.getElementType();
    Type ft = computeTypeFor(tcType, gridElement);

    // Result sizes: N from the input (or the grid), C from the input, the
    // rest from the grid.
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!resultType.isDynamicDim(d))
        continue;
      if (d == 0)
        dynamicSizes.push_back(dimValue(
            rewriter, loc, inputType.isDynamicDim(0) ? grid : input, 0));
      else if (d == 1)
        dynamicSizes.push_back(dimValue(rewriter, loc, input, 1));
      else
        dynamicSizes.push_back(dimValue(rewriter, loc, grid, d - 1));
    }
    // The grid is read once per coordinate: output (n, c, o...) reads
    // grid[n, o..., j].
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> gridExprs = {getAffineDimExpr(0, ctx)};
    for (int64_t d = 2; d < rank; ++d)
      gridExprs.push_back(getAffineDimExpr(d, ctx));
    SmallVector<Value> gridInputs;
    SmallVector<AffineMap> gridMaps;
    for (int64_t j = 0; j < spatial; ++j) {
      SmallVector<AffineExpr> exprs(gridExprs);
      exprs.push_back(getAffineConstantExpr(j, ctx));
      gridInputs.push_back(grid);
      gridMaps.push_back(AffineMap::get(rank, 0, exprs, ctx));
    }

    Value result = buildParallelGeneric(
        rewriter, loc, resultType, dynamicSizes, gridInputs, gridMaps,
        [&](OpBuilder &b, Location l, ValueRange coords) -> Value {
          FloatMath m{b, l, ft};
          SmallVector<SmallVector<Tap>> taps;
          for (int64_t i = 0; i < spatial; ++i) {
            int64_t size = inputSizes[i];
            bool corners = op.getAlignCorners();
            GridSampler s{op, m, size, corners ? 0.0 : -0.5,
                          corners ? double(size - 1) : double(size) - 0.5};
            // The grid lists the innermost dimension first.
            Value g = castScalar(b, l, coords[spatial - 1 - i], gridElement, ft);
            taps.push_back(s.taps(g));
          }
          Value fixed[] = {linalg::IndexOp::create(b, l, 0),
                           linalg::IndexOp::create(b, l, 1)};
          Value sum = sumOverTaps(m, input, tcType, fixed, taps);
          return castScalar(b, l, sum, ft, tcType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// roi_align
//===----------------------------------------------------------------------===//

/// The body of tc.roi_align at output (roi, channel, bin y, bin x): a loop
/// nest over the bin's sampling points, each a bilinear read of the input.
struct RoiAligner {
  RoiAlignOp op;
  FloatMath &m;
  Value input; // [N, C, H, W], converted
  Type tcType;
  int64_t height, width;

  /// One axis of a sampling point: the clamped low and high indices and the
  /// weight of the high one (ONNX's reference: positions below 0 read row 0,
  /// positions past the last row read the last row alone).
  struct Axis {
    Value low, high, highWeight;
  };
  Axis axis(Value pos, int64_t size) {
    pos = arith::MaxNumFOp::create(m.b, m.loc, pos, m.f(0));
    Value low = m.floor(pos);
    Value atEdge = arith::CmpFOp::create(m.b, m.loc, arith::CmpFPredicate::OGE,
                                         low, m.f(double(size - 1)));
    Value last = m.f(double(size - 1));
    low = m.select(atEdge, last, low);
    pos = m.select(atEdge, last, pos);
    Value high = m.select(atEdge, last, m.add(low, m.f(1)));
    return {m.toIndex(low, size), m.toIndex(high, size), m.sub(pos, low)};
  }

  /// The bilinear sample at (y, x) of plane (batch, channel), zero outside
  /// [-1, H] x [-1, W]; in max mode the largest weighted corner instead of
  /// their sum.
  Value sample(Value batch, Value channel, Value y, Value x) {
    Value outside = arith::OrIOp::create(
        m.b, m.loc,
        arith::OrIOp::create(m.b, m.loc, m.lt(y, m.f(-1)),
                             m.gt(y, m.f(double(height)))),
        arith::OrIOp::create(m.b, m.loc, m.lt(x, m.f(-1)),
                             m.gt(x, m.f(double(width)))));
    Axis ay = axis(y, height), ax = axis(x, width);
    Value ly = ay.highWeight, lx = ax.highWeight;
    Value hy = m.sub(m.f(1), ly), hx = m.sub(m.f(1), lx);
    auto at = [&](Value iy, Value ix) {
      Value e = tensor::ExtractOp::create(m.b, m.loc, input,
                                          ValueRange{batch, channel, iy, ix});
      return castScalar(m.b, m.loc, e, tcType, m.ft);
    };
    Value corners[] = {m.mul(m.mul(hy, hx), at(ay.low, ax.low)),
                       m.mul(m.mul(hy, lx), at(ay.low, ax.high)),
                       m.mul(m.mul(ly, hx), at(ay.high, ax.low)),
                       m.mul(m.mul(ly, lx), at(ay.high, ax.high))};
    Value v = corners[0];
    for (Value c : ArrayRef<Value>(corners).drop_front())
      v = op.getMode() == "max" ? arith::MaximumFOp::create(m.b, m.loc, v, c)
                                : m.add(v, c);
    return m.select(outside, m.f(0), v);
  }

  /// How many sampling points a bin has along an axis where the region
  /// spans `roiSize` in `bins` bins: sampling_ratio, or ceil(roiSize / bins)
  /// when that is 0, as an index (at least 0).
  Value gridCount(Value roiSize, int64_t bins) {
    if (int64_t ratio = op.getSamplingRatio())
      return arith::ConstantIndexOp::create(m.b, m.loc, ratio);
    Value n = math::CeilOp::create(m.b, m.loc, m.div(roiSize, m.f(double(bins))));
    n = arith::MaxNumFOp::create(m.b, m.loc, n, m.f(0));
    // A bound on absurd boxes so the conversion stays defined.
    n = arith::MinNumFOp::create(m.b, m.loc, n, m.f(double(1 << 20)));
    Value asInt = arith::FPToSIOp::create(m.b, m.loc, m.b.getI64Type(), n);
    return arith::IndexCastOp::create(m.b, m.loc, m.b.getIndexType(), asInt);
  }

  Value indexToFloat(OpBuilder &b, Location loc, Value i) {
    return arith::SIToFPOp::create(
        b, loc, m.ft, arith::IndexCastOp::create(b, loc, b.getI64Type(), i));
  }

  /// The output element for `box` (x1, y1, x2, y2) of plane (batch, channel)
  /// at the bin of the generic's indices 2 and 3.
  Value compute(Value batch, ArrayRef<Value> box) {
    OpBuilder &b = m.b;
    Location loc = m.loc;
    Value channel = linalg::IndexOp::create(b, loc, 1);
    Value binY = indexToFloat(b, loc, linalg::IndexOp::create(b, loc, 2));
    Value binX = indexToFloat(b, loc, linalg::IndexOp::create(b, loc, 3));
    double offset = op.getHalfPixel() ? 0.5 : 0.0;
    double scale = op.getSpatialScale().convertToDouble();
    auto corner = [&](int i) { return m.sub(m.mul(box[i], m.f(scale)), m.f(offset)); };
    Value startX = corner(0), startY = corner(1);
    Value roiW = m.sub(corner(2), startX), roiH = m.sub(corner(3), startY);
    if (!op.getHalfPixel()) { // malformed boxes become 1 x 1
      roiW = arith::MaximumFOp::create(b, loc, roiW, m.f(1));
      roiH = arith::MaximumFOp::create(b, loc, roiH, m.f(1));
    }
    int64_t outH = op.getOutputHeight(), outW = op.getOutputWidth();
    Value binH = m.div(roiH, m.f(double(outH)));
    Value binW = m.div(roiW, m.f(double(outW)));
    Value countY = gridCount(roiH, outH), countX = gridCount(roiW, outW);
    Value stepY = m.div(binH, indexToFloat(b, loc, countY));
    Value stepX = m.div(binW, indexToFloat(b, loc, countX));
    Value baseY = m.add(startY, m.mul(binY, binH));
    Value baseX = m.add(startX, m.mul(binX, binW));
    bool isMax = op.getMode() == "max";
    Value init = m.f(isMax ? -INFINITY : 0.0);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    // Sampling point i of a bin lies at (i + 0.5) * bin / count inside it.
    // The loop bodies build with their own builders; `m` follows them.
    auto at = [&](OpBuilder &nb, Location nl, Value base, Value step, Value i) {
      FloatMath nm{nb, nl, m.ft};
      return nm.add(base, nm.mul(nm.add(indexToFloat(nb, nl, i), nm.f(0.5)), step));
    };
    auto outer = scf::ForOp::create(
        b, loc, zero, countY, one, ValueRange{init},
        [&](OpBuilder &ob, Location ol, Value iy, ValueRange accY) {
          Value y = at(ob, ol, baseY, stepY, iy);
          auto inner = scf::ForOp::create(
              ob, ol, zero, countX, one, ValueRange{accY[0]},
              [&](OpBuilder &ib, Location il, Value ix, ValueRange acc) {
                FloatMath im{ib, il, m.ft};
                RoiAligner nested{op, im, input, tcType, height, width};
                Value v = nested.sample(batch, channel, y,
                                        at(ib, il, baseX, stepX, ix));
                Value next = isMax ? Value(arith::MaximumFOp::create(ib, il, acc[0], v))
                                   : im.add(acc[0], v);
                scf::YieldOp::create(ib, il, next);
              });
          scf::YieldOp::create(ob, ol, inner.getResult(0));
        });
    Value total = outer.getResult(0);
    // No sampling points (an empty adaptive grid): 0, like the reference.
    Value count = arith::MulIOp::create(b, loc, countY, countX);
    Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, zero);
    if (isMax)
      return m.select(none, m.f(0), total);
    Value divisor = indexToFloat(b, loc, arith::MaxSIOp::create(b, loc, count, one));
    return m.div(total, divisor);
  }
};

struct RoiAlignPattern : OpConversionPattern<RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput(), rois = adaptor.getRois(),
          indices = adaptor.getBatchIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.isDynamicDim(2) || inputType.isDynamicDim(3))
      return rewriter.notifyMatchFailure(op, "dynamic spatial sizes");
    if (inputType.getDimSize(2) == 0 || inputType.getDimSize(3) == 0)
      return rewriter.notifyMatchFailure(op, "an empty input plane");
    Type tcType = elementTypeOf(op.getInput());
    Type roiType = elementTypeOf(op.getRois());
    Type ft = computeTypeFor(tcType, roiType);
    bool unsignedIndices = isUnsignedInt(elementTypeOf(op.getBatchIndices()));

    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(dimValue(rewriter, loc, rois, 0));
    if (resultType.isDynamicDim(1))
      dynamicSizes.push_back(dimValue(rewriter, loc, input, 1));
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, dynamicSizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          FloatMath m{b, l, ft};
          RoiAligner aligner{op, m, input, tcType, inputType.getDimSize(2),
                             inputType.getDimSize(3)};
          Value roi = linalg::IndexOp::create(b, l, 0);
          SmallVector<Value> box;
          for (int64_t i = 0; i < 4; ++i) {
            Value at = arith::ConstantIndexOp::create(b, l, i);
            Value v = tensor::ExtractOp::create(b, l, rois, ValueRange{roi, at});
            box.push_back(castScalar(b, l, v, roiType, ft));
          }
          Value batch = normalizeIndex(
              b, l, tensor::ExtractOp::create(b, l, indices, ValueRange{roi}),
              dimValue(b, l, input, 0), unsignedIndices);
          Value v = aligner.compute(batch, box);
          return castScalar(b, l, v, ft, tcType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateSamplingPatterns(TcTypeConverter &converter,
                              RewritePatternSet &patterns) {
  patterns.add<GridSamplePattern, RoiAlignPattern>(converter,
                                                   patterns.getContext());
}

} // namespace mlir::tc::to_linalg
