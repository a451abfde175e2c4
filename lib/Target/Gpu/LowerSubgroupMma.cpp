//===- LowerSubgroupMma.cpp - tc_gpu.subgroup_mma as the vendor's ---------===//
//
// The vendor-neutral side checks that an op is the target's instruction
// (its layouts are the back end's description), then hands it to the back
// end, which knows the intrinsic and how it packs the fragments.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPULOWERSUBGROUPMMAPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

struct GpuLowerSubgroupMmaPass
    : impl::GpuLowerSubgroupMmaPassBase<GpuLowerSubgroupMmaPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<tc_gpu::SubgroupMmaOp> ops;
    SmallVector<tc_gpu::SubgroupLoadMatricesOp> loads;
    SmallVector<tc_gpu::MinBlocksHintOp> hints;
    SmallVector<Operation *> copies;
    getOperation()->walk([&](Operation *op) {
      if (isa<tc_gpu::AsyncCopyOp, tc_gpu::AsyncCommitOp, tc_gpu::AsyncWaitOp>(
              op))
        copies.push_back(op);
      if (auto mma = dyn_cast<tc_gpu::SubgroupMmaOp>(op))
        ops.push_back(mma);
      else if (auto load = dyn_cast<tc_gpu::SubgroupLoadMatricesOp>(op))
        loads.push_back(load);
      else if (auto hint = dyn_cast<tc_gpu::MinBlocksHintOp>(op))
        hints.push_back(hint);
    });
    if (ops.empty() && loads.empty() && hints.empty() && copies.empty())
      return;
    std::string error;
    FailureOr<GpuTarget> gpu = parseGpuTarget(target, error);
    if (failed(gpu)) {
      getOperation()->emitError("tc-gpu-lower-subgroup-mma: ") << error;
      return signalPassFailure();
    }
    const GpuBackend &backend = *gpu->backend;
    IRRewriter rewriter(&getContext());
    for (tc_gpu::SubgroupMmaOp op : ops) {
      std::optional<MatrixInstruction> mma = backend.matrixInstruction(
          &getContext(), gpu->chip, op.getA().getType().getElementType());
      ArrayRef<int64_t> shape = op.getShape();
      if (!mma || shape[0] != mma->m || shape[1] != mma->n ||
          shape[2] != mma->k || op.getSubgroupSize() != mma->subgroupSize ||
          op.getALayout() != mma->aLayout || op.getBLayout() != mma->bLayout ||
          op.getCLayout() != mma->cLayout) {
        op.emitOpError("is not a matrix instruction of ") << target;
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      if (failed(backend.lowerSubgroupMma(rewriter, op, gpu->chip)))
        return signalPassFailure();
    }
    for (tc_gpu::MinBlocksHintOp hint : hints) {
      if (auto kernel = hint->getParentOfType<mlir::gpu::GPUFuncOp>())
        backend.applyMinBlocksHint(kernel, hint.getBlocks());
      hint.erase();
    }
    for (Operation *op : copies) {
      if (!backend.targetInfo(gpu->chip).asyncCopies) {
        op->emitOpError("is not a copy of ") << target;
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      if (failed(backend.lowerAsyncCopy(rewriter, op, gpu->chip)))
        return signalPassFailure();
    }
    for (tc_gpu::SubgroupLoadMatricesOp op : loads) {
      std::optional<MatrixInstruction> mma = backend.matrixInstruction(
          &getContext(), gpu->chip, op.getResult().getType().getElementType());
      if (!mma || !mma->matrixLoads) {
        op.emitOpError("is not a load of ") << target;
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      if (failed(backend.lowerSubgroupLoadMatrices(rewriter, op, gpu->chip)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
