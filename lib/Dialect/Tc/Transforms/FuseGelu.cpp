//===- FuseGelu.cpp - fold exporters' GELU chains into tc.gelu ------------===//
//
// ONNX before opset 20 has no Gelu, so exporters spell it out:
//   erf form:  x * 0.5 * (1 + erf(x / sqrt(2)))
//   tanh form: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
// The three factors come in any association (PyTorch multiplies by x and
// then by 0.5; others scale x or the sum first), so the match flattens the
// outer product into three leaves and assigns them roles. One tc.gelu is
// one kernel and lowers to a polynomial instead of 6 to 9 tensor ops.
//
//===----------------------------------------------------------------------===//

#include "PatternUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include <cmath>

namespace mlir::tc {
#define GEN_PASS_DEF_TCFUSEGELUPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::fuse;

namespace {

struct GeluMatch {
  Value input;
  bool approximateTanh = false;
  /// The matched ops, the root first.
  SmallVector<Operation *> ops;
};

/// x^3 as pow(x, 3), x * (x * x) or (x * x) * x, read only by `user`.
bool matchCube(Value value, Value x, Operation *user,
               SmallVectorImpl<Operation *> &ops) {
  if (auto pow = ownedBy<PowOp>(value, user)) {
    if (pow.getLhs() != x || !isConstantNear(pow.getRhs(), 3.0))
      return false;
    ops.push_back(pow);
    return true;
  }
  auto mul = ownedBy<MulOp>(value, user);
  if (!mul)
    return false;
  for (auto [square, other] : {std::pair(mul.getLhs(), mul.getRhs()),
                               std::pair(mul.getRhs(), mul.getLhs())}) {
    if (other != x)
      continue;
    auto inner = ownedBy<MulOp>(square, mul);
    if (inner && inner.getLhs() == x && inner.getRhs() == x) {
      ops.append({mul, inner});
      return true;
    }
  }
  return false;
}

/// The argument of erf: x / sqrt(2) or x * (1 / sqrt(2)).
bool matchErfArgument(Value value, Value x, Operation *erf,
                      SmallVectorImpl<Operation *> &ops) {
  if (auto div = ownedBy<DivOp>(value, erf)) {
    if (otherThanConstant(div, std::sqrt(2.0), /*commutative=*/false) != x)
      return false;
    ops.push_back(div);
    return true;
  }
  auto mul = ownedBy<MulOp>(value, erf);
  if (!mul || otherThanConstant(mul, 1.0 / std::sqrt(2.0), true) != x)
    return false;
  ops.push_back(mul);
  return true;
}

/// The argument of tanh: sqrt(2/pi) * (x + 0.044715 * x^3).
bool matchTanhArgument(Value value, Value x, Operation *tanh,
                       SmallVectorImpl<Operation *> &ops) {
  auto scaled = ownedBy<MulOp>(value, tanh);
  if (!scaled)
    return false;
  Value sum = otherThanConstant(scaled, std::sqrt(2.0 / M_PI), true);
  auto add = sum ? ownedBy<AddOp>(sum, scaled) : nullptr;
  if (!add)
    return false;
  Value cubic = add.getLhs() == x ? add.getRhs() : add.getLhs();
  if (add.getLhs() != x && add.getRhs() != x)
    return false;
  auto term = ownedBy<MulOp>(cubic, add);
  Value cube = term ? otherThanConstant(term, 0.044715, true) : nullptr;
  if (!cube)
    return false;
  ops.append({scaled, add, term});
  return matchCube(cube, x, term, ops);
}

/// 1 + erf(...) or 1 + tanh(...), read only by `user`.
bool matchPhi(Value value, Value x, Operation *user, GeluMatch &match) {
  auto add = ownedBy<AddOp>(value, user);
  Value t = add ? otherThanConstant(add, 1.0, true) : nullptr;
  if (!t)
    return false;
  match.ops.push_back(add);
  if (auto erf = ownedBy<ErfOp>(t, add)) {
    match.ops.push_back(erf);
    return matchErfArgument(erf.getInput(), x, erf, match.ops);
  }
  if (auto tanh = ownedBy<TanhOp>(t, add)) {
    match.ops.push_back(tanh);
    match.approximateTanh = true;
    return matchTanhArgument(tanh.getInput(), x, tanh, match.ops);
  }
  return false;
}

/// The product x * 0.5 * phi rooted at `root`, in any association.
std::optional<GeluMatch> matchGelu(MulOp root) {
  for (int nestedIndex = 0; nestedIndex < 2; ++nestedIndex) {
    auto inner = ownedBy<MulOp>(root->getOperand(nestedIndex), root);
    if (!inner)
      continue;
    // Leaves 0 and 1 are read by `inner`, leaf 2 by `root`.
    Value leaves[3] = {inner.getLhs(), inner.getRhs(),
                       root->getOperand(1 - nestedIndex)};
    Operation *readers[3] = {inner, inner, root};
    for (int half = 0; half < 3; ++half) {
      if (!isConstantNear(leaves[half], 0.5))
        continue;
      for (int phi = 0; phi < 3; ++phi) {
        if (phi == half)
          continue;
        Value x = leaves[3 - half - phi];
        GeluMatch match;
        match.input = x;
        match.ops.append({root, inner});
        if (!matchPhi(leaves[phi], x, readers[phi], match))
          continue;
        // No constant may have broadcast x to a larger shape on the way.
        if (!isa<FloatType>(getElementTypeOrSelf(x.getType())) ||
            llvm::any_of(match.ops, [&](Operation *op) {
              return op->getResult(0).getType() != x.getType();
            }))
          continue;
        return match;
      }
    }
  }
  return std::nullopt;
}

struct TcFuseGeluPass : tc::impl::TcFuseGeluPassBase<TcFuseGeluPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](MulOp root) {
      std::optional<GeluMatch> match = matchGelu(root);
      if (!match)
        return;
      SmallVector<Location> locs;
      for (Operation *op : match->ops)
        locs.push_back(op->getLoc());
      rewriter.setInsertionPoint(root);
      auto gelu = GeluOp::create(rewriter, rewriter.getFusedLoc(locs),
                                 match->input.getType(), match->input,
                                 match->approximateTanh);
      rewriter.replaceOp(root, gelu.getResult());
      eraseDeadOps(rewriter, ArrayRef(match->ops).drop_front());
    });
  }
};

} // namespace
