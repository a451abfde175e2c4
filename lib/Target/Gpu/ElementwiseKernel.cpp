//===- ElementwiseKernel.cpp - vectorized elementwise GPU kernels ---------===//
//
// An elementwise kernel moves data and does little arithmetic: its speed is
// the memory system's, which serves a warp's 16-byte accesses in a quarter
// of the instructions its 4-byte accesses take. The op is tiled along its
// innermost loop by L lanes, each tile a one-dimensional linalg op on
// rank-reduced views of L elements (or of one, for operands broadcast
// along that loop), which upstream's vectorizer turns into transfer reads
// and writes; upstream's transfer lowering then leaves plain vector.load /
// vector.store, which we point back at the original buffers and give the
// alignment the layout checks proved. Without that alignment LLVM
// would split each access back into scalars.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/ElementwiseKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tc::gpu {

int64_t elementBytes(Type type) {
  if (!type.isIntOrFloat())
    return 0;
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits < 8 || !llvm::isPowerOf2_32(bits))
    return 0;
  return bits / 8;
}

int64_t bufferBytes(MemRefType type) {
  return type.getNumElements() * elementBytes(type.getElementType());
}

bool rowsAligned(MemRefType type, int64_t lanes) {
  int64_t rank = type.getRank();
  if (rank == 0)
    return false;
  if (type.getLayout().isIdentity()) // outer strides: products of the last
    return !type.isDynamicDim(rank - 1) &&
           type.getDimSize(rank - 1) % lanes == 0;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1 ||
      ShapedType::isDynamic(offset) || offset % lanes != 0)
    return false;
  return llvm::all_of(ArrayRef(strides).drop_back(), [&](int64_t stride) {
    return !ShapedType::isDynamic(stride) && stride % lanes == 0;
  });
}

int64_t lanesAlong(linalg::LinalgOp op, unsigned loop, int64_t widest) {
  int64_t extent = op.getStaticLoopRanges()[loop];
  if (widest == 0 || ShapedType::isDynamic(extent) || extent == 0)
    return 1;
  int64_t lanes = kVectorBytes / widest;
  while (lanes > 1 && extent % lanes != 0)
    lanes /= 2;
  AffineExpr along = getAffineDimExpr(loop, op->getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> position = map.getResultPosition(along);
    if (!position)
      continue;
    if (*position + 1 != map.getNumResults() ||
        elementBytes(type.getElementType()) == 0)
      return 1;
    while (lanes > 1 && !rowsAligned(type, lanes))
      lanes /= 2;
  }
  return lanes;
}

namespace {

/// The widest element `op` moves, in bytes, or 0 when it is no elementwise
/// op this file handles: every loop parallel, buffers (and scalar inputs)
/// of plain elements read through projected permutations, a body of
/// elementwise-mappable ops, constants and linalg.index.
int64_t widestElement(linalg::LinalgOp op) {
  if (op.getNumLoops() == 0 || op.getNumLoops() != op.getNumParallelLoops() ||
      !op.hasPureBufferSemantics())
    return 0;
  int64_t widest = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      type = memref.getElementType();
      if (!op.getMatchingIndexingMap(&operand).isProjectedPermutation())
        return 0;
    } else if (op.isDpsInit(&operand)) {
      return 0;
    }
    int64_t bytes = elementBytes(type);
    if (bytes == 0)
      return 0;
    widest = std::max(widest, bytes);
  }
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!isa<linalg::IndexOp>(inner) &&
        !inner.hasTrait<OpTrait::ConstantLike>() &&
        !OpTrait::hasElementwiseMappableTraits(&inner))
      return 0;
  return widest;
}

/// Lanes per vector for `op`, or 0 when it does not fit (see the header).
int64_t lanesFor(linalg::LinalgOp op) {
  int64_t widest = widestElement(op);
  if (widest == 0)
    return 0;
  unsigned last = op.getNumLoops() - 1;
  // Every output is written along the innermost loop.
  AffineExpr innermost = getAffineDimExpr(last, op->getContext());
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).getResultPosition(innermost))
      return 0;
  int64_t lanes = lanesAlong(op, last, widest);
  return lanes < 2 ? 0 : lanes;
}

