//===- Attention.cpp - tc.attention to linalg -----------------------------===//
//
// softmax(scale * Q K^T + mask) V as a sequence of generics in the
// accumulator type (f32 for f16/bf16):
//   scores = contraction of Q and K over the head dim (K is read as it
//            is, [..., Lk, D] or key^T [..., D, Lk]: no transpose is
//            materialized)
//   logits = scores * scale (+ mask): the scale is applied once per score
//            here rather than per product inside the contraction
//   probs  = exp(logits - rowmax) / rowsum, rounded to the operands' type
//            when that is 16-bit
//   result = contraction of probs and V over Lk, truncated once at the end
// Batch dims broadcast as in tc.batch_matmul: a static 1 against a larger
// size reads index 0; a dynamic size is assumed not to broadcast.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "tc/Dialect/Tc/IR/ShapeUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

/// Batch dim `i` of an operand in a loop nest whose batch sizes are
/// `batch`: index 0 where the operand broadcasts, the loop otherwise.
AffineExpr batchIndex(RankedTensorType operand, ArrayRef<int64_t> batch,
                      int64_t i, MLIRContext *ctx) {
  if (operand.getDimSize(i) == 1 && batch[i] != 1)
    return getAffineConstantExpr(0, ctx);
  return getAffineDimExpr(i, ctx);
}

/// Contracts `lhs` [b..., M, K] with `rhs` (K at `rhsContractDim`, the
/// other at the remaining of its last two dims) into an accumulator tensor
/// [batch..., M, N], adding lhs * rhs in `accType`.
Value contract(OpBuilder &b, Location loc, Value lhs, Value rhs,
               bool rhsTransposed, ArrayRef<int64_t> batch, Type lhsTcType,
               Type rhsTcType, Type accType) {
  MLIRContext *ctx = b.getContext();
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  int64_t nb = batch.size(), rank = nb + 2;
  SmallVector<AffineExpr> lhsExprs, rhsExprs, outExprs;
  SmallVector<int64_t> shape(batch);
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < nb; ++i) {
    lhsExprs.push_back(batchIndex(lhsType, batch, i, ctx));
    rhsExprs.push_back(batchIndex(rhsType, batch, i, ctx));
    outExprs.push_back(getAffineDimExpr(i, ctx));
    if (ShapedType::isDynamic(batch[i]))
      dynamicSizes.push_back(
          dimValue(b, loc, lhsType.isDynamicDim(i) ? lhs : rhs, i));
  }
  // Loops: batch..., m, n, k.
  AffineExpr m = getAffineDimExpr(nb, ctx), n = getAffineDimExpr(nb + 1, ctx),
             k = getAffineDimExpr(nb + 2, ctx);
  lhsExprs.append({m, k});
  if (rhsTransposed)
    rhsExprs.append({n, k});
  else
    rhsExprs.append({k, n});
  outExprs.append({m, n});
  int64_t rhsN = rhsTransposed ? nb : nb + 1;
  shape.append({lhsType.getDimSize(nb), rhsType.getDimSize(rhsN)});
  if (ShapedType::isDynamic(shape[nb]))
    dynamicSizes.push_back(dimValue(b, loc, lhs, nb));
  if (ShapedType::isDynamic(shape[nb + 1]))
    dynamicSizes.push_back(dimValue(b, loc, rhs, rhsN));

  auto accTensor = RankedTensorType::get(shape, accType);
  Value init = filledTensor(b, loc, accTensor, dynamicSizes,
                            scalarConstant(b, loc, accType, 0));
  SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, lhsExprs, ctx),
                                 AffineMap::get(rank + 1, 0, rhsExprs, ctx),
                                 AffineMap::get(rank + 1, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
  iterators.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{accTensor}, ValueRange{lhs, rhs},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               Value x = castScalar(nested, l, args[0], lhsTcType, accType);
               Value y = castScalar(nested, l, args[1], rhsTcType, accType);
               Value product = arith::MulFOp::create(nested, l, x, y);
               linalg::YieldOp::create(
                   nested, l,
                   arith::AddFOp::create(nested, l, args[2], product)
                       .getResult());
             })
      .getResult(0);
}

