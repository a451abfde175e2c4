//===- RegisterTiling.h - CPU register tiles and their helpers -*- C++ -*-===//
//
// Which loops of a multiply-add or pooling kernel (matmul, batch matmul,
// convolution, pooling window) a register tile spans: N, the output's last
// dimension, in vector lanes, and M, the rows whose accumulators share one
// vector of the N-side input. --tc-cpu-vectorize-contractions builds the
// tiles; --tc-cpu-distribute reads the same choice to split kernels into
// workgroups that hold whole tiles. Also the tile utilities both
// vectorization passes share (lane splitting, unit-loop dropping,
// canonicalization).
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_CPU_REGISTERTILING_H
#define TC_TARGET_CPU_REGISTERTILING_H

#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::tc::cpu {

/// Rows and lanes (in 32-bit elements) of a register tile, the defaults of
/// --tc-cpu-vectorize-contractions' `rows` and `lanes`: workgroups hold
/// whole multiples of them.
constexpr int64_t kRegisterRows = 8;
constexpr int64_t kRegisterLanes = 32;

/// Lanes of one 256-bit vector, in 32-bit elements.
constexpr int64_t kVectorLanes = 8;

/// The bytes of an operand that a kernel may read again and again and
/// still find in a core's own cache: about half of a server core's L2.
constexpr int64_t kPrivateCacheBytes = 1 << 20;

/// The bytes a core's first-level data cache keeps while a kernel streams
/// through a few others: an input within this stays there after the first
/// row tile that reads it, strided or not (a 1x1 convolution's image slice
/// over 64 channels).
constexpr int64_t kFirstLevelCacheBytes = 32 * 1024;

/// The fewest output columns (N) worth a register tile.
constexpr int64_t kMinLanes = 8;

/// The same for a tile without rows, whose reduction is only a window (a
/// depthwise convolution or pooling on a 7x7 image).
constexpr int64_t kMinWindowLanes = 4;

/// The rows of a register tile over a static M of `range` rows, at most
/// `rows`: all of a smaller M; else `rows` when it divides M; else the
/// largest divisor of M of at least 3/4 `rows` (7 for an image 14 or 28
/// columns wide), so that no partial tile follows the full ones (a partial
/// tile of a strided convolution reads a window of dynamic extent and is
/// not vectorized, and its accesses keep the full tiles' accumulators in
/// memory); failing that, `rows` and a peeled partial tile.
int64_t registerRows(int64_t range, int64_t rows = kRegisterRows);

struct RegisterTileDims {
  /// N: the loop of the output's last dimension (parallel, static range of
  /// at least kMinLanes, or kMinWindowLanes without rows).
  unsigned lanes;
  /// M: the output loop closest to N (range > 1) that no input reads
  /// together with N, static if one is, else dynamic; none for a
  /// single-row tile (a depthwise convolution).
  std::optional<unsigned> rows;
};

/// The constant behind `value`, through fusion.group arguments, reshapes and
/// view groups (one reshape), when nothing else uses it or any of them; its
/// row-major bytes are `value`'s.
arith::ConstantOp singleUseConstant(Value value);

/// The bytes of `constant` when they are `type`'s whole contents (row-major)
/// and its elements are f32, f16 or bf16, the weights of the kernels that
/// re-lay them out; a splat or another element type gives nothing.
std::optional<ArrayRef<char>> floatWeightBytes(arith::ConstantOp constant,
                                               RankedTensorType type);

/// A dense_resource constant of `type` (f32, f16 or bf16) called `name`,
/// whose bytes `fill` writes (a weight re-laid at compile time).
DenseResourceElementsAttr weightResource(RankedTensorType type, StringRef name,
                                         function_ref<void(char *)> fill);

/// The weights a pass re-laid out (found by singleUseConstant, their one
/// reader rewritten to read the copy), when it may free them: the chain
/// from such a weight to its old reader is dead, so release() makes the
/// constant a zero splat, and once no other operation refers to its
/// resource (the uses under `root`, counted when enabled, kept up to date),
/// frees the resource's bytes. Only for a context whose other modules do
/// not share the resources; a disabled one releases nothing.
class ReplacedWeights {
public:
  ReplacedWeights(Operation *root, bool enabled);
  void release(RewriterBase &rewriter, arith::ConstantOp constant);

private:
  bool enabled;
  llvm::StringMap<unsigned> uses;
};

