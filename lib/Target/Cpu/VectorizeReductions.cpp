//===- VectorizeReductions.cpp - --tc-cpu-vectorize-reductions ------------===//
//
// Reductions (softmax's max and sum, a normalization's mean and variance,
// ReduceSum/Max/Mean, a GEMV over a transposed weight) in the vector
// dialect. Each kernel is vectorized along the loop its inputs read
// contiguously:
//  - a reduction loop (a row reduced along its last dim): the row is read in
//    chunks of `row-lanes` lanes, each chunk reduced by one vector reduction
//    into the scalar accumulator, which the LLVM lowering turns into a tree
//    of vector adds (reassociated) instead of a serial chain of scalar adds
//    that LLVM's loop vectorizer must leave in order;
//  - a parallel loop that is also the output's last dim (a reduction over
//    leading dims, as ReduceSum over axis 0): each step of the reduction
//    loops is one vector operation on a row of `lanes` accumulators.
// Trailing loops narrower than a vector are collapsed first (a global
// average pool over a 7x7 image reduces rows of 49, not of 7). Tiling,
// unit-loop dropping and vectorization are those of the elementwise
// pass (RegisterTiling.h); vector.multi_reduction is lowered here to
// vector.reduction along its innermost dimension.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUVECTORIZEREDUCTIONSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Marks the tiles this pass creates.
constexpr StringLiteral kTileMarker = kReductionTileMarker;

/// The loop a reduction kernel is vectorized along: the last dim of one of
/// its inputs (larger inputs first), at least `minLanes` long or dynamic (its
/// partial last tile stays loops),
/// read by every input that depends on it as its own last dim; when that
/// loop is parallel, also the last dim of every output (a transposed write
/// stays loops).
std::optional<unsigned> reductionLaneLoop(linalg::GenericOp op,
                                          int64_t minLanes) {
  if (!isLaneKernel(op) || op.getNumReductionLoops() == 0)
    return std::nullopt;
  SmallVector<OpOperand *> inputs = op.getDpsInputOperands();
  llvm::sort(inputs, [&](OpOperand *a, OpOperand *b) {
    return std::make_pair(-op.getRank(a), a->getOperandNumber()) <
           std::make_pair(-op.getRank(b), b->getOperandNumber());
  });
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (OpOperand *input : inputs) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last)
      continue;
    unsigned n = last.getPosition();
    if ((!ShapedType::isDynamic(ranges[n]) && ranges[n] < minLanes) ||
        !readsLoopOnlyInLastDim(op, n))
      continue;
    if (iterators[n] == utils::IteratorType::parallel &&
        !llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
          AffineMap out = op.getMatchingIndexingMap(&init);
          return out.getNumResults() > 0 &&
                 out.getResults().back() == getAffineDimExpr(n, op.getContext());
        }))
      continue;
    return n;
  }
  return std::nullopt;
}

struct CpuVectorizeReductionsPass
    : impl::CpuVectorizeReductionsPassBase<CpuVectorizeReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (lanes < 1 || rowLanes < 1) {
      getOperation()->emitError("lanes and row-lanes must be positive");
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isLaneKernel(op) && op.getNumReductionLoops() > 0)
        candidates.push_back(op);
    });
    SmallVector<std::pair<linalg::GenericOp, unsigned>> kernels;
    for (linalg::GenericOp op : candidates) {
      std::optional<unsigned> n = reductionLaneLoop(op, 8);
      // A global average pool over a 7x7 image reduces rows of 7: its two
      // reduction loops become one of 49 lanes.
      if (!n) {
        op = collapseNarrowRows(rewriter, op, 8);
        n = reductionLaneLoop(op, 8);
      }
      // A 1x1 convolution on a 1x1 image (a squeeze-excitation block's)
      // reads its input [N, C, 1] with a unit dim after the reduced one:
      // without its unit loops it is a row reduction of the weight's rows.
      if (!n && op.hasPureBufferSemantics() &&
          !ShapedType::isDynamicShape(op.getStaticLoopRanges())) {
        op = dropUnitLoops(rewriter, op);
        op = collapseNarrowRows(rewriter, op, 8);
        n = reductionLaneLoop(op, 8);
      }
      if (n)
        kernels.push_back({op, *n});
    }
    if (kernels.empty())
      return;
    for (auto [op, n] : kernels) {
      bool alongRow =
          op.getIteratorTypesArray()[n] == utils::IteratorType::reduction;
      Type element =
          getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
      if (!element.isIntOrFloat())
        continue;
      int64_t width = alongRow ? rowLanes : lanes;
      int64_t scaled =
          std::max<int64_t>(1, width * 32 / element.getIntOrFloatBitWidth());
      tileAlongLanes(rewriter, op, n, scaled, kTileMarker);
    }
    vectorizeMarkedTiles(rewriter, getOperation(), kTileMarker);
    // Folds the reductions over the unit dims of a reduction over leading
    // dims into elementwise operations on the accumulators first.
    (void)canonicalizeTiles(getOperation());
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Drops the vectorizer's reads of outputs that are only written.
    (void)canonicalizeTiles(getOperation());
  }
};

} // namespace
} // namespace mlir::tc::cpu
