//===- VectorizeContractions.cpp - --tc-cpu-vectorize-contractions --------===//
//
// Register tiling for matmul-like kernels. LLVM's loop vectorizer turns an
// `(m, k, n)` loop nest into an axpy per row, but it reloads and stores the
// output row on every k step; a contraction is only fast when a block of the
// output stays in vector registers for the whole reduction. This pass builds
// that block structure with upstream pieces (linalg tiling, scf peeling,
// linalg vectorization, transfer hoisting, contraction-to-outer-product
// lowering) on the outlined workgroup functions, after bufferization.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/KernelConfig.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUVECTORIZECONTRACTIONSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Marks the register tiles this pass creates, so that only they are
/// vectorized (other linalg ops of the function keep their loop lowering).
constexpr StringLiteral kTileMarker = kRegisterTileMarker;

/// The largest N-side input (N x K) that a single-row tiling reads across
/// rows: about half a typical L2.
constexpr int64_t kSingleRowCacheBytes = 256 * 1024;

/// Puts the operand read along the accumulator's last dimension (N) on the
/// right of a vector.contract. The outer-product lowering iterates over the
/// rows of its left operand; with the N-side operand on the left it builds
/// the tile column by column (short vectors across rows, then transposes).
/// Multiply-add contractions commute, so swapping is exact.
struct PutLanesOperandOnTheRight : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != vector::CombiningKind::ADD)
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (maps[2].getNumResults() == 0)
      return failure();
    auto n = dyn_cast<AffineDimExpr>(maps[2].getResults().back());
    if (!n || !maps[0].isFunctionOfDim(n.getPosition()) ||
        maps[1].isFunctionOfDim(n.getPosition()))
      return failure();
    rewriter.replaceOpWithNewOp<vector::ContractionOp>(
        op, op.getRhs(), op.getLhs(), op.getAcc(),
        rewriter.getAffineMapArrayAttr({maps[1], maps[0], maps[2]}),
        op.getIteratorTypes(), op.getKind());
    return success();
  }
};

/// acc + a * b on vectors as one vector.fma, as the outer-product lowering
/// of vector.contract builds it: a tile of several rows without a
/// contraction dim (a depthwise convolution's) vectorizes to a multiply
/// and an add, which LLVM keeps apart (no fp-contract on CPU code).
struct FuseMultiplyAdd : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(add.getType()))
      return failure();
    for (unsigned i = 0; i < 2; ++i) {
      auto mul = add->getOperand(i).getDefiningOp<arith::MulFOp>();
      if (!mul || !mul->hasOneUse())
        continue;
      rewriter.replaceOpWithNewOp<vector::FMAOp>(add, mul.getLhs(), mul.getRhs(),
                                                 add->getOperand(1 - i));
      return success();
    }
    return failure();
  }
};

/// A vector.contract whose reduction dims all have extent 1 (a channel-
/// blocked depthwise tile: input [rows, lanes] times filter [lanes] per
/// window position) as one elementwise vector.fma on the accumulator's
/// shape. Its operands share the lanes dim, which the outer-product
/// lowering would unroll into one short FMA per lane.
struct ContractWithoutReductionToFMA : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<VectorType>(op.getAccType());
    if (op.getKind() != vector::CombiningKind::ADD || !accType ||
        !isa<FloatType>(accType.getElementType()))
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto iterators = op.getIteratorTypesArray();
    for (auto [i, kind] : llvm::enumerate(iterators))
      if (kind == vector::IteratorType::reduction && ranges[i] != 1)
        return failure();
    // Each operand's parallel dims, in the accumulator's order.
    SmallVector<unsigned> accDims;
    for (AffineExpr e : maps[2].getResults())
      accDims.push_back(cast<AffineDimExpr>(e).getPosition());
    // Only where both operands run along the lanes (the accumulator's last
    // dim): a matmul's k = 1 step (column times row) is an outer product,
    // which the outer-product lowering makes broadcast FMAs of.
    if (accDims.empty() || !maps[0].isFunctionOfDim(accDims.back()) ||
        !maps[1].isFunctionOfDim(accDims.back()))
      return failure();
    Location loc = op.getLoc();
    auto spread = [&](Value operand, AffineMap map) -> Value {
      auto type = cast<VectorType>(operand.getType());
      if (type.getElementType() != accType.getElementType())
        return nullptr;
      // Drop the unit reduction dims.
      SmallVector<unsigned> dims;
      SmallVector<int64_t> shape;
      for (auto [j, e] : llvm::enumerate(map.getResults())) {
        unsigned d = cast<AffineDimExpr>(e).getPosition();
        if (iterators[d] == vector::IteratorType::reduction)
          continue;
        dims.push_back(d);
        shape.push_back(type.getDimSize(j));
      }
      // Their order must be the accumulator's: broadcast the missing
      // (leading) dims, then transpose them into place.
      SmallVector<unsigned> positions;
      for (unsigned d : dims)
        positions.push_back(llvm::find(accDims, d) - accDims.begin());
      if (!llvm::is_sorted(positions))
        return nullptr;
      Value value = vector::ShapeCastOp::create(
          rewriter, loc, VectorType::get(shape, type.getElementType()), operand);
      SmallVector<int64_t> order, wide;
      for (auto [k, d] : llvm::enumerate(accDims))
        if (!llvm::is_contained(dims, d)) {
          order.push_back(k);
          wide.push_back(accType.getDimSize(k));
        }
      for (unsigned p : positions) {
        order.push_back(p);
        wide.push_back(accType.getDimSize(p));
      }
      value = vector::BroadcastOp::create(
          rewriter, loc, VectorType::get(wide, type.getElementType()), value);
      SmallVector<int64_t> permutation(order.size());
      for (auto [k, p] : llvm::enumerate(order))
        permutation[p] = k;
      if (!llvm::is_sorted(order))
        value = vector::TransposeOp::create(rewriter, loc, value, permutation);
      return value;
    };
    Value lhs = spread(op.getLhs(), maps[0]);
    Value rhs = lhs ? spread(op.getRhs(), maps[1]) : Value();
    if (!lhs || !rhs)
      return failure();
    rewriter.replaceOpWithNewOp<vector::FMAOp>(op, lhs, rhs, op.getAcc());
    return success();
  }
};

