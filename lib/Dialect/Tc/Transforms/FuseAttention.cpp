//===- FuseAttention.cpp - fold scaled dot-product attention chains -------===//
//
// Exporters emit attention as
//   scores = batch_matmul(Q, K^T)    (scaled by a constant: on the scores,
//                                     or pre-applied to Q or K^T)
//   probs  = softmax(scores [+ mask], last axis)
//   out    = batch_matmul(probs, V)
// The match starts at the second batch_matmul and walks up through values
// only the chain reads; every constant factor met on the way multiplies
// into tc.attention's scale. The key stays K^T, the operand the scores'
// matmul read (key_transposed: its keys are contiguous, the lanes of the
// scores' register tiles); a transpose producing it that only the chain
// reads is kept as the key's own (the identity drops it).
//
//===----------------------------------------------------------------------===//

#include "PatternUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

namespace mlir::tc {
#define GEN_PASS_DEF_TCFUSEATTENTIONPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::fuse;

namespace {

struct AttentionMatch {
  Value query, value, mask;
  /// K^T is `keySource` transposed by `keyPermutation` (maybe the
  /// identity).
  Value keySource;
  SmallVector<int64_t> keyPermutation;
  double scale = 1.0;
  /// The matched ops, the root (second batch_matmul) first.
  SmallVector<Operation *> ops;
};

/// Follows multiplications and divisions of `value` by constants that only
/// `user` (then the op found) reads, multiplying their factors into `scale`.
/// Returns the value before the first of them; `user` becomes its reader.
Value peelConstantFactors(Value value, Operation *&user, double &scale,
                          SmallVectorImpl<Operation *> &ops) {
  while (true) {
    Operation *op = value.getDefiningOp();
    if (!op || !isa<MulOp, DivOp>(op) || !onlyUsedBy(value, user))
      return value;
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    std::optional<double> factor = getScalarConstant(rhs);
    Value rest = lhs;
    if (!factor && isa<MulOp>(op)) {
      factor = getScalarConstant(lhs);
      rest = rhs;
    }
    // A constant that broadcast the value to a larger shape is not a scale.
    if (!factor || *factor == 0.0 || rest.getType() != value.getType())
      return value;
    scale = isa<DivOp>(op) ? scale / *factor : scale * *factor;
    ops.push_back(op);
    user = op;
    value = rest;
  }
}

/// Finds K^T. A transpose producing it that only the chain reads is
/// matched too, with the constant factors before it (scaling commutes with
/// transposing): K^T is then that transpose of the unscaled value.
void matchKey(Value keyTransposed, Operation *reader, AttentionMatch &match) {
  int64_t rank = cast<RankedTensorType>(keyTransposed.getType()).getRank();
  match.keySource = keyTransposed;
  match.keyPermutation = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  auto transpose = keyTransposed.getDefiningOp<TransposeOp>();
  if (!transpose || !onlyUsedBy(keyTransposed, reader))
    return;
  match.keyPermutation.assign(transpose.getPermutation().begin(),
                              transpose.getPermutation().end());
  match.ops.push_back(transpose);
  Operation *user = transpose;
  match.keySource =
      peelConstantFactors(transpose.getInput(), user, match.scale, match.ops);
}

/// The scaled scores batch_matmul(Q, K^T) that `logits` is, read only by
/// `reader`; fills in query, key and scale.
bool matchScores(Value logits, Operation *reader, AttentionMatch &match) {
  Value raw = peelConstantFactors(logits, reader, match.scale, match.ops);
  auto scores = ownedBy<BatchMatmulOp>(raw, reader);
  if (!scores)
    return false;
  match.ops.push_back(scores);
  Operation *user = scores;
  match.query =
      peelConstantFactors(scores.getLhs(), user, match.scale, match.ops);
  user = scores;
  Value keyTransposed =
      peelConstantFactors(scores.getRhs(), user, match.scale, match.ops);
  matchKey(keyTransposed, user, match);
  return true;
}

std::optional<AttentionMatch> matchAttention(BatchMatmulOp root) {
  AttentionMatch match;
  match.ops.push_back(root);
  auto softmax = ownedBy<SoftmaxOp>(root.getLhs(), root);
  if (!softmax ||
      static_cast<int64_t>(softmax.getAxis()) != softmax.getType().getRank() - 1)
    return std::nullopt;
  match.ops.push_back(softmax);
  match.value = root.getRhs();

  Value logits = softmax.getInput();
  if (matchScores(logits, softmax, match))
    return match;
  // An additive mask: either operand of the add may lead to the scores. It
  // must not broadcast the scores to a larger shape.
  auto add = ownedBy<AddOp>(logits, softmax);
  if (!add)
    return std::nullopt;
  for (auto [chain, mask] : {std::pair(add.getLhs(), add.getRhs()),
                             std::pair(add.getRhs(), add.getLhs())}) {
    if (chain.getType() != add.getType() || chain == mask)
      continue;
    AttentionMatch masked;
    masked.ops = {root, softmax, add};
    masked.value = match.value;
    masked.mask = mask;
    if (matchScores(chain, add, masked))
      return masked;
  }
  return std::nullopt;
}

/// `source` transposed by `permutation`, or `source` for the identity.
Value transposeKey(OpBuilder &b, Location loc, Value source,
                   ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return source;
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape;
  for (int64_t axis : permutation)
    shape.push_back(sourceType.getDimSize(axis));
  return TransposeOp::create(b, loc, sourceType.clone(shape), source,
                             b.getDenseI64ArrayAttr(permutation));
}

struct TcFuseAttentionPass
    : tc::impl::TcFuseAttentionPassBase<TcFuseAttentionPass> {
  void runOnOperation() override {
    // The chain of a root lies before it, so visiting roots in program
    // order never meets an op an earlier rewrite erased.
    SmallVector<BatchMatmulOp> roots;
    getOperation().walk([&](BatchMatmulOp op) { roots.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (BatchMatmulOp root : roots) {
      std::optional<AttentionMatch> match = matchAttention(root);
      if (!match)
        continue;
      SmallVector<Location> locs;
      for (Operation *op : match->ops)
        locs.push_back(op->getLoc());
      Location loc = rewriter.getFusedLoc(locs);
      rewriter.setInsertionPoint(root);
      Value key = transposeKey(rewriter, loc, match->keySource,
                               match->keyPermutation);
      auto attention = AttentionOp::create(
          rewriter, loc, root.getType(), match->query, key, match->value,
          match->mask,
          rewriter.getF32FloatAttr(static_cast<float>(match->scale)),
          /*key_transposed=*/rewriter.getUnitAttr());
      rewriter.replaceOp(root, attention.getResult());
      eraseDeadOps(rewriter, ArrayRef(match->ops).drop_front());
    }
  }
};

} // namespace
