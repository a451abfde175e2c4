//===- ElementwiseHandlers.cpp - ONNX elementwise ops to tc ---------------===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/Support/FormatVariadic.h"
#include <limits>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
template <typename OpTy>
LogicalResult unary(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  results.push_back(ctx.build<OpTy>({*x}));
  return success(results.back() != nullptr);
}

template <typename OpTy>
LogicalResult binary(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> a = ctx.requireInput(0), b = ctx.requireInput(1);
  if (failed(a) || failed(b))
    return failure();
  results.push_back(ctx.build<OpTy>({*a, *b}));
  return success(results.back() != nullptr);
}

/// Before opset 7, binary ops broadcast only with `broadcast=1`, and then
/// `rhs` aligns with `lhs` at `axis` (default: at the trailing dimensions).
/// Rewriting `rhs` to lhs's rank with unit dimensions around it turns that
/// into numpy broadcasting.
FailureOr<std::pair<Value, Value>> legacyOperands(NodeContext &ctx) {
  FailureOr<Value> a = ctx.requireInput(0), b = ctx.requireInput(1);
  if (failed(a) || failed(b))
    return failure();
  if (ctx.opset >= 7 || !ctx.getInt("broadcast", 0) || !ctx.hasAttr("axis"))
    return std::make_pair(*a, *b);
  auto at = NodeContext::typeOf(*a), bt = NodeContext::typeOf(*b);
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), at.getRank());
  if (failed(axis))
    return failure();
  if (*axis + bt.getRank() > at.getRank())
    return ctx.invalid("B does not fit into A at the broadcast axis");
  SmallVector<int64_t> shape(*axis, 1);
  llvm::append_range(shape, bt.getShape());
  shape.resize(at.getRank(), 1);
  Value aligned = reshapeTo(ctx, *b, shape);
  if (!aligned)
    return failure();
  return std::make_pair(*a, aligned);
}

template <typename OpTy>
LogicalResult legacyBinary(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  auto operands = legacyOperands(ctx);
  if (failed(operands))
    return failure();
  results.push_back(ctx.build<OpTy>({operands->first, operands->second}));
  return success(results.back() != nullptr);
}

template <ComparePredicate predicate>
LogicalResult compare(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  auto operands = legacyOperands(ctx);
  if (failed(operands))
    return failure();
  auto attr = ComparePredicateAttr::get(ctx.builder.getContext(), predicate);
  results.push_back(ctx.build<CompareOp>(
      {operands->first, operands->second}, {ctx.namedAttr("predicate", attr)}));
  return success(results.back() != nullptr);
}

/// Max, Min, Sum, Mean take one or more inputs.
template <typename OpTy, bool mean = false>
LogicalResult variadic(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  if (ctx.numInputs() == 0 || llvm::is_contained(ctx.allInputs(), Value()))
    return ctx.invalid("expects one or more inputs");
  Value acc = ctx.input(0);
  for (Value next : ctx.allInputs().drop_front()) {
    acc = ctx.build<OpTy>({acc, next});
    if (!acc)
      return failure();
  }
  if (mean && ctx.numInputs() > 1) {
    Type element = NodeContext::typeOf(acc).getElementType();
    acc = ctx.build<DivOp>({acc, ctx.scalar(element, ctx.numInputs())});
  }
  results.push_back(acc);
  return success(acc != nullptr);
}

LogicalResult identity(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  results.push_back(*x);
  return success();
}

LogicalResult mod(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> a = ctx.requireInput(0), b = ctx.requireInput(1);
  if (failed(a) || failed(b))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (ctx.getInt("fmod", 0))
    attrs.push_back(ctx.namedAttr("fmod", ctx.builder.getUnitAttr()));
  else if (isa<FloatType>(NodeContext::typeOf(*a).getElementType()))
    return ctx.invalid("fmod=0 is only defined for integer inputs");
  results.push_back(ctx.build<ModOp>({*a, *b}, attrs));
  return success(results.back() != nullptr);
}

LogicalResult bitShift(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  std::string direction = ctx.getString("direction", "");
  if (direction == "LEFT")
    return binary<ShiftLeftOp>(ctx, results);
  if (direction == "RIGHT")
    return binary<ShiftRightOp>(ctx, results);
  return ctx.invalid("direction must be LEFT or RIGHT, got '" + direction +
                     "'");
}

