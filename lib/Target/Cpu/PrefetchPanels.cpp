//===- PrefetchPanels.cpp - the --tc-cpu-prefetch-panels pass -------------===//
//
// A register-tiled kernel over packed weights (a matmul's [panels, K,
// lanes] from --tc-cpu-pack-weights, a convolution's [panels, C, KH, KW,
// lanes] from --tc-cpu-block-conv-channels) reads one block of them per row
// tile loop, again for every row tile. The first row tile takes the block
// from wherever it lies; when the weights outgrow the caches (a
// transformer's 344 MB; the 9.4 MB of each of ResNet's deep 3x3
// convolutions, read once a run) that is memory, and the tile waits: a
// 197 x 3072 by 3072 x 768 matmul whose weights were not cached took 7.6 ms
// against 6.3 ms cached, and ResNet-18's layer4 convolutions 2.5 ms against
// 1.6 ms with the prefetches. The hardware prefetchers do not run ahead
// into the next block. This pass makes each row tile prefetch its share of
// the next block into the second-level cache, spread over its reduction
// steps: the next block then arrives at a low, even rate while the current
// one computes from cache.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUPREFETCHPANELSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// A cache line.
constexpr int64_t kLineBytes = 64;

/// The second-level cache (x86 prefetcht1): a panel is read again by
/// every row tile, from there.
constexpr uint32_t kSecondLevelLocality = 2;

/// The static, non-zero trip count of `loop`.
std::optional<int64_t> tripCount(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->isZero())
    return std::nullopt;
  return trips->getSExtValue();
}

/// A register tile's reduction step reading one row of packed weights,
/// `weights`[i..., 0 .. lanes) of a static, contiguous buffer whose last dim
/// is the tile's lanes. The reduction loops around it (`steps`, those that
/// carry the tile's accumulators) sweep a contiguous block of those rows:
/// each sets one index, the dims in their order and the last ones before
/// the lanes, every loop but the outermost over its whole dim (a matmul's
/// K for a panel; a convolution's block of input channels times its 3 x 3
/// window). The loops outside them are the row tiles that read the same
/// block (the weights' indices do not depend on them) and the loops that
/// step through blocks or panels (they do).
struct PanelRead {
  vector::TransferReadOp read;
  /// The reduction loops, outermost first, and their steps in all.
  SmallVector<scf::ForOp> steps;
  int64_t blockSteps = 1;
  /// The row tile loops, outermost first, and their trip counts' product.
  SmallVector<scf::ForOp> rowLoops;
  int64_t rowTiles = 1;
  /// The blocks of rows between this block and the next one read after
  /// the row tiles: 1, or the panels of a workgroup stepped through inside
  /// its row loop (2 for a workgroup of two panels).
  int64_t blockStride = 1;
  int64_t lanes = 0;
};

/// Whether `loop` is a reduction over a tile's accumulators in registers.
bool carriesVectors(scf::ForOp loop) {
  return !loop.getInitArgs().empty() &&
         llvm::all_of(loop.getInitArgs().getTypes(), llvm::IsaPred<VectorType>);
}

