//===- Pipeline.cpp - tc to LLVM for the CPU -------------------------------===//
//
// The CPU pipeline is upstream passes around three of ours:
// --tc-cpu-distribute (kernels and workgroups on tensors),
// --tc-cpu-outline-workgroups (one function per kernel, on buffers) and
// --tc-cpu-emit-entry (the model.so ABI, on the LLVM dialect).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tc/Conversion/Passes.h"
#include "tc/Dialect/Fusion/Transforms/Passes.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "tc/Target/Host/LoweringToLLVM.h"

namespace mlir::tc::cpu {

void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options) {
  if (options.channelsLast) {
    pm.addNestedPass<func::FuncOp>(tc::createTcChannelsLastPass());
    pm.addPass(createCanonicalizerPass());
    // The transposed constants of the operands it moved (a layer scale).
    pm.addNestedPass<func::FuncOp>(tc::createTcFoldConstantsPass());
  }
  pm.addNestedPass<func::FuncOp>(fusion::createFusionPartitionPass());
  tc::ConvertTcToLinalgPassOptions toLinalg;
  toLinalg.collapseSharedWeightBatch = true;
  toLinalg.denseStridedPointwise = true;
  pm.addPass(tc::createConvertTcToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  if (options.winograd) {
    CpuWinogradConvPassOptions winograd;
    winograd.releaseReplaced = options.releaseReplacedWeights;
    pm.addPass(createCpuWinogradConvPass(winograd));
  }
  CpuBlockConvChannelsPassOptions block;
  block.releaseReplaced = options.releaseReplacedWeights;
  pm.addPass(createCpuBlockConvChannelsPass(block));
  CpuBlockDepthwiseConvsPassOptions depthwise;
  depthwise.releaseReplaced = options.releaseReplacedWeights;
  pm.addPass(createCpuBlockDepthwiseConvsPass(depthwise));
  CpuPackWeightsPassOptions pack;
  pack.releaseReplaced = options.releaseReplacedWeights;
  pm.addPass(createCpuPackWeightsPass(pack));
  pm.addPass(createCpuWidenBroadcastOperandsPass());
  pm.addPass(createCpuFuseElementwisePass());
  CpuConfigureKernelsPassOptions configure;
  configure.maxWorkgroups = options.maxWorkgroups;
  configure.candidate = options.configCandidate;
  configure.table = options.configTable;
  pm.addPass(createCpuConfigureKernelsPass(configure));
  CpuDistributePassOptions distribute;
  distribute.maxWorkgroups = options.maxWorkgroups;
  distribute.minWork = options.minWork;
  pm.addNestedPass<func::FuncOp>(createCpuDistributePass(distribute));
  pm.addPass(fusion::createFusionInlineGroupsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCpuFillPerUsePass());

  buildBufferization(pm);
  buildCpuLoweringTail(pm, options.emitEntry);
}

void buildBufferization(OpPassManager &pm, bool checksInKernels,
                        function_ref<void(OpPassManager &)> beforeChecks,
                        function_ref<void(OpPassManager &)> beforePlan) {
  pm.addPass(createCpuReadOnlyInputsPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loop-carried tensors (Scan, Loop) may be rebuilt each iteration.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCpuDenseOutputsPass());
  if (beforePlan)
    beforePlan(pm);
  pm.addNestedPass<func::FuncOp>(createCpuPlanMemoryPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createCanonicalizerPass());
  if (beforeChecks)
    beforeChecks(pm);
  CpuLowerChecksPassOptions checks;
  checks.inKernels = checksInKernels;
  pm.addPass(createCpuLowerChecksPass(checks));
}

void buildCpuLoweringTail(OpPassManager &pm, bool emitEntry) {
  pm.addPass(createCpuOutlineWorkgroupsPass());

  // Clones (of an output that aliases an input, say) become copies before
  // --tc-cpu-lower-copies, which turns every copy of a strided view into
  // loops: left to the LLVM lowering, it would call the memrefCopy runtime
  // function, which a model library does not have.
  pm.addPass(createConvertBufferizationToMemRefPass());
  // From here to the LLVM conversions every pass works within one
  // function, so they are nested: the pass manager runs them on the
  // workgroup functions in parallel.
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createCpuLowerCopiesPass());
  functions.addPass(createCpuVectorizeTransformsPass());
  functions.addPass(createCpuVectorizeContractionsPass());
  functions.addPass(createCpuFuseIntoRegisterTilesPass());
  functions.addPass(createCpuPrefetchPanelsPass());
  functions.addPass(createCpuVectorizeReductionsPass());
  functions.addPass(createCpuVectorizeTransposesPass());
  functions.addPass(createCpuVectorizeElementwisePass());
  functions.addPass(createCpuInterchangeLoopsPass());
  functions.addPass(createConvertLinalgToLoopsPass());
  // The register tiles' n-D transfers become 1-D vector loads and stores.
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  functions.addPass(createConvertVectorToSCFPass(transfers));
  functions.addPass(createExpandDynamicReshapesPass());
  functions.addPass(memref::createExpandStridedMetadataPass());
  functions.addPass(createLowerAffinePass());
  functions.addPass(createSCFToControlFlowPass());
  functions.addPass(createCpuApproximateMathPass());
  functions.addPass(arith::createArithExpandOpsPass());
  host::buildLoweringToLLVM(pm, [](OpPassManager &pm) {
    pm.addPass(createCpuConvertDispatchesToLLVMPass());
  });
  pm.addPass(createCpuMoveBf16AsIntegersPass());
  if (emitEntry)
    pm.addPass(createCpuEmitEntryPass());
}


} // namespace mlir::tc::cpu
