//===- LossHandlers.cpp - NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss -===//
//
// Loss functions appear in exported inference graphs (evaluation, scoring);
// they compose from gather_elements, log_softmax and reductions.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// loss[n, d...] = -input[n, target[n, d...], d...] * weight[target], zero
/// where target == ignore_index; reduced by `reduction`. Returns null after
/// recording a problem.
Value negativeLogLikelihood(NodeContext &ctx, Value input, Value target,
                            Value weight) {
  auto inType = NodeContext::typeOf(input);
  auto tType = NodeContext::typeOf(target);
  if (inType.getRank() < 2 || tType.getRank() != inType.getRank() - 1) {
    (void)ctx.invalid("input must be [N, C, ...] and target [N, ...]");
    return nullptr;
  }
  if (!inType.hasStaticShape() || !tType.hasStaticShape()) {
    (void)ctx.unsupported("dynamically shaped losses");
    return nullptr;
  }
  std::string reduction = ctx.getString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    (void)ctx.invalid("reduction must be none, sum or mean");
    return nullptr;
  }
  Type element = inType.getElementType();
  Type indexType = tType.getElementType();
  if (!isa<FloatType>(element) || !isa<IntegerType>(indexType)) {
    (void)ctx.invalid("input must be floating-point and target integer");
    return nullptr;
  }
  if (weight && failed(ctx.requireRank(2, 1, 1)))
    return nullptr;
  auto shapeLike = [&](Type e) { return RankedTensorType::get(tType.getShape(), e); };

  Value safe = target, ignored;
  if (ctx.hasAttr("ignore_index")) {
    Value ii = ctx.scalar(indexType, static_cast<double>(ctx.getInt("ignore_index", 0)));
    ignored = compareValues(ctx, ComparePredicate::eq, target, ii);
    safe = ignored ? ctx.build<SelectOp>({ignored, ctx.scalar(indexType, 0), target})
                   : nullptr;
  }
  // target [N, d...] -> [N, 1, d...] to pick along the class axis.
  SmallVector<int64_t> unsqueezed(tType.getShape());
  unsqueezed.insert(unsqueezed.begin() + 1, 1);
  Value idx = safe ? reshapeTo(ctx, safe, unsqueezed) : nullptr;
  Value picked = idx ? ctx.build<GatherElementsOp>(
                           {input, idx},
                           {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(1))})
                     : nullptr;
  picked = picked ? reshapeTo(ctx, picked, tType.getShape()) : nullptr;
  Value w;
  if (weight)
    w = safe ? ctx.build<GatherOp>({weight, safe},
                                   {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))})
             : nullptr;
  else
    w = ctx.constant(DenseElementsAttr::get(
        shapeLike(element),
        cast<TypedAttr>(ctx.builder.getFloatAttr(element, 1.0))));
  if (w && ignored)
    w = ctx.build<SelectOp>({ignored, ctx.scalar(element, 0), w});
  Value loss = picked ? ctx.build<NegOp>({picked}) : nullptr;
  loss = loss && w ? ctx.build<MulOp>({loss, w}) : nullptr;
  if (!loss || reduction == "none")
    return loss;
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, tType.getRank()));
  auto sum = [&](Value v) {
    return ctx.build<ReduceSumOp>({v}, {ctx.namedAttr("axes", ctx.i64Array(all))});
  };
  Value total = sum(loss);
  if (reduction == "sum" || !total)
    return total;
  Value weightSum = sum(w);
  return weightSum ? ctx.build<DivOp>({total, weightSum}) : nullptr;
}

LogicalResult nllLoss(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> input = ctx.requireInput(0), target = ctx.requireInput(1);
  if (failed(input) || failed(target))
    return failure();
  results.push_back(negativeLogLikelihood(ctx, *input, *target, ctx.input(2)));
  return success(results.back() != nullptr);
}

LogicalResult softmaxCrossEntropy(NodeContext &ctx,
                                  SmallVectorImpl<Value> &results) {
  FailureOr<Value> scores = ctx.requireInput(0), labels = ctx.requireInput(1);
  if (failed(scores) || failed(labels))
    return failure();
  Value logProb = ctx.build<LogSoftmaxOp>(
      {*scores}, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(1))});
  if (!logProb)
    return failure();
  results.push_back(negativeLogLikelihood(ctx, logProb, *labels, ctx.input(2)));
  results.push_back(logProb);
  return success(results.front() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerLossHandlers(OpRegistry &r) {
  r.add("NegativeLogLikelihoodLoss", 12, nllLoss);
  r.add("SoftmaxCrossEntropyLoss", 12, softmaxCrossEntropy);
}
