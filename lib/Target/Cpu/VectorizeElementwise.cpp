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
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() == 0 || op.getNumLoops() != op.getNumParallelLoops())
    return std::nullopt;
  bool touchesMemory = false;
  op.getBlock()->walk([&](Operation *inner) {
    if (!isa<linalg::YieldOp>(inner) && !isPure(inner))
      touchesMemory = true;
  });
  if (touchesMemory)
    return std::nullopt;
  for (Type t : op->getOperandTypes()) {
    Type element = getElementTypeOrSelf(t);
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8)
      return std::nullopt;
  }
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
  for (AffineMap map : op.getIndexingMapsArray())
    if (!llvm::all_of(map.getResults(), [](AffineExpr e) {
          return isa<AffineDimExpr, AffineConstantExpr>(e);
        }))
      return std::nullopt;
  // A transposed read is left to loops.
  return readsLoopOnlyInLastDim(op, n) ? std::optional(n) : std::nullopt;
}

/// Tiles `op` with `width` lanes on loop `n` (which `width` divides) and 1
/// on every other loop, `n` innermost; marks the tile.
void tileLanes(RewriterBase &rewriter, linalg::GenericOp op, unsigned n,
               int64_t width) {
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes[n] = width;
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < op.getNumLoops(); ++i)
    if (i != n)
      order.push_back(i);
  order.push_back(n);
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes).setInterchange(order).setLoopType(
      linalg::LinalgTilingLoopType::Loops);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled = linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled))
    return;
  tiled->op->setAttr(kTileMarker, rewriter.getUnitAttr());
  rewriter.eraseOp(op);
}

/// Splits loop `n` into whole vectors (splitLanes) and tiles each part.
void splitAndTile(RewriterBase &rewriter, linalg::GenericOp op, unsigned n,
                  int64_t lanes) {
  for (auto [part, width] : splitLanes(rewriter, op, n, lanes))
    tileLanes(rewriter, part, n, width % lanes == 0 ? lanes : width);
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
    SmallVector<std::pair<linalg::GenericOp, unsigned>> kernels;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<unsigned> n = laneLoop(op, std::min<int64_t>(8, lanes)))
        kernels.push_back({op, *n});
    });
    if (kernels.empty())
      return;
    for (auto [op, n] : kernels) {
      Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
      int64_t scaled = std::max<int64_t>(1, lanes * 32 / element.getIntOrFloatBitWidth());
      splitAndTile(rewriter, op, n, scaled);
    }
    (void)canonicalizeTiles(getOperation());
    SmallVector<linalg::GenericOp> tiles;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kTileMarker)) {
        op->removeAttr(kTileMarker);
        tiles.push_back(op);
      }
    });
    for (linalg::GenericOp tile : tiles) {
      bool isStatic = llvm::all_of(tile->getOperandTypes(), [](Type t) {
        auto shaped = dyn_cast<ShapedType>(t);
        return !shaped || shaped.hasStaticShape();
      });
      if (!isStatic)
        continue;
      linalg::GenericOp op = dropUnitLoops(rewriter, tile);
      rewriter.setInsertionPoint(op);
      if (succeeded(linalg::vectorize(rewriter, op)))
        rewriter.eraseOp(op);
    }
    // Drops the vectorizer's reads of outputs that are only written.
    (void)canonicalizeTiles(getOperation());
  }
};

} // namespace
} // namespace mlir::tc::cpu