/// A vector read of a view that takes every s-th element of its last dim
/// (a strided convolution's window, from dropUnitLoops) as contiguous reads
/// of the n * s elements below each vector row and shuffles that keep every
/// s-th: a strided transfer would become n scalar loads. The view's other
/// dims may be strided as well (the image rows of a depthwise tile over
/// several output rows); each row of the vector is then its own read.
struct ReadStridedAsShuffle : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto view = read.getBase().getDefiningOp<memref::SubViewOp>();
    VectorType vectorType = read.getVectorType();
    if (!view || view.getSourceType().getRank() != view.getType().getRank() ||
        !view.hasZeroOffset() || read.hasOutOfBoundsDim() || read.getMask())
      return failure();
    ArrayRef<int64_t> strides = view.getStaticStrides();
    int64_t rank = strides.size();
    int64_t s = strides.back();
    if (ShapedType::isDynamic(s) || s <= 1 || s > 4 ||
        llvm::any_of(strides, [](int64_t t) { return ShapedType::isDynamic(t); }))
      return failure();
    // The vector's last dim must be the view's last dim, and only it; each
    // other vector dim reads one other dim of the view.
    AffineMap map = read.getPermutationMap();
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() != rank - 1)
      return failure();
    SmallVector<unsigned> rowDims;
    for (AffineExpr e : map.getResults().drop_back()) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || d.getPosition() == rank - 1)
        return failure();
      rowDims.push_back(d.getPosition());
    }
    ArrayRef<int64_t> shape = vectorType.getShape();
    int64_t rows = 1;
    for (int64_t d : shape.drop_back())
      rows *= d;
    if (rows > 16)
      return failure();
    // n * s elements per row, not the (n - 1) * s + 1 the picks need: a
    // vector of odd width (63 for 32 lanes of stride 2) is legalized by
    // LLVM element by element. The s - 1 elements past the window may lie
    // past the buffer: the read is masked there (in_bounds false).
    int64_t n = shape.back();
    int64_t wide = n * s;
    Location loc = read.getLoc();
    Type element = vectorType.getElementType();
    auto wideType = VectorType::get({wide}, element);
    AffineMap minor = AffineMap::getMinorIdentityMap(rank, 1, getContext());
    SmallVector<int64_t> picks;
    for (int64_t i = 0; i < n; ++i)
      picks.push_back(i * s);
    Value result = arith::ConstantOp::create(
        rewriter, loc, vectorType, rewriter.getZeroAttr(vectorType));
    SmallVector<int64_t> position(shape.size() - 1, 0);
    for (int64_t row = 0; row < rows; ++row) {
      // The view's index of each dim, scaled by its stride into the source.
      SmallVector<Value> indices(read.getIndices());
      for (auto [i, d] : llvm::enumerate(rowDims))
        if (position[i] != 0)
          indices[d] = arith::AddIOp::create(
              rewriter, loc, indices[d],
              arith::ConstantIndexOp::create(rewriter, loc, position[i]));
      for (int64_t d = 0; d < rank; ++d)
        if (strides[d] != 1)
          indices[d] = arith::MulIOp::create(
              rewriter, loc, indices[d],
              arith::ConstantIndexOp::create(rewriter, loc, strides[d]));
      Value all = vector::TransferReadOp::create(
          rewriter, loc, wideType, view.getSource(), indices,
          AffineMapAttr::get(minor), read.getPadding(), Value(),
          rewriter.getBoolArrayAttr({false}));
      Value picked = vector::ShuffleOp::create(rewriter, loc, all, all, picks);
      if (position.empty()) {
        result = vector::ShapeCastOp::create(rewriter, loc, vectorType, picked);
        break;
      }
      result = vector::InsertOp::create(rewriter, loc, picked, result, position);
      for (int64_t i = position.size() - 1; i >= 0; --i) {
        if (++position[i] < shape[i])
          break;
        position[i] = 0;
      }
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};