/// The innermost loops of `op` that can fold into one whose extent allows
/// more lanes than `lanes`: every operand reads them as its own innermost
/// dimensions, in order, with an identity layout and static extents (or
/// not at all); the body has no linalg.index (folding would delinearize
/// it). An elementwise op over 1 x 960 x 7 x 7, rows of 7 floats, becomes
/// one over 47040. Returns the loops, or nothing.
std::optional<ReassociationIndices> foldableLoops(linalg::LinalgOp op,
                                                  int64_t lanes) {
  unsigned n = op.getNumLoops();
  int64_t widest = widestElement(op);
  if (!isa<linalg::GenericOp, linalg::CopyOp>(op) || n < 2 || widest == 0 ||
      !op.getBlock()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  int64_t maxLanes = kVectorBytes / widest;
  ReassociationIndices best;
  int64_t extent = extents[n - 1];
  for (unsigned first = n - 1; first-- > 0;) {
    if (ShapedType::isDynamic(extents[first]) || ShapedType::isDynamic(extent))
      break;
    extent *= extents[first];
    bool fits = true;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      ArrayRef<AffineExpr> results = map.getResults();
      bool uses = llvm::any_of(results, [&](AffineExpr e) {
        return cast<AffineDimExpr>(e).getPosition() >= first;
      });
      if (!uses)
        continue;
      // The folded loops, in order, as the operand's last dimensions.
      unsigned count = n - first;
      fits &= type.getLayout().isIdentity() && results.size() >= count;
      for (unsigned i = 0; fits && i < count; ++i)
        fits &= results[results.size() - count + i] ==
                getAffineDimExpr(first + i, op->getContext());
    }
    if (!fits)
      break;
    int64_t folded = maxLanes;
    while (folded > 1 && extent % folded != 0)
      folded /= 2;
    if (folded >= 2 && folded > lanes) {
      best = llvm::to_vector(llvm::seq<int64_t>(first, n));
      if (folded == maxLanes)
        break;
      lanes = folded;
    }
  }
  if (best.empty())
    return std::nullopt;
  return best;
}

/// Points the tile's loads and stores (at index 0 of its views) at the
/// views' sources, at the views' offsets, and drops the views. Upstream's
/// alias folding would also fold the collapse_shape of folded loops into
/// them, trading one linear index for a delinearization per access.
/// Vectors of `lanes` elements get the alignment of their size: each starts
/// at a multiple of it (lanesFor checked every operand's layout).
void accessSources(RewriterBase &rewriter, scf::ParallelOp loop,
                   int64_t lanes) {
  auto source = [](Value base, ValueRange indices) -> memref::SubViewOp {
    auto view = base.getDefiningOp<memref::SubViewOp>();
    if (!view || !llvm::all_of(indices, isZeroInteger))
      return nullptr;
    return view;
  };
  SmallVector<Operation *> accesses;
  loop.walk([&](Operation *op) {
    if (isa<vector::LoadOp, vector::StoreOp, memref::LoadOp>(op))
      accesses.push_back(op);
  });
  for (Operation *access : accesses) {
    rewriter.setInsertionPoint(access);
    Location loc = access->getLoc();
    auto offsets = [&](memref::SubViewOp view) {
      return getValueOrCreateConstantIndexOp(rewriter, loc,
                                             view.getMixedOffsets());
    };
    auto alignment = [&](VectorType type) {
      if (type.getRank() != 1 || type.getNumElements() != lanes)
        return llvm::MaybeAlign();
      return llvm::MaybeAlign(lanes * elementBytes(type.getElementType()));
    };
    if (auto load = dyn_cast<vector::LoadOp>(access)) {
      if (memref::SubViewOp view = source(load.getBase(), load.getIndices()))
        rewriter.replaceOpWithNewOp<vector::LoadOp>(
            load, load.getVectorType(), view.getSource(), offsets(view),
            /*nontemporal=*/false, alignment(load.getVectorType()));
    } else if (auto store = dyn_cast<vector::StoreOp>(access)) {
      if (memref::SubViewOp view = source(store.getBase(), store.getIndices()))
        rewriter.replaceOpWithNewOp<vector::StoreOp>(
            store, store.getValueToStore(), view.getSource(), offsets(view),
            /*nontemporal=*/false, alignment(store.getVectorType()));
    } else if (auto load = dyn_cast<memref::LoadOp>(access)) {
      if (memref::SubViewOp view = source(load.getMemRef(), load.getIndices()))
        rewriter.replaceOpWithNewOp<memref::LoadOp>(load, view.getSource(),
                                                    offsets(view));
    }
  }
  SmallVector<memref::SubViewOp> views;
  loop.walk([&](memref::SubViewOp view) { views.push_back(view); });
  for (memref::SubViewOp view : views)
    if (view->use_empty())
      rewriter.eraseOp(view);
}

} // namespace

