//===- BuildReductionKernels.cpp - --tc-gpu-build-reduction-kernels -------===//
//
// The linalg ops with reduction loops become kernels, with the ops they
// fuse (ContractionFusion.h): a tiled contraction (MatmulKernel.cpp), else
// a row chain or a block reduction (CooperativeKernels.h), else the fused
// ops' loops, one thread per output (marked for --tc-gpu-map-kernel-loops).
// They come before the elementwise ops, so that the fill before a
// contraction and the elementwise op after it go into its kernel.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Gpu/ContractionFusion.h"
#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/KernelMapping.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUBUILDREDUCTIONKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
LogicalResult buildReductionKernels(func::FuncOp func, bool asyncCopies,
                                    int64_t minBlockReduction) {
  IRRewriter rewriter(func.getContext());
  SmallVector<linalg::LinalgOp> ops;
  func->walk([&](linalg::LinalgOp op) {
    if (!op->getParentOfType<linalg::LinalgOp>())
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops)
    if (!op.hasPureBufferSemantics()) {
      op.emitError("expected a linalg op on buffers (run after bufferization)");
      return failure();
    }
  // Ops with reduction loops first, so that the fill before a
  // contraction and the elementwise op after it can go into its kernel
  // (ContractionFusion.h) before they would become kernels of their own.
  // Contractions stage their operands in shared memory; reductions take
  // a block per output element; other contractions with a fusion run one
  // thread per output.
  DenseSet<Operation *> done, fused;
  for (linalg::LinalgOp op : ops) {
    // (Ops a row chain or a fusion took are gone: look them up first.)
    if (done.contains(op) || fused.contains(op) ||
        op.getNumReductionLoops() == 0)
      continue;
    if (failed(configuredRegisterTile(op, asyncCopies)))
      return failure();
    ContractionFusion fusion = findContractionFusion(op, fused);
    hoistEpilogueOperands(rewriter, op, fusion);
    bool built =
        succeeded(buildTiledContraction(rewriter, op, fusion, asyncCopies));
    if (!built) {
      // A block reduction reads its inputs in vectors: their producers
      // stay. The reductions and the elementwise op after them that
      // make a normalization or a softmax go into one kernel.
      ContractionFusion direct = fusion.withoutProducedInputs();
      RowChain chain = findRowChain(op, direct, fused, minBlockReduction);
      if (succeeded(buildRowChain(rewriter, chain, minBlockReduction))) {
        for (const RowChainStep &step : llvm::drop_begin(chain)) {
          done.insert(step.op);
          for (Operation *taken : step.fusion.fusedOps())
            fused.insert(taken);
        }
        fusion = std::move(direct);
        built = true;
      }
    }
    if (!built && !fusion.empty()) {
      FailureOr<scf::ParallelOp> loop =
          buildFusedContractionLoops(rewriter, op, fusion);
      if (succeeded(loop)) {
        (*loop)->setAttr(kGpuKernelMarker, rewriter.getUnitAttr());
        built = true;
      }
    }
    if (!built)
      continue;
    done.insert(op);
    for (Operation *taken : fusion.fusedOps())
      fused.insert(taken);
  }
  for (Operation *op : fused)
    rewriter.eraseOp(op);
  return success();
}

namespace {

struct GpuBuildReductionKernelsPass
    : impl::GpuBuildReductionKernelsPassBase<GpuBuildReductionKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!mapsKernelsOf(func))
      return;
    if (failed(buildReductionKernels(func, asyncCopies, minBlockReduction)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