/// A vector read of a strided view (see ReadStridedAsShuffle) whose every
/// user is a contraction that broadcasts it (it does not run along the
/// accumulator's lanes: a channel-blocked strided convolution's image
/// columns, one per tile row) as one scalar load per element: each becomes
/// a broadcast from memory on a load port. Read as a vector and shuffled,
/// each element took a cross-lane permute on the port that also does half
/// of AVX-512's FMAs: ResNet's stride-2 3x3 convolutions ran at half the
/// speed of the others.
struct ReadBroadcastSideAsScalars : OpRewritePattern<vector::TransferReadOp> {
  ReadBroadcastSideAsScalars(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto view = read.getBase().getDefiningOp<memref::SubViewOp>();
    VectorType vectorType = read.getVectorType();
    if (!view || read.hasOutOfBoundsDim() || read.getMask() ||
        vectorType.getNumElements() > 16 || vectorType.isScalable())
      return failure();
    ArrayRef<int64_t> strides = view.getStaticStrides();
    if (llvm::all_of(strides, [](int64_t t) { return t == 1; }))
      return failure();
    bool broadcastOnly = !read->use_empty() && llvm::all_of(read->getUsers(), [&](Operation *user) {
      auto contract = dyn_cast<vector::ContractionOp>(user);
      if (!contract || contract.getKind() != vector::CombiningKind::ADD)
        return false;
      SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
      if (maps[2].getNumResults() == 0)
        return false;
      auto lanes = dyn_cast<AffineDimExpr>(maps[2].getResults().back());
      if (!lanes)
        return false;
      for (unsigned i = 0; i < 2; ++i)
        if (contract->getOperand(i) == read.getResult() &&
            maps[i].isFunctionOfDim(lanes.getPosition()))
          return false;
      return true;
    });
    if (!broadcastOnly)
      return failure();
    // Each vector dim reads one view dim, or none (a broadcast dim).
    AffineMap map = read.getPermutationMap();
    SmallVector<std::optional<unsigned>> viewDims;
    for (AffineExpr e : map.getResults()) {
      if (auto d = dyn_cast<AffineDimExpr>(e))
        viewDims.push_back(d.getPosition());
      else if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0)
        viewDims.push_back(std::nullopt);
      else
        return failure();
    }
    Location loc = read.getLoc();
    ArrayRef<int64_t> shape = vectorType.getShape();
    SmallVector<Value> elements;
    SmallVector<int64_t> position(shape.size(), 0);
    for (int64_t i = 0; i < vectorType.getNumElements(); ++i) {
      SmallVector<Value> indices(read.getIndices());
      for (auto [j, d] : llvm::enumerate(viewDims))
        if (d && position[j] != 0)
          indices[*d] = arith::AddIOp::create(
              rewriter, loc, indices[*d],
              arith::ConstantIndexOp::create(rewriter, loc, position[j]));
      elements.push_back(memref::LoadOp::create(rewriter, loc, view, indices));
      for (int64_t j = position.size() - 1; j >= 0; --j) {
        if (++position[j] < shape[j])
          break;
        position[j] = 0;
      }
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(read, vectorType, elements);
    return success();
  }
};

/// Image rows per single-row tile of a depthwise convolution or pooling
/// window (windowRows), or up to twice as many when they divide the image:
/// independent accumulators, so that the window's multiply-adds are not one
/// dependent chain.
constexpr int64_t kWindowRows = 4;

/// For a tile without rows (a depthwise convolution, a pooling window), the
/// output loop just outside N when the image reads it through a window
/// (o * s + k) and its range is static: tiles over it compute several
/// output rows, each its own accumulator chain, from the same weights.
std::optional<unsigned> windowRows(linalg::GenericOp op, unsigned n) {
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() < 2)
    return std::nullopt;
  auto r = dyn_cast<AffineDimExpr>(out.getResult(out.getNumResults() - 2));
  if (!r || op.getIteratorTypesArray()[r.getPosition()] != utils::IteratorType::parallel)
    return std::nullopt;
  int64_t range = op.getStaticLoopRanges()[r.getPosition()];
  if (ShapedType::isDynamic(range) || range < 2)
    return std::nullopt;
  bool windowed = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    AffineMap map = op.getMatchingIndexingMap(in);
    return map.isFunctionOfDim(n) && readsInWindow(map, r.getPosition());
  });
  return windowed ? std::optional<unsigned>(r.getPosition()) : std::nullopt;
}

