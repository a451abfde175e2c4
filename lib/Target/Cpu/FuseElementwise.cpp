//===- FuseElementwise.cpp - the --tc-cpu-fuse-elementwise pass -----------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUFUSEELEMENTWISEPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// True when the consumer reads each element of the operand exactly once.
bool readsEachElementOnce(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  if (!consumer)
    return false;
  AffineMap map = consumer.getMatchingIndexingMap(operand);
  return map.isPermutation();
}

/// True for a generic with only parallel loops.
bool isElementwise(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && generic.getNumLoops() == generic.getNumParallelLoops();
}

/// True for a linalg op with a reduction loop (a contraction, a window).
bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_if_present<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() > 0;
}

/// True when `value` feeds a contraction.
bool feedsContraction(Value value) {
  return llvm::any_of(value.getUsers(), isContraction);
}

/// A copy whose input is a contraction's result: the unpacking of a
/// convolution computed in channel blocks (--tc-cpu-block-conv-channels),
/// whose collapse to [N, F, O...] then moves past the activation as if
/// the copy were the contraction, and the activation joins the copy.
bool copiesContraction(Operation *op) {
  if (!isElementwise(op))
    return false;
  auto generic = cast<linalg::GenericOp>(op);
  if (generic.getNumDpsInputs() != 1)
    return false;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  return yield.getNumOperands() == 1 &&
         yield.getOperand(0) == generic.getBody()->getArgument(0) &&
         isContraction(generic.getDpsInputOperand(0)->get().getDefiningOp());
}

/// A reshape between a contraction and an elementwise neighbour moves to the
/// neighbour's far side, so that the neighbour works in the contraction's
/// shape: a 1x1 convolution is a matmul over the collapsed image (its bias
/// broadcast is collapsed into it, its activation reads it expanded), a
/// depthwise one a grouped convolution with a unit group dimension. Then
/// the workgroup split fuses the neighbours into the contraction's
/// workgroups, as for any other anchor, instead of each making a pass over
/// memory of its own. `reshape` is the kind the rewrite folds: the
/// producer of an elementwise consumer, or the consumer of an elementwise
/// producer.
/// The reshape's source may itself be reshaped from the contraction: a
/// batch matmul by a shared weight is a 2-D matmul over the collapsed batch
/// expanded back (--convert-tc-to-linalg), whose packed form collapses its
/// panels (--tc-cpu-pack-weights), so that with a dynamic batch the
/// epilogue reads expand(collapse(contraction)), which no one reassociation
/// folds; moving the outer reshape off first lets the inner one follow.
template <typename ReshapeOp>
bool movesReshapeOffContraction(OpOperand *operand) {
  Operation *owner = operand->getOwner();
  if (isElementwise(owner)) {
    auto reshape = operand->get().getDefiningOp<ReshapeOp>();
    if (!reshape)
      return false;
    Operation *source = reshape.getSrc().getDefiningOp();
    // Only that one pair: a longer walk would let the expansion and the
    // collapsing patterns undo each other for ever.
    if (auto packed = dyn_cast_if_present<tensor::CollapseShapeOp>(source);
        packed && isa<tensor::ExpandShapeOp>(reshape.getOperation()))
      source = packed.getSrc().getDefiningOp();
    return isContraction(source) ||
           (isa<tensor::CollapseShapeOp>(reshape.getOperation()) &&
            copiesContraction(source));
  }
  auto reshape = dyn_cast<ReshapeOp>(owner);
  return reshape && isElementwise(operand->get().getDefiningOp()) &&
         feedsContraction(reshape.getResult());
}

struct CpuFuseElementwisePass
    : impl::CpuFuseElementwisePassBase<CpuFuseElementwisePass> {
  void runOnOperation() override {

    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 readsEachElementOnce);
    // Collapsing: an activation reading an expanded contraction result, a
    // broadcast collapsed into a contraction. Expanding: the reverse.
    linalg::populateFoldReshapeOpsByCollapsingPatterns(
        patterns, [](OpOperand *operand) {
          return isElementwise(operand->getOwner())
                     ? movesReshapeOffContraction<tensor::ExpandShapeOp>(operand)
                     : movesReshapeOffContraction<tensor::CollapseShapeOp>(operand);
        });
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *operand) {
          return isElementwise(operand->getOwner())
                     ? movesReshapeOffContraction<tensor::CollapseShapeOp>(operand)
                     : movesReshapeOffContraction<tensor::ExpandShapeOp>(operand);
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::cpu
