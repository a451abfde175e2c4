//===- NormalizationHandlers.cpp - Softmax, LayerNorm, BatchNorm to tc ----===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// Softmax-13 normalizes along one axis (default -1). Softmax-1/11 flatten
/// the input to 2-D at `axis` (default 1) and normalize the rows; that is the
/// same as one axis when `axis` is the last one, and otherwise a reshape away.
template <typename OpTy>
LogicalResult softmax(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  bool flattening = ctx.opset < 13;
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", flattening ? 1 : -1), rank);
  if (failed(axis))
    return failure();
  auto build = [&](Value v, int64_t a) {
    return ctx.build<OpTy>({v}, {ctx.namedAttr(
                                    "axis", ctx.builder.getI64IntegerAttr(a))});
  };
  if (!flattening || *axis == rank - 1) {
    results.push_back(build(*x, *axis));
    return success(results.back() != nullptr);
  }
  if (!type.hasStaticShape())
    return ctx.unsupported("opset < 13 softmax over several dynamic axes");
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < *axis ? rows : cols) *= type.getDimSize(d);
  Value flat = reshapeTo(ctx, *x, {rows, cols});
  Value normalized = flat ? build(flat, 1) : nullptr;
  results.push_back(normalized ? reshapeTo(ctx, normalized, type.getShape())
                               : nullptr);
  return success(results.back() != nullptr);
}

LogicalResult layerNorm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), scale = ctx.requireInput(1);
  if (failed(x) || failed(scale))
    return failure();
  for (int i = 1; i < ctx.node.output_size(); ++i)
    if (!ctx.node.output(i).empty())
      return ctx.unsupported("the Mean and InvStdDev outputs (training)");
  FailureOr<int64_t> axis = ctx.normalizeAxis(
      ctx.getInt("axis", -1), NodeContext::typeOf(*x).getRank());
  if (failed(axis))
    return failure();
  SmallVector<Value> operands = {*x, *scale};
  if (Value bias = ctx.input(2))
    operands.push_back(bias);
  results.push_back(ctx.build<LayerNormOp>(
      operands,
      {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis)),
       ctx.namedAttr("epsilon", ctx.builder.getF32FloatAttr(
                                    ctx.getFloat("epsilon", 1e-5f)))}));
  return success(results.back() != nullptr);
}

LogicalResult batchNorm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  SmallVector<Value> operands;
  for (size_t i = 0; i < 5; ++i) {
    FailureOr<Value> v = ctx.requireInput(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  if (ctx.getInt("training_mode", 0) != 0)
    return ctx.unsupported("training_mode=1");
  for (int i = 1; i < ctx.node.output_size(); ++i)
    if (!ctx.node.output(i).empty())
      return ctx.unsupported("the running statistics outputs (training)");
  results.push_back(ctx.build<BatchNormOp>(
      operands, {ctx.namedAttr("epsilon", ctx.builder.getF32FloatAttr(
                                              ctx.getFloat("epsilon", 1e-5f)))}));
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerNormalizationHandlers(OpRegistry &r) {
  r.add("Softmax", 1, softmax<SoftmaxOp>);
  r.add("LogSoftmax", 1, softmax<LogSoftmaxOp>);
  r.add("LayerNormalization", 17, layerNorm);
  r.add("BatchNormalization", 7, batchNorm);
}
