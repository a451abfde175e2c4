//===- PrefetchPanels.cpp - the --tc-cpu-prefetch-panels pass -------------===//
//
// A register-tiled matmul with packed weights ([panels, K, lanes], from
// --tc-cpu-pack-weights) reads one panel per workgroup, again for every row
// tile. The first row tile takes the panel from wherever it lies; in a
// transformer (ViT-B/16: 344 MB of weights, more than the last-level cache)
// that is memory, and the tile waits on it: a 197 x 3072 by 3072 x 768
// matmul whose weights were not cached took 7.6 ms against 6.3 ms cached.
// The hardware prefetchers do not run ahead into the next panel. This pass
// makes each row tile prefetch its share of the next panel into the
// second-level cache, spread over its reduction steps: the next panel then
// arrives at a low, even rate while the current one computes from cache.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

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

/// A constant index's value.
std::optional<int64_t> constantIndex(Value value) {
  APInt v;
  if (!matchPattern(value, m_ConstantInt(&v)))
    return std::nullopt;
  return v.getSExtValue();
}

/// The static trip count of `loop`: lower bound 0 or not, any step.
std::optional<int64_t> tripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = constantIndex(loop.getLowerBound());
  std::optional<int64_t> ub = constantIndex(loop.getUpperBound());
  std::optional<int64_t> step = constantIndex(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
    return std::nullopt;
  return llvm::divideCeil(*ub - *lb, *step);
}

/// Whether `value` is computed from `iv` (through at most a few ops).
bool dependsOn(Value value, Value iv, int depth = 8) {
  if (value == iv)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOn(operand, iv, depth - 1);
  });
}

/// A register tile's reduction step reading one row of a packed panel:
/// `read` of `weights`[p, k, 0 .. lanes) in `kLoop` (k its induction
/// variable, from 0 to K by 1).
struct PanelRead {
  vector::TransferReadOp read;
  scf::ForOp kLoop;
  /// The loops around kLoop that p does not depend on (the row tiles that
  /// share the panel), outermost first, and their static trip counts.
  SmallVector<scf::ForOp> rowLoops;
  int64_t rowTiles = 1;
  /// The panels the loops p depends on step through (a workgroup of two
  /// panels: 2); the next panel is p + this.
  int64_t panelStride = 1;
  int64_t panels, steps, lanes;
};

std::optional<PanelRead> matchPanelRead(vector::TransferReadOp read) {
  auto type = dyn_cast<MemRefType>(read.getBase().getType());
  if (!type || type.getRank() != 3 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  if (shape[0] < 2 || read.getVectorType().getNumElements() != shape[2])
    return std::nullopt;
  int64_t elementBytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  if (type.getNumElements() * elementBytes <= kPrivateCacheBytes)
    return std::nullopt;
  auto kLoop = dyn_cast<scf::ForOp>(read->getParentOp());
  if (!kLoop || kLoop.getInitArgs().empty() ||
      read.getIndices()[1] != kLoop.getInductionVar() ||
      constantIndex(read.getIndices()[2]) != 0 ||
      constantIndex(kLoop.getLowerBound()) != 0 ||
      constantIndex(kLoop.getStep()) != 1 ||
      constantIndex(kLoop.getUpperBound()) != shape[1])
    return std::nullopt;
  // Accumulators in registers: a tile's reduction loop.
  if (!llvm::all_of(kLoop.getInitArgs().getTypes(), llvm::IsaPred<VectorType>))
    return std::nullopt;
  PanelRead found{read, kLoop, {}, 1, 1, shape[0], shape[1], shape[2]};
  Value panel = read.getIndices()[0];
  for (Operation *op = kLoop->getParentOp();
       op && !isa<FunctionOpInterface>(op); op = op->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return std::nullopt;
    std::optional<int64_t> trips = tripCount(loop);
    if (!trips)
      return std::nullopt;
    if (dependsOn(panel, loop.getInductionVar())) {
      found.panelStride *= *trips;
    } else {
      found.rowLoops.insert(found.rowLoops.begin(), loop);
      found.rowTiles *= *trips;
    }
  }
  return found;
}

/// Adds to `p`'s reduction loop the prefetches of the row tile's share of
/// the next panel (the last panel prefetches itself): at step k of row tile
/// t of T, the lines from element floor((t * K + k) * lanes / T) of that
/// panel, enough of them that the T tiles' K steps cover it.
void prefetchNextPanel(PanelRead p) {
  MLIRContext *ctx = p.read.getContext();
  // The next panel and the tile's index are the same for all K steps.
  OpBuilder b(p.kLoop);
  Location loc = p.read.getLoc();
  auto type = cast<MemRefType>(p.read.getBase().getType());
  int64_t elementBytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  int64_t lineElements = std::max<int64_t>(1, kLineBytes / elementBytes);
  int64_t tiles = p.rowTiles;
  int64_t lines = llvm::divideCeil(p.lanes * elementBytes, kLineBytes * tiles);

  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  Value next = affine::AffineMinOp::create(
      b, loc,
      AffineMap::get(
          1, 0, {d0 + p.panelStride, getAffineConstantExpr(p.panels - 1, ctx)},
          ctx),
      ValueRange{p.read.getIndices()[0]});
  // The row tile's index among the T, row-major over the row loops.
  AffineExpr linear = getAffineConstantExpr(0, ctx);
  SmallVector<Value> ivs;
  for (auto [i, loop] : llvm::enumerate(p.rowLoops)) {
    int64_t lb = *constantIndex(loop.getLowerBound());
    int64_t step = *constantIndex(loop.getStep());
    linear = linear * *tripCount(loop) +
             (getAffineDimExpr(i, ctx) - lb).floorDiv(step);
    ivs.push_back(loop.getInductionVar());
  }
  Value tile = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(ivs.size(), 0, linear), ivs);
  b.setInsertionPointToStart(p.kLoop.getBody());
  Value k = p.kLoop.getInductionVar();
  for (int64_t line = 0; line < lines; ++line) {
    AffineExpr element =
        ((d0 * p.steps + d1) * p.lanes).floorDiv(tiles) + line * lineElements;
    Value row = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(2, 0, element.floorDiv(p.lanes)),
        ValueRange{tile, k});
    Value lane = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(2, 0, element % p.lanes), ValueRange{tile, k});
    memref::PrefetchOp::create(b, loc, p.read.getBase(),
                               ValueRange{next, row, lane}, /*isWrite=*/false,
                               kSecondLevelLocality, /*isDataCache=*/true);
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
    // A tile without a row loop (the partial tile after the full ones)
    // prefetches only when it is the panel's one reader: otherwise the
    // full tiles have fetched the next panel already.
    for (PanelRead &p : reads) {
      if (p.rowTiles == 1 && llvm::count_if(reads, [&](PanelRead &q) {
                               return q.read.getBase() == p.read.getBase();
                             }) > 1)
        continue;
      prefetchNextPanel(p);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