struct RegisterTiling {
  SmallVector<int64_t> tileSizes;
  /// M, the loop of the tile's rows, when it has them.
  std::optional<unsigned> rows;
  SmallVector<unsigned> interchange;
  /// The loops whose tiles may be partial (they get peeled): N, then M.
  SmallVector<unsigned> peeled;
  /// N, the loop in vector lanes.
  unsigned lanes = 0;
  /// A whole register tile's lanes, which laneWidths splits N by.
  int64_t laneTile = 1;
};

/// The register tiling of a multiply-add kernel on buffers, or nothing:
/// N and M as registerTileDims chooses them, tiled by `lanes` and `rows`.
/// Every other loop (batch, reductions, the rows and kernel window of a
/// convolution; dynamic ones too) gets tile size 1, reductions innermost.
std::optional<RegisterTiling> chooseTiling(linalg::GenericOp op, int64_t rows,
                                           int64_t lanes) {
  if (!op.hasPureBufferSemantics())
    return std::nullopt;
  std::optional<RegisterTileDims> dims = registerTileDims(op);
  if (!dims)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (!element.isIntOrFloat())
    return std::nullopt;
  unsigned n = dims->lanes;
  RegisterTiling t;
  t.tileSizes.assign(ranges.size(), 1);
  int64_t scaledLanes = std::max<int64_t>(1, lanes * 32 / element.getIntOrFloatBitWidth());
  t.tileSizes[n] = ShapedType::isDynamic(ranges[n]) ? scaledLanes
                                                    : std::min(ranges[n], scaledLanes);
  t.laneTile = scaledLanes;
  t.peeled.push_back(n);
  t.lanes = n;
  if (dims->rows) {
    int64_t m = ranges[*dims->rows];
    t.tileSizes[*dims->rows] = registerRows(m, rows);
    t.peeled.push_back(*dims->rows);
    t.rows = dims->rows;
  } else if (std::optional<unsigned> r = windowRows(op, n)) {
    // Rows that divide the image (7 of a 7x7 one) leave no partial tile:
    // its accesses after the full tiles' would keep the full tiles'
    // accumulators from being hoisted out of the window loops.
    // Channels in the lanes (a channels-last depthwise convolution, whose
    // image also reads N): each row costs a load of the image per window
    // step against the one of the filter all rows share, so the most rows
    // that divide the image, down to kWindowRows.
    bool channelsInLanes = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
      AffineMap map = op.getMatchingIndexingMap(in);
      return readsInWindow(map, *r) &&
             llvm::is_contained(map.getResults(), getAffineDimExpr(n, op.getContext()));
    });
    int64_t range = ranges[*r], size = std::min(range, kWindowRows);
    if (channelsInLanes) {
      for (int64_t candidate = 2 * kWindowRows; candidate >= kWindowRows; --candidate)
        if (range % candidate == 0) {
          size = candidate;
          break;
        }
    } else {
      for (int64_t candidate = kWindowRows; candidate <= 2 * kWindowRows; ++candidate)
        if (range % candidate == 0) {
          size = candidate;
          break;
        }
    }
    t.tileSizes[*r] = size;
    t.peeled.push_back(*r);
  }
  // With a single row per tile, each k step reuses nothing: the reduction
  // then walks the N-side input across rows (stride N), which only pays off
  // while that input stays in cache. Larger ones (a 1x1 convolution split
  // into one output channel per workgroup) stream faster as contiguous axpys
  // (--tc-cpu-interchange-loops).
  if (t.peeled.size() == 1) {
    int64_t bytes = ranges[n] * element.getIntOrFloatBitWidth() / 8;
    for (unsigned i = 0; i < iterators.size(); ++i)
      if (iterators[i] == utils::IteratorType::reduction)
        bytes = ShapedType::isDynamic(ranges[i]) ? INT64_MAX / 2
                                                 : std::min(bytes * ranges[i], INT64_MAX / 2);
    if (bytes > kSingleRowCacheBytes)
      return std::nullopt;
  }
  // The row tiles innermost of the parallel loops when the inputs that do
  // not run along the rows (the weights) outgrow a core's cache and the
  // others (the rows' activations): each column panel is then read once
  // and stays in cache while the row tiles pass over it, where otherwise
  // every row tile would stream all of the weights again (a language
  // model's head: 2.4 MB of panels per workgroup, 16 row tiles).
  std::optional<unsigned> lastParallel;
  if (dims->rows) {
    int64_t weights = bytesReadWhole(op, *dims->rows);
    if (weights > kPrivateCacheBytes && weights > bytesReadWhole(op, n))
      lastParallel = *dims->rows;
  }
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] == utils::IteratorType::parallel && i != lastParallel)
      t.interchange.push_back(i);
  if (lastParallel)
    t.interchange.push_back(*lastParallel);
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] != utils::IteratorType::parallel)
      t.interchange.push_back(i);

  return t;
}

