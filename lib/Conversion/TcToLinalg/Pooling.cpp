//===- Pooling.cpp - tc.max_pool and tc.avg_pool to linalg.generic --------===//
//
// A pooling op is a generic over (n, c, o_1..o_S, k_1..k_S) that reads the
// padded input at o * stride + k * dilation; a window tensor (only its shape
// matters) gives the k loops their bounds, as linalg's named pooling ops do.
// ceil_mode windows that run past the explicit padding get extra padding that
// never counts: -inf for max, and it is left out of the average's divisor.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

struct PoolGeometry {
  int64_t spatial;
  bool ceilMode;
  SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd, extraEnd;
  /// Spatial dims whose sizes are known only at run time.
  SmallVector<bool> dynamic;
};

template <typename OpTy>
FailureOr<PoolGeometry> readGeometry(OpTy op, RankedTensorType inputType,
                                     RankedTensorType resultType) {
  PoolGeometry g;
  g.spatial = inputType.getRank() - 2;
  g.kernel.assign(op.getKernelShape().begin(), op.getKernelShape().end());
  g.strides.assign(g.spatial, 1);
  g.dilations.assign(g.spatial, 1);
  g.padBegin.assign(g.spatial, 0);
  g.padEnd.assign(g.spatial, 0);
  if (auto attr = op.getStrides())
    g.strides.assign(attr->begin(), attr->end());
  if (auto attr = op.getDilations())
    g.dilations.assign(attr->begin(), attr->end());
  if (auto attr = op.getPadding()) {
    g.padBegin.assign(attr->begin(), attr->begin() + g.spatial);
    g.padEnd.assign(attr->begin() + g.spatial, attr->end());
  }
  g.ceilMode = op.getCeilMode();
  for (int64_t i = 0; i < g.spatial; ++i) {
    int64_t size = inputType.getDimSize(i + 2);
    int64_t out = resultType.getDimSize(i + 2);
    g.dynamic.push_back(ShapedType::isDynamic(size) || ShapedType::isDynamic(out));
    if (g.dynamic.back()) {
      // The last window reaches at most stride - 1 past the padding with
      // ceil_mode, never without: pad that much (it never counts).
      g.extraEnd.push_back(g.ceilMode ? g.strides[i] - 1 : 0);
      continue;
    }
    int64_t reach = (out - 1) * g.strides[i] + (g.kernel[i] - 1) * g.dilations[i] + 1;
    g.extraEnd.push_back(
        std::max<int64_t>(0, reach - (size + g.padBegin[i] + g.padEnd[i])));
  }
  return g;
}

/// Pads the input and returns the generic's maps and iterators.
struct PoolNest {
  Value input, window;
  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<Value> dynamicSizes;
};

PoolNest buildNest(OpBuilder &b, Location loc, Operation *op, Value input,
                   RankedTensorType resultType, const PoolGeometry &g,
                   Value padValue) {
  MLIRContext *ctx = b.getContext();
  PoolNest nest;
  SmallVector<int64_t> low = {0, 0}, high = {0, 0};
  for (int64_t i = 0; i < g.spatial; ++i) {
    low.push_back(g.padBegin[i]);
    high.push_back(g.padEnd[i] + g.extraEnd[i]);
  }
  nest.input = padTensor(b, loc, input, low, high, padValue);
  nest.window = tensor::EmptyOp::create(b, loc, g.kernel,
                                        resultType.getElementType());
  int64_t loops = 2 + 2 * g.spatial;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inputExprs = {d(0), d(1)}, windowExprs,
                          outExprs = {d(0), d(1)};
  for (int64_t i = 0; i < g.spatial; ++i) {
    inputExprs.push_back(d(2 + i) * g.strides[i] +
                         d(2 + g.spatial + i) * g.dilations[i]);
    windowExprs.push_back(d(2 + g.spatial + i));
    outExprs.push_back(d(2 + i));
  }
  nest.maps = {AffineMap::get(loops, 0, inputExprs, ctx),
               AffineMap::get(loops, 0, windowExprs, ctx),
               AffineMap::get(loops, 0, outExprs, ctx)};
  nest.iterators = parallelIterators(2 + g.spatial);
  nest.iterators.append(g.spatial, utils::IteratorType::reduction);
  for (int64_t i = 0; i < 2; ++i)
    if (resultType.isDynamicDim(i))
      nest.dynamicSizes.push_back(dimValue(b, loc, input, i));
  for (int64_t i = 0; i < g.spatial; ++i)
    if (resultType.isDynamicDim(i + 2))
      nest.dynamicSizes.push_back(windowedOutputSize(
          b, loc, op, input, i, g.kernel[i], g.strides[i], g.dilations[i],
          g.padBegin[i], g.padEnd[i], g.ceilMode, "window"));
  return nest;
}