template <typename OpTy>
LogicalResult withAlpha(NodeContext &ctx, SmallVectorImpl<Value> &results,
                        float alpha) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  results.push_back(ctx.build<OpTy>(
      {*x}, {ctx.namedAttr("alpha", ctx.builder.getF32FloatAttr(
                                        ctx.getFloat("alpha", alpha)))}));
  return success(results.back() != nullptr);
}

LogicalResult leakyRelu(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  return withAlpha<LeakyReluOp>(ctx, results, 0.01f);
}

LogicalResult elu(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  return withAlpha<EluOp>(ctx, results, 1.0f);
}

LogicalResult hardSigmoid(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto f32 = [&](llvm::StringRef name, float dflt) {
    return ctx.namedAttr(name,
                         ctx.builder.getF32FloatAttr(ctx.getFloat(name, dflt)));
  };
  results.push_back(
      ctx.build<HardSigmoidOp>({*x}, {f32("alpha", 0.2f), f32("beta", 0.5f)}));
  return success(results.back() != nullptr);
}

LogicalResult gelu(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  std::string approximate = ctx.getString("approximate", "none");
  SmallVector<NamedAttribute> attrs;
  if (approximate == "tanh")
    attrs.push_back(ctx.namedAttr("approximate_tanh", ctx.builder.getUnitAttr()));
  else if (approximate != "none")
    return ctx.unsupported("approximate='" + approximate + "'");
  results.push_back(ctx.build<GeluOp>({*x}, attrs));
  return success(results.back() != nullptr);
}

/// Selu: gamma * (x if x > 0 else alpha * (exp(x) - 1)), i.e. gamma times an
/// ELU with the same alpha.
LogicalResult selu(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  Type element = NodeContext::typeOf(*x).getElementType();
  float alpha = ctx.getFloat("alpha", 1.67326319217681884765625f);
  float gamma = ctx.getFloat("gamma", 1.05070102214813232421875f);
  Value eluX = ctx.build<EluOp>(
      {*x}, {ctx.namedAttr("alpha", ctx.builder.getF32FloatAttr(alpha))});
  if (!eluX)
    return failure();
  results.push_back(ctx.build<MulOp>({eluX, ctx.scalar(element, gamma)}));
  return success(results.back() != nullptr);
}

/// Clip-6 takes min/max attributes, Clip-11+ optional inputs; absent bounds
/// are the element type's extremes.
LogicalResult clip(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  Type element = NodeContext::typeOf(*x).getElementType();
  auto extreme = [&](bool high) -> Value {
    if (auto floatType = dyn_cast<FloatType>(element)) {
      APFloat inf = APFloat::getInf(floatType.getFloatSemantics(), !high);
      return ctx.constant(
          DenseElementsAttr::get(RankedTensorType::get({}, element), inf));
    }
    auto intType = cast<IntegerType>(element);
    unsigned width = intType.getWidth();
    APInt v = intType.isUnsigned()
                  ? (high ? APInt::getMaxValue(width) : APInt::getMinValue(width))
                  : (high ? APInt::getSignedMaxValue(width)
                          : APInt::getSignedMinValue(width));
    return ctx.constant(
        DenseElementsAttr::get(RankedTensorType::get({}, element), v));
  };
  Value lo, hi;
  if (ctx.opset < 11) {
    lo = ctx.hasAttr("min") ? ctx.scalar(element, ctx.getFloat("min", 0))
                            : extreme(false);
    hi = ctx.hasAttr("max") ? ctx.scalar(element, ctx.getFloat("max", 0))
                            : extreme(true);
  } else {
    if (failed(ctx.requireRank(1, 0, 1)) || failed(ctx.requireRank(2, 0, 1)))
      return failure();
    lo = ctx.input(1) ? ctx.input(1) : extreme(false);
    hi = ctx.input(2) ? ctx.input(2) : extreme(true);
    // Exporters sometimes give the bounds as 1-element vectors.
    for (Value *bound : {&lo, &hi})
      if (NodeContext::typeOf(*bound).getRank() != 0) {
        *bound = ctx.build<ReshapeOp>(
            {*bound}, {}, RankedTensorType::get({}, element));
        if (!*bound)
          return failure();
      }
  }
  results.push_back(ctx.build<ClampOp>({*x, lo, hi}));
  return success(results.back() != nullptr);
}
/// PRelu before opset 7 applies a 1-D slope of C values along channel
/// axis 1; from 7 on it broadcasts like numpy.
LogicalResult preluLegacy(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), slope = ctx.requireInput(1);
  if (failed(x) || failed(slope))
    return failure();
  Value s = *slope;
  auto xt = NodeContext::typeOf(*x), st = NodeContext::typeOf(s);
  if (st.getRank() == 1 && xt.getRank() > 2 && st.getDimSize(0) != 1 &&
      st.getDimSize(0) == xt.getDimSize(1)) {
    SmallVector<int64_t> shape = {st.getDimSize(0)};
    shape.resize(xt.getRank() - 1, 1);
    s = reshapeTo(ctx, s, shape);
  }
  results.push_back(s ? ctx.build<PreluOp>({*x, s}) : nullptr);
  return success(results.back() != nullptr);
}