/// Tiles `op` into register tiles (marked) and peels the partial M and N
/// tiles off, so that every full tile has static sizes.
void tileAndPeel(RewriterBase &rewriter, linalg::GenericOp op,
                      const RegisterTiling &tiling) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // The loops' order: the interchange, unless tileAndMark keeps their own.
  SmallVector<unsigned> order(tiling.interchange);
  if (readsLoopIndices(op))
    order = llvm::to_vector(llvm::seq<unsigned>(0, op.getNumLoops()));
  FailureOr<linalg::TiledLinalgOp> tiled = tileAndMark(
      rewriter, op, tiling.tileSizes, tiling.interchange, kTileMarker);
  if (failed(tiled))
    return;

  // tiled->loops follow that order; map each back to its dim.
  SmallVector<unsigned> loopDims;
  for (unsigned d : order)
    if (tiling.tileSizes[d] != 0)
      loopDims.push_back(d);
  if (loopDims.size() != tiled->loops.size())
    return; // Unexpected loop structure: leave the partial tiles dynamic.
  // Innermost first: peeling an outer loop copies the inner ones, already
  // peeled.
  for (int64_t i = static_cast<int64_t>(loopDims.size()) - 1; i >= 0; --i) {
    unsigned d = loopDims[i];
    bool dynamic = ShapedType::isDynamic(ranges[d]);
    if (!llvm::is_contained(tiling.peeled, d) ||
        (!dynamic && ranges[d] % tiling.tileSizes[d] == 0))
      continue;
    scf::ForOp partial;
    auto loop = dyn_cast<scf::ForOp>(tiled->loops[i]);
    if (!loop || failed(scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial)) ||
        !dynamic || tiling.tileSizes[d] == 1)
      continue;
    // The last tile of a dynamic M (or N) has fewer rows (lanes) than a
    // full one, known only at run time: one at a time, each a static tile.
    SmallVector<linalg::GenericOp> partialTiles;
    partial.walk([&](linalg::GenericOp tile) {
      if (tile->hasAttr(kTileMarker))
        partialTiles.push_back(tile);
    });
    for (linalg::GenericOp tile : partialTiles) {
      SmallVector<int64_t> sizes(tile.getNumLoops(), 0);
      sizes[d] = 1;
      (void)tileAndMark(rewriter, tile, sizes, {}, kTileMarker);
    }
  }
}

/// `op` tiled into scf.for loops by `sizes` (0: a loop left whole): the
/// tile, which replaces it; `op` itself, unchanged, when tiling fails.
linalg::GenericOp tileIntoLoops(RewriterBase &rewriter, linalg::GenericOp op,
                                ArrayRef<int64_t> sizes) {
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes).setLoopType(linalg::LinalgTilingLoopType::Loops);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled = linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled))
    return op;
  rewriter.eraseOp(op);
  return cast<linalg::GenericOp>(tiled->op.getOperation());
}

/// The most bytes of a packed panel: a stack buffer in every workgroup
/// function that packs (a 1x1 convolution over 2048 channels: 256 KB).
constexpr int64_t kMaxPanelBytes = 256 * 1024;

/// The least distance between consecutive rows of a lanes-side input that
/// is worth packing: nearer rows (attention's values, 64 floats apart) are
/// in reach of the first-level cache's stride prefetcher, and packing the
/// values of ViT's attention made it slower; a 1x1 convolution on a 28x28
/// or 56x56 image reads rows 3 or 12.5 KB apart.
constexpr int64_t kMinPanelStrideBytes = 2048;

/// The smallest block blockReduction splits a reduction into.
constexpr int64_t kMinReductionBlock = 4;

/// The fewest row tiles that share a packed panel: the copy reads the
/// panel once and writes it, so with two (a workgroup of 16 output
/// channels of a 1x1 convolution on a 14x14 image) it cost more than the
/// second tile's reads it saved.
constexpr int64_t kMinPanelRowTiles = 4;

