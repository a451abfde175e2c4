//===- MatmulKernel.h - shared-memory tiled contraction kernels -*- C++ -*-===//
//
// The GPU kernel --tc-gpu-map-kernels builds for a matmul-like linalg op
// instead of its general one-thread-per-output path.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_MATMULKERNEL_H
#define TC_TARGET_GPU_MATMULKERNEL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {

/// Edge of the square output tile a block computes, and of the reduction
/// step whose operand tiles it stages in shared memory.
constexpr int64_t kMatmulTile = 16;

/// Replaces `op` (on buffers) by one gpu.launch when it is a contraction
/// with one reduction loop, two inputs (A without N, B without M, each
/// read through a projected permutation) and an output that all parallel
/// loops index: a block of kMatmulTile x kMatmulTile threads computes an
/// output tile, staging kMatmulTile-wide tiles of A and B in shared memory
/// (workgroup attributions) between barriers, so each element read from
/// global memory serves kMatmulTile multiply-adds. Other parallel loops
/// (batch) become grid z. The op's own body combines the elements (casts,
/// integer or float multiply-add). Every value that lives across a barrier
/// is in shared memory (the accumulators too), the form
/// --tc-gpu-emulate-kernels can run. Returns failure, with `op` unchanged,
/// when it does not fit.
LogicalResult buildTiledContraction(RewriterBase &rewriter, linalg::LinalgOp op);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_MATMULKERNEL_H
