//===- Distribute.cpp - the --tc-cpu-distribute pass ----------------------===//
//
// Turns each top-level linalg op into one kernel: one of its parallel loops
// is split into workgroups with scf.forall (upstream tile-and-fuse), or two
// (a register tile's lanes and rows, when the lanes alone split only into
// partial tiles), and the producers that only feed this op are computed
// inside the tile. Producers are fused only when the tile reads a proper
// slice of them; a producer every workgroup would need whole (the input of a
// convolution split by output channel, say), or a padding or layout copy
// of which every workgroup reads the same part, stays its own kernel
// instead of being recomputed per workgroup. Ops with reductions are fused only as the
// producer of an elementwise consumer, i.e. with their epilogue.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/KernelConfig.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUDISTRIBUTEPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

bool isAllParallel(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp &&
         linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

/// The iterations of `op`'s loop nest (a dynamic loop counted as 64).
int64_t loopWork(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t size : op.getStaticLoopRanges())
    work *= ShapedType::isDynamic(size) ? 64 : size;
  return work;
}

/// The fewest output rows of a workgroup that copies its input rows with
/// a window's halo: 3x3 windows copy 10 input rows for 8 output rows
/// rather than 4 for 2.
constexpr int64_t kMinWindowRows = 8;

/// How many iterations of a loop a workgroup should hold a multiple of:
/// `whole`, or failing an even split, `fallback`.
struct Granule {
  int64_t whole = 1;
  int64_t fallback = 1;
  /// Splitting this loop makes workgroups read overlapping parts of a
  /// windowed input (the halo rows of a convolution split by output rows)
  /// or the whole of it (a convolution split by output channels).
  bool replicates = false;
  /// The fewest iterations worth a workgroup (kMinWindowRows for the
  /// output rows of a channels-last depthwise convolution).
  int64_t least = 1;
  /// The bytes of the kernel's inputs that every workgroup reads whole
  /// when this loop is split (the weights of a matmul split by rows).
  int64_t replicatedBytes = 0;
  /// The loop carries a register tile's lanes, or its rows.
  bool lanes = false;
  bool rows = false;
};

/// The parallel loop of `op`, a reduction that is not a multiply-add
/// contraction, that is its output's last dim and the last dim of every
/// input that reads it; or the same loop of the reduction an elementwise
/// `op` (identity maps) reads, through up to 4 such ops.
std::optional<unsigned> reductionLanes(linalg::LinalgOp op) {
  for (int depth = 0; depth < 4; ++depth) {
    if (op.getNumDpsInits() != 1)
      return std::nullopt;
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (op.getNumReductionLoops() == 0) {
      if (!out.isIdentity())
        return std::nullopt;
      linalg::LinalgOp next;
      for (OpOperand *in : op.getDpsInputOperands())
        if (auto producer = in->get().getDefiningOp<linalg::LinalgOp>();
            producer && op.getMatchingIndexingMap(in).isIdentity() &&
            producer.getNumReductionLoops() > 0)
          next = producer;
      if (!next)
        return std::nullopt;
      op = next;
      continue;
    }
    if (hasMultiplyAddBody(op) || out.getNumResults() == 0)
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(out.getResults().back());
    if (!dim || op.getIteratorTypesArray()[dim.getPosition()] !=
                    utils::IteratorType::parallel)
      return std::nullopt;
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(in);
      if (map.isFunctionOfDim(dim.getPosition()) &&
          (map.getNumResults() == 0 || map.getResults().back() != dim))
        return std::nullopt;
    }
    // An epilogue's loops are the output's dims (identity maps).
    return depth == 0 ? dim.getPosition() : out.getNumResults() - 1;
  }
  return std::nullopt;
}