/// The input that a tile reads along its lanes and not along its rows (a
/// matmul's right-hand side, a 1x1 convolution's image), when it is worth
/// packing into contiguous panels inside the kernel: every map result a
/// loop, the lanes last; its rows (the reduction's steps)
/// kMinPanelStrideBytes or more apart (constant weights are packed at
/// compile time, by --tc-cpu-pack-weights); read by kMinPanelRowTiles row tiles or more,
/// and larger than
/// a first-level cache, so that they read it from farther away; and the
/// inputs read whole across the panels (the rows' side) small enough to
/// stay in a core's cache while the panels pass. The operand's index.
std::optional<unsigned> panelOperand(linalg::GenericOp op,
                                     const RegisterTiling &tiling, int64_t tile) {
  if (!tiling.rows)
    return std::nullopt;
  unsigned n = tiling.lanes, m = *tiling.rows;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamic(ranges[n]) ||
      (!ShapedType::isDynamic(ranges[m]) &&
       ranges[m] < kMinPanelRowTiles * tiling.tileSizes[m]))
    return std::nullopt;
  if (bytesReadWhole(op, n) > kPrivateCacheBytes ||
      bytesReadWhole(op, m) <= kFirstLevelCacheBytes)
    return std::nullopt;
  std::optional<unsigned> found;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!map.isFunctionOfDim(n) || map.isFunctionOfDim(m))
      continue;
    if (found)
      return std::nullopt;
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (!type || type.getRank() < 2 || map.getNumResults() != type.getRank() ||
        map.getResults().back() != getAffineDimExpr(n, op.getContext()) ||
        !llvm::all_of(map.getResults(), llvm::IsaPred<AffineDimExpr>))
      return std::nullopt;
    SmallVector<int64_t> strides;
    int64_t offset;
    int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1 ||
        ShapedType::isDynamic(strides[strides.size() - 2]) ||
        strides[strides.size() - 2] * elementBytes < kMinPanelStrideBytes)
      return std::nullopt;
    // The panel: the reduction dims whole, one lane tile.
    int64_t bytes = tile * elementBytes;
    for (AffineExpr e : map.getResults().drop_back()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      if (op.getIteratorTypesArray()[d] != utils::IteratorType::reduction)
        continue;
      if (ShapedType::isDynamic(ranges[d]))
        return std::nullopt;
      bytes *= ranges[d];
    }
    if (bytes > kMaxPanelBytes)
      return std::nullopt;
    found = in->getOperandNumber();
  }
  return found;
}

/// Packs the input that `op` reads along its lanes, panel by panel, when
/// panelOperand finds one: `op` is tiled into panels of `tile` lanes (its
/// other parallel loops but M one at a time, M and the reductions whole),
/// and each panel's slice of that input is copied into a contiguous stack
/// buffer that the panel's row tiles then read. A 1x1 convolution in NCHW
/// reads its image as the lanes' side, one image row (12.5 KB apart on a
/// 56x56 image) per reduction step: each step of each row tile touched a
/// new page, out of reach of the hardware prefetchers, and ResNet-50's 1x1
/// convolutions ran at half the rate of its matmuls. Returns the op to
/// register-tile: the panel's, or `op` itself.
linalg::GenericOp packLanesOperand(RewriterBase &rewriter, linalg::GenericOp op,
                                   const RegisterTiling &tiling, int64_t tile) {
  std::optional<unsigned> operand = panelOperand(op, tiling, tile);
  if (!operand)
    return op;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] == utils::IteratorType::parallel && i != *tiling.rows)
      sizes[i] = 1;
  sizes[tiling.lanes] = tile;
  linalg::GenericOp panel = tileIntoLoops(rewriter, op, sizes);
  if (panel == op)
    return op;
  Value slice = panel->getOperand(*operand);
  auto sliceType = cast<MemRefType>(slice.getType());
  if (!sliceType.hasStaticShape())
    return panel;
  // At the function's entry: an alloca inside the loops would grow the
  // stack on every panel.
  auto func = panel->getParentOfType<func::FuncOp>();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&func.getBody().front());
  Value buffer = memref::AllocaOp::create(
      rewriter, panel.getLoc(),
      MemRefType::get(sliceType.getShape(), sliceType.getElementType()),
      rewriter.getI64IntegerAttr(64));
  rewriter.setInsertionPoint(panel);
  AffineMap identity = rewriter.getMultiDimIdentityMap(sliceType.getRank());
  layoutCopy(rewriter, panel.getLoc(), slice, identity, buffer, identity);
  auto copy = cast<linalg::GenericOp>(panel->getPrevNode());
  rewriter.modifyOpInPlace(panel, [&] { panel->setOperand(*operand, buffer); });
  // One vector of the panel's lanes per step, vectorized with the tiles.
  tileAlongLanes(rewriter, copy, sliceType.getRank() - 1, tile, kTileMarker);
  return panel;
}

/// The reduction loop that blockReduction splits, and its block: the
/// outermost static reduction loop that the rows-invariant inputs (a
/// convolution's filter panel) read, in the largest block that divides it
/// and keeps their slice within a first-level cache. Only for convolution
/// windows (two or more reduction loops) whose rows-invariant inputs
/// outgrow that cache and are read by two row tiles or more: a matmul's
/// weight panels blocked by 256 ran slower (ViT-B/16's MLP).
std::optional<std::pair<unsigned, int64_t>>
reductionBlock(linalg::GenericOp op, const RegisterTiling &tiling) {
  if (!tiling.rows || op.getNumReductionLoops() < 2)
    return std::nullopt;
  unsigned m = *tiling.rows;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t bytes = bytesReadWhole(op, m);
  if (bytes <= kFirstLevelCacheBytes)
    return std::nullopt;
  // Row tiles per pass over those inputs: the tiles of M and of the other
  // parallel loops they do not read.
  int64_t rowTiles = 1;
  for (unsigned i = 0; i < ranges.size(); ++i) {
    if (iterators[i] != utils::IteratorType::parallel || i == tiling.lanes ||
        ShapedType::isDynamic(ranges[i]))
      continue;
    bool read = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
      AffineMap map = op.getMatchingIndexingMap(in);
      return !map.isFunctionOfDim(m) && map.isFunctionOfDim(i);
    });
    if (!read)
      rowTiles *= llvm::divideCeil(ranges[i], tiling.tileSizes[i]);
  }
  if (rowTiles < 2)
    return std::nullopt;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (iterators[d] != utils::IteratorType::reduction ||
        ShapedType::isDynamic(ranges[d]))
      continue;
    bool read = llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *in) {
      AffineMap map = op.getMatchingIndexingMap(in);
      return map.isFunctionOfDim(m) || map.isFunctionOfDim(d);
    });
    if (!read)
      continue;
    int64_t perStep = bytes / ranges[d];
    for (int64_t block = ranges[d] / 2; block >= kMinReductionBlock; --block)
      if (ranges[d] % block == 0 && block * perStep <= kFirstLevelCacheBytes)
        return std::make_pair(d, block);
    return std::nullopt;
  }
  return std::nullopt;
}

