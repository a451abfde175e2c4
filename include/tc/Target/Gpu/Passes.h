//===- Passes.h - GPU code generation passes and pipeline -----------------===//

#ifndef TC_TARGET_GPU_PASSES_H
#define TC_TARGET_GPU_PASSES_H

#include "tc/Target/Gpu/GpuTarget.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Dialect/TcGpu/IR/TcGpuDialect.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"

namespace mlir::tc::gpu {

#define GEN_PASS_DECL
#include "tc/Target/Gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tc/Target/Gpu/Passes.h.inc"

/// Replaces every gpu.launch_func of `module` by what `replace` builds at
/// it (failure: an error at the launch), then erases the launches and the
/// kernel modules. Shared by the passes that take kernels off the GPU path
/// (--tc-gpu-prepare-host: runtime launches; --tc-gpu-emulate-kernels:
/// calls of the emulated kernels).
LogicalResult replaceLaunches(
    ModuleOp module,
    function_ref<LogicalResult(mlir::gpu::LaunchFuncOp, OpBuilder &)> replace);

/// The fields of the tc_gpu_env_v3 that a GPU entry point's host code gets
/// (include/tc-runtime/module_abi.h), in order.
enum class EnvField : int32_t {
  Runtime,
  Alloc,
  Release,
  Launch,
  Constant,
  Download,
  Upload,
  Choices
};

/// Loads field `field` of the tc_gpu_env_v3 at `env` (an !llvm.ptr), with
/// `b` at `loc`.
Value loadEnvField(OpBuilder &b, Location loc, Value env, EnvField field);

/// Whether `buffer` is a host cell (a memref.alloca, on the stack of the
/// host code) rather than device memory: what host code of a GPU target
/// may read and write (--tc-gpu-transfer-host-values).
bool isHostCell(Value buffer);

/// The private declaration `name` : `type` in `module`, created at the
/// module's end on first use.
func::FuncOp declarePlaceholder(ModuleOp module, StringRef name,
                                FunctionType type);

/// Replaces the staging ops of `module` (tc_gpu.stage_alloc, stage_free,
/// stage_copy, from --tc-gpu-stage-host-buffers): alloc by malloc, free by
/// free (LLVM dialect), each copy by `copy(builder, download?,
/// destination, source, bytes)` (pointers, and an i64).
using StagingCopy = function_ref<void(OpBuilder &, Location, bool download,
                                      Value destination, Value source,
                                      Value bytes)>;
void lowerStagingOps(ModuleOp module, StagingCopy copy);

/// Whether `op` is, or is inside, a function marked kHostFunctionAttr.
bool isHostFunction(Operation *op);

/// Bytes every kernel's shared memory buffer is aligned to
/// (--tc-gpu-align-workgroup-memory): 16-byte vector accesses to it are
/// legal.
constexpr int64_t kWorkgroupAlignment = 16;

struct GpuPipelineOptions {
  int64_t blockSize = 256;
  /// The GPU targets whose kernels the pipeline builds (--target
  /// spellings, comma-separated), which --tc-gpu-configure-kernels chooses
  /// contraction tiles for; empty: the heuristics.
  std::string targets;
  /// gpu-emulation only: blocks and threads run last to first, so that a
  /// kernel whose results depend on their order (a race) gives different
  /// results than in the usual order.
  bool emulateInReverse = false;
  /// gpu-emulation only: the target whose matrix instructions the block
  /// matrix products use (executed by scalar code); empty: none.
  std::string emulatedMatrixTarget;
  /// Alternative configurations each contraction kernel is also built in
  /// (--tc-gpu-configure-kernels' candidates; 0: none).
  int64_t candidates = 0;
  /// gpu-emulation only: the alternative every tunable kernel runs
  /// (--tc-gpu-lower-tuned-choices; -1: the heuristic one).
  int64_t candidate = -1;
};

/// tc (graph level) to outlined kernels: conversion to linalg, elementwise
/// fusion, bufferization, the memory plan, one gpu.launch per kernel,
/// outlining into a gpu.module, and the check that the host code only
/// computes shapes and launches. Vendor-neutral; registered as
/// `tc-gpu-kernel-pipeline`.
void buildGpuKernelPipeline(OpPassManager &pm,
                            const GpuPipelineOptions &options);

/// The host side of GPU targets, after buildGpuKernelPipeline and kernel
/// compilation (module attributes `tc.signature` and
/// `tc.gpu_images`): launches as runtime calls, lowering to the LLVM
/// dialect, the GPU entry point of the model.so ABI. Tunable kernels run
/// their `candidate`-th alternative, or with -1 the one the runtime's
/// env->choices names.
void buildGpuHostPipeline(OpPassManager &pm, int64_t candidate = -1);

/// The `gpu-emulation` target: the GPU kernels and host code, with the
/// kernels run on the CPU (--tc-gpu-emulate-kernels) and everything lowered
/// by the CPU pipeline's tail into an ordinary CPU model.so. For checking
/// the numerics of GPU code generation without a GPU.
void buildGpuEmulationPipeline(OpPassManager &pm,
                               const GpuPipelineOptions &options);

/// How compileKernels lowers the kernels.
struct KernelCompileOptions {
  /// Multiplies and the adds of their products may fuse into fused
  /// multiply-adds (--tc-gpu-contract-float-ops).
  bool fpContract = true;
};

/// Lowers, serializes and checks offline (GpuBackend::validate) the
/// kernels of `module` (after buildGpuKernelPipeline) for `target`, on a
/// clone: `module` is unchanged.
FailureOr<GpuImage> compileKernels(ModuleOp module, const GpuTarget &target,
                                   std::string &error,
                                   const KernelCompileOptions &options = {});

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_PASSES_H