/// For each loop of `root`, its granule: a register tile's rows or lanes
/// (--tc-cpu-vectorize-contractions) on the loops that carry them, else 1. The
/// tile belongs to `root` itself or, when `root` is an elementwise epilogue
/// (identity output map, each input read whole, possibly transposed), to the
/// multiply-add kernel it consumes, possibly through other elementwise ops:
/// the kernel is fused into the epilogue's workgroups.
SmallVector<Granule> splitGranules(linalg::LinalgOp root,
                                   std::optional<RegisterTileConfig> &config,
                                   bool &transposed) {
  transposed = false;
  SmallVector<Granule> granules(root.getNumLoops());
  // A reduction over leading dims whose output's last dim is a parallel
  // loop that every input reads last too (a channels-last spatial mean,
  // [N, H, W, C] -> [N, 1, 1, C]), or its elementwise epilogue (the mean's
  // division): --tc-cpu-vectorize-reductions vectorizes it along that
  // loop, so workgroups hold whole vectors of it; a workgroup of one
  // channel would read it one element per row.
  if (std::optional<unsigned> lane = reductionLanes(root)) {
    Type element =
        getElementTypeOrSelf(root.getDpsInitOperand(0)->get().getType());
    int64_t width =
        element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
    granules[*lane] = {std::max<int64_t>(1, kRegisterLanes * 32 / width),
                       std::max<int64_t>(1, kVectorLanes * 32 / width)};
    return granules;
  }
  linalg::LinalgOp kernel = root;
  std::optional<RegisterTileDims> dims = registerTileDims(root);
  // Root loops -> the dims of `kernel`'s result. An epilogue that writes a
  // channel-blocked kernel's output back in NCHW order (the blocked
  // strided convolutions) reads it transposed; its granules are the
  // kernel's, permuted.
  AffineMap readMap =
      AffineMap::getMultiDimIdentityMap(root.getNumLoops(), root.getContext());
  for (int depth = 0; !dims && depth < 4; ++depth) {
    if (kernel.getNumLoops() != kernel.getNumParallelLoops() ||
        kernel.getNumDpsInits() != 1 ||
        !kernel.getMatchingIndexingMap(kernel.getDpsInitOperand(0)).isIdentity())
      return granules;
    linalg::LinalgOp next;
    for (OpOperand *in : kernel.getDpsInputOperands()) {
      auto producer = in->get().getDefiningOp<linalg::LinalgOp>();
      AffineMap map = kernel.getMatchingIndexingMap(in);
      if (!producer || producer.getNumDpsInits() != 1 || !map.isPermutation() ||
          producer->getResult(0).getType() != in->get().getType())
        continue;
      next = producer;
      readMap = map.compose(readMap);
      dims = registerTileDims(producer);
      if (dims)
        break;
    }
    if (!next)
      return granules;
    kernel = next;
  }
  if (!dims)
    return granules;
  transposed = !readMap.isIdentity();
  // The tile the kernel's configuration asks for (the heuristic one when
  // it has none).
  config = registerTileConfig(kernel);
  int64_t tileRows = config ? config->rows : kRegisterRows;
  int64_t tileLanes = config ? config->lanes : kRegisterLanes;
  // Kernel loops to root loops: the same, or through the kernel's output
  // map when the root is an epilogue (its loops are the output's dims).
  AffineMap out = kernel.getMatchingIndexingMap(kernel.getDpsInitOperand(0));
  auto rootLoop = [&](unsigned kernelLoop) -> std::optional<unsigned> {
    if (kernel == root)
      return kernelLoop;
    for (auto [i, e] : llvm::enumerate(out.getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() == kernelLoop)
        if (auto r = dyn_cast<AffineDimExpr>(readMap.getResult(i)))
          return r.getPosition();
    return std::nullopt;
  };
  Type element = getElementTypeOrSelf(kernel.getDpsInitOperand(0)->get().getType());
  // Lanes in whole register tiles (32 x 32-bit), or failing an even split
  // in whole 256-bit vectors (below): vectorize-contractions splits
  // any static width into whole tiles and vector-sized parts, but a chunk
  // that does not divide the loop leaves the last workgroup a dynamic
  // width, which it cannot vectorize.
  int64_t width = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  if (auto l = rootLoop(dims->lanes); l && *l < granules.size()) {
    granules[*l] = {std::max<int64_t>(1, tileLanes * 32 / width),
                    std::max<int64_t>(1, kVectorLanes * 32 / width)};
    granules[*l].lanes = true;
  }
  if (dims->rows)
    if (auto r = rootLoop(*dims->rows); r && *r < granules.size()) {
      int64_t rows =
          registerRows(kernel.getStaticLoopRanges()[*dims->rows], tileRows);
      granules[*r] = {rows, rows};
      granules[*r].rows = true;
    }
  // What each split makes every workgroup read whole.
  for (unsigned d = 0; d < kernel.getNumLoops(); ++d)
    if (auto r = rootLoop(d); r && *r < granules.size() &&
                              kernel.getIteratorTypesArray()[d] ==
                                  utils::IteratorType::parallel)
      granules[*r].replicatedBytes = bytesReadWhole(kernel, d);
  // The kernel's parallel loops that a windowed input (a convolution's or
  // pooling's image) does not read plainly.
  for (OpOperand *in : kernel.getDpsInputOperands()) {
    AffineMap map = kernel.getMatchingIndexingMap(in);
    if (!llvm::any_of(map.getResults(), [](AffineExpr e) {
          return e.getKind() == AffineExprKind::Add;
        }))
      continue;
    // A windowed input that reads the lanes plainly has channels in them
    // (channels-last): each workgroup copies its rows with their halo and
    // padding, so it takes at least kMinWindowRows output rows.
    bool channelsInLanes = llvm::is_contained(
        map.getResults(), getAffineDimExpr(dims->lanes, kernel.getContext()));
    for (unsigned d = 0; d < kernel.getNumLoops(); ++d)
      if (kernel.getIteratorTypesArray()[d] == utils::IteratorType::parallel &&
          (!map.isFunctionOfDim(d) || readsInWindow(map, d)))
        if (auto r = rootLoop(d); r && *r < granules.size()) {
          granules[*r].replicates = true;
          if (channelsInLanes && readsInWindow(map, d))
            granules[*r].least = kMinWindowRows;
        }
  }
  return granules;
}

/// A chunk of at least `least` iterations, a multiple of `granule`, that
/// divides `size` if one does within a factor of four: equal workgroups
/// have static sizes, so the register tiles inside need no partial tiles.
int64_t evenChunk(int64_t size, int64_t least, int64_t granule) {
  int64_t first = llvm::alignTo(least, granule);
  for (int64_t c = first; c <= 4 * first && c <= size; c += granule)
    if (size % c == 0)
      return c;
  return first;
}

/// The workgroups a kernel split both ways (splitBothWays) aims at: enough
/// for a few cores, few enough that little is read twice.
constexpr int64_t kTwoWayWorkgroups = 16;

/// The fewest workgroups of a split that partitions every input (by heads
/// or batch) for it to win over splits that re-read an input.
constexpr int64_t kMinPartitionWorkgroups = 8;

/// The fewest register tiles of rows in a workgroup split both ways: a
/// lanes' input packed into panels inside the kernel is shared by at least
/// that many row tiles (--tc-cpu-vectorize-contractions' kMinPanelRowTiles).
constexpr int64_t kTwoWayRowTiles = 4;

struct TwoWaySplit {
  int64_t laneChunk;
  unsigned rows;
  int64_t rowChunk;
};

/// When the even split of a register tile's lanes (loop `dim`, in chunks of
/// `chunk`) leaves each workgroup no whole tile (a 1x1 convolution in NCHW
/// on a 28x28 image: 784 lanes = 49 x 16, so tiles of 8 x 16, half of the
/// accumulators idle, at a third of the core's peak): wider lane chunks
/// that divide the loop and are at least 3/4 whole tiles (112 = 3 x 32 +
/// 16), and a second split of the rows, so that the kernel still has about
/// kTwoWayWorkgroups workgroups. Nothing when no such chunk exists.
std::optional<TwoWaySplit> splitBothWays(ArrayRef<int64_t> ranges,
                                         ArrayRef<Granule> granules,
                                         unsigned dim, int64_t chunk,
                                         int64_t bound) {
  const Granule &lanes = granules[dim];
  if (!lanes.lanes || chunk % lanes.whole == 0)
    return std::nullopt;
  std::optional<unsigned> rows;
  for (auto [i, granule] : llvm::enumerate(granules))
    if (granule.rows && i != dim && !ShapedType::isDynamic(ranges[i]) &&
        ranges[i] > 1)
      rows = i;
  if (!rows)
    return std::nullopt;
  int64_t n = ranges[dim], wide = 0;
  for (int64_t c = chunk; c <= n; c += lanes.fallback)
    if (n % c == 0 && 4 * (c - c % lanes.whole) >= 3 * c) {
      wide = c;
      break;
    }
  if (!wide)
    return std::nullopt;
  int64_t m = ranges[*rows], rowGranule = granules[*rows].whole;
  int64_t least = std::max<int64_t>(
      llvm::divideCeil(m * (n / wide), std::min(bound, kTwoWayWorkgroups)),
      kTwoWayRowTiles * rowGranule);
  int64_t rowChunk = least >= m ? m : evenChunk(m, least, rowGranule);
  if (m % rowChunk != 0)
    rowChunk = m;
  if ((n / wide) * (m / rowChunk) < 2)
    return std::nullopt;
  return TwoWaySplit{wide, *rows, rowChunk};
}

/// Whether `slice` takes the same elements in every workgroup: its
/// offsets do not depend on the loop.
bool isStaticOffsets(tensor::ExtractSliceOp slice) {
  return llvm::all_of(slice.getMixedOffsets(), [](OpFoldResult offset) {
    return getConstantIntValue(offset).has_value();
  });
}

/// A linalg op that transposes its one input (to channels-last, say): all
/// loops parallel, both maps permutations, the body yields the input.
/// (Winograd's extraction of overlapping tiles reads through windows.)
bool isTransposition(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isAllParallel(op) || linalgOp.getNumDpsInputs() != 1 ||
      linalgOp.getNumDpsInits() != 1 ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isPermutation(); }))
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(linalgOp.getBlock()->getTerminator());
  return yield && yield->getNumOperands() == 1 &&
         yield->getOperand(0) == linalgOp.getBlock()->getArgument(0);
}