/// Splits `op`'s reduction into the blocks reductionBlock chooses, when it
/// chooses: a loop over the blocks, each the op over its block, whose row
/// tiles then read the filter's block from the first-level cache instead of
/// the whole panel from the second (590 KB per tile of 7 output columns for
/// a 3x3 convolution over 512 channels). Each tile then reads and writes its
/// accumulators once per block. Returns the op to register-tile.
linalg::GenericOp blockReduction(RewriterBase &rewriter, linalg::GenericOp op,
                                 const RegisterTiling &tiling) {
  std::optional<std::pair<unsigned, int64_t>> block = reductionBlock(op, tiling);
  if (!block)
    return op;
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  sizes[block->first] = block->second;
  return tileIntoLoops(rewriter, op, sizes);
}

/// Splits N into laneWidths (linalg::splitOp) and register-tiles each part
/// with a lane tile that divides it, packing its lanes' input first where
/// that pays (packLanesOperand).
void tileForRegisters(RewriterBase &rewriter, linalg::GenericOp op,
                      const RegisterTiling &tiling) {
  unsigned n = tiling.lanes;
  int64_t tile = tiling.laneTile;
  // A dynamic N: full tiles and a partial one, peeled (tileAndPeel).
  if (ShapedType::isDynamic(op.getStaticLoopRanges()[n])) {
    tileAndPeel(rewriter, op, tiling);
    return;
  }
  for (auto [part, width] : splitLanes(rewriter, op, n, tile)) {
    RegisterTiling partTiling = tiling;
    partTiling.tileSizes[n] = width % tile == 0 ? tile : width;
    linalg::GenericOp packed =
        packLanesOperand(rewriter, part, partTiling, partTiling.tileSizes[n]);
    if (packed == part)
      packed = blockReduction(rewriter, part, partTiling);
    tileAndPeel(rewriter, packed, partTiling);
  }
}