struct AttentionPattern : OpConversionPattern<AttentionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value query = adaptor.getQuery(), key = adaptor.getKey(),
          value = adaptor.getValue(), mask = adaptor.getMask();
    auto queryType = cast<RankedTensorType>(query.getType());
    auto keyType = cast<RankedTensorType>(key.getType());
    auto valueType = cast<RankedTensorType>(value.getType());
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Type tcType = resultType.getElementType();
    Type accType = accumulatorType(tcType);
    int64_t rank = queryType.getRank();

    std::optional<SmallVector<int64_t>> scoresBatch = broadcastShapes(
        queryType.getShape().drop_back(2), keyType.getShape().drop_back(2));
    std::optional<SmallVector<int64_t>> batch =
        scoresBatch ? broadcastShapes(*scoresBatch,
                                      valueType.getShape().drop_back(2))
                    : std::nullopt;
    if (!batch)
      return rewriter.notifyMatchFailure(op, "batch dims do not broadcast");

    // key^T [..., D, Lk] puts the keys, the scores' lanes, contiguous; a
    // key [..., Lk, D] is read across its rows.
    Value scores = contract(rewriter, loc, query, key,
                            /*rhsTransposed=*/!op.getKeyTransposed(),
                            *scoresBatch, tcType, tcType, accType);
    auto scoresType = cast<RankedTensorType>(scores.getType());
    SmallVector<Value> sizes = dynamicSizesOf(rewriter, loc, scores);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    // The generics read a broadcast operand's dynamic extent as if it were
    // the scores' (a run-time 1 is not stretched), so each must equal it:
    // the checks an unfused add or matmul would have made.
    auto checkBatch = [&](Value operand, Value against, StringRef name) {
      auto type = cast<RankedTensorType>(operand.getType());
      int64_t offset = cast<RankedTensorType>(against.getType()).getRank() -
                       type.getRank();
      for (int64_t d = 0; d + 2 < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          checkSameExtent(rewriter, loc, op, operand, d, against, d + offset,
                          Twine("the extents of ") + name + " axis " +
                              Twine(d) + " and of the attention batch");
    };
    checkBatch(query, scores, "query");
    checkBatch(key, scores, "key");
    if (mask)
      checkBroadcastExtents(rewriter, loc, op, scores, {mask});

    // logits = scores * scale (+ mask).
    SmallVector<Value> inputs = {scores};
    SmallVector<AffineMap> maps = {identity};
    if (mask) {
      inputs.push_back(mask);
      maps.push_back(broadcastMap(ctx, cast<RankedTensorType>(mask.getType()),
                                  scoresType.getShape()));
    }
    double scale = op.getScale().convertToDouble();
    Value logits = buildParallelGeneric(
        rewriter, loc, scoresType, sizes, inputs, maps,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = arith::MulFOp::create(b, l, args[0],
                                          scalarConstant(b, l, accType, scale));
          if (args.size() > 1)
            x = arith::AddFOp::create(b, l, x,
                                      castScalar(b, l, args[1], tcType, accType));
          return x;
        });

    // probs = softmax over Lk.
    Value probs = softmaxAlong(rewriter, loc, logits, rank - 1, scoresType,
                               /*isLog=*/false);

    // In a 16-bit attention the probabilities are rounded to that type
    // before they multiply V, as autocast's matmul and flash attention's
    // second product round them (and as ONNX computes a 16-bit softmax):
    // both operands are then 16-bit, which matrix cores multiply. The sum
    // stays in the accumulator type.
    Type probsTcType = accType;
    if (tcType != accType) {
      probs = castTensor(rewriter, loc, probs, accType, tcType);
      probsTcType = tcType;
    }
    Value acc = contract(rewriter, loc, probs, value, /*rhsTransposed=*/false,
                         *batch, probsTcType, tcType, accType);
    checkBatch(value, acc, "value");
    checkBatch(probs, acc, "query");
    Value result = castTensor(rewriter, loc, acc, accType, tcType);
    // The declared type may be more static than the operands show.
    if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateAttentionPatterns(TcTypeConverter &converter,
                               RewritePatternSet &patterns) {
  patterns.add<AttentionPattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
