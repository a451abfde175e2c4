//===- VectorizeTransposes.cpp - --tc-cpu-vectorize-transposes ------------===//
//
// An elementwise op whose input is read transposed (a copy between NCHW
// and a channel-blocked layout, Winograd's pack and unpack, the bias added
// on the way) is left to scalar loops by --tc-cpu-vectorize-elementwise:
// a vector along the output's contiguous dimension would gather from the
// input one element per lane. Tiled in squares of one vector register by
// one (16 x 16 f32) instead, each tile reads 16 contiguous vectors of the
// input, transposes them in registers (vector.transpose, lowered to
// shuffles) and writes 16 contiguous vectors of the output.
//
// Runs on buffers, in the workgroup functions, before
// --tc-cpu-vectorize-elementwise.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUVECTORIZETRANSPOSESPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Marks the tiles this pass creates.
constexpr StringLiteral kTileMarker = kTransposeTileMarker;

/// For an elementwise op on buffers with a transposed input: (m, n), n the
/// loop of the output's last dimension and m the last dimension's loop of
/// every input that reads n elsewhere (static, at least two iterations
/// each). Other inputs read n only in their last dimension, or not at all.
std::optional<std::pair<unsigned, unsigned>> transposeLoops(linalg::GenericOp op) {
  if (!isLaneKernel(op) || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!out.isProjectedPermutation() || out.getNumResults() < 2)
    return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
  if (!last)
    return std::nullopt;
  unsigned n = last.getPosition();
  std::optional<unsigned> m;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!map.isFunctionOfDim(n) || map.getResults().back() == last)
      continue;
    if (!map.isProjectedPermutation())
      return std::nullopt;
    auto inLast = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!inLast || (m && *m != inLast.getPosition()))
      return std::nullopt;
    m = inLast.getPosition();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!m || ShapedType::isDynamic(ranges[n]) || ShapedType::isDynamic(ranges[*m]) ||
      ranges[n] < 2 || ranges[*m] < 2)
    return std::nullopt;
  return std::make_pair(*m, n);
}

/// Tiles `op` in squares of `lanes` on (m, n), split first into parts whose
/// widths the tiles divide (the last part one partial tile), 1 on every
/// other loop, with m and n innermost; marks the tiles.
void tileSquares(RewriterBase &rewriter, linalg::GenericOp op, unsigned m,
                 unsigned n, int64_t lanes) {
  for (auto [part, widthN] : splitLanes(rewriter, op, n, lanes))
    for (auto [square, widthM] : splitLanes(rewriter, part, m, lanes)) {
      SmallVector<int64_t> sizes(square.getNumLoops(), 1);
      sizes[n] = widthN % lanes == 0 ? lanes : widthN;
      sizes[m] = widthM % lanes == 0 ? lanes : widthM;
      SmallVector<unsigned> order;
      for (unsigned i = 0; i < square.getNumLoops(); ++i)
        if (i != m && i != n)
          order.push_back(i);
      order.append({m, n});
      (void)tileAndMark(rewriter, square, sizes, order, kTileMarker);
    }
}

struct CpuVectorizeTransposesPass
    : impl::CpuVectorizeTransposesPassBase<CpuVectorizeTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::tuple<linalg::GenericOp, unsigned, unsigned>> ops;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (auto loops = transposeLoops(op))
        ops.push_back({op, loops->first, loops->second});
    });
    if (ops.empty())
      return;
    IRRewriter rewriter(&getContext());
    for (auto [op, m, n] : ops) {
      Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
      tileSquares(rewriter, op, m, n, registerLanes(element));
    }
    vectorizeMarkedTiles(rewriter, getOperation(), kTileMarker);
    // The vectorizer reads the transposed input with a permuted transfer;
    // as a contiguous read and a vector.transpose, the read unrolls into
    // vector loads (--convert-vector-to-scf) and the transpose becomes
    // shuffles (--convert-vector-to-llvm).
    // An elementwise body (an activation joined to the unpack of a blocked
    // convolution) then runs before the transpose, where the vectors are
    // whole registers, not after it on the output's short rows (14 lanes
    // of a 14-wide image, which LLVM computes in three pieces).
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    (void)canonicalizeTiles(getOperation());
  }
};

} // namespace
} // namespace mlir::tc::cpu