/// Vectorizes the marked tiles whose operands all have static shapes.
void vectorizeTiles(func::FuncOp func) {
  SmallVector<linalg::LinalgOp> tiles;
  func.walk([&](linalg::LinalgOp op) {
    if (!op->hasAttr(kTileMarker))
      return;
    op->removeAttr(kTileMarker);
    bool isStatic = llvm::all_of(op->getOperandTypes(), [](Type t) {
      auto shaped = dyn_cast<ShapedType>(t);
      return !shaped || shaped.hasStaticShape();
    });
    if (isStatic)
      tiles.push_back(op);
  });
  // Whether some tile reads operands narrower than its accumulator.
  bool widens = llvm::any_of(tiles, [](linalg::LinalgOp tile) {
    Type acc = getElementTypeOrSelf(tile.getDpsInitOperand(0)->get().getType());
    return llvm::any_of(tile.getDpsInputOperands(), [&](OpOperand *in) {
      return getElementTypeOrSelf(in->get().getType()) != acc;
    });
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::LinalgOp tile : tiles) {
    linalg::LinalgOp op = tile;
    if (auto generic = dyn_cast<linalg::GenericOp>(tile.getOperation()))
      op = dropUnitLoops(rewriter, generic);
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
        rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (succeeded(result))
      rewriter.eraseOp(op);
  }
  // Generic contractions vectorize to broadcasting reads, a multiply and a
  // multi_reduction; fold those back into one vector.contract over the
  // unbroadcast operands, which lowers to outer products.
  RewritePatternSet patterns(func.getContext());
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorReductionToContractPatterns(patterns);
  // A bf16/f16 contraction accumulating in f32 extends its operands after
  // the broadcasting reads: moving the extensions above the broadcasts
  // lets the contraction fold them, so each element is extended once.
  // (Only then: the f32 kernels are left as they were tuned.)
  if (widens)
    vector::populateSinkVectorOpsPatterns(patterns);
  patterns.add<PutLanesOperandOnTheRight, FuseMultiplyAdd>(func.getContext());
  (void)applyPatternsGreedily(func, std::move(patterns));
  // Once the broadcasts are folded into the contractions (a matmul step's
  // operands no longer have the other's dims).
  // The strided reads too, once the contractions that read them exist:
  // whether a read is broadcast depends on them.
  RewritePatternSet fmas(func.getContext());
  fmas.add<ContractWithoutReductionToFMA, ReadStridedAsShuffle,
           ReadBroadcastSideAsScalars>(func.getContext());
  (void)applyPatternsGreedily(func, std::move(fmas));
}

/// Keeps each tile's accumulator in registers across the reduction loop.
/// Upstream hoisting only moves transfers whose memref is not a view and
/// whose indices are loop-invariant: the tiles' subviews are folded into
/// the transfers' indices, and the index arithmetic is moved out of the
/// loops first.
LogicalResult hoistAccumulators(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  // Not converging within the iteration limit (reshapes that fold back and
  // forth) only leaves some views unfolded: those accumulators stay in
  // memory, which is slower but correct.
  (void)applyPatternsGreedily(func, std::move(patterns));
  // Tiling leaves one copy of the index arithmetic per operand; the
  // accumulator's read and write must see the same values.
  IRRewriter rewriter(func.getContext());
  DominanceInfo dominance(func);
  eliminateCommonSubExpressions(rewriter, dominance, func);
  func.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
  // A loop that may run zero times (a reduction over a dynamic length: the
  // key length of attention exported with dynamic axes) still gets its
  // accumulator hoisted: the hoisted read and write-back of an unchanged
  // value are harmless in a workgroup's sequential code, whose tiles no
  // other workgroup touches. Parallel loops, should any remain, keep the
  // non-zero-trip requirement.
  bool parallel = func.walk([](Operation *op) {
                        return isa<scf::ForallOp, scf::ParallelOp>(op)
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      }).wasInterrupted();
  linalg::hoistRedundantVectorTransfers(func, /*verifyNonZeroTrip=*/parallel);
  return success();
}

/// vector.contract to outer products and those to FMAs; transfers with
/// permutation or broadcast maps to minor-identity ones. What remains (n-D
/// transfers, 1-D vector ops) is for --convert-vector-to-scf and
/// --convert-vector-to-llvm. Upstream's cast-away-leading-unit-dims patterns
/// are deliberately absent: on a 1xK by Kx32 contraction they rewrite back
/// and forth with the contraction lowering and never converge (the
/// single_row lit case).
LogicalResult lowerVectors(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::OuterProduct);
  vector::populateVectorOuterProductLoweringPatterns(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vector::VectorTransposeLowering::EltWise);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerParallel);
  vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
  vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
  return applyPatternsGreedily(root, std::move(patterns));
}

struct CpuVectorizeContractionsPass
    : impl::CpuVectorizeContractionsPassBase<CpuVectorizeContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (rows < 1 || lanes < 1) {
      getOperation()->emitError("rows and lanes must be positive");
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> funcs;
    getOperation()->walk([&](func::FuncOp f) { funcs.push_back(f); });
    for (func::FuncOp func : funcs) {
      IRRewriter rewriter(&getContext());
      SmallVector<std::pair<linalg::GenericOp, RegisterTiling>> kernels;
      SmallVector<linalg::LinalgOp> ops;
      func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
      for (linalg::LinalgOp op : ops) {
        // Named contractions (linalg.matmul) are tiled as generics.
        auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        if (!generic && op.hasPureBufferSemantics() &&
            linalg::isaContractionOpInterface(op)) {
          rewriter.setInsertionPoint(op);
          // The kernel's configuration and key stay with it.
          DictionaryAttr kept = op->getDiscardableAttrDictionary();
          FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, op);
          generic = succeeded(g) ? *g : nullptr;
          if (generic)
            for (NamedAttribute attr : kept)
              generic->setAttr(attr.getName(), attr.getValue());
        }
        if (!generic)
          continue;
        // The kernel's configuration (--tc-cpu-configure-kernels), else
        // the pass's own tile.
        std::optional<RegisterTileConfig> config = registerTileConfig(generic);
        int64_t tileRows = config ? config->rows : static_cast<int64_t>(rows);
        int64_t tileLanes = config ? config->lanes : static_cast<int64_t>(lanes);
        if (std::optional<RegisterTiling> t =
                chooseTiling(generic, tileRows, tileLanes))
          kernels.push_back({generic, *t});
      }
      if (kernels.empty())
        continue;
      for (auto &[op, tiling] : kernels)
        tileForRegisters(rewriter, op, tiling);
      (void)canonicalizeTiles(func);
      vectorizeTiles(func);
      if (failed(hoistAccumulators(func)))
        return signalPassFailure();
      if (lowerContractions && failed(lowerVectors(func))) {
        func.emitError("register tiling: the vector lowering did not converge");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
