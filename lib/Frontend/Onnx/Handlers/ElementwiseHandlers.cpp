//===- ElementwiseHandlers.cpp - ONNX elementwise ops to tc ---------------===//

#include "../NodeContext.h"

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

template <ComparePredicate predicate>
LogicalResult compare(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> a = ctx.requireInput(0), b = ctx.requireInput(1);
  if (failed(a) || failed(b))
    return failure();
  auto attr = ComparePredicateAttr::get(ctx.builder.getContext(), predicate);
  results.push_back(
      ctx.build<CompareOp>({*a, *b}, {ctx.namedAttr("predicate", attr)}));
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

/// x * alpha if x <= 0 else x * gamma... Selu and the like compose from tc
/// ops where tc has no fused op.
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
} // namespace

void mlir::tc::onnx::registerElementwiseHandlers(OpRegistry &r) {
  // Unary math. Versions: the oldest opset tc imports (7) or the version
  // that introduced the op.
  r.add("Abs", 6, unary<AbsOp>);
  r.add("Neg", 6, unary<NegOp>);
  r.add("Sign", 9, unary<SignOp>);
  r.add("Relu", 6, unary<ReluOp>);
  r.add("Exp", 6, unary<ExpOp>);
  r.add("Log", 6, unary<LogOp>);
  r.add("Sqrt", 6, unary<SqrtOp>);
  r.add("Reciprocal", 6, unary<ReciprocalOp>);
  r.add("Tanh", 6, unary<TanhOp>);
  r.add("Sigmoid", 6, unary<SigmoidOp>);
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
  r.add("Floor", 6, unary<FloorOp>);
  r.add("Ceil", 6, unary<CeilOp>);
  r.add("Round", 11, unary<RoundOp>);
  r.add("Softplus", 1, unary<SoftplusOp>);
  r.add("Softsign", 1, unary<SoftsignOp>);
  r.add("Not", 1, unary<NotOp>);
  r.add("Identity", 1, identity);
  r.add("LeakyRelu", 6, leakyRelu);
  r.add("Elu", 6, elu);
  r.add("Selu", 6, selu);
  r.add("HardSigmoid", 6, hardSigmoid);
  r.add("Gelu", 20, gelu);
  r.add("Clip", 6, clip);
  r.add("Clip", 11, clip);

  // Binary, numpy broadcasting from opset 7.
  r.add("Add", 7, binary<AddOp>);
  r.add("Sub", 7, binary<SubOp>);
  r.add("Mul", 7, binary<MulOp>);
  r.add("Div", 7, binary<DivOp>);
  r.add("Pow", 7, binary<PowOp>);
  r.add("PRelu", 7, binary<PreluOp>);
  r.add("And", 7, binary<AndOp>);
  r.add("Or", 7, binary<OrOp>);
  r.add("Xor", 7, binary<XorOp>);
  r.add("BitwiseAnd", 18, binary<AndOp>);
  r.add("BitwiseOr", 18, binary<OrOp>);
  r.add("BitwiseXor", 18, binary<XorOp>);
  r.add("BitwiseNot", 18, unary<NotOp>);
  r.add("BitShift", 11, bitShift);
  r.add("Mod", 10, mod);
  r.add("Equal", 7, compare<ComparePredicate::eq>);
  r.add("Less", 7, compare<ComparePredicate::lt>);
  r.add("LessOrEqual", 12, compare<ComparePredicate::le>);
  r.add("Greater", 7, compare<ComparePredicate::gt>);
  r.add("GreaterOrEqual", 12, compare<ComparePredicate::ge>);
  r.add("Where", 9, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    FailureOr<Value> c = ctx.requireInput(0), a = ctx.requireInput(1),
                     b = ctx.requireInput(2);
    if (failed(c) || failed(a) || failed(b))
      return failure();
    results.push_back(ctx.build<SelectOp>({*c, *a, *b}));
    return success(results.back() != nullptr);
  });
  r.add("Max", 6, variadic<MaxOp>);
  r.add("Min", 6, variadic<MinOp>);
  r.add("Sum", 6, variadic<AddOp>);
  r.add("Mean", 6, variadic<AddOp, /*mean=*/true>);
}