/// Inference-mode Dropout is the identity; its mask, when asked for, is all
/// true.
LogicalResult dropout(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  // Before opset 7 `is_test` chose the mode; a compiled model runs those
  // in inference, as every runtime does. From opset 12 the training_mode
  // input does: unless it is a constant false, the node may drop.
  if (Value training = ctx.input(2)) {
    std::optional<SmallVector<int64_t>> mode = ctx.getConstantInts(training);
    if (!mode || mode->size() != 1 || (*mode)[0] != 0)
      return trainingDropout(ctx, *x, results);
  }
  results.push_back(*x);
  if (ctx.node.output_size() > 1 && !ctx.node.output(1).empty()) {
    auto type = NodeContext::typeOf(*x);
    if (!type.hasStaticShape())
      return ctx.unsupported("the mask output of a dynamically shaped input");
    auto maskType = RankedTensorType::get(type.getShape(), ctx.builder.getI1Type());
    results.push_back(ctx.constant(DenseElementsAttr::get(maskType, true)));
  }
  return success();
}

LogicalResult isNaN(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  // NaN is the only value that is not equal to itself.
  auto ne = ComparePredicateAttr::get(ctx.builder.getContext(),
                                      ComparePredicate::ne);
  results.push_back(
      ctx.build<CompareOp>({*x, *x}, {ctx.namedAttr("predicate", ne)}));
  return success(results.back() != nullptr);
}

LogicalResult isInf(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  Type element = NodeContext::typeOf(*x).getElementType();
  auto floatType = dyn_cast<FloatType>(element);
  if (!floatType)
    return ctx.invalid("IsInf needs a floating-point input");
  auto eq = ComparePredicateAttr::get(ctx.builder.getContext(),
                                      ComparePredicate::eq);
  auto infinity = [&](bool negative) {
    return ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({}, element),
        APFloat::getInf(floatType.getFloatSemantics(), negative)));
  };
  bool positive = ctx.getInt("detect_positive", 1) != 0;
  bool negative = ctx.getInt("detect_negative", 1) != 0;
  Value result;
  for (bool neg : {false, true}) {
    if (neg ? !negative : !positive)
      continue;
    Value hit = ctx.build<CompareOp>({*x, infinity(neg)},
                                     {ctx.namedAttr("predicate", eq)});
    result = result && hit ? ctx.build<OrOp>({result, hit}) : hit;
  }
  if (!result) {
    auto type = NodeContext::typeOf(*x);
    if (!type.hasStaticShape())
      return ctx.unsupported("IsInf detecting nothing on a dynamic shape");
    result = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get(type.getShape(), ctx.builder.getI1Type()), false));
  }
  results.push_back(result);
  return success(result != nullptr);
}

/// Activations without a tc op of their own, composed from tc ops.
enum class Activation { ThresholdedRelu, Shrink, Celu, HardSwish, Mish, Swish };

