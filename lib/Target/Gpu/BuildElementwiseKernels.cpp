//===- BuildElementwiseKernels.cpp - --tc-gpu-build-elementwise-kernels ---===//
//
// Every linalg op the earlier phases left becomes a kernel: an elementwise
// op along contiguous rows gives each thread a vector (ElementwiseKernel.h);
// any other op's parallel loops (moved outermost) become one scf.parallel,
// its reduction loops sequential inside, marked for
// --tc-gpu-map-kernel-loops.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Gpu/ElementwiseKernel.h"
#include "tc/Target/Gpu/KernelMapping.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUBUILDELEMENTWISEKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// `op` as a linalg.generic whose parallel loops come first.
FailureOr<linalg::GenericOp> parallelLoopsFirst(RewriterBase &rewriter,
                                                linalg::LinalgOp op) {
  linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generalized))
      return failure();
    generic = *generalized;
  }
  SmallVector<unsigned> order;
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      order.push_back(i);
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if (iterator != utils::IteratorType::parallel)
      order.push_back(i);
  if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())))
    return generic;
  return linalg::interchangeGenericOp(rewriter, generic, order);
}

/// Lowers `op` to loops whose outermost is one scf.parallel (created around
/// the loops when the op has no parallel loop), marked for mapping.
LogicalResult lowerToParallelLoops(RewriterBase &rewriter,
                                   linalg::LinalgOp op) {
  Location loc = op.getLoc();
  FailureOr<linalg::GenericOp> generic = parallelLoopsFirst(rewriter, op);
  if (failed(generic))
    return op.emitError("cannot generalize this op for a GPU kernel");
  scf::ParallelOp single;
  if (generic->getNumParallelLoops() == 0) {
    rewriter.setInsertionPoint(*generic);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    single = scf::ParallelOp::create(rewriter, loc, zero, one, one);
    rewriter.moveOpBefore(*generic, single.getBody()->getTerminator());
  }
  rewriter.setInsertionPoint(*generic);
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, *generic);
  if (failed(loops))
    return generic->emitError("cannot lower this op to parallel loops");
  rewriter.eraseOp(*generic);
  scf::ParallelOp outer = single
                              ? single
                              : dyn_cast_if_present<scf::ParallelOp>(
                                    loops->empty() ? nullptr : loops->front());
  if (!outer)
    return emitError(loc, "expected a parallel loop nest for a GPU kernel");
  outer->setAttr(kGpuKernelMarker, rewriter.getUnitAttr());
  return success();
}

} // namespace

LogicalResult buildElementwiseKernels(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  // The linalg ops the earlier phases left, none inside a kernel.
  SmallVector<linalg::LinalgOp> ops;
  func.walk([&](linalg::LinalgOp op) {
    if (!op->getParentOfType<linalg::LinalgOp>() &&
        !op->getParentOfType<mlir::gpu::LaunchOp>() && !isInKernelLoop(op))
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    // Elementwise ops along contiguous rows: a vector per thread.
    if (FailureOr<scf::ParallelOp> loop =
            buildVectorizedElementwise(rewriter, op);
        succeeded(loop)) {
      (*loop)->setAttr(kGpuKernelMarker, rewriter.getUnitAttr());
      continue;
    }
    if (failed(lowerToParallelLoops(rewriter, op)))
      return failure();
  }
  return success();
}

namespace {

struct GpuBuildElementwiseKernelsPass
    : impl::GpuBuildElementwiseKernelsPassBase<GpuBuildElementwiseKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!mapsKernelsOf(func))
      return;
    if (failed(buildElementwiseKernels(func)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
