//===- Passes.h - CPU code generation passes and pipeline -----------------===//

#ifndef TC_TARGET_CPU_PASSES_H
#define TC_TARGET_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "tc/Dialect/Fusion/IR/FusionDialect.h"
#include "tc/Dialect/TcCpu/IR/TcCpuOps.h"

namespace mlir::tc::cpu {

#define GEN_PASS_DECL
#include "tc/Target/Cpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tc/Target/Cpu/Passes.h.inc"

struct CpuPipelineOptions {
  int64_t maxWorkgroups = 64;
  int64_t minWork = 65536;
  /// Free each weight's original bytes once it is re-laid out for the
  /// kernels (the release-replaced option of --tc-cpu-block-conv-channels
  /// and --tc-cpu-pack-weights): only where no other module of the context
  /// shares them.
  bool releaseReplacedWeights = false;
  /// Compute eligible 3x3 convolutions with Winograd's F(4x4, 3x3)
  /// (--tc-cpu-winograd-conv).
  bool winograd = true;
  /// Compute the convolutions of depthwise-separable networks channels-last
  /// (--tc-channels-last, before the kernels are formed).
  bool channelsLast = true;
  /// End with --tc-cpu-emit-entry. Without it the module stays a lowered
  /// @main with its kernels, for shape buckets to merge (ShapeBuckets.h)
  /// before the entry point is emitted.
  bool emitEntry = true;
  /// --tc-cpu-configure-kernels' candidate (max-autotune's trial compiles;
  /// -1: the heuristics) and tuning table (a file; empty: none).
  int64_t configCandidate = -1;
  std::string configTable;
};

/// tc (graph level) to the LLVM dialect with the model.so ABI: conversion to
/// linalg, workgroup distribution, bufferization, deallocation, outlining,
/// lowering to loops and LLVM, entry point. Registered as `tc-cpu-pipeline`
/// (lib/Pipelines).
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Tensors to buffers, for every target: inputs read-only, one-shot
/// bufferization with identity layouts at the function boundary, the arena
/// plan of the static temporaries, ownership-based deallocation, then the
/// run-time checks (--tc-cpu-lower-checks; those inside loops and linalg
/// ops only with `checksInKernels`, which GPU targets cannot report).
/// `beforeChecks` adds passes on buffers whose own checks are lowered with
/// the others (GPU targets: --tc-gpu-stage-host-buffers); `beforePlan`
/// passes that arrange the buffers before the arena plan sees their live
/// ranges (GPU targets: --tc-gpu-place-input-producers).
void buildBufferization(
    OpPassManager &pm, bool checksInKernels = true,
    function_ref<void(OpPassManager &)> beforeChecks = nullptr,
    function_ref<void(OpPassManager &)> beforePlan = nullptr);

/// The part of the CPU pipeline after bufferization and deallocation:
/// workgroup outlining, vectorization, lowering to loops and to the LLVM
/// dialect, the entry point. Also what the GPU emulation target lowers its
/// host code and emulated kernels with.
void buildCpuLoweringTail(OpPassManager &pm, bool emitEntry = true);

} // namespace mlir::tc::cpu

#endif // TC_TARGET_CPU_PASSES_H
