//===- NormalizationHandlers.cpp - Softmax, LayerNorm, BatchNorm to tc ----===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

FailureOr<Moments> mlir::tc::onnx::moments(NodeContext &ctx, Value x,
                                           ArrayRef<int64_t> axes,
                                           float epsilon) {
  auto reduceMean = [&](Value v) {
    return ctx.build<ReduceMeanOp>(
        {v}, {ctx.namedAttr("axes", ctx.i64Array(axes)),
              ctx.namedAttr("keepdims", ctx.builder.getUnitAttr())});
  };
  Type element = NodeContext::typeOf(x).getElementType();
  Moments m;
  m.mean = reduceMean(x);
  m.centered = m.mean ? ctx.build<SubOp>({x, m.mean}, {}, {x.getType()}) : nullptr;
  Value sq = m.centered ? ctx.build<MulOp>({m.centered, m.centered}) : nullptr;
  Value var = sq ? reduceMean(sq) : nullptr;
  Value shifted = var ? ctx.build<AddOp>({var, ctx.scalar(element, epsilon)}) : nullptr;
  m.invStdDev = shifted ? ctx.build<RsqrtOp>({shifted}) : nullptr;
  if (!m.invStdDev)
    return failure();
  return m;
}

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
  int64_t rank = NodeContext::typeOf(*x).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  bool wantsStats = false;
  for (int i = 1; i < ctx.node.output_size(); ++i)
    wantsStats |= !ctx.node.output(i).empty();
  if (wantsStats) {
    // The statistics outputs need the pieces: compose from reductions.
    if (ctx.getInt("stash_type", 1) != 1)
      return ctx.unsupported("stash_type other than float");
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(*axis, rank));
    FailureOr<Moments> m = moments(ctx, *x, axes, ctx.getFloat("epsilon", 1e-5f));
    if (failed(m))
      return failure();
    Value y = ctx.build<MulOp>({m->centered, m->invStdDev}, {}, {x->getType()});
    y = y ? ctx.build<MulOp>({y, *scale}, {}, {x->getType()}) : nullptr;
    if (y && ctx.input(2))
      y = ctx.build<AddOp>({y, ctx.input(2)}, {}, {x->getType()});
    results.append({y, m->mean, m->invStdDev});
    return success(y != nullptr);
  }
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

/// RMSNormalization (23): x / sqrt(mean(x^2) + epsilon) * scale.
LogicalResult rmsNorm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), scale = ctx.requireInput(1);
  if (failed(x) || failed(scale))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  Type element = NodeContext::typeOf(*x).getElementType();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(*axis, rank));
  Value sq = ctx.build<MulOp>({*x, *x});
  Value ms = sq ? ctx.build<ReduceMeanOp>(
                      {sq}, {ctx.namedAttr("axes", ctx.i64Array(axes)),
                             ctx.namedAttr("keepdims", ctx.builder.getUnitAttr())})
                : nullptr;
  Value shifted = ms ? ctx.build<AddOp>({ms, ctx.scalar(element, ctx.getFloat("epsilon", 1e-5f))}) : nullptr;
  Value inv = shifted ? ctx.build<RsqrtOp>({shifted}) : nullptr;
  Value y = inv ? ctx.build<MulOp>({*x, inv}, {}, {x->getType()}) : nullptr;
  results.push_back(y ? ctx.build<MulOp>({y, *scale}, {}, {x->getType()}) : nullptr);
  return success(results.back() != nullptr);
}

/// InstanceNormalization: per sample and channel over the spatial dims;
/// scale and bias are per channel.
LogicalResult instanceNorm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0, 3), scale = ctx.requireInput(1, 1, 1),
                   bias = ctx.requireInput(2, 1, 1);
  if (failed(x) || failed(scale) || failed(bias))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
  FailureOr<Moments> m = moments(ctx, *x, axes, ctx.getFloat("epsilon", 1e-5f));
  if (failed(m))
    return failure();
  // [C] -> [C, 1, ..., 1] so that it lines up with dimension 1.
  auto perChannel = [&](Value v) {
    SmallVector<int64_t> shape(NodeContext::typeOf(v).getShape());
    shape.resize(rank - 1, 1);
    return reshapeTo(ctx, v, shape);
  };
  Value y = ctx.build<MulOp>({m->centered, m->invStdDev}, {}, {x->getType()});
  Value s = perChannel(*scale), b = perChannel(*bias);
  y = y && s ? ctx.build<MulOp>({y, s}, {}, {x->getType()}) : nullptr;
  results.push_back(y && b ? ctx.build<AddOp>({y, b}, {}, {x->getType()}) : nullptr);
  return success(results.back() != nullptr);
}