template <Activation kind>
LogicalResult activation(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> xOr = ctx.requireInput(0);
  if (failed(xOr))
    return failure();
  Value x = *xOr;
  Type element = NodeContext::typeOf(x).getElementType();
  if (!isa<FloatType>(element))
    return ctx.unsupported("integer inputs");
  auto cmp = [&](ComparePredicate p, Value a, Value b) {
    return ctx.build<CompareOp>(
        {a, b}, {ctx.namedAttr("predicate", ComparePredicateAttr::get(
                                                ctx.builder.getContext(), p))});
  };
  auto c = [&](double v) { return ctx.scalar(element, v); };
  Value zero = c(0.0), y;
  switch (kind) {
  case Activation::ThresholdedRelu: {
    Value keep = cmp(ComparePredicate::gt, x, c(ctx.getFloat("alpha", 1.0f)));
    y = keep ? ctx.build<SelectOp>({keep, x, zero}) : nullptr;
    break;
  }
  case Activation::Shrink: {
    float lambd = ctx.getFloat("lambd", 0.5f), bias = ctx.getFloat("bias", 0.0f);
    Value below = cmp(ComparePredicate::lt, x, c(-lambd));
    Value above = cmp(ComparePredicate::gt, x, c(lambd));
    Value plus = ctx.build<AddOp>({x, c(bias)});
    Value minus = ctx.build<SubOp>({x, c(bias)});
    Value inner = above && minus ? ctx.build<SelectOp>({above, minus, zero}) : nullptr;
    y = below && plus && inner ? ctx.build<SelectOp>({below, plus, inner}) : nullptr;
    break;
  }
  case Activation::Celu: {
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
    float alpha = ctx.getFloat("alpha", 1.0f);
    Value scaled = ctx.build<DivOp>({x, c(alpha)});
    Value elu = scaled ? ctx.build<EluOp>({scaled}, {ctx.namedAttr("alpha", ctx.builder.getF32FloatAttr(1.0f))}) : nullptr;
    y = elu ? ctx.build<MulOp>({elu, c(alpha)}) : nullptr;
    break;
  }
  case Activation::HardSwish: {
    Value hs = ctx.build<HardSigmoidOp>(
        {x}, {ctx.namedAttr("alpha", ctx.builder.getF32FloatAttr(1.0f / 6)),
              ctx.namedAttr("beta", ctx.builder.getF32FloatAttr(0.5f))});
    y = hs ? ctx.build<MulOp>({x, hs}) : nullptr;
    break;
  }
  case Activation::Mish: {
    Value sp = ctx.build<SoftplusOp>({x});
    Value t = sp ? ctx.build<TanhOp>({sp}) : nullptr;
    y = t ? ctx.build<MulOp>({x, t}) : nullptr;
    break;
  }
  case Activation::Swish: {
    Value scaled = ctx.build<MulOp>({x, c(ctx.getFloat("alpha", 1.0f))});
    Value s = scaled ? ctx.build<SigmoidOp>({scaled}) : nullptr;
    y = s ? ctx.build<MulOp>({x, s}) : nullptr;
    break;
  }
  }
  results.push_back(y);
  return success(y != nullptr);
}
} // namespace