std::optional<PanelRead> matchPanelRead(vector::TransferReadOp read) {
  auto type = dyn_cast<MemRefType>(read.getBase().getType());
  if (!type || type.getRank() < 2 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = type.getRank();
  int64_t elementBytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  if (read.getVectorType().getNumElements() != shape.back() ||
      getConstantIntValue(read.getIndices().back()) != 0 ||
      type.getNumElements() * elementBytes <= kPrivateCacheBytes)
    return std::nullopt;
  PanelRead found;
  found.read = read;
  found.lanes = shape.back();
  // The reduction loops, innermost first: each sets the next dim out.
  int64_t dim = rank - 2;
  Operation *op = read->getParentOp();
  for (auto loop = dyn_cast<scf::ForOp>(op); loop && carriesVectors(loop);
       loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> trips = tripCount(loop);
    if (dim < 0 || !trips || getConstantIntValue(loop.getLowerBound()) != 0 ||
        getConstantIntValue(loop.getStep()) != 1)
      return std::nullopt;
    for (int64_t d = 0; d < rank - 1; ++d)
      if (dependsOn(read.getIndices()[d], loop.getInductionVar()) != (d == dim))
        return std::nullopt;
    found.steps.insert(found.steps.begin(), loop);
    found.blockSteps *= *trips;
    --dim;
    op = loop->getParentOp();
  }
  if (found.steps.empty())
    return std::nullopt;
  // All but the outermost sweep their dims whole.
  for (auto [i, loop] : llvm::enumerate(found.steps))
    if (i > 0 && *tripCount(loop) != shape[dim + 1 + i])
      return std::nullopt;
  // The loops outside, up to the function, outermost first.
  SmallVector<scf::ForOp> outside;
  for (; op && !isa<FunctionOpInterface>(op); op = op->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return std::nullopt;
    outside.insert(outside.begin(), loop);
  }
  // A loop over blocks outside the row loops may run any number of times
  // (a workgroup's share of the LM head's 1571 panels); the others need
  // their trip counts.
  for (scf::ForOp loop : outside) {
    bool stepsWeights = llvm::any_of(read.getIndices(), [&](Value index) {
      return dependsOn(index, loop.getInductionVar());
    });
    std::optional<int64_t> trips = tripCount(loop);
    if (!stepsWeights) {
      if (!trips)
        return std::nullopt;
      found.rowLoops.push_back(loop);
      found.rowTiles *= *trips;
    } else if (!found.rowLoops.empty()) {
      // Inside a row loop: its blocks are read by each row tile in turn.
      if (!trips)
        return std::nullopt;
      found.blockStride *= *trips;
    }
  }
  return found;
}

/// A flat view of `weights` (contiguous), made where `weights` is defined.
Value flatView(OpBuilder &b, Value weights) {
  OpBuilder::InsertionGuard guard(b);
  if (auto arg = dyn_cast<BlockArgument>(weights))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfter(weights.getDefiningOp());
  auto type = cast<MemRefType>(weights.getType());
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all[0].push_back(d);
  return memref::CollapseShapeOp::create(b, weights.getLoc(), weights, all);
}

/// Adds to `p`'s innermost reduction loop the prefetches of the row tile's
/// share of the next block (the next panel after a panel's last block; past
/// the weights' end, their last element): at step s of row tile t of T, the
/// lines from element floor((t * S + s) * lanes / T) of that block, enough
/// of them that the T tiles' S steps cover it.
void prefetchNextBlock(PanelRead p, Value flat) {
  MLIRContext *ctx = p.read.getContext();
  auto type = cast<MemRefType>(p.read.getBase().getType());
  int64_t rank = type.getRank();
  int64_t elementBytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  int64_t lineElements = std::max<int64_t>(1, kLineBytes / elementBytes);
  int64_t tiles = p.rowTiles, lanes = p.lanes, steps = p.blockSteps;
  int64_t lines = llvm::divideCeil(lanes * elementBytes, kLineBytes * tiles);

  // Operands: the read's indices, the reduction loops' and the row loops'
  // induction variables.
  SmallVector<Value> operands(p.read.getIndices());
  AffineExpr element = getAffineConstantExpr(0, ctx);
  SmallVector<int64_t> strides = type.getStridesAndOffset().first;
  for (int64_t d = 0; d < rank; ++d)
    element = element + getAffineDimExpr(d, ctx) * strides[d];
  unsigned next = rank;
  AffineExpr step = getAffineConstantExpr(0, ctx);
  for (scf::ForOp loop : p.steps) {
    step = step * *tripCount(loop) + getAffineDimExpr(next++, ctx);
    operands.push_back(loop.getInductionVar());
  }
  AffineExpr tile = getAffineConstantExpr(0, ctx);
  for (scf::ForOp loop : p.rowLoops) {
    int64_t lb = *getConstantIntValue(loop.getLowerBound());
    int64_t by = *getConstantIntValue(loop.getStep());
    tile = tile * *tripCount(loop) +
           (getAffineDimExpr(next++, ctx) - lb).floorDiv(by);
    operands.push_back(loop.getInductionVar());
  }
  // The block's first row, then the next block's, then the tile's share.
  AffineExpr first = element - step * lanes + steps * lanes * p.blockStride +
                     ((tile * steps + step) * lanes).floorDiv(tiles);
  // Just before the read, where all of its indices are defined.
  OpBuilder b(p.read);
  Location loc = p.read.getLoc();
  AffineExpr last = getAffineConstantExpr(type.getNumElements() - 1, ctx);
  for (int64_t line = 0; line < lines; ++line) {
    // Canonical: the lanes' index is 0 and a reduction loop's variable is
    // also a weights index, so the map folds to a few terms.
    AffineMap map =
        AffineMap::get(next, 0, {first + line * lineElements, last}, ctx);
    SmallVector<Value> mapOperands(operands);
    affine::canonicalizeMapAndOperands(&map, &mapOperands);
    map = simplifyAffineMap(map);
    Value index = affine::AffineMinOp::create(b, loc, map, mapOperands);
    memref::PrefetchOp::create(b, loc, flat, ValueRange{index},
                               /*isWrite=*/false, kSecondLevelLocality,
                               /*isDataCache=*/true);
  }
}

struct CpuPrefetchPanelsPass
    : impl::CpuPrefetchPanelsPassBase<CpuPrefetchPanelsPass> {
  void runOnOperation() override {
    SmallVector<PanelRead> reads;
    getOperation()->walk([&](vector::TransferReadOp read) {
      if (std::optional<PanelRead> p = matchPanelRead(read))
        reads.push_back(*p);
    });
    OpBuilder b(&getContext());
    llvm::DenseMap<Value, Value> flat;
    for (PanelRead &p : reads) {
      Value weights = p.read.getBase();
      // A tile without a row loop (the partial tile after the full ones)
      // prefetches only when it is the weights' one reader: otherwise the
      // full tiles have fetched the next block already.
      if (p.rowTiles == 1 && llvm::count_if(reads, [&](PanelRead &q) {
                               return q.read.getBase() == weights;
                             }) > 1)
        continue;
      Value &view = flat[weights];
      if (!view)
        view = flatView(b, weights);
      prefetchNextBlock(p, view);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
