//===- Normalization.cpp - softmax, layer norm, batch norm to linalg ------===//
//
// Each normalization is a short sequence of generics: reductions producing
// per-row statistics, then one elementwise generic that reads the input and
// the statistics (broadcast back through a projection map). Statistics of
// f16/bf16 inputs are computed in f32. The fusion and tiling that follow put
// the sequence into one kernel.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

Value sumOf(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
            Type tcType, Type accType,
            function_ref<Value(OpBuilder &, Location, Value)> term = nullptr) {
  return reduceTensor(b, loc, input, axes, accType,
                      scalarConstant(b, loc, accType, 0),
                      [&](OpBuilder &nested, Location l, Value x, Value acc) {
                        x = castScalar(nested, l, x, tcType, accType);
                        if (term)
                          x = term(nested, l, x);
                        return arith::AddFOp::create(nested, l, x, acc);
                      });
}

} // namespace

Value softmaxAlong(OpBuilder &rewriter, Location loc, Value input,
                   int64_t axis, RankedTensorType resultType, bool isLog) {
  MLIRContext *ctx = rewriter.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  Type tcType = inputType.getElementType();
  Type accType = accumulatorType(tcType);
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> axes = {axis};
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  AffineMap rowMap = dropAxesMap(ctx, rank, axes);
  SmallVector<Value> sizes = dynamicSizesOf(rewriter, loc, input);

  Value max = reduceTensor(
      rewriter, loc, input, axes, accType, minValueOf(rewriter, loc, accType),
      [&](OpBuilder &b, Location l, Value x, Value acc) {
        x = castScalar(b, l, x, tcType, accType);
        return arith::MaximumFOp::create(b, l, x, acc);
      });
  // shifted = x - max; exp(shifted) summed per row.
  RankedTensorType accTensor = inputType.clone(accType);
  Value shifted = buildParallelGeneric(
      rewriter, loc, accTensor, sizes, ValueRange{input, max},
      {identity, rowMap}, [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = castScalar(b, l, args[0], tcType, accType);
        return arith::SubFOp::create(b, l, x, args[1]);
      });
  Value sum = sumOf(rewriter, loc, shifted, axes, accType, accType,
                    [](OpBuilder &b, Location l, Value x) {
                      return math::ExpOp::create(b, l, x);
                    });
  return buildParallelGeneric(
      rewriter, loc, resultType, sizes, ValueRange{shifted, sum},
      {identity, rowMap}, [&](OpBuilder &b, Location l, ValueRange args) {
        Value value;
        if (isLog)
          value = arith::SubFOp::create(b, l, args[0],
                                        math::LogOp::create(b, l, args[1]));
        else
          // The row's sum is at least 1 (its largest element contributes
          // exp(0)) and finite, so the division may multiply by its
          // reciprocal, computed once a row once LLVM hoists it (arcp):
          // attention divided each of its scores (ViT-B/16: 466 K a layer).
          value = arith::DivFOp::create(
              b, l, math::ExpOp::create(b, l, args[0]), args[1],
              arith::FastMathFlags::arcp);
        return castScalar(b, l, value, accType, resultType.getElementType());
      });
}

