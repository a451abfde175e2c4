//===- FuseLayerNorm.cpp - fold layer normalization chains ----------------===//
//
// ONNX before opset 17 has no LayerNormalization, and exporters of older
// opsets spell it out:
//   mean = ReduceMean(x, axes, keepdims)   d = x - mean
//   var = ReduceMean(d * d or Pow(d, 2))   y = d / Sqrt(var + eps)
//   (or d * Rsqrt(var + eps), d * Reciprocal(Sqrt(var + eps)))
//   optionally y * gamma + beta
// The match starts at the first ReduceMean and follows single uses forward
// as far as the chain goes, so gamma and beta are taken when present.
// tc.layer_norm normalizes the trailing axes [axis, rank) only; means over
// other axes (instance or group normalization written out) stay as they are.
//
//===----------------------------------------------------------------------===//

#include "PatternUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tc {
#define GEN_PASS_DEF_TCFUSELAYERNORMPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::fuse;

namespace {

struct LayerNormMatch {
  Value input;
  int64_t axis = 0;
  double epsilon = 0;
  Value gamma, beta; // null when absent
  /// The matched ops; `last` is the one the tc.layer_norm replaces.
  SmallVector<Operation *> ops;
  Operation *last = nullptr;
};

/// The first reduced axis when `mean` reduces exactly [axis, rank) with
/// keepdims.
std::optional<int64_t> trailingAxis(ReduceMeanOp mean) {
  int64_t rank = mean.getInput().getType().getRank();
  SmallVector<int64_t> axes(mean.getAxes());
  llvm::sort(axes);
  if (!mean.getKeepdims() || axes.empty() || axes.back() != rank - 1)
    return std::nullopt;
  for (size_t i = 1; i < axes.size(); ++i)
    if (axes[i] != axes[i - 1] + 1)
      return std::nullopt;
  return axes.front();
}

/// The square of `d`: d * d or pow(d, 2).
bool isSquareOf(Operation *op, Value d) {
  if (auto mul = dyn_cast<MulOp>(op))
    return mul.getLhs() == d && mul.getRhs() == d;
  if (auto pow = dyn_cast<PowOp>(op))
    return pow.getLhs() == d && isConstantNear(pow.getRhs(), 2.0);
  return false;
}

/// `norm` divides `d` by sqrt(shifted) or multiplies it by rsqrt(shifted)
/// or reciprocal(sqrt(shifted)); returns the `shifted` value (var + eps).
Value matchNormalizer(Operation *norm, Value d,
                      SmallVectorImpl<Operation *> &ops) {
  if (auto div = dyn_cast<DivOp>(norm)) {
    auto sqrt = div.getLhs() == d ? ownedBy<SqrtOp>(div.getRhs(), div) : nullptr;
    if (!sqrt)
      return nullptr;
    ops.push_back(sqrt);
    return sqrt.getInput();
  }
  auto mul = dyn_cast<MulOp>(norm);
  if (!mul || (mul.getLhs() == d) == (mul.getRhs() == d))
    return nullptr;
  Value factor = mul.getLhs() == d ? mul.getRhs() : mul.getLhs();
  if (auto rsqrt = ownedBy<RsqrtOp>(factor, mul)) {
    ops.push_back(rsqrt);
    return rsqrt.getInput();
  }
  auto reciprocal = ownedBy<ReciprocalOp>(factor, mul);
  auto sqrt = reciprocal ? ownedBy<SqrtOp>(reciprocal.getInput(), reciprocal)
                         : nullptr;
  if (!sqrt)
    return nullptr;
  ops.append({reciprocal, sqrt});
  return sqrt.getInput();
}

/// Whether `param` (gamma or beta, read by an op whose result has x's type)
/// is constant along the dims before `axis`, so that tc.layer_norm can take
/// it with the normalized dims' shape (reshaping or broadcasting it needs
/// static sizes).
bool isPerFeature(Value param, RankedTensorType x, int64_t axis) {
  auto type = dyn_cast<RankedTensorType>(param.getType());
  if (!type || type.getElementType() != x.getElementType() ||
      type.getRank() > x.getRank())
    return false;
  ArrayRef<int64_t> normalized = x.getShape().drop_front(axis);
  if (type.getShape() != normalized &&
      (!type.hasStaticShape() ||
       llvm::any_of(normalized, ShapedType::isDynamic)))
    return false;
  int64_t offset = x.getRank() - type.getRank();
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (offset + i < axis && type.getDimSize(i) != 1)
      return false;
  return true;
}

/// `param` (accepted by isPerFeature) reshaped (leading 1s dropped) and
/// broadcast to `normalized`.
Value toNormalizedShape(OpBuilder &b, Location loc, Value param,
                        RankedTensorType normalized) {
  auto type = cast<RankedTensorType>(param.getType());
  if (type == normalized)
    return param;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t extra = type.getRank() - normalized.getRank();
  if (extra > 0) {
    shape = shape.drop_front(extra);
    param = ReshapeOp::create(b, loc, type.clone(shape), param, Value());
  }
  if (shape != normalized.getShape())
    param = BroadcastOp::create(b, loc, normalized, param, Value());
  return param;
}

std::optional<LayerNormMatch> matchLayerNorm(ReduceMeanOp mean) {
  LayerNormMatch match;
  Value x = mean.getInput();
  auto xType = cast<RankedTensorType>(x.getType());
  std::optional<int64_t> axis = trailingAxis(mean);
  if (!axis || !isa<FloatType>(xType.getElementType()))
    return std::nullopt;
  match.input = x;
  match.axis = *axis;

  // d = x - mean, read by the square and the normalizer only.
  if (!mean.getResult().hasOneUse())
    return std::nullopt;
  auto sub = dyn_cast<SubOp>(*mean.getResult().getUsers().begin());
  if (!sub || sub.getLhs() != x || sub.getRhs() != mean.getResult() ||
      sub.getType() != xType)
    return std::nullopt;
  Value d = sub.getResult();
  llvm::SmallSetVector<Operation *, 2> users(d.getUsers().begin(),
                                             d.getUsers().end());
  if (users.size() != 2)
    return std::nullopt;
  Operation *square = users[0], *norm = users[1];
  if (!isSquareOf(square, d))
    std::swap(square, norm);
  if (!isSquareOf(square, d))
    return std::nullopt;
  match.ops.append({mean, sub, square});

  // var = mean of the square over the same axes; shifted = var + eps.
  Value squared = square->getResult(0);
  if (!squared.hasOneUse())
    return std::nullopt;
  auto var = dyn_cast<ReduceMeanOp>(*squared.getUsers().begin());
  if (!var || trailingAxis(var) != axis || !var.getResult().hasOneUse())
    return std::nullopt;
  auto add = dyn_cast<AddOp>(*var.getResult().getUsers().begin());
  if (!add)
    return std::nullopt;
  Value epsValue = add.getLhs() == var.getResult() ? add.getRhs() : add.getLhs();
  std::optional<double> epsilon = getScalarConstant(epsValue);
  if (!epsilon || *epsilon < 0 || add.getType() != var.getType())
    return std::nullopt;
  match.epsilon = *epsilon;
  match.ops.append({var, add});

  Value shifted = matchNormalizer(norm, d, match.ops);
  if (shifted != add.getResult() || !add.getResult().hasOneUse() ||
      norm->getResult(0).getType() != xType)
    return std::nullopt;
  match.ops.push_back(norm);
  match.last = norm;

  // Optional * gamma, then optional + beta, each the only reader of the
  // value before it and keeping x's shape.
  auto extend = [&](auto opTag, Value &param) {
    using OpTy = decltype(opTag);
    Value y = match.last->getResult(0);
    if (!y.hasOneUse())
      return;
    auto op = dyn_cast<OpTy>(*y.getUsers().begin());
    if (!op || op.getType() != xType || op.getLhs() == op.getRhs())
      return;
    Value other = op.getLhs() == y ? op.getRhs() : op.getLhs();
    if (!isPerFeature(other, xType, match.axis))
      return;
    param = other;
    match.ops.push_back(op);
    match.last = op;
  };
  extend(MulOp(), match.gamma);
  extend(AddOp(), match.beta);
  // Without gamma the scale is a constant of ones, which needs static sizes.
  if (!match.gamma &&
      llvm::any_of(xType.getShape().drop_front(match.axis),
                   ShapedType::isDynamic))
    return std::nullopt;
  return match;
}

void rewrite(IRRewriter &rewriter, LayerNormMatch &match) {
  auto xType = cast<RankedTensorType>(match.input.getType());
  auto normalized =
      xType.clone(xType.getShape().drop_front(match.axis));
  SmallVector<Location> locs;
  for (Operation *op : match.ops)
    locs.push_back(op->getLoc());
  Location loc = rewriter.getFusedLoc(locs);
  rewriter.setInsertionPoint(match.last);
  Value scale, bias;
  if (match.gamma) {
    scale = toNormalizedShape(rewriter, loc, match.gamma, normalized);
  } else {
    // tc.layer_norm always scales; without gamma the scale is 1.
    Attribute one = rewriter.getFloatAttr(xType.getElementType(), 1.0);
    scale = ConstantOp::create(rewriter, loc,
                               DenseElementsAttr::get(normalized, one));
  }
  if (match.beta)
    bias = toNormalizedShape(rewriter, loc, match.beta, normalized);
  auto norm = LayerNormOp::create(
      rewriter, loc, xType, match.input, scale, bias,
      rewriter.getI64IntegerAttr(match.axis),
      rewriter.getF32FloatAttr(static_cast<float>(match.epsilon)));
  rewriter.replaceOp(match.last, norm.getResult());
  SmallVector<Operation *> dead;
  for (Operation *op : match.ops)
    if (op != match.last)
      dead.push_back(op);
  eraseDeadOps(rewriter, dead);
}

struct TcFuseLayerNormPass
    : tc::impl::TcFuseLayerNormPassBase<TcFuseLayerNormPass> {
  void runOnOperation() override {
    // Matches start at their first op and erase ops further down, so the
    // candidates are collected first and erased ones skipped.
    SmallVector<ReduceMeanOp> means;
    getOperation().walk([&](ReduceMeanOp op) { means.push_back(op); });
    IRRewriter rewriter(&getContext());
    llvm::DenseSet<Operation *> erased;
    for (ReduceMeanOp mean : means) {
      if (erased.contains(mean))
        continue;
      std::optional<LayerNormMatch> match = matchLayerNorm(mean);
      if (!match)
        continue;
      erased.insert(match->ops.begin(), match->ops.end());
      rewrite(rewriter, *match);
    }
  }
};

} // namespace
