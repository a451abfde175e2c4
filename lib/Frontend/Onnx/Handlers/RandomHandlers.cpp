//===- RandomHandlers.cpp - Random*, Bernoulli, training-mode Dropout -----===//
//
// Every random op becomes tc.random_uniform (a counter-based generator, see
// its description) plus ordinary tc arithmetic: normal numbers by the
// Box-Muller transform of two uniform tensors, Bernoulli draws by comparing
// a uniform tensor with the probabilities, Dropout's mask by comparing one
// with the ratio. ONNX's `seed` is a float; tc
// keys its generator with its integer value, as the ONNX reference
// implementation seeds numpy. A node without a seed gets one hashed from its
// name, type and outputs: its draws are then fixed for the compiled model
// (the same on every call), and differ between nodes. Results cannot equal
// another implementation's draws, only their distribution.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "../TensorImport.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/Support/xxhash.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// The element type named by the `dtype` attribute, or `dflt` without one;
/// null after recording why.
Type resultElementType(NodeContext &ctx, Type dflt, bool mustBeFloat) {
  Type element = dflt;
  if (ctx.hasAttr("dtype")) {
    std::string why;
    element = convertElementType(ctx.builder.getContext(),
                                 static_cast<int32_t>(ctx.getInt("dtype", 1)), why);
    if (!element) {
      (void)ctx.unsupported("dtype " + why);
      return nullptr;
    }
  }
  if (mustBeFloat && !isa<FloatType>(element)) {
    (void)ctx.invalid("random numbers must be floats");
    return nullptr;
  }
  return element;
}

} // namespace

Value mlir::tc::onnx::randomUniformLike(NodeContext &ctx, Value like,
                                        RankedTensorType type, double low,
                                        double high, unsigned stream) {
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("low", ctx.builder.getF64FloatAttr(low)),
      ctx.namedAttr("high", ctx.builder.getF64FloatAttr(high))};
  // The second stream of a node gets another key; SplitMix64 scrambles
  // keys, so neighbouring ones give unrelated sequences.
  int64_t seed;
  if (ctx.hasAttr("seed")) {
    seed = static_cast<int64_t>(ctx.getFloat("seed", 0));
  } else {
    std::string identity = ctx.node.name() + "/" + ctx.node.op_type();
    for (const std::string &output : ctx.node.output())
      identity += "/" + output;
    seed = static_cast<int64_t>(llvm::xxh3_64bits(identity));
  }
  attrs.push_back(ctx.namedAttr(
      "seed", ctx.builder.getI64IntegerAttr(seed + int64_t(stream) * 7919)));
  SmallVector<Value> operands;
  if (like)
    operands.push_back(like);
  return ctx.build<RandomUniformOp>(operands, attrs, {type});
}

/// Training-mode Dropout: an element is kept when a uniform draw is at
/// least `ratio` (so with probability 1 - ratio) and scaled by
/// 1 / (1 - ratio). With training_mode known only at run time, both modes
/// are computed and it selects.
LogicalResult mlir::tc::onnx::trainingDropout(NodeContext &ctx, Value x,
                                              SmallVectorImpl<Value> &results) {
  auto type = NodeContext::typeOf(x);
  Type element = type.getElementType();
  if (!isa<FloatType>(element))
    return ctx.invalid("Dropout needs a floating-point input");
  Value ratio = ctx.input(1) ? ctx.input(1) : ctx.scalar(element, 0.5);
  if (NodeContext::typeOf(ratio).getNumElements() != 1)
    return ctx.invalid("the ratio must be a single value");
  ratio = reshapeTo(ctx, ratio, {});
  if (ratio && NodeContext::typeOf(ratio).getElementType() != element)
    ratio = ctx.build<CastOp>({ratio}, {},
                              {RankedTensorType::get({}, element)});
  Value u = randomUniformLike(ctx, x, type, 0.0, 1.0);
  Value keep = u && ratio ? compareValues(ctx, ComparePredicate::ge, u, ratio)
                          : nullptr;
  Value scale = ratio ? ctx.build<SubOp>({ctx.scalar(element, 1.0), ratio})
                      : nullptr;
  scale = scale ? ctx.build<DivOp>({ctx.scalar(element, 1.0), scale}) : nullptr;
  Value training = ctx.input(2);
  std::optional<SmallVector<int64_t>> mode = ctx.getConstantInts(training);
  if (!mode) {
    // Inference keeps everything, unscaled.
    Value flag = reshapeTo(ctx, training, {});
    Value inference = flag ? ctx.build<NotOp>({flag}) : nullptr;
    keep = keep && inference ? ctx.build<OrOp>({keep, inference}) : nullptr;
    scale = scale && flag ? ctx.build<SelectOp>({flag, scale,
                                                 ctx.scalar(element, 1.0)})
                          : nullptr;
  }
  Value scaled = scale ? ctx.build<MulOp>({x, scale}) : nullptr;
  Value y = keep && scaled ? ctx.build<SelectOp>({keep, scaled,
                                                  ctx.scalar(element, 0.0)})
                           : nullptr;
  results.push_back(y);
  if (ctx.node.output_size() > 1 && !ctx.node.output(1).empty())
    results.push_back(keep);
  return success(y != nullptr);
}