namespace {

template <typename OpTy, bool isLog>
struct SoftmaxPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value result = softmaxAlong(rewriter, loc, input, op.getAxis(),
                                cast<RankedTensorType>(input.getType()), isLog);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LayerNormPattern : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type tcType = type.getElementType();
    Type accType = accumulatorType(tcType);
    int64_t rank = type.getRank(), axis = op.getAxis();
    SmallVector<int64_t> axes;
    for (int64_t i = axis; i < rank; ++i)
      axes.push_back(i);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap rowMap = dropAxesMap(ctx, rank, axes);
    SmallVector<Value> sizes = dynamicSizesOf(rewriter, loc, input);

    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t i : axes)
      count = arith::MulIOp::create(rewriter, loc, count,
                                    dimValue(rewriter, loc, input, i));
    Value countFloat = arith::SIToFPOp::create(
        rewriter, loc, accType,
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), count));

    Value sum = sumOf(rewriter, loc, input, axes, tcType, accType);
    auto rowType = cast<RankedTensorType>(sum.getType());
    SmallVector<Value> rowSizes = dynamicSizesOf(rewriter, loc, sum);
    AffineMap rowIdentity = rewriter.getMultiDimIdentityMap(rowType.getRank());
    Value mean = buildParallelGeneric(
        rewriter, loc, rowType, rowSizes, sum, rowIdentity,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return arith::DivFOp::create(b, l, args[0], countFloat);
        });
    // Two-pass variance: sum((x - mean)^2) / n, stable for large means.
    Value centered = buildParallelGeneric(
        rewriter, loc, type.clone(accType), sizes, ValueRange{input, mean},
        {identity, rowMap}, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = castScalar(b, l, args[0], tcType, accType);
          return arith::SubFOp::create(b, l, x, args[1]);
        });
    Value squares = sumOf(rewriter, loc, centered, axes, accType, accType,
                          [](OpBuilder &b, Location l, Value x) {
                            return arith::MulFOp::create(b, l, x, x);
                          });
    double epsilon = op.getEpsilon().convertToDouble();
    Value invStd = buildParallelGeneric(
        rewriter, loc, rowType, rowSizes, squares, rowIdentity,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value variance = arith::DivFOp::create(b, l, args[0], countFloat);
          Value shifted = arith::AddFOp::create(
              b, l, variance, scalarConstant(b, l, accType, epsilon));
          return math::RsqrtOp::create(b, l, shifted);
        });

    SmallVector<Value> inputs = {centered, invStd, adaptor.getScale()};
    SmallVector<AffineMap> maps = {
        identity, rowMap,
        broadcastMap(ctx, cast<RankedTensorType>(adaptor.getScale().getType()),
                     type.getShape())};
    if (Value bias = adaptor.getBias()) {
      inputs.push_back(bias);
      maps.push_back(broadcastMap(ctx, cast<RankedTensorType>(bias.getType()),
                                  type.getShape()));
    }
    Value result = buildParallelGeneric(
        rewriter, loc, type, sizes, inputs, maps,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value normalized = arith::MulFOp::create(b, l, args[0], args[1]);
          Value scale = castScalar(b, l, args[2], tcType, accType);
          Value value = arith::MulFOp::create(b, l, normalized, scale);
          if (args.size() > 3)
            value = arith::AddFOp::create(
                b, l, value, castScalar(b, l, args[3], tcType, accType));
          return castScalar(b, l, value, accType, tcType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BatchNormPattern : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type tcType = type.getElementType();
    Type accType = accumulatorType(tcType);
    int64_t rank = type.getRank();
    AffineMap channel = AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
    double epsilon = op.getEpsilon().convertToDouble();
    Value result = buildParallelGeneric(
        rewriter, loc, type, dynamicSizesOf(rewriter, loc, input),
        ValueRange{input, adaptor.getScale(), adaptor.getBias(),
                   adaptor.getMean(), adaptor.getVariance()},
        {rewriter.getMultiDimIdentityMap(rank), channel, channel, channel,
         channel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> v;
          for (Value arg : args)
            v.push_back(castScalar(b, l, arg, tcType, accType));
          Value centered = arith::SubFOp::create(b, l, v[0], v[3]);
          Value shifted = arith::AddFOp::create(
              b, l, v[4], scalarConstant(b, l, accType, epsilon));
          Value invStd = math::RsqrtOp::create(b, l, shifted);
          Value scaled = arith::MulFOp::create(
              b, l, centered, arith::MulFOp::create(b, l, invStd, v[1]));
          Value value = arith::AddFOp::create(b, l, scaled, v[2]);
          return castScalar(b, l, value, accType, tcType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateNormalizationPatterns(TcTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<SoftmaxPattern<SoftmaxOp, false>,
               SoftmaxPattern<LogSoftmaxOp, true>, LayerNormPattern,
               BatchNormPattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
