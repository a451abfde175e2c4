//===- GraphPipeline.cpp - the graph stage --------------------------------===//
//
// What runs between the importer and code generation, on tc ops with
// value semantics. Order matters: dynamic-axis exports compute static
// sizes from Shape ops that no longer fold, which shape-arithmetic folding
// recovers (re-inferring shapes) before the composite patterns, which
// match on folded constants and static shapes; the second canonicalization
// composes the key transposes attention fusion leaves and drops dead
// constants; the precision policy comes after the weights' transposes
// fold, so its fp16 range check sees them, and a second folding narrows
// the cast weights.
//
//===----------------------------------------------------------------------===//

#include "tc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Gpu/Passes.h"

namespace mlir::tc {

void buildGraphPipeline(OpPassManager &pm, const GraphPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createTcInferShapesPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createTcFoldShapeArithmeticPass());
  pm.addNestedPass<func::FuncOp>(createTcFuseGeluPass());
  pm.addNestedPass<func::FuncOp>(createTcFuseLayerNormPass());
  pm.addNestedPass<func::FuncOp>(createTcFuseAttentionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createTcFoldConstantsPass());
  buildPrecisionPipeline(pm, options.precision);
}

void buildPrecisionPipeline(OpPassManager &pm, StringRef precision) {
  if (precision == "fp32")
    return;
  pm.addNestedPass<func::FuncOp>(createTcApplyPrecisionPass({precision.str()}));
  pm.addNestedPass<func::FuncOp>(createTcFoldConstantsPass());
}

namespace {
gpu::GpuPipelineOptions gpuOptions(const GpuPipelineRegistrationOptions &o) {
  gpu::GpuPipelineOptions options;
  options.blockSize = o.blockSize;
  options.emulateInReverse = o.reverse;
  options.emulatedMatrixTarget = o.matrixTarget;
  options.targets = o.targets;
  options.candidates = o.candidates;
  options.candidate = o.candidate;
  return options;
}
} // namespace

void registerTcPipelines() {
  PassPipelineRegistration<GraphPipelineOptions>(
      "tc-graph-pipeline",
      "The graph stage of tc-compile on an imported tc module: shape "
      "inference, shape arithmetic, composite patterns, constant folding, "
      "precision",
      buildGraphPipeline);
  PassPipelineRegistration<CpuPipelineRegistrationOptions>(
      "tc-cpu-pipeline",
      "Lower a tc module (with a tc.signature) to the LLVM dialect with "
      "the model.so ABI",
      [](OpPassManager &pm, const CpuPipelineRegistrationOptions &o) {
        cpu::CpuPipelineOptions options;
        options.maxWorkgroups = o.maxWorkgroups;
        options.winograd = o.winograd;
        options.channelsLast = o.channelsLast;
        options.emitEntry = o.emitEntry;
        cpu::buildCpuPipeline(pm, options);
      });
  PassPipelineRegistration<GpuPipelineRegistrationOptions>(
      "tc-gpu-kernel-pipeline",
      "tc to outlined GPU kernels (vendor-neutral): linalg, bufferization, "
      "memory plan, one gpu.launch per kernel, outlining",
      [](OpPassManager &pm, const GpuPipelineRegistrationOptions &o) {
        gpu::buildGpuKernelPipeline(pm, gpuOptions(o));
      });
  PassPipelineRegistration<>(
      "tc-gpu-host-pipeline",
      "The host code of outlined GPU kernels (with tc.gpu_images) to the LLVM "
      "dialect with the GPU entry point",
      [](OpPassManager &pm) { gpu::buildGpuHostPipeline(pm); });
  PassPipelineRegistration<GpuPipelineRegistrationOptions>(
      "tc-gpu-emulation-pipeline",
      "The GPU kernels, run on the CPU by loops (a test target): the kernel "
      "pipeline, emulation, the CPU lowering",
      [](OpPassManager &pm, const GpuPipelineRegistrationOptions &o) {
        gpu::buildGpuEmulationPipeline(pm, gpuOptions(o));
      });
}

} // namespace mlir::tc
