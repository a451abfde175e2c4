//===- CooperativeKernels.h - block-cooperative GPU kernels -*- C++ -*-===//
//
// The kernels --tc-gpu-map-kernels builds, instead of its general
// one-thread-per-output path, for the ops where the threads of a block
// must work together: contractions (shared-memory tiles) and reductions
// (warp shuffles, or a tree over shared memory).
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_COOPERATIVEKERNELS_H
#define TC_TARGET_GPU_COOPERATIVEKERNELS_H

#include "tc/Target/Gpu/ContractionFusion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {

/// Edge of the square output tile a block computes, and of the reduction
/// step whose operand tiles it stages in shared memory.
constexpr int64_t kMatmulTile = 16;
/// Outputs per thread along each side of that kernel: a block of
/// kMatmulTile x kMatmulTile threads computes a tile of
/// (kMatmulTile kMatmulRegisterTile)^2 outputs.
constexpr int64_t kMatmulRegisterTile = 2;
/// The same for large contractions: 4 x 4 outputs per thread, 64 x 64 per
/// block, twice the multiply-adds per element read from shared memory. Taken
/// when M and N are both at least 64 and there are at least
/// kMatmulWideBlocks such blocks (enough to cover a GPU's multiprocessors
/// twice: 132 on an H200); decided at compile time for static extents, by
/// a branch in the host code otherwise (both kernels are built).
constexpr int64_t kMatmulWideRegisterTile = 4;
constexpr int64_t kMatmulWideBlocks = 256;
/// On matrix cores, 8 x 8 outputs per thread, 128 x 128 per block: half
/// the global (L2) traffic per multiply-add of the 64 x 64 tile, and warp
/// tiles of 64 x 32 (mma.sync) that reuse each fragment four times. Taken
/// for static extents that fill it with at least kMatmulWideBlocks blocks
/// (takesLargeTile).
constexpr int64_t kMatmulLargeRegisterTile = 8;

/// #fusion.kernel_config's strategy name for buildTiledContraction's
/// kernel: `tile = [M, N, K]`, the block's output tile and K step, one of
/// [32, 32, 16] and [64, 64, 16] (kMatmulRegisterTile and
/// kMatmulWideRegisterTile), and on matrix cores [128, 128, 16]
/// (kMatmulLargeRegisterTile); `workgroups = 0` (as many blocks as the
/// extents need).
inline constexpr llvm::StringLiteral kTiledContractionStrategy =
    "tiled-contraction";

/// What a kernel configuration needs to know of a contraction that
/// buildTiledContraction takes.
struct TiledContractionShape {
  /// The linearized extents of M, N and the batch loops
  /// (ShapedType::kDynamic when not static).
  int64_t m = 0, n = 0, batches = 1;
  /// The factors' element type when the block multiplies on matrix cores
  /// (f16, bf16, or f32 holding TF32 values); null otherwise.
  Type matrixElement;
};
std::optional<TiledContractionShape> tiledContractionShape(linalg::LinalgOp op);

/// Whether a contraction of `shape` takes the 128 x 128 tile: on matrix
/// cores, with static M and N of at least 128 and at least
/// kMatmulWideBlocks blocks of it.
bool takesLargeTile(const TiledContractionShape &shape);

/// The register tile (outputs per thread along each side) that `op`'s
/// configuration asks for: failure (with an error on `op`) for a
/// tiled-contraction configuration the kernel cannot build (a tile it does
/// not have; three stages where the build's targets do not all copy
/// asynchronously, `asyncCopies`); std::nullopt for none.
FailureOr<std::optional<int64_t>>
configuredRegisterTile(linalg::LinalgOp op, bool asyncCopies = false);

/// Replaces `op` (on buffers) by one gpu.launch when it is a contraction:
/// a multiply-add body, two inputs read through maps of dims and constants
/// under additions and multiplications, an output that all parallel loops
/// index, and parallel loops that only A reads (M) and that only B reads
/// (N; the side of the output's innermost loop). M, N and the reduction
/// loops (K) may each be several loops, linearized: matmuls, and
/// convolutions as implicit GEMMs (M output channels, N batch and output
/// pixels, K input channels and window). A block of kMatmulTile x
/// kMatmulTile threads computes an output tile kMatmulRegisterTile times
/// as wide and high (each thread kMatmulRegisterTile^2 outputs), staging
/// kMatmulTile-deep tiles of A and B in shared memory (workgroup
/// attributions), so each element read from global memory serves
/// kMatmulTile kMatmulRegisterTile multiply-adds. Two pairs of tiles are
/// used in turn: a step's loads of the next step's elements are issued
/// before its products and stored into the other pair after them, one
/// barrier per step (software pipelining in two stages); an
/// operand read along its contiguous, aligned innermost dimension (by K's
/// or its own side's last loop) is staged in vectors of up to
/// kVectorBytes. With `asyncCopies` (every target of the build copies
/// into shared memory asynchronously) those vectors go by
/// tc_gpu.async_copy instead, into three sets of tiles: two steps' copies
/// are in flight while a step multiplies (three stages), where the three
/// sets fit kPortableSharedBytes. Other parallel loops
/// (batch) become grid z. The op's own body combines the elements (casts,
/// integer or float multiply-add). The accumulators are the K loop's
/// carried values, registers on a GPU (--tc-gpu-emulate-kernels keeps them
/// in a slot per thread). They start from, and the
/// results are stored through, `fusion` (ContractionFusion.h; the caller
/// erases its ops). Returns failure, with `op` unchanged, when it does not
/// fit.
LogicalResult buildTiledContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                                    const ContractionFusion &fusion = {},
                                    bool asyncCopies = false);

