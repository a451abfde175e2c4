//===- AttentionKernel.h - flash-style attention kernels --------*- C++ -*-===//
//
// tc_gpu.attention as one GPU kernel (an online softmax over key tiles,
// the scores kept in shared memory): its plan, which
// --tc-gpu-form-attention asks before forming the op, and the builder that
// --tc-gpu-map-kernels runs on the op on buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_ATTENTIONKERNEL_H
#define TC_TARGET_GPU_ATTENTIONKERNEL_H

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "tc/Target/Gpu/CooperativeKernels.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {

/// The block's tiles for head sizes D (query, key) and Dv (value).
struct AttentionPlan {
  /// Query rows per block (Br) and keys per step (Bc).
  int64_t rows = 0, keys = 0;
  /// D and Dv rounded up to whole matrix-instruction steps (the padding
  /// is zeros in the staged tiles).
  int64_t head = 0, valueHead = 0;
  int64_t threads = 0;
  /// The shared tiles' bytes.
  int64_t sharedBytes = 0;
};


/// The plan for head sizes `head` and `valueHead`, or std::nullopt where
/// the tiles do not fit kPortableSharedBytes (heads above 128).
std::optional<AttentionPlan> planAttention(int64_t head, int64_t valueHead);

/// Replaces `op` (on buffers, static heads) by its kernel: a gpu.launch
/// at the op's place. With `asyncCopies` (every target of the build has
/// them) and room for two sets of K's and V's tiles, each step copies the
/// next step's K and V asynchronously while it computes.
LogicalResult buildAttentionKernel(RewriterBase &rewriter,
                                   tc_gpu::AttentionOp op,
                                   bool asyncCopies = false);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_ATTENTIONKERNEL_H
