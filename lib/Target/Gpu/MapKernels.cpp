//===- MapKernels.cpp - --tc-gpu-map-kernels ------------------------------===//
//
// Every linalg op on buffers becomes one GPU kernel: the phases of
// KernelMapping.h in order, each also a pass of its own. The GPU pipeline
// runs them as separate passes (so that --dump-ir shows each); this pass
// runs them at once, for tc-opt and the lit tests of the whole mapping.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/KernelMapping.h"
#include "tc/Target/Gpu/Passes.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUMAPKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {

bool mapsKernelsOf(func::FuncOp func) {
  return !func.isExternal() && !isHostFunction(func);
}

namespace {

struct GpuMapKernelsPass : impl::GpuMapKernelsPassBase<GpuMapKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!mapsKernelsOf(func))
      return;
    if (failed(prepareKernelOps(func)) ||
        failed(buildAttentionKernels(func, asyncCopies)) ||
        failed(buildReductionKernels(func, asyncCopies, minBlockReduction)) ||
        failed(buildElementwiseKernels(func)) ||
        failed(mapKernelLoops(func, blockSize)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