namespace {

/// The result type of a random op: the `shape` attribute (RandomUniform,
/// RandomNormal) or `like`'s shape, with `element`.
FailureOr<RankedTensorType> randomType(NodeContext &ctx, Value like,
                                       Type element) {
  if (like)
    return NodeContext::typeOf(like).clone(element);
  std::optional<SmallVector<int64_t>> shape = ctx.getInts("shape");
  if (!shape)
    return ctx.invalid("the shape attribute is missing");
  if (llvm::any_of(*shape, [](int64_t s) { return s < 0; }))
    return ctx.invalid("the shape has a negative size");
  if (failed(checkMaterializedSize(ctx, *shape)))
    return failure();
  return RankedTensorType::get(*shape, element);
}

/// What a random op draws: the tensor it takes its shape from (the *Like
/// ops; null otherwise) and the result's element type (`dtype`, or the
/// input's, or f32).
struct RandomTarget {
  Value like;
  Type element;
};
FailureOr<RandomTarget> randomTarget(NodeContext &ctx, bool isLike) {
  RandomTarget target{Value(), ctx.builder.getF32Type()};
  if (isLike) {
    FailureOr<Value> x = ctx.requireInput(0);
    if (failed(x))
      return failure();
    target.like = *x;
    target.element = NodeContext::typeOf(*x).getElementType();
  }
  target.element = resultElementType(ctx, target.element, /*mustBeFloat=*/true);
  if (!target.element)
    return failure();
  return target;
}

/// RandomUniform and RandomUniformLike.
LogicalResult randomUniform(NodeContext &ctx, SmallVectorImpl<Value> &results,
                            bool isLike) {
  FailureOr<RandomTarget> target = randomTarget(ctx, isLike);
  if (failed(target))
    return failure();
  FailureOr<RankedTensorType> type =
      randomType(ctx, target->like, target->element);
  if (failed(type))
    return failure();
  results.push_back(randomUniformLike(ctx, target->like, *type,
                                      ctx.getFloat("low", 0.0f),
                                      ctx.getFloat("high", 1.0f)));
  return success(results.back() != nullptr);
}

/// RandomNormal and RandomNormalLike: mean + scale * sqrt(-2 ln(1 - u1)) *
/// cos(2 pi u2), in f32 for narrower types (ln of a value near 1 needs the
/// precision).
LogicalResult randomNormal(NodeContext &ctx, SmallVectorImpl<Value> &results,
                           bool isLike) {
  FailureOr<RandomTarget> target = randomTarget(ctx, isLike);
  if (failed(target))
    return failure();
  Value like = target->like;
  Type element = target->element;
  Type work = element.getIntOrFloatBitWidth() < 32 ? ctx.builder.getF32Type()
                                                   : element;
  FailureOr<RankedTensorType> type = randomType(ctx, like, work);
  if (failed(type))
    return failure();
  Value u1 = randomUniformLike(ctx, like, *type, 0.0, 1.0, 0);
  Value u2 = randomUniformLike(ctx, like, *type, 0.0, 1.0, 1);
  auto scalar = [&](double v) { return ctx.scalar(work, v); };
  Value radius = u1 ? ctx.build<SubOp>({scalar(1.0), u1}) : nullptr;
  radius = radius ? ctx.build<LogOp>({radius}) : nullptr;
  radius = radius ? ctx.build<MulOp>({radius, scalar(-2.0)}) : nullptr;
  radius = radius ? ctx.build<SqrtOp>({radius}) : nullptr;
  Value angle = u2 ? ctx.build<MulOp>({u2, scalar(2.0 * M_PI)}) : nullptr;
  angle = angle ? ctx.build<CosOp>({angle}) : nullptr;
  Value z = radius && angle ? ctx.build<MulOp>({radius, angle}) : nullptr;
  z = z ? ctx.build<MulOp>({z, scalar(ctx.getFloat("scale", 1.0f))}) : nullptr;
  z = z ? ctx.build<AddOp>({z, scalar(ctx.getFloat("mean", 0.0f))}) : nullptr;
  if (z && work != element)
    z = ctx.build<CastOp>({z}, {}, {NodeContext::typeOf(z).clone(element)});
  results.push_back(z);
  return success(z != nullptr);
}

/// Bernoulli: 1 where a uniform draw falls below the probability.
LogicalResult bernoulli(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> p = ctx.requireInput(0);
  if (failed(p))
    return failure();
  auto type = NodeContext::typeOf(*p);
  if (!isa<FloatType>(type.getElementType()))
    return ctx.invalid("the probabilities must be floats");
  Type element = resultElementType(ctx, type.getElementType(),
                                   /*mustBeFloat=*/false);
  if (!element)
    return failure();
  Value u = randomUniformLike(ctx, *p, type, 0.0, 1.0);
  Value hit = u ? compareValues(ctx, ComparePredicate::lt, u, *p) : nullptr;
  results.push_back(hit ? ctx.build<CastOp>({hit}, {}, {type.clone(element)})
                        : nullptr);
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerRandomHandlers(OpRegistry &r) {
  r.add("RandomUniform", 1, [](NodeContext &ctx, SmallVectorImpl<Value> &res) {
    return randomUniform(ctx, res, /*isLike=*/false);
  });
  r.add("RandomUniformLike", 1,
        [](NodeContext &ctx, SmallVectorImpl<Value> &res) {
          return randomUniform(ctx, res, /*isLike=*/true);
        });
  r.add("RandomNormal", 1, [](NodeContext &ctx, SmallVectorImpl<Value> &res) {
    return randomNormal(ctx, res, /*isLike=*/false);
  });
  r.add("RandomNormalLike", 1,
        [](NodeContext &ctx, SmallVectorImpl<Value> &res) {
          return randomNormal(ctx, res, /*isLike=*/true);
        });
  r.add("Bernoulli", 15, bernoulli);
}
