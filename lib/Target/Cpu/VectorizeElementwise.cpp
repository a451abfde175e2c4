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

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUVECTORIZEELEMENTWISEPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Marks the tiles this pass creates.
constexpr StringLiteral kTileMarker = "tc.elementwise_tile";

/// The loop of an elementwise op's contiguous output dimension, when the op
/// can be vectorized along it: all loops parallel, on buffers, one output
/// whose last dim is a static loop of at least 8 lanes, every input reading
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
  if (ShapedType::isDynamic(range) || range < minLanes)
    return std::nullopt;
  // A transposed read is left to loops.
  return readsLoopOnlyInLastDim(op, n) ? std::optional(n) : std::nullopt;
}

/// The reassociation that collapses `group` (consecutive loops) in an
/// operand read through `map`: the dims the group's loops index, which
/// areDimSequencesPreserved has checked are consecutive and in order, become
/// one; nothing when the operand reads none of them.
SmallVector<ReassociationIndices> operandGroups(AffineMap map,
                                                const ReassociationIndices &group) {
  auto inGroup = [&](AffineExpr e) {
    auto d = dyn_cast<AffineDimExpr>(e);
    return d && llvm::is_contained(group, static_cast<int64_t>(d.getPosition()));
  };
  SmallVector<ReassociationIndices> groups;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    if (i > 0 && inGroup(e) && inGroup(map.getResult(i - 1)))
      groups.back().push_back(i);
    else
      groups.push_back({static_cast<int64_t>(i)});
  }
  return groups;
}

/// An elementwise op whose contiguous dimension is narrower than a vector
/// (a 7x7 image's rows: an activation after a convolution on ResNet's or
/// EfficientNet's last stage) with its trailing loops collapsed into one
/// (49 lanes), when every operand's buffer allows it; the op itself
/// otherwise.
linalg::GenericOp collapseNarrowRows(RewriterBase &rewriter, linalg::GenericOp op,
                                     int64_t minLanes) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() < 2 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return op;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t last = op.getNumLoops() - 1;
  if (ShapedType::isDynamic(ranges[last]) || ranges[last] >= minLanes)
    return op;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto legal = [&](const ReassociationIndices &group) {
    if (!linalg::areDimSequencesPreserved(maps, {group}))
      return false;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!llvm::all_of(map.getResults(), [](AffineExpr e) { return isa<AffineDimExpr>(e); }) ||
          !memref::CollapseShapeOp::isGuaranteedCollapsible(type, operandGroups(map, group)))
        return false;
    }
    return true;
  };
  ReassociationIndices group = {last};
  int64_t lanes = ranges[last];
  for (int64_t d = last - 1; d >= 0 && lanes < 8 * minLanes; --d) {
    if (ShapedType::isDynamic(ranges[d]))
      break;
    ReassociationIndices wider = {d};
    wider.append(group.begin(), group.end());
    if (!legal(wider))
      break;
    group = wider;
    lanes *= ranges[d];
  }
  if (group.size() == 1)
    return op;
  SmallVector<ReassociationIndices> loops;
  for (int64_t d = 0; d < group.front(); ++d)
    loops.push_back({d});
  loops.push_back(group);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, loops, rewriter);
  if (failed(collapsed))
    return op;
  auto generic = dyn_cast<linalg::GenericOp>(collapsed->collapsedOp.getOperation());
  if (!generic)
    return op;
  rewriter.eraseOp(op);
  return generic;
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
    SmallVector<linalg::GenericOp> ops;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isLaneKernel(op))
        ops.push_back(op);
    });
    SmallVector<std::pair<linalg::GenericOp, unsigned>> kernels;
    for (linalg::GenericOp op : ops) {
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
