//===- Indexing.cpp - tc gathers to linalg ---------------------------------===//
//
// Gathers are parallel generics over the result that read the index operand
// through a projection and fetch the data element with tensor.extract.
// Negative indices count from the end; an index still out of range fails a
// run-time check naming the node (on the CPU; GPU kernels do not report) and
// is clamped, so the run never reads out of bounds.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

struct GatherPattern : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t axis = op.getAxis(), q = indicesType.getRank();
    int64_t rank = resultType.getRank();
    bool isUnsigned = isUnsignedInt(elementTypeOf(op.getIndices()));
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i) {
      if (!resultType.isDynamicDim(i))
        continue;
      if (i < axis)
        dynamicSizes.push_back(dimValue(rewriter, loc, input, i));
      else if (i < axis + q)
        dynamicSizes.push_back(dimValue(rewriter, loc, indices, i - axis));
      else
        dynamicSizes.push_back(dimValue(rewriter, loc, input, i - q + 1));
    }
    SmallVector<AffineExpr> indexExprs;
    for (int64_t i = 0; i < q; ++i)
      indexExprs.push_back(getAffineDimExpr(axis + i, ctx));
    AffineMap indexMap = AffineMap::get(rank, 0, indexExprs, ctx);
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, dynamicSizes, indices, indexMap,
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> position;
          for (int64_t i = 0; i < axis; ++i)
            position.push_back(linalg::IndexOp::create(b, l, i));
          position.push_back(normalizeIndex(b, l, args[0],
                                            dimValue(b, l, input, axis),
                                            isUnsigned, op));
          for (int64_t i = axis + q; i < rank; ++i)
            position.push_back(linalg::IndexOp::create(b, l, i));
          return tensor::ExtractOp::create(b, l, input, position);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherElementsPattern : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    int64_t axis = op.getAxis(), rank = resultType.getRank();
    bool isUnsigned = isUnsignedInt(elementTypeOf(op.getIndices()));
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(dimValue(rewriter, loc, indices, i));
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, dynamicSizes, indices,
        rewriter.getMultiDimIdentityMap(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> position;
          for (int64_t i = 0; i < rank; ++i)
            position.push_back(
                i == axis ? normalizeIndex(b, l, args[0],
                                           dimValue(b, l, input, axis),
                                           isUnsigned, op)
                          : Value(linalg::IndexOp::create(b, l, i)));
          return tensor::ExtractOp::create(b, l, input, position);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherNDPattern : OpConversionPattern<GatherNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t outer = indicesType.getRank() - 1;
    int64_t q = indicesType.getDimSize(outer);
    int64_t batch = op.getBatchDims();
    if (ShapedType::isDynamic(q))
      return rewriter.notifyMatchFailure(op, "index depth unknown");
    bool isUnsigned = isUnsignedInt(elementTypeOf(op.getIndices()));
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < resultType.getRank(); ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            i < outer ? dimValue(rewriter, loc, indices, i)
                      : dimValue(rewriter, loc, input, i - outer + batch + q));
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, dynamicSizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) {
          // result[i_0..i_{outer-1}, rest...] =
          //   input[i_0..i_{batch-1}, indices[i_0..i_{outer-1}, :], rest...]
          SmallVector<Value> position;
          for (int64_t i = 0; i < outer; ++i)
            position.push_back(linalg::IndexOp::create(b, l, i));
          SmallVector<Value> source(position.begin(), position.begin() + batch);
          position.push_back(Value());
          for (int64_t j = 0; j < q; ++j) {
            position.back() = arith::ConstantIndexOp::create(b, l, j);
            Value index = tensor::ExtractOp::create(b, l, indices, position);
            source.push_back(normalizeIndex(b, l, index,
                                            dimValue(b, l, input, batch + j),
                                            isUnsigned, op));
          }
          for (int64_t i = outer; i < resultType.getRank(); ++i)
            source.push_back(linalg::IndexOp::create(b, l, i));
          return tensor::ExtractOp::create(b, l, input, source);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateIndexingPatterns(TcTypeConverter &converter,
                              RewritePatternSet &patterns) {
  patterns.add<GatherPattern, GatherElementsPattern, GatherNDPattern>(converter,
                                                     patterns.getContext());
}

} // namespace mlir::tc::to_linalg