void mlir::tc::onnx::registerElementwiseHandlers(OpRegistry &r) {
  // Unary math. Versions: the oldest opset tc imports (7) or the version
  // that introduced the op.
  r.add("Abs", 1, unary<AbsOp>);
  r.add("Neg", 1, unary<NegOp>);
  r.add("Sign", 9, unary<SignOp>);
  r.add("Relu", 1, unary<ReluOp>);
  r.add("Exp", 1, unary<ExpOp>);
  r.add("Log", 1, unary<LogOp>);
  r.add("Sqrt", 1, unary<SqrtOp>);
  r.add("Reciprocal", 1, unary<ReciprocalOp>);
  r.add("Tanh", 1, unary<TanhOp>);
  r.add("Sigmoid", 1, unary<SigmoidOp>);
  r.add("Erf", 9, unary<ErfOp>);
  r.add("Sin", 7, unary<SinOp>);
  r.add("Cos", 7, unary<CosOp>);
  r.add("Tan", 7, unary<TanOp>);
  r.add("Asin", 7, unary<AsinOp>);
  r.add("Acos", 7, unary<AcosOp>);
  r.add("Atan", 7, unary<AtanOp>);
  r.add("Sinh", 9, unary<SinhOp>);
  r.add("Cosh", 9, unary<CoshOp>);
  r.add("Asinh", 9, unary<AsinhOp>);
  r.add("Acosh", 9, unary<AcoshOp>);
  r.add("Atanh", 9, unary<AtanhOp>);
  r.add("Floor", 1, unary<FloorOp>);
  r.add("Ceil", 1, unary<CeilOp>);
  r.add("Round", 11, unary<RoundOp>);
  r.add("Softplus", 1, unary<SoftplusOp>);
  r.add("Softsign", 1, unary<SoftsignOp>);
  r.add("Not", 1, unary<NotOp>);
  r.add("Identity", 1, identity);
  r.add("LeakyRelu", 1, leakyRelu);
  r.add("Elu", 1, elu);
  r.add("Selu", 1, selu);
  r.add("HardSigmoid", 1, hardSigmoid);
  r.add("Gelu", 20, gelu);
  r.add("Clip", 1, clip);
  r.add("Clip", 11, clip);

  // Binary: legacy `broadcast`/`axis` attributes before opset 7, numpy
  // broadcasting from 7.
  r.add("Add", 1, legacyBinary<AddOp>);
  r.add("Sub", 1, legacyBinary<SubOp>);
  r.add("Mul", 1, legacyBinary<MulOp>);
  r.add("Div", 1, legacyBinary<DivOp>);
  r.add("Pow", 1, legacyBinary<PowOp>);
  r.add("PRelu", 1, preluLegacy);
  r.add("And", 1, legacyBinary<AndOp>);
  r.add("Or", 1, legacyBinary<OrOp>);
  r.add("Xor", 1, legacyBinary<XorOp>);
  r.add("PRelu", 7, binary<PreluOp>);
  r.add("Add", 7, binary<AddOp>);
  r.add("Sub", 7, binary<SubOp>);
  r.add("Mul", 7, binary<MulOp>);
  r.add("Div", 7, binary<DivOp>);
  r.add("Pow", 7, binary<PowOp>);
  r.add("And", 7, binary<AndOp>);
  r.add("Or", 7, binary<OrOp>);
  r.add("Xor", 7, binary<XorOp>);
  r.add("BitwiseAnd", 18, binary<AndOp>);
  r.add("BitwiseOr", 18, binary<OrOp>);
  r.add("BitwiseXor", 18, binary<XorOp>);
  r.add("BitwiseNot", 18, unary<NotOp>);
  r.add("BitShift", 11, bitShift);
  r.add("Mod", 10, mod);
  r.add("Equal", 1, compare<ComparePredicate::eq>);
  r.add("Less", 1, compare<ComparePredicate::lt>);
  r.add("LessOrEqual", 12, compare<ComparePredicate::le>);
  r.add("Greater", 1, compare<ComparePredicate::gt>);
  r.add("GreaterOrEqual", 12, compare<ComparePredicate::ge>);
  r.add("Where", 9, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    FailureOr<Value> c = ctx.requireInput(0), a = ctx.requireInput(1),
                     b = ctx.requireInput(2);
    if (failed(c) || failed(a) || failed(b))
      return failure();
    results.push_back(ctx.build<SelectOp>({*c, *a, *b}));
    return success(results.back() != nullptr);
  });
  r.add("Max", 1, variadic<MaxOp>);
  r.add("Min", 1, variadic<MinOp>);
  r.add("Sum", 1, variadic<AddOp>);
  r.add("Mean", 1, variadic<AddOp, /*mean=*/true>);
  r.add("Dropout", 1, dropout);
  r.add("IsNaN", 9, isNaN);
  r.add("IsInf", 10, isInf);
  r.add("ThresholdedRelu", 10, activation<Activation::ThresholdedRelu>);
  r.add("Shrink", 9, activation<Activation::Shrink>);
  r.add("Celu", 12, activation<Activation::Celu>);
  r.add("HardSwish", 14, activation<Activation::HardSwish>);
  r.add("Mish", 18, activation<Activation::Mish>);
  r.add("Swish", 24, activation<Activation::Swish>);
}