/// The loops of a transposition (isTransposition) that its input's and its
/// output's last dims read, when they differ: the two sides of the squares
/// --tc-cpu-vectorize-transposes moves through registers.
std::optional<SmallVector<unsigned>> transpositionLanes(linalg::LinalgOp op) {
  if (!isTransposition(op))
    return std::nullopt;
  auto in = dyn_cast<AffineDimExpr>(
      op.getMatchingIndexingMap(op.getDpsInputOperand(0)).getResults().back());
  auto out = dyn_cast<AffineDimExpr>(
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults().back());
  if (!in || !out || in == out)
    return std::nullopt;
  return SmallVector<unsigned>{in.getPosition(), out.getPosition()};
}

/// True when the slice covers every element of its source.
bool isWholeTensor(tensor::ExtractSliceOp slice) {
  auto sourceType = slice.getSourceType();
  for (auto [i, size] : llvm::enumerate(slice.getMixedSizes())) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant || sourceType.isDynamicDim(i) ||
        *constant != sourceType.getDimSize(i))
      return false;
  }
  return true;
}

/// Rewrites the tensor.dim ops `dims` to read their extent off operands:
/// of the producer of the value they measure
/// (ReifyRankedShapedTypeOpInterface), or of the reshape that made it. Only
/// the dims are rewritten: the driver must not erase the producers itself.
void resolveDims(ArrayRef<Operation *> dims) {
  if (dims.empty())
    return;
  MLIRContext *context = dims.front()->getContext();
  RewritePatternSet patterns(context);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  (void)applyOpPatternsGreedily(dims, std::move(patterns), config);
}

