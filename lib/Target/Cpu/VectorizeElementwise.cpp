//===- VectorizeElementwise.cpp - --tc-cpu-vectorize-elementwise ----------===//
//
// Elementwise kernels (activations, residual adds, casts, broadcasts of a
// bias) in the vector dialect: each op is split along its contiguous output
// dimension into whole vector widths, tiled so that every tile is one
// vector of lanes with every other loop fixed, and vectorized by upstream
// linalg vectorization. Polynomial math approximations and the LLVM
// lowering then work on whole vectors, instead of relying on LLVM's loop
// vectorizer to recognize each loop nest after lowering to loops.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUVECTORIZEELEMENTWISEPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Marks the tiles this pass creates.
constexpr StringLiteral kTileMarker = kElementwiseTileMarker;

/// The loop of an elementwise op's contiguous output dimension, when the op
/// can be vectorized along it: all loops parallel, on buffers, one output
/// whose last dim is a loop of at least 8 lanes (or a dynamic one, whose
/// partial last tile stays loops), every input reading
/// that loop (if at all) as its own last dim, and a body without memory
/// accesses of its own (gathers stay loops).
std::optional<unsigned> laneLoop(linalg::GenericOp op, int64_t minLanes) {
  if (!isLaneKernel(op) || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0 || !out.isProjectedPermutation())
    return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
  if (!last)
    return std::nullopt;
  unsigned n = last.getPosition();
  int64_t range = op.getStaticLoopRanges()[n];
  if (!ShapedType::isDynamic(range) && range < minLanes)
    return std::nullopt;
  // A transposed read is left to loops.
  return readsLoopOnlyInLastDim(op, n) ? std::optional(n) : std::nullopt;
}

struct CpuVectorizeElementwisePass
    : impl::CpuVectorizeElementwisePassBase<CpuVectorizeElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    if (lanes < 1) {
      getOperation()->emitError("lanes must be positive");
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    int64_t minLanes = std::min<int64_t>(8, lanes);
    // A fill is an elementwise op with a scalar input: as a generic it is
    // vectorized along its last dim like the others. Left to loops, LLVM
    // vectorized a 56x56 plane's fill (max pooling's -inf) across its rows,
    // with a scatter per column.
    SmallVector<linalg::FillOp> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureBufferSemantics())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      rewriter.setInsertionPoint(fill);
      (void)linalg::generalizeNamedOp(rewriter, fill);
    }
    SmallVector<linalg::GenericOp> ops;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isLaneKernel(op))
        ops.push_back(op);
    });
    SmallVector<std::pair<linalg::GenericOp, unsigned>> kernels;
    for (linalg::GenericOp op : ops) {
      if (op.getNumLoops() == op.getNumParallelLoops())
        op = collapseNarrowRows(rewriter, op, minLanes);
      if (std::optional<unsigned> n = laneLoop(op, minLanes))
        kernels.push_back({op, *n});
    }
    if (kernels.empty())
      return;
    for (auto [op, n] : kernels) {
      Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
      if (!element.isIntOrFloat())
        continue;
      int64_t scaled = std::max<int64_t>(1, lanes * 32 / element.getIntOrFloatBitWidth());
      tileAlongLanes(rewriter, op, n, scaled, kTileMarker);
    }
    vectorizeMarkedTiles(rewriter, getOperation(), kTileMarker);
    // Drops the vectorizer's reads of outputs that are only written.
    (void)canonicalizeTiles(getOperation());
  }
};

} // namespace
} // namespace mlir::tc::cpu