/// MeanVarianceNormalization: (x - mean) / sqrt(var) over `axes`
/// (default N, H, W).
LogicalResult meanVarianceNorm(NodeContext &ctx,
                               SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  auto axes = readAxes(ctx, /*fromInput=*/false, 0, rank);
  if (failed(axes))
    return failure();
  SmallVector<int64_t> list = axes->value_or(SmallVector<int64_t>{0, 2, 3});
  FailureOr<Moments> m = moments(ctx, *x, list, 1e-9f);
  if (failed(m))
    return failure();
  results.push_back(
      ctx.build<MulOp>({m->centered, m->invStdDev}, {}, {x->getType()}));
  return success(results.back() != nullptr);
}

/// LpNormalization: x / norm_p(x) along `axis` (p = 1 or 2).
LogicalResult lpNorm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  FailureOr<int64_t> axis = ctx.normalizeAxis(
      ctx.getInt("axis", -1), NodeContext::typeOf(*x).getRank());
  if (failed(axis))
    return failure();
  int64_t p = ctx.getInt("p", 2);
  if (p != 1 && p != 2)
    return ctx.invalid("p must be 1 or 2");
  Value mag = p == 1 ? ctx.build<AbsOp>({*x}) : ctx.build<MulOp>({*x, *x});
  Value sum = mag ? ctx.build<ReduceSumOp>(
                        {mag}, {ctx.namedAttr("axes", ctx.i64Array({*axis})),
                                ctx.namedAttr("keepdims", ctx.builder.getUnitAttr())})
                  : nullptr;
  Value norm = sum && p == 2 ? ctx.build<SqrtOp>({sum}) : sum;
  results.push_back(norm ? ctx.build<DivOp>({*x, norm}, {}, {x->getType()}) : nullptr);
  return success(results.back() != nullptr);
}

/// BatchNormalization-14+ with training_mode=1: normalized with the batch's
/// own statistics over every axis but the channel one (population
/// variance); the running outputs blend the given statistics with the
/// batch's by momentum.
LogicalResult batchNormTraining(NodeContext &ctx, ArrayRef<Value> operands,
                                SmallVectorImpl<Value> &results) {
  Value x = operands[0];
  auto type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  if (rank < 2)
    return ctx.invalid("input must have rank >= 2");
  int64_t channels = type.getDimSize(1);
  if (ShapedType::isDynamic(channels))
    return ctx.unsupported("a dynamic channel dimension");
  SmallVector<int64_t> axes = {0};
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  FailureOr<Moments> m = moments(ctx, x, axes, ctx.getFloat("epsilon", 1e-5f));
  if (failed(m))
    return failure();
  // [C] -> [C, 1, ..., 1], lined up with dimension 1.
  auto perChannel = [&](Value v) -> Value {
    SmallVector<int64_t> shape = {channels};
    shape.resize(rank - 1, 1);
    return v ? reshapeTo(ctx, v, shape) : nullptr;
  };
  Value y = ctx.build<MulOp>({m->centered, m->invStdDev}, {}, {type});
  Value scale = perChannel(operands[1]), bias = perChannel(operands[2]);
  y = y && scale ? ctx.build<MulOp>({y, scale}, {}, {type}) : nullptr;
  y = y && bias ? ctx.build<AddOp>({y, bias}, {}, {type}) : nullptr;
  // The batch variance itself (moments only returns its inverse root).
  Value sq = ctx.build<MulOp>({m->centered, m->centered});
  Value var = sq ? ctx.build<ReduceMeanOp>(
                       {sq}, {ctx.namedAttr("axes", ctx.i64Array(axes))})
                 : nullptr;
  Value mean = reshapeTo(ctx, m->mean, {channels});
  Type element = type.getElementType();
  float momentum = ctx.getFloat("momentum", 0.9f);
  auto blend = [&](Value running, Value batch) -> Value {
    Value a = ctx.build<MulOp>({running, ctx.scalar(element, momentum)});
    Value b = batch ? ctx.build<MulOp>({batch, ctx.scalar(element, 1.0f - momentum)})
                    : nullptr;
    return a && b ? ctx.build<AddOp>({a, b}) : nullptr;
  };
  Value runningMean = blend(operands[3], mean), runningVar = blend(operands[4], var);
  if (!y || !runningMean || !runningVar)
    return failure();
  results.append({y, runningMean, runningVar});
  return success();
}

LogicalResult batchNorm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  SmallVector<Value> operands;
  for (size_t i = 0; i < 5; ++i) {
    FailureOr<Value> v = ctx.requireInput(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  if (ctx.getInt("training_mode", 0) != 0) {
    if (ctx.opset < 14)
      return ctx.invalid("training_mode exists from opset 14");
    return batchNormTraining(ctx, operands, results);
  }
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
  r.add("RMSNormalization", 23, rmsNorm);
  r.add("InstanceNormalization", 1, instanceNorm);
  r.add("MeanVarianceNormalization", 9, meanVarianceNorm);
  r.add("LpNormalization", 1, lpNorm);
  r.add("BatchNormalization", 1, batchNorm);
}
