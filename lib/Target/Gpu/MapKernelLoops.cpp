//===- MapKernelLoops.cpp - --tc-gpu-map-kernel-loops ---------------------===//
//
// The loops the kernel phases marked (kGpuKernelMarker) are mapped: the
// parallel dimensions collapsed into one, tiled by the block size, tiles to
// blocks (x) and the loop within a tile to threads (x), so that consecutive
// threads touch consecutive elements of the innermost dimension. Upstream's
// --convert-parallel-loops-to-gpu then builds the gpu.launch ops.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Gpu/KernelMapping.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUMAPKERNELLOOPSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// Collapses `loop` to one dimension, tiles it by `blockSize` (fewer
/// threads for a short static loop) and maps tiles to blocks, elements to
/// threads.
LogicalResult mapToBlocksAndThreads(RewriterBase &rewriter,
                                    scf::ParallelOp loop, int64_t blockSize) {
  loop->removeAttr(kGpuKernelMarker);
  std::optional<int64_t> trips = 1;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!trips || !l || !u || !s || *s <= 0) {
      trips = std::nullopt;
      continue;
    }
    int64_t count = std::max<int64_t>(0, (*u - *l + *s - 1) / *s);
    trips = *trips > INT64_MAX / std::max<int64_t>(count, 1)
                ? std::nullopt
                : std::optional(*trips * count);
  }
  // Collapsing also normalizes (lower bound 0, step 1), which tiling needs:
  // its guard scales the inner loop's value by the step again.
  bool unitSteps = llvm::all_of(loop.getStep(), [](Value step) {
    return getConstantIntValue(step) == 1;
  });
  if (loop.getNumLoops() > 1 || !unitSteps) {
    Block *block = loop->getBlock();
    Operation *before = loop->getPrevNode();
    std::vector<unsigned> all;
    for (unsigned i = 0; i < loop.getNumLoops(); ++i)
      all.push_back(i);
    mlir::collapseParallelLoops(rewriter, loop, {all});
    Operation *next = before ? before->getNextNode() : &block->front();
    while (next && !isa<scf::ParallelOp>(next))
      next = next->getNextNode();
    loop = cast<scf::ParallelOp>(next);
  }
  // Whole warps of 32 threads, no more than a static loop needs.
  int64_t threads = blockSize;
  if (trips)
    threads =
        std::min(blockSize, std::max<int64_t>(32, (*trips + 31) / 32 * 32));
  auto [tiles, elements] =
      scf::tileParallelLoop(loop, {threads}, /*noMinMaxBounds=*/true);
  MLIRContext *ctx = rewriter.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  auto dim = [&](mlir::gpu::Processor processor) {
    return mlir::gpu::ParallelLoopDimMappingAttr::get(ctx, processor, id, id);
  };
  if (failed(mlir::gpu::setMappingAttr(tiles,
                                       {dim(mlir::gpu::Processor::BlockX)})) ||
      failed(mlir::gpu::setMappingAttr(elements,
                                       {dim(mlir::gpu::Processor::ThreadX)})))
    return tiles.emitError("cannot map this loop to GPU blocks and threads");
  return success();
}

} // namespace

LogicalResult mapKernelLoops(func::FuncOp func, int64_t blockSize) {
  if (blockSize < 1 || blockSize > 1024)
    return func->emitError("block-size must be between 1 and 1024");
  IRRewriter rewriter(func.getContext());
  SmallVector<scf::ParallelOp> loops;
  func->walk([&](scf::ParallelOp op) {
    if (op->hasAttr(kGpuKernelMarker))
      loops.push_back(op);
  });
  for (scf::ParallelOp loop : loops)
    if (failed(mapToBlocksAndThreads(rewriter, loop, blockSize)))
      return failure();
  return success();
}

namespace {

struct GpuMapKernelLoopsPass
    : impl::GpuMapKernelLoopsPassBase<GpuMapKernelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!mapsKernelsOf(func))
      return;
    if (failed(mapKernelLoops(func, blockSize)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