/// A constant weight that a pass re-lays out: the constant (found by
/// singleUseConstant), and its row-major float bytes, or its value when it
/// is a splat.
struct ConstantWeight {
  arith::ConstantOp constant;
  ArrayRef<char> bytes;
  DenseElementsAttr splat;
};
std::optional<ConstantWeight> constantWeight(Value value);

/// `weight`, row-major [F, rest...], as `blockedType` = [F / lanes,
/// rest..., lanes]: element (b * lanes + l, i) goes to (b, i, l). A splat
/// stays one.
ElementsAttr blockLeadingDim(const ConstantWeight &weight,
                             RankedTensorType blockedType, int64_t lanes);

/// Finds the candidates of a weight re-layout pass on `root` (`match` on
/// each linalg.generic), rewrites each and then releases its weight's
/// original bytes (ReplacedWeights, when `release`).
template <typename Candidate, typename Match, typename Rewrite>
void rewriteWeightCandidates(Operation *root, bool release, Match match,
                             Rewrite rewrite) {
  SmallVector<Candidate> candidates;
  root->walk([&](linalg::GenericOp op) {
    if (std::optional<Candidate> c = match(op))
      candidates.push_back(*c);
  });
  IRRewriter rewriter(root->getContext());
  ReplacedWeights replaced(root, release);
  for (Candidate &c : candidates) {
    rewrite(rewriter, c);
    replaced.release(rewriter, c.filter.constant);
  }
}

/// A generic that copies `from` (read through `fromMap`) into `into`
/// (written through `intoMap`), all loops parallel: a change of layout.
Value layoutCopy(OpBuilder &b, Location loc, Value from, AffineMap fromMap,
                 Value into, AffineMap intoMap);

/// Whether `value` depends on `iv` (through the ops of the function; a block
/// argument other than `iv` ends a path): which loops a tile's index reads.
bool dependsOn(Value value, Value iv);

/// acc + a * b (possibly through casts), for floats or integers.
bool hasMultiplyAddBody(linalg::LinalgOp op);

/// acc = combine(acc, x) with one max, min or add of an input and the
/// output: a pooling window (other inputs, like the window-shape operand of
/// upstream's pooling ops, unused).
bool hasPoolingBody(linalg::LinalgOp op);

/// Whether `op` is a kernel the lane vectorization passes may tile and
/// vectorize: on buffers, at least one loop, integer or float elements of 8
/// bits or more, indexing maps of loops and constants only, and a body
/// without memory accesses of its own (gathers stay loops).
bool isLaneKernel(linalg::GenericOp op);

/// Whether every input that depends on `loop` reads it only in its own last
/// dimension (contiguously, or with a convolution's stride), so that a
/// vector along `loop` is one contiguous read of each input.
bool readsLoopOnlyInLastDim(linalg::LinalgOp op, unsigned loop);

/// Whether `expr` is a loop, a constant, or a convolution window
/// `o * s + k * d` (s, d positive constants; either term may be a bare loop).
bool isPlainOrWindow(AffineExpr expr);

/// The bytes of `op`'s inputs that loop `d` does not index: what every
/// part reads whole when `d` is split (a matmul's weights, split by rows),
/// or what is read again for each step of `d`. A dynamic extent counts as
/// its upper bound (a workgroup's share of the columns when they do not
/// split evenly); 0 in all when one has none (unknown, taken as small).
int64_t bytesReadWhole(linalg::LinalgOp op, unsigned d);

/// Whether `map` reads loop `d` inside a window expression (`o * s + k`),
/// as a convolution or pooling window reads its output rows.
bool readsInWindow(AffineMap map, unsigned d);

/// The register tile's loops for a multiply-add or pooling kernel with
/// reductions, one output, plain or window maps; nothing for other ops.
/// Pooling tiles are single rows.
std::optional<RegisterTileDims> registerTileDims(linalg::LinalgOp op);

/// `d * s` (s > 1): a strided window read once its kernel loop is fixed;
/// the loop and the stride.
std::optional<std::pair<unsigned, int64_t>> stridedDim(AffineExpr e);

