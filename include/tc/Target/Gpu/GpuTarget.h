//===- GpuTarget.h - GPU targets and the vendor back ends ------*- C++ -*-===//
//
// A GPU target names a back end and a chip ("cuda:sm_90", "rocm:gfx942").
// Code generation up to outlined gpu.module kernels is shared
// (lib/Target/Gpu) and names no vendor; what differs per vendor (the target
// attribute, the lowering of a gpu.module to NVVM or ROCDL, the matrix
// instructions, serialization to cubin/PTX or HSACO, the offline check of
// the binary) sits behind GpuBackend. The back ends (lib/Target/Cuda,
// lib/Target/Rocm) register themselves (registerCudaBackend, ...; the tools
// call registerAllGpuBackends), and targets are looked up by their prefix.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_GPUTARGET_H
#define TC_TARGET_GPU_GPUTARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "tc/Target/Gpu/MatrixCores.h"

#include <optional>

#include <string>
#include <vector>

namespace mlir {
class RewriterBase;
namespace tc_gpu {
class SubgroupMmaOp;
class SubgroupLoadMatricesOp;
} // namespace tc_gpu
} // namespace mlir

namespace mlir::tc::gpu {

class GpuBackend;

struct GpuTarget {
  /// The registered back end of the target's vendor.
  const GpuBackend *backend = nullptr;
  /// "sm_90", "gfx942".
  std::string chip;
  /// "cuda:sm_90", "rocm:gfx942": the spelling of --target.
  std::string name() const;
};

/// One target's compiled kernels.
struct GpuImage {
  GpuTarget target;
  /// "cubin" or "hsaco": what `binary` holds.
  std::string format;
  std::string binary;
  /// The assembly the binary was made from (PTX for NVIDIA: also loadable
  /// by the driver on newer GPUs; AMDGPU assembly for AMD).
  std::string assembly;
  /// The kernel symbols the binary defines, in launch-table order.
  std::vector<std::string> kernels;
};

/// What the kernel configuration reads of a chip, besides its matrix
/// instructions (as Triton's target info gives it).
struct GpuTargetInfo {
  /// Lanes of a warp or wave.
  int64_t subgroupSize = 32;
  /// Shared memory (LDS) a block may use without opting in.
  int64_t sharedMemoryBytes = 48 * 1024;
  int64_t maxThreadsPerBlock = 1024;
  /// Whether a thread can copy global memory into shared memory
  /// asynchronously (tc_gpu.async_copy as the hardware's: NVIDIA's
  /// cp.async), so that contraction kernels pipeline their copies.
  bool asyncCopies = false;
};

/// What a vendor provides.
class GpuBackend {
public:
  virtual ~GpuBackend() = default;
  /// "cuda" or "rocm".
  virtual StringRef prefix() const = 0;
  /// The chips --target accepts for this vendor.
  virtual ArrayRef<StringRef> chips() const = 0;
  /// The file suffix of GpuImage::assembly (".ptx", ".s").
  virtual StringRef assemblySuffix() const = 0;
  /// Attaches the target attribute of `chip` to every gpu.module.
  virtual void addAttachTarget(OpPassManager &pm, StringRef chip) const = 0;
  /// The conversion of the gpu.module kernels (structured control flow
  /// and strided metadata already lowered) to the vendor's LLVM dialect,
  /// NVVM or ROCDL. `pm` runs on the top-level module; the backend nests
  /// what runs per gpu.module.
  virtual void addDeviceLowering(OpPassManager &pm, StringRef chip) const = 0;
  /// Serializes one lowered gpu.module (its target attached) into `image`
  /// (binary, assembly, format); on failure, `error` says why.
  virtual LogicalResult serialize(Operation *gpuModule, GpuImage &image,
                                  std::string &error) const = 0;
  /// The limits of `chip` that kernel configurations respect.
  virtual GpuTargetInfo targetInfo(StringRef chip) const = 0;
  /// The matrix instruction of `chip` for operands of `element` (f16,
  /// bf16) with f32 accumulation, if it has one.
  virtual std::optional<MatrixInstruction>
  matrixInstruction(MLIRContext *ctx, StringRef chip, Type element) const = 0;
  /// Replaces `op`, which uses the layouts matrixInstruction gave, by the
  /// vendor's intrinsic.
  virtual LogicalResult lowerSubgroupMma(RewriterBase &rewriter,
                                         tc_gpu::SubgroupMmaOp op,
                                         StringRef chip) const = 0;
  /// Replaces `op` by the vendor's load; only called where
  /// matrixInstruction gave `matrixLoads`.
  virtual LogicalResult
  lowerSubgroupLoadMatrices(RewriterBase &rewriter,
                            tc_gpu::SubgroupLoadMatricesOp op,
                            StringRef chip) const;
  /// Replaces `op` (tc_gpu.async_copy, async_commit or async_wait) by the
  /// vendor's; only called where targetInfo gave `asyncCopies`. By
  /// default, lowerAsyncCopyInPlace.
  virtual LogicalResult lowerAsyncCopy(RewriterBase &rewriter, Operation *op,
                                       StringRef chip) const;
  /// Applies tc_gpu.min_blocks_hint's `blocks` to `kernel` (a gpu.func);
  /// by default, nothing.
  virtual void applyMinBlocksHint(Operation *kernel, int64_t blocks) const {}
  /// Checks a binary offline, as far as a machine without the GPU can:
  /// the ELF's machine and ABI, its chip, and one symbol per kernel.
  virtual LogicalResult validate(const GpuImage &image,
                                 std::string &error) const = 0;
};

/// Makes `backend` (which outlives every use) available to --target under
/// its prefix; registering a prefix again does nothing.
void registerGpuBackend(const GpuBackend &backend);
/// The registered back ends, in registration order.
ArrayRef<const GpuBackend *> registeredGpuBackends();

/// Parses "cuda:sm_90" or "rocm:gfx942"; an unknown vendor or chip fails
/// with a message that lists the supported targets.
FailureOr<GpuTarget> parseGpuTarget(StringRef spec, std::string &error);

/// The matrix instructions of one target (or of none), by operand element
/// type, as its back end describes them; for --tc-gpu-expand-block-mma and
/// the emulation.
class TargetInstructions {
public:
  /// `target` is a --target spelling, or empty for none; fails with
  /// `error` for a bad spelling.
  LogicalResult init(MLIRContext *ctx, StringRef target, std::string &error);
  /// The instruction for operands of `element`, or null.
  const MatrixInstruction *operator()(Type element);

private:
  MLIRContext *ctx = nullptr;
  std::optional<GpuTarget> gpu;
  llvm::DenseMap<Type, std::optional<MatrixInstruction>> cache;
};

/// Whether every target of `targets` (comma-separated --target spellings;
/// at least one) copies into shared memory asynchronously
/// (GpuTargetInfo::asyncCopies); false for a bad spelling.
bool copyAsynchronously(StringRef targets);

/// Replaces `op` (tc_gpu.async_copy, async_commit or async_wait) by what
/// it guarantees without asynchrony: a copy is a load (zeros where it is
/// not valid) and a store in place; commits and waits vanish. For targets
/// without asynchronous copies and for the emulation.
void lowerAsyncCopyInPlace(RewriterBase &rewriter, Operation *op);

/// Every supported target spelling, for messages and --help.
std::string supportedGpuTargets();

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_GPUTARGET_H
