//===- Pipeline.cpp - tc to outlined GPU kernels --------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tc/Conversion/Passes.h"
#include "tc/Dialect/Fusion/Transforms/Passes.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Host/LoweringToLLVM.h"

namespace mlir::tc::gpu {

void buildGpuKernelPipeline(OpPassManager &pm,
                            const GpuPipelineOptions &options) {
  // 16-bit attentions become one flash-style kernel each.
  pm.addNestedPass<func::FuncOp>(createGpuFormAttentionPass());
  pm.addNestedPass<func::FuncOp>(fusion::createFusionPartitionPass());
  pm.addPass(tc::createConvertTcToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  // Elementwise producers fold into their consumers on every target: one
  // generic, one kernel.
  pm.addPass(cpu::createCpuFuseElementwisePass());
  pm.addPass(fusion::createFusionInlineGroupsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Each accumulation starts from a fill of its own, which its kernel
  // then does (a copy of one shared fill would be two kernels).
  pm.addNestedPass<func::FuncOp>(createGpuFillPerUsePass());

  // The arena is one device allocation, freed (env->release) with the
  // other temporaries once their last kernel has been launched. Buffers
  // that host helpers (the image decoder) read or write are copied through
  // host memory around their calls. A padded or transposed input's
  // producer moves next to the contraction reading it, which may then
  // read the producer's source itself.
  cpu::buildBufferization(
      pm, /*checksInKernels=*/false,
      [](OpPassManager &pm) {
        pm.addPass(createGpuStageHostBuffersPass());
        pm.addNestedPass<func::FuncOp>(createGpuHoistChecksPass());
      },
      [](OpPassManager &pm) {
        pm.addNestedPass<func::FuncOp>(createGpuPlaceInputProducersPass());
      });
  pm.addPass(createCSEPass());

  // Integer powers become loops in helper functions (no device library
  // has them); kernel outlining copies the helpers into the kernel module.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createGpuKeepHostArraysPass());
  GpuConfigureKernelsPassOptions configure;
  configure.targets = options.targets;
  configure.candidates = options.candidates;
  pm.addNestedPass<func::FuncOp>(createGpuConfigureKernelsPass(configure));
  // Every linalg op becomes a kernel, in the phases of KernelMapping.h.
  const bool asyncCopies = copyAsynchronously(options.targets);
  pm.addNestedPass<func::FuncOp>(createGpuPrepareKernelOpsPass());
  GpuBuildAttentionKernelsPassOptions attention;
  attention.asyncCopies = asyncCopies;
  pm.addNestedPass<func::FuncOp>(createGpuBuildAttentionKernelsPass(attention));
  GpuBuildReductionKernelsPassOptions reductions;
  reductions.asyncCopies = asyncCopies;
  pm.addNestedPass<func::FuncOp>(
      createGpuBuildReductionKernelsPass(reductions));
  pm.addNestedPass<func::FuncOp>(createGpuBuildElementwiseKernelsPass());
  GpuMapKernelLoopsPassOptions loops;
  loops.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createGpuMapKernelLoopsPass(loops));
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGpuMergeKernelModulesPass());
  pm.addPass(createGpuTransferHostValuesPass());
  pm.addPass(createGpuVerifyHostCodePass());
}

void buildGpuHostPipeline(OpPassManager &pm, int64_t candidate) {
  // A build that fixes the alternative the tunable kernels run; otherwise
  // the runtime chooses (env->choices).
  if (candidate >= 0) {
    GpuLowerTunedChoicesPassOptions choices;
    choices.candidate = candidate;
    pm.addPass(createGpuLowerTunedChoicesPass(choices));
  }
  pm.addPass(createGpuPrepareHostPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(cpu::createExpandDynamicReshapesPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(arith::createArithExpandOpsPass());
  host::buildLoweringToLLVM(
      pm, [](OpPassManager &pm) { pm.addPass(createGpuLowerHostOpsPass()); });
  pm.addPass(createGpuEmitEntryPass());
}

void buildGpuEmulationPipeline(OpPassManager &pm,
                               const GpuPipelineOptions &options) {
  // The kernels are the emulated matrix target's.
  GpuPipelineOptions kernels = options;
  if (kernels.targets.empty())
    kernels.targets = options.emulatedMatrixTarget;
  buildGpuKernelPipeline(pm, kernels);
  GpuEmulateKernelsPassOptions emulate;
  emulate.reverseOrder = options.emulateInReverse;
  emulate.matrixTarget = options.emulatedMatrixTarget;
  pm.addPass(createGpuEmulateKernelsPass(emulate));
  GpuLowerTunedChoicesPassOptions choices;
  choices.candidate = options.candidate;
  pm.addPass(createGpuLowerTunedChoicesPass(choices));
  pm.addPass(createCanonicalizerPass());
  cpu::buildCpuLoweringTail(pm);
}


} // namespace mlir::tc::gpu