/// Rewrites a static tile on buffers without its unit loops (fixed at 0;
/// one unit reduction stays, as a contraction's k) and without the operand
/// dims they leave at a constant 0 (rank-reducing subviews); a strided
/// window dim (`o * s` once its kernel loop is fixed) becomes a strided
/// view. This turns a tile of a batch matmul, a convolution or an N-d
/// elementwise op into the plain low-rank form the vectorizer reads with
/// minor-identity transfers. Upstream's unit-dim folding only handles
/// tensors. Returns the new op, or the old one when nothing changes.
linalg::GenericOp dropUnitLoops(RewriterBase &rewriter, linalg::GenericOp op);

/// `op` (on buffers) with its trailing loops collapsed into one when its
/// last loop is static and narrower than `minLanes` (a 7x7 image's rows:
/// an activation after a convolution on ResNet's or EfficientNet's last
/// stage, or a global average pool over it): the run of static loops
/// before it of the same iterator type, up to 8 * minLanes lanes, that
/// every operand reads as consecutive dims of a buffer that can collapse
/// them, becomes one loop (49 lanes); `op` itself when none can.
linalg::GenericOp collapseNarrowRows(RewriterBase &rewriter, linalg::GenericOp op,
                                     int64_t minLanes);

/// The width of the vector registers the CPU code is shaped for: AVX-512's.
/// (On a CPU with narrower registers the code is the same and correct; a
/// one-register part is then two.)
constexpr int64_t kVectorRegisterBits = 512;

/// The lanes of one vector register for elements of type `element`.
int64_t registerLanes(Type element);

/// The widths a loop of `range` lanes is split into before tiling by
/// `tile`: whole tiles, then powers of two down to `oneRegister` lanes,
/// then the rest, at most one register, in one part. LLVM
/// widens a vector to the next power of two: within one register that
/// costs nothing (14 lanes run as 16), but a wider one is split after
/// widening and its tail lanes go through the stack one by one (17 lanes of
/// a 7x7 feature map after 32; 28 lanes of a 28x28 one ran at a twentieth
/// of the speed of 16 + 12).
SmallVector<int64_t> laneWidths(int64_t range, int64_t tile,
                                int64_t oneRegister);

/// Splits loop `n` of `op` (static range) with linalg::splitOp into the
/// laneWidths of `tile`, in order: each part and its range along `n`. When
/// a split fails, the rest stays one part.
SmallVector<std::pair<linalg::GenericOp, int64_t>>
splitLanes(RewriterBase &rewriter, linalg::GenericOp op, unsigned n,
           int64_t tile);

/// Whether `op`'s body reads its loop indices (linalg.index).
bool readsLoopIndices(Operation *op);

/// Tiles `op` into loops (tile size 0: not tiled; `interchange` empty:
/// the loops' own order), puts the unit attribute `marker` on the tile and
/// erases `op`; `op` stays as it was when tiling fails. An op that reads
/// its loop indices keeps the loops' own order whatever `interchange` says:
/// upstream's tiling offsets linalg.index ops by the loops in their
/// interchanged order, not by dim (a cumsum's `k <= i` became `j <= i`).
FailureOr<linalg::TiledLinalgOp>
tileAndMark(RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
            ArrayRef<unsigned> interchange, StringRef marker);

/// Splits loop `n` of `op` (static range) into the laneWidths of `lanes`
/// and tiles each part to one vector along `n` (`lanes`, or the part's
/// whole width when narrower) with every other loop 1, `n` innermost. The
/// tiles carry the unit attribute `marker` for vectorizeMarkedTiles. A
/// dynamic `n` is tiled by `lanes` and its partial last tile peeled off:
/// it keeps a run-time width, so it stays loops.
void tileAlongLanes(RewriterBase &rewriter, linalg::GenericOp op, unsigned n,
                    int64_t lanes, StringRef marker);

/// Canonicalizes `root` (the tiles' sizes become static), then drops the
/// unit loops of every static tile marked `marker` and vectorizes it with
/// upstream linalg vectorization; removes the marker. A tile the vectorizer
/// rejects stays a linalg op (lowered to loops later).
void vectorizeMarkedTiles(RewriterBase &rewriter, Operation *root,
                          StringRef marker);

/// Runs the canonicalization patterns of every loaded dialect and op, and
/// scf.for's, on `root`: folds the single-iteration partial loops of a
/// tiling and turns the tile sizes that have become constants into static
/// shapes (min(1, ub - iv) is 1 inside a loop of step 1).
LogicalResult canonicalizeTiles(Operation *root);

} // namespace mlir::tc::cpu

#endif // TC_TARGET_CPU_REGISTERTILING_H