struct MaxPoolPattern : OpConversionPattern<MaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    FailureOr<PoolGeometry> g = readGeometry(op, inputType, resultType);
    if (failed(g))
      return rewriter.notifyMatchFailure(op, "unreadable window");
    Type tcType = elementTypeOf(op.getInput());
    Value lowest = minValueOf(rewriter, loc, tcType);
    PoolNest nest = buildNest(rewriter, loc, op, adaptor.getInput(),
                              resultType, *g, lowest);
    Value init = filledTensor(rewriter, loc, resultType, nest.dynamicSizes,
                              lowest);
    bool isFloat = isa<FloatType>(tcType);
    bool isUnsigned = isUnsignedInt(tcType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{nest.input, nest.window},
        ValueRange{init}, nest.maps, nest.iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value result;
          if (isFloat)
            result = arith::MaximumFOp::create(b, l, args[0], args[2]);
          else if (isUnsigned)
            result = arith::MaxUIOp::create(b, l, args[0], args[2]);
          else
            result = arith::MaxSIOp::create(b, l, args[0], args[2]);
          linalg::YieldOp::create(b, l, result);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// The number of window elements at output position `o` of one spatial
/// dimension that fall inside [lo, hi) of the unpadded input coordinates.
Value windowCount(OpBuilder &b, Location loc, Value o, int64_t stride,
                  int64_t dilation, int64_t kernel, int64_t padBegin,
                  int64_t lo, Value hi) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  // start = o * stride - padBegin; first k with start + k*d >= lo, last k
  // with start + k*d <= hi - 1.
  Value start = arith::SubIOp::create(
      b, loc, arith::MulIOp::create(b, loc, o, c(stride)), c(padBegin));
  Value first = arith::CeilDivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, c(lo), start), c(dilation));
  first = arith::MaxSIOp::create(b, loc, first, c(0));
  Value last = arith::FloorDivSIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc,
                            arith::SubIOp::create(b, loc, hi, c(1)), start),
      c(dilation));
  last = arith::MinSIOp::create(b, loc, last, c(kernel - 1));
  Value count = arith::AddIOp::create(
      b, loc, arith::SubIOp::create(b, loc, last, first), c(1));
  return arith::MaxSIOp::create(b, loc, count, c(0));
}

struct AvgPoolPattern : OpConversionPattern<AvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    FailureOr<PoolGeometry> g = readGeometry(op, inputType, resultType);
    if (failed(g))
      return rewriter.notifyMatchFailure(op, "unreadable window");
    Type tcType = elementTypeOf(op.getInput());
    Type accType = accumulatorType(tcType);
    PoolNest nest = buildNest(rewriter, loc, op, adaptor.getInput(),
                              resultType, *g,
                              scalarConstant(rewriter, loc, tcType, 0));
    RankedTensorType accTensor = resultType.clone(accType);
    Value init = filledTensor(rewriter, loc, accTensor, nest.dynamicSizes,
                              scalarConstant(rewriter, loc, accType, 0));
    Value sum =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{accTensor},
            ValueRange{nest.input, nest.window}, ValueRange{init}, nest.maps,
            nest.iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = castScalar(b, l, args[0], tcType, accType);
              Value sum = arith::AddFOp::create(b, l, x, args[2]);
              linalg::YieldOp::create(b, l, sum);
            })
            .getResult(0);

    bool includePad = op.getCountIncludePad();
    bool uniform = true;
    int64_t windowSize = 1;
    for (int64_t i = 0; i < g->spatial; ++i) {
      windowSize *= g->kernel[i];
      if (g->extraEnd[i] > 0 ||
          (!includePad && (g->padBegin[i] > 0 || g->padEnd[i] > 0)))
        uniform = false;
    }
    int64_t rank = resultType.getRank();
    // Where the counted part of each spatial dim ends: the input's end, or
    // the end padding's with count_include_pad.
    SmallVector<Value> his;
    for (int64_t i = 0; i < g->spatial; ++i) {
      Value size = dimValue(rewriter, loc, adaptor.getInput(), i + 2);
      his.push_back(includePad ? arith::AddIOp::create(
                                     rewriter, loc, size,
                                     arith::ConstantIndexOp::create(
                                         rewriter, loc, g->padEnd[i]))
                                     .getResult()
                               : size);
    }
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, nest.dynamicSizes, sum,
        rewriter.getMultiDimIdentityMap(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value divisor;
          if (uniform) {
            divisor = scalarConstant(b, l, accType, windowSize);
          } else {
            Value count = arith::ConstantIndexOp::create(b, l, 1);
            for (int64_t i = 0; i < g->spatial; ++i) {
              int64_t lo = includePad ? -g->padBegin[i] : 0;
              Value o = linalg::IndexOp::create(b, l, i + 2);
              count = arith::MulIOp::create(
                  b, l, count,
                  windowCount(b, l, o, g->strides[i], g->dilations[i],
                              g->kernel[i], g->padBegin[i], lo, his[i]));
            }
            Value asInt = arith::IndexCastOp::create(b, l, b.getI64Type(), count);
            divisor = arith::SIToFPOp::create(b, l, accType, asInt);
          }
          Value average = arith::DivFOp::create(b, l, args[0], divisor);
          return castScalar(b, l, average, accType, tcType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populatePoolingPatterns(TcTypeConverter &converter,
                             RewritePatternSet &patterns) {
  patterns.add<MaxPoolPattern, AvgPoolPattern>(converter,
                                               patterns.getContext());
}

} // namespace mlir::tc::to_linalg