FailureOr<scf::ParallelOp> buildVectorizedElementwise(RewriterBase &rewriter,
                                                      linalg::LinalgOp &op) {
  int64_t lanes = lanesFor(op);
  if (std::optional<ReassociationIndices> loops = foldableLoops(op, lanes)) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> folded =
        linalg::collapseOpIterationDims(op, {*loops}, rewriter);
    if (succeeded(folded)) {
      rewriter.eraseOp(op);
      op = folded->collapsedOp;
      lanes = lanesFor(op);
    }
  }
  if (lanes == 0)
    return failure();
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  unsigned last = op.getNumLoops() - 1;

  rewriter.setInsertionPoint(op);
  SmallVector<Value> lbs, ubs, steps;
  for (Range range : op.createLoopRanges(rewriter, loc)) {
    lbs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.offset));
    ubs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
    steps.push_back(arith::ConstantIndexOp::create(rewriter, loc, 1));
  }
  steps[last] = arith::ConstantIndexOp::create(rewriter, loc, lanes);
  auto loop = scf::ParallelOp::create(rewriter, loc, lbs, ubs, steps);
  rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  SmallVector<Value> ivs(loop.getInductionVars());

  // One tile: a one-loop op over the L lanes, on views of one vector (or of
  // one element).
  AffineMap vectorMap = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap scalarMap = AffineMap::get(1, 0, ctx);
  AffineExpr innermost = getAffineDimExpr(last, ctx);
  SmallVector<Value> inputs, outputs;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    auto type = dyn_cast<MemRefType>(value.getType());
    bool vector = false;
    if (type) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      SmallVector<OpFoldResult> offsets, sizes;
      SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
      for (AffineExpr result : map.getResults()) {
        offsets.push_back(ivs[cast<AffineDimExpr>(result).getPosition()]);
        vector |= result == innermost;
        sizes.push_back(rewriter.getIndexAttr(result == innermost ? lanes : 1));
      }
      SmallVector<int64_t> shape;
      if (vector)
        shape.push_back(lanes);
      MemRefType viewType = memref::SubViewOp::inferRankReducedResultType(
          shape, type, offsets, sizes, strides);
      value = memref::SubViewOp::create(rewriter, loc, viewType, value,
                                        offsets, sizes, strides);
    }
    maps.push_back(vector ? vectorMap : scalarMap);
    (op.isDpsInit(&operand) ? outputs : inputs).push_back(value);
  }
  auto tile = linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, inputs, outputs, maps,
      SmallVector<utils::IteratorType>{utils::IteratorType::parallel});
  rewriter.cloneRegionBefore(op->getRegion(0), tile.getRegion(),
                             tile.getRegion().end());
  // linalg.index of an outer loop is that loop's value; of the innermost,
  // the tile's start plus the lane.
  SmallVector<linalg::IndexOp> indices;
  tile.getBody()->walk([&](linalg::IndexOp index) { indices.push_back(index); });
  for (linalg::IndexOp index : indices) {
    rewriter.setInsertionPoint(index);
    if (index.getDim() != last) {
      rewriter.replaceOp(index, ivs[index.getDim()]);
      continue;
    }
    Value lane = linalg::IndexOp::create(rewriter, loc, 0);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(index, lane, ivs[last]);
  }

  if (failed(linalg::vectorizeOpPrecondition(tile))) {
    rewriter.eraseOp(loop);
    return failure();
  }
  rewriter.setInsertionPoint(tile);
  if (failed(linalg::vectorize(rewriter, tile))) {
    rewriter.eraseOp(loop);
    return failure();
  }
  rewriter.eraseOp(tile);
  rewriter.eraseOp(op);

  RewritePatternSet patterns(ctx);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorTransferLoweringPatterns(patterns, /*maxTransferRank=*/1);
  if (failed(applyPatternsGreedily(loop, std::move(patterns))))
    return loop.emitError("cannot simplify a vectorized elementwise kernel");
  accessSources(rewriter, loop, lanes);
  return loop;
}

} // namespace mlir::tc::gpu