/// Tiling a dynamic dim reads its size with tensor.dim of the tiled
/// operand. Once that operand's producer is computed inside the tiles, the
/// size comes from the producer's own operands instead, so that the
/// producer becomes dead.
void resolveDimUsers(Operation *producer) {
  SmallVector<Operation *> dims;
  for (Operation *user : producer->getUsers())
    if (isa<tensor::DimOp>(user))
      dims.push_back(user);
  resolveDims(dims);
}

/// Every dynamic extent of `func` read off a linalg op's result, or off a
/// reshape of one, is read off operands instead, and reshapes left without
/// users go: a producer whose only other users were such reads (a packed
/// contraction whose collapsed and expanded result gave an epilogue's
/// extents, with a dynamic batch) then fuses into its consumer's
/// workgroups rather than being computed apart.
void resolveAllDims(func::FuncOp func) {
  SmallVector<Operation *> dims, reshapes;
  func.walk([&](tensor::DimOp dim) { dims.push_back(dim); });
  resolveDims(dims);
  func.walk([&](Operation *op) {
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
      reshapes.push_back(op);
  });
  for (Operation *op : llvm::reverse(reshapes))
    if (op->use_empty())
      op->erase();
}

struct CpuDistributePass
    : impl::CpuDistributePassBase<CpuDistributePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<Operation *> candidates;
    // Top-level ops, and the ops of each fusion group: a group's ops can
    // only fuse with each other, since everything else enters as an input.
    for (Operation &op : func.getBody().front()) {
      if (isa<linalg::LinalgOp>(op))
        candidates.push_back(&op);
      if (auto group = dyn_cast<fusion::GroupOp>(op))
        for (Operation &inner : group.getBodyBlock())
          if (isa<linalg::LinalgOp>(inner))
            candidates.push_back(&inner);
    }
    resolveAllDims(func);
    DenseSet<Operation *> erased;
    IRRewriter rewriter(&getContext());
    // Ops left without users once their extents are read off operands go
    // first (an unpacking copy whose activation --tc-cpu-fuse-elementwise
    // merged into a second copy, the first still measured for the output's
    // dynamic batch): left until their turn, they would keep their
    // producer (the convolution) from fusing into the consumer's
    // workgroups, since it would still have two users.
    for (Operation *op : llvm::reverse(candidates)) {
      resolveDimUsers(op);
      if (op->use_empty()) {
        erased.insert(op);
        rewriter.eraseOp(op);
      }
    }
    for (Operation *op : llvm::reverse(candidates)) {
      if (erased.contains(op))
        continue;
      resolveDimUsers(op);
      if (op->use_empty()) {
        erased.insert(op);
        rewriter.eraseOp(op);
        continue;
      }
      distribute(rewriter, cast<linalg::LinalgOp>(op), erased);
    }
  }

  /// The parallel loop an op without whole register tiles splits evenly:
  /// the outermost static one with more than one iteration, the innermost
  /// loop last, as it is the contiguous one the vectorizer wants whole.
  /// Outermost and innermost are in `order` (splitOrder: for a
  /// transposition, the output's dims, where the workgroups write; one to
  /// channels-last split by its input's channels had each workgroup write
  /// two floats of every position, 512 bytes apart). A dynamic loop comes after any static one but the
  /// innermost, and the innermost dynamic loop first: in [batch, sequence,
  /// hidden] the sequence, since a dynamic batch is often 1 when latency
  /// matters, and in [batch, heads, queries, keys] the heads.
  static std::optional<unsigned>
  evenSplitLoop(ArrayRef<int64_t> ranges,
                ArrayRef<utils::IteratorType> iterators,
                ArrayRef<unsigned> order) {
    std::optional<unsigned> innermost, dynamic;
    for (auto [position, i] : llvm::enumerate(order)) {
      int64_t size = ranges[i];
      if (iterators[i] != utils::IteratorType::parallel)
        continue;
      bool last = position + 1 == order.size();
      if (ShapedType::isDynamic(size)) {
        if (last)
          innermost = innermost.value_or(i);
        else
          dynamic = i;
        continue;
      }
      if (size <= 1)
        continue;
      if (!last)
        return i;
      innermost = innermost.value_or(i);
    }
    return dynamic ? dynamic : innermost;
  }

  /// The loops' own order, but for a transposition of an input that no
  /// reduction produces: the order of its output's dims. (A reduction is
  /// fused into the workgroups of its consumer, and its register tiles want
  /// the split their loops give: the copy that unpacks 32 output channels
  /// from lanes, split by those lanes, made ResNet-18 2.5 times slower.)
  static SmallVector<unsigned> splitOrder(linalg::LinalgOp op) {
    SmallVector<unsigned> order;
    auto producer = op->getOperand(0).getDefiningOp<linalg::LinalgOp>();
    if (isTransposition(op) && !(producer && producer.getNumReductionLoops() > 0))
      for (AffineExpr e : op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults())
        if (auto d = dyn_cast<AffineDimExpr>(e);
            d && !llvm::is_contained(order, d.getPosition()))
          order.push_back(d.getPosition());
    for (unsigned i = 0; i < op.getNumLoops(); ++i)
      if (!llvm::is_contained(order, i))
        order.push_back(i);
    return order;
  }

  /// In the workgroups of a register-tiled kernel, a fused destination
  /// fill (elementwise, not reading its init) writes a tensor.empty of its
  /// slice's shape instead of the slice of the shared output: bufferized,
  /// the register tiles accumulate into a workgroup buffer that
  /// --tc-cpu-fuse-into-register-tiles removes (the fill read where each
  /// tile reads its accumulator, the copy into the output where it writes
  /// it), so the output is written once, by the tiles.
  static void localDestinations(IRRewriter &rewriter, scf::ForallOp forall) {
    SmallVector<linalg::LinalgOp> fills;
    forall.getBody()->walk([&](linalg::LinalgOp fill) {
      if (!isAllParallel(fill) || fill.getNumDpsInits() != 1 ||
          !fill.hasPureTensorSemantics() ||
          fill.payloadUsesValueFromOperand(fill.getDpsInitOperand(0)))
        return;
      auto slice =
          fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::ExtractSliceOp>();
      auto arg = slice ? dyn_cast<BlockArgument>(slice.getSource()) : nullptr;
      if (!arg || arg.getOwner() != forall.getBody())
        return;
      // Its one user accumulates into it.
      if (!fill->getResult(0).hasOneUse())
        return;
      auto user = dyn_cast<linalg::LinalgOp>(*fill->getResult(0).getUsers().begin());
      if (!user || user.getNumDpsInits() != 1 ||
          user.getDpsInitOperand(0)->get() != fill->getResult(0) ||
          !registerTileDims(user))
        return;
      fills.push_back(fill);
    });
    for (linalg::LinalgOp fill : fills) {
      OpOperand *init = fill.getDpsInitOperand(0);
      auto slice = init->get().getDefiningOp<tensor::ExtractSliceOp>();
      rewriter.setInsertionPoint(fill);
      auto type = cast<RankedTensorType>(slice.getType());
      SmallVector<Value> dynamic;
      for (auto [i, size] : llvm::enumerate(type.getShape()))
        if (ShapedType::isDynamic(size))
          dynamic.push_back(tensor::DimOp::create(rewriter, fill.getLoc(),
                                                  slice.getResult(), i));
      Value empty = tensor::EmptyOp::create(rewriter, fill.getLoc(), type, dynamic);
      rewriter.modifyOpInPlace(fill, [&] { init->set(empty); });
    }
  }

  void distribute(IRRewriter &rewriter, linalg::LinalgOp op,
                  DenseSet<Operation *> &erased) {
    if (!op.hasPureTensorSemantics())
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    // An elementwise root counts the work of the producers it would fuse
    // (a depthwise convolution's ReLU6 on a 7x7 image is small, the
    // convolution is not): left serial, it would keep them out of
    // workgroups.
    int64_t work = loopWork(op);
    for (OpOperand &operand : op->getOpOperands())
      if (auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
          producer && isAllParallel(op) && producer->hasOneUse())
        work = std::max(work, loopWork(producer));
    if (work < minWork)
      return;
    // The static parallel loop that gives the most workgroups when each
    // holds whole register tiles (outermost on ties), so that a convolution
    // at batch 1 splits its image rows rather than leaving each workgroup
    // one output channel; a loop whose split makes workgroups read the
    // same parts of an image counts half. Otherwise a loop split evenly
    // (evenSplitLoop).
    std::optional<RegisterTileConfig> config;
    bool transposed = false;
    SmallVector<Granule> granules = splitGranules(op, config, transposed);
    // The kernel's configuration bounds its workgroups.
    const int64_t bound =
        config ? config->workgroups : static_cast<int64_t>(maxWorkgroups);
    std::optional<unsigned> dim;
    int64_t chunk = 0, best = 0, leastTraffic = INT64_MAX;
    bool bestPartitions = false;
    for (auto [i, size] : llvm::enumerate(ranges)) {
      if (iterators[i] != utils::IteratorType::parallel ||
          ShapedType::isDynamic(size) || size <= 1)
        continue;
      int64_t least = llvm::divideCeil(size, bound);
      least = std::max(least, std::min(size, granules[i].least));
      int64_t c = evenChunk(size, least, granules[i].whole);
      // Lanes that no whole-tile chunk divides (1000 classes) may split in
      // whole vectors instead (40 per workgroup).
      if (size % c != 0) {
        int64_t finer = evenChunk(size, least, granules[i].fallback);
        if (size % finer == 0)
          c = finer;
      }
      int64_t count = llvm::divideCeil(size, c);
      // A loop whose split replicates the image's reads (a depthwise
      // convolution's output rows, each reading three input rows) loses to
      // one that partitions it (its channels) unless it gives more than
      // twice the workgroups.
      int64_t score = granules[i].replicates ? count : 2 * count;
      // Splitting a matmul by rows makes every workgroup read all of its
      // weights, by columns all of its activations. What fits a core's
      // own cache is read from there again; what does not comes from the
      // shared cache once per workgroup (ViT's 3072 x 768 weights, 9.4 MB,
      // 25 times in 8-row workgroups), so the split with the least such
      // traffic wins first.
      int64_t traffic = granules[i].replicatedBytes > kPrivateCacheBytes
                            ? count * granules[i].replicatedBytes
                            : 0;
      // A loop that every input reads (attention's heads, a batch)
      // partitions them all, and wins over splits that make workgroups
      // read an input again when it gives enough workgroups: ViT's QK^T
      // split into 25 row workgroups had each read all 12 heads' keys
      // (600 KB), and took twice as long as split by heads.
      bool partitions = count >= kMinPartitionWorkgroups &&
                        granules[i].replicatedBytes == 0 &&
                        !granules[i].replicates;
      bool better = partitions != bestPartitions ? partitions : score > best;
      if (count > 1 &&
          (traffic < leastTraffic || (traffic == leastTraffic && better))) {
        dim = i;
        chunk = c;
        best = score;
        leastTraffic = traffic;
        bestPartitions = partitions;
      }
    }
    // An epilogue that writes a channel-blocked kernel's output back in
    // NCHW order splits evenly, by channel blocks first, so that the
    // padded image is made once for all workgroups; but never through the
    // tile's lanes or rows: with a single block of 32 channels that gave
    // 32 workgroups of one channel each, computed in scalar code (a
    // 16 -> 32 stride-2 convolution 27 times slower than split by rows).
    bool byTiles =
        !transposed && dim.has_value() &&
        llvm::any_of(granules, [](Granule g) { return g.whole > 1; });
    // Lanes that split evenly only in partial tiles get wider chunks of
    // mostly whole tiles, and the rows a second split.
    std::optional<std::pair<unsigned, int64_t>> rowSplit;
    if (byTiles)
      if (std::optional<TwoWaySplit> two =
              splitBothWays(ranges, granules, *dim, chunk, bound)) {
        chunk = two->laneChunk;
        if (two->rowChunk < ranges[two->rows])
          rowSplit = {two->rows, two->rowChunk};
      }
    if (!byTiles) {
      SmallVector<unsigned> order = splitOrder(op);
      dim = std::nullopt;
      // Nor through a vectorized reduction's lanes (a spatial mean over
      // 32 channels stays one workgroup rather than 32 of one channel).
      bool vectorizedReduction = reductionLanes(op).has_value();
      if (transposed || vectorizedReduction)
        dim = evenSplitLoop(
            ranges, iterators,
            llvm::to_vector(llvm::make_filter_range(
                order, [&](unsigned i) { return granules[i].whole == 1; })));
      // A transposition splits neither its input's last dim nor its
      // output's: --tc-cpu-vectorize-transposes moves 16 x 16 squares of
      // them through registers. (NHWC -> NCHW split by channels had each
      // workgroup read one float of every 64, scalar: 3.8 ms for 3.2 MB.)
      else if (std::optional<SmallVector<unsigned>> lanes =
                   transpositionLanes(op))
        dim = evenSplitLoop(
            ranges, iterators,
            llvm::to_vector(llvm::make_filter_range(order, [&](unsigned i) {
              return !llvm::is_contained(*lanes, i);
            })));
      if (!dim && !vectorizedReduction)
        dim = evenSplitLoop(ranges, iterators, order);
    }
    if (!dim)
      return;
    int64_t workgroups = bound;
    if (!ShapedType::isDynamic(ranges[*dim]))
      workgroups = std::min(workgroups, ranges[*dim]);
    SmallVector<OpFoldResult> numThreads(ranges.size(),
                                         rewriter.getIndexAttr(0));
    numThreads[*dim] = rewriter.getIndexAttr(workgroups);

    scf::SCFTilingOptions tiling;
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    if (byTiles) {
      SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(0));
      sizes[*dim] = rewriter.getIndexAttr(chunk);
      if (rowSplit)
        sizes[rowSplit->first] = rewriter.getIndexAttr(rowSplit->second);
      tiling.setTileSizes(sizes);
    } else {
      tiling.setNumThreads(numThreads);
    }
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    // Ops already computed inside the tile: the root and every producer
    // fused so far. A producer may only be fused when nothing else uses it.
    auto absorbed = std::make_shared<DenseSet<Operation *>>();
    absorbed->insert(op);
    // A destination (a reduction's zero or bias fill) is the init of the
    // loop itself. Left outside, it is a kernel of its own, a pass over the
    // output before the reduction reads it back, and identical fills of
    // several convolutions' Winograd transforms, merged by CSE into one
    // zero tensor, were copied for each of them; so it is fused. A register
    // tile's fill then fills a tensor of the workgroup's own
    // (localDestinations), which --tc-cpu-fuse-into-register-tiles turns
    // into values computed in the tiles' registers.
    bool registerTiled = registerTileDims(op).has_value();
    auto onlyFeedsTile = [absorbed](OpResult producer, bool isDestination) {
      // Tiling a dynamic dim reads it with tensor.dim of the operand; those
      // are rerouted to the producer's own operands after fusion.
      return llvm::all_of(producer.getUsers(), [&](Operation *user) {
        return absorbed->contains(user) || isa<tensor::DimOp>(user) ||
               (isa<tensor::ExtractSliceOp>(user) &&
                user->getParentOfType<scf::ForallOp>()) ||
               (isDestination && isa<scf::ForallOp>(user));
      });
    };
    options.setFusionControlFn(
        [absorbed, onlyFeedsTile](tensor::ExtractSliceOp slice,
                                  OpResult producer, bool isDestination)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          Operation *producerOp = producer.getOwner();
          if (!onlyFeedsTile(producer, isDestination) || isWholeTensor(slice))
            return std::nullopt;
          auto fuse = [&]() {
            absorbed->insert(producerOp);
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          };
          // A padded input or a transposition read at the same offsets
          // by every workgroup is computed once, before the workgroups, not
          // again by each of them: a strided convolution split by output
          // channels reads all of its padded input but its last row and
          // column, and each of ResNet's stride-2 3x3 ones transposed its
          // whole input into a channels-last copy of its own (4 to 16
          // times per convolution).
          if ((isa<tensor::PadOp>(producerOp) || isTransposition(producerOp)) &&
              isStaticOffsets(slice))
            return std::nullopt;
          if (isa<tensor::PadOp>(producerOp) || isa<linalg::FillOp>(producerOp))
            return fuse();
          if (!isa<linalg::LinalgOp>(producerOp))
            return std::nullopt;
          if (isAllParallel(producerOp))
            return fuse();
          // A reduction is fused only into its elementwise epilogue.
          if (!isDestination && !slice->use_empty() &&
              isAllParallel(*slice->getUsers().begin()))
            return fuse();
          return std::nullopt;
        });
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(result))
      return; // Stays a serial loop nest; correct, only slower.
    for (OpResult value : op->getResults())
      if (Value replacement = result->replacements.lookup(value))
        rewriter.replaceAllUsesWith(value, replacement);
    erased.insert(op);
    rewriter.eraseOp(op);
    // Tiling leaves the slices it fused through in the loop, dead; they still
    // use the original producers, which would otherwise look alive.
    for (LoopLikeOpInterface loop : result->loops) {
      SmallVector<Operation *> dead;
      loop->walk([&](tensor::ExtractSliceOp slice) {
        if (slice->use_empty())
          dead.push_back(slice);
      });
      for (Operation *slice : dead)
        rewriter.eraseOp(slice);
    }
    if (registerTiled)
      for (LoopLikeOpInterface loop : result->loops)
        if (auto forall = dyn_cast<scf::ForallOp>(loop.getOperation()))
          localDestinations(rewriter, forall);
    for (Operation *producer : result->fusedProducers)
      resolveDimUsers(producer);
    for (Operation *producer : result->fusedProducers) {
      if (producer->use_empty() && !erased.contains(producer)) {
        erased.insert(producer);
        rewriter.eraseOp(producer);
      }
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
