//===- BuildAttentionKernels.cpp - --tc-gpu-build-attention-kernels -------===//
//
// Each tc_gpu.attention (--tc-gpu-form-attention) becomes its fused
// kernel (AttentionKernel.h).
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Gpu/AttentionKernel.h"
#include "tc/Target/Gpu/KernelMapping.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUBUILDATTENTIONKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
LogicalResult buildAttentionKernels(func::FuncOp func, bool asyncCopies) {
  IRRewriter rewriter(func.getContext());
  // Fused ops (--tc-gpu-form-attention) are kernels of their own.
  SmallVector<tc_gpu::AttentionOp> attentions;
  func->walk([&](tc_gpu::AttentionOp op) { attentions.push_back(op); });
  for (tc_gpu::AttentionOp op : attentions)
    if (failed(buildAttentionKernel(rewriter, op, asyncCopies)))
      return failure();
  return success();
}

namespace {

struct GpuBuildAttentionKernelsPass
    : impl::GpuBuildAttentionKernelsPassBase<GpuBuildAttentionKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!mapsKernelsOf(func))
      return;
    if (failed(buildAttentionKernels(func, asyncCopies)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