/// The shared memory every GPU target gives a block without asking for
/// more (NVIDIA's static limit; AMD has 64 KiB): what the contraction and
/// attention kernels' tiles may use.
constexpr int64_t kPortableSharedBytes = 48 * 1024;

/// Lanes that exchange values by gpu.shuffle in the block reductions: a
/// warp on NVIDIA; on AMD a wave32, or half a wave64 (xor offsets below 32
/// stay within each half, so the same code is right on both).
constexpr int32_t kShuffleWidth = 32;

/// Replaces `op` (on buffers) by one gpu.launch when it reduces along one
/// loop of at least `minReduction` elements (static, or dynamic) with a
/// body that ends in one associative combine of the accumulator (add, mul,
/// min, max, and, or, xor; the neutral element known): a block per output
/// element, its threads each folding a strided share of the reduction (so
/// that consecutive threads read consecutive elements), then xor shuffles
/// within groups of kShuffleWidth lanes and across the groups (32-bit
/// values; other types: a tree over shared memory between barriers), and
/// thread 0 combining the result with the output's initial value. Inputs
/// read along the reduction as their contiguous innermost dimension
/// (aligned, as ElementwiseKernel.h's rowsAligned checks; static extent)
/// are read in vectors of up to kVectorBytes, the body (elementwise ops
/// around the combine) run on vectors. Softmax's sums and maxima,
/// normalizations' means and variances, ReduceSum/Max/Mean over the last
/// axis. Thread 0 takes the initial value from, and stores the result
/// through, `fusion` (its init and epilogue; inputs read through their
/// producers are not supported here: pass none), so the fill or copy that sets a normalization's
/// accumulator and the division that turns a sum into a mean make no
/// kernels of their own. Returns failure, with `op` unchanged, when it
/// does not fit.
LogicalResult buildBlockReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t minReduction,
                                  const ContractionFusion &fusion = {});

/// One op of a row chain, with what its kernel takes over.
struct RowChainStep {
  linalg::LinalgOp op;
  ContractionFusion fusion;
};
using RowChain = SmallVector<RowChainStep, 4>;

/// A normalization or a softmax is block reductions over the same rows,
/// each reading the previous ones' results for its row (the mean, then the
/// variance; the maximum, then the sum of exponentials), and an
/// elementwise op over the rows' elements reading them all (normalize,
/// divide). As one kernel, a block per row, each reduction's result goes
/// from thread 0 to the block's threads through shared memory (one
/// barrier) instead of through global memory and a kernel boundary.
/// Returns the chain that starts at `first` (with its fusion): `first`,
/// then each next op (past views, constants and allocations, and the fill
/// of its accumulator) that is a block reduction over the same loops
/// along the same loop, then, last, an elementwise op over the same loops
/// with its output in loop order. Each must read the buffers earlier steps
/// wrote (their outputs and epilogues' outputs) only at its own row,
/// through the map they were written with, and write nothing an earlier
/// step reads in another block (memoryApart; the last step may write the
/// rows it reads in place). Dynamic loops must be provably the same
/// (ValueBoundsConstraintSet: one allocation size, one argument's dimension).
RowChain findRowChain(linalg::LinalgOp first,
                                       const ContractionFusion &fusion,
                                       const DenseSet<Operation *> &claimed,
                                       int64_t minReduction);

/// The kernel of a chain from findRowChain (a chain of one is
/// buildBlockReduction): a block per row, each reduction as
/// buildBlockReduction builds it (thread 0 finishing it through its
/// fusion, then handing the row's values to the block through shared
/// memory and a barrier, where a later step reads them), the last,
/// elementwise step with thread t taking the row's elements t, t + T, ...
/// Replaces every step's op; the caller erases their fusions' ops. Fails,
/// with nothing changed, where a reduction does not fit.
LogicalResult buildRowChain(RewriterBase &rewriter,
                            ArrayRef<RowChainStep> steps, int64_t minReduction);

/// Helpers both kernels share.
/// An index constant.
Value indexConstant(OpBuilder &b, Location loc, int64_t value);

/// The thread's linear id in its block (x fastest, as GPUs form
/// subgroups), and the block's thread count.
std::pair<Value, Value> linearThreadId(OpBuilder &b, Location loc);

/// Index arithmetic and guarded values for kernel builders.
struct KernelBuilder {
  OpBuilder &b;
  Location loc;

  Value index(int64_t v) { return indexConstant(b, loc, v); }
  Value add(Value x, Value y);
  Value add(Value x, int64_t c) { return c == 0 ? x : add(x, index(c)); }
  Value mul(Value x, int64_t c);
  Value div(Value x, int64_t c);
  Value rem(Value x, int64_t c);
  /// What `compute` builds where `guard` holds, else zero of `type`.
  Value orZero(Type type, Value guard, function_ref<Value()> compute);
};

/// Whether `op`'s body reads its loop indices (linalg.index).
bool readsLoopIndices(linalg::LinalgOp op);

/// Sets `loops[d]` for each d of `dims` from `linear` (a block id), the last
/// of `dims` varying fastest, `sizes` being every loop's extent.
void delinearizeLoops(OpBuilder &b, Location loc, Value linear,
                      ArrayRef<unsigned> dims, ArrayRef<Value> sizes,
                      MutableArrayRef<Value> loops);

/// Whether indicesAt can evaluate `expr`: dims and constants combined by
/// additions and multiplications (a convolution's `oh * stride + kh`).
bool isSimpleAffine(AffineExpr expr);

/// The indices an operand read through `map` (each result dims and
/// constants under additions and multiplications) takes at the loop values
/// `loops`.
SmallVector<Value> indicesAt(OpBuilder &b, Location loc, AffineMap map,
                             ArrayRef<Value> loops);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_COOPERATIVEKERNELS_H
