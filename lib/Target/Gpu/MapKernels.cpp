//===- MapKernels.cpp - --tc-gpu-map-kernels ------------------------------===//
//
// Every linalg op on buffers becomes one GPU kernel. The op's parallel loops
// (moved outermost) become one scf.parallel, collapsed to one dimension and
// tiled by the block size: blocks take tiles, threads take the elements of
// a tile, so consecutive threads touch consecutive elements of the
// innermost dimension (coalesced accesses). Reduction loops stay sequential
// in each thread. Upstream's --convert-parallel-loops-to-gpu turns the
// mapped loops into gpu.launch. This is the general path; contractions
// and reductions get block-cooperative kernels instead
// (CooperativeKernels.h).
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Gpu/AttentionKernel.h"
#include "tc/Target/Gpu/ContractionFusion.h"
#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/ElementwiseKernel.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUMAPKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// Marks the loops this pass creates until they are mapped.
constexpr StringLiteral kKernelMarker = kGpuKernelMarker;

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
  scf::ParallelOp outer =
      single ? single
             : dyn_cast_if_present<scf::ParallelOp>(
                   loops->empty() ? nullptr : loops->front());
  if (!outer)
    return emitError(loc, "expected a parallel loop nest for a GPU kernel");
  outer->setAttr(kKernelMarker, rewriter.getUnitAttr());
  return success();
}

/// Collapses `loop` to one dimension, tiles it by `blockSize` (fewer
/// threads for a short static loop) and maps tiles to blocks, elements to
/// threads.
LogicalResult mapToBlocksAndThreads(RewriterBase &rewriter,
                                    scf::ParallelOp loop, int64_t blockSize) {
  loop->removeAttr(kKernelMarker);
  std::optional<int64_t> trips = 1;
  for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep())) {
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
    threads = std::min(blockSize, std::max<int64_t>(32, (*trips + 31) / 32 * 32));
  auto [tiles, elements] =
      scf::tileParallelLoop(loop, {threads}, /*noMinMaxBounds=*/true);
  MLIRContext *ctx = rewriter.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  auto dim = [&](mlir::gpu::Processor processor) {
    return mlir::gpu::ParallelLoopDimMappingAttr::get(ctx, processor, id, id);
  };
  if (failed(mlir::gpu::setMappingAttr(tiles, {dim(mlir::gpu::Processor::BlockX)})) ||
      failed(mlir::gpu::setMappingAttr(elements,
                                       {dim(mlir::gpu::Processor::ThreadX)})))
    return tiles.emitError("cannot map this loop to GPU blocks and threads");
  return success();
}

/// Whether a host loop or conditional can run in one GPU thread: it reads
/// or writes buffer elements outside linalg (scatters, the counts of
/// NonZero and Compress, NMS) and neither allocates nor calls, and its
/// results are scalars a kernel can hand back through memory.
bool runsInOneThread(Operation *op) {
  if (!isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op))
    return false;
  if (!llvm::all_of(op->getResultTypes(), [](Type t) {
        return t.isIntOrIndexOrFloat();
      }))
    return false;
  bool touches = false, unsuitable = false;
  op->walk([&](Operation *inner) {
    if (isa<memref::LoadOp, memref::StoreOp, linalg::LinalgOp>(inner))
      touches = true;
    if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
            func::CallOp, scf::ParallelOp>(inner))
      unsuitable = true;
  });
  return touches && !unsuitable;
}

/// The outermost host loops and conditionals that runsInOneThread each run
/// in one GPU thread, their linalg ops as sequential loops. Slow for large
/// loops, but the data stays on the device and the host waits once for the
/// loop's results (stored to a device cell each, which
/// --tc-gpu-transfer-host-values downloads), not once per element.
LogicalResult serializeHostLoops(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<Operation *> loops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!runsInOneThread(op))
      return WalkResult::advance();
    loops.push_back(op);
    return WalkResult::skip();
  });
  for (Operation *loop : loops) {
    SmallVector<linalg::LinalgOp> nested;
    loop->walk([&](linalg::LinalgOp op) { nested.push_back(op); });
    for (linalg::LinalgOp op : nested) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::linalgOpToLoops(rewriter, op)))
        return op.emitError("cannot lower this op to loops in a GPU kernel");
      rewriter.eraseOp(op);
    }
    Location loc = loop->getLoc();
    rewriter.setInsertionPoint(loop);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // One device cell per result; index results travel as i64, the width
    // kernels and host agree on.
    SmallVector<Value> cells;
    for (Type type : loop->getResultTypes()) {
      Type stored = type.isIndex() ? rewriter.getI64Type() : type;
      cells.push_back(memref::AllocOp::create(
          rewriter, loc, MemRefType::get({1}, stored)));
    }
    auto single = scf::ParallelOp::create(rewriter, loc, zero, one, one);
    rewriter.moveOpBefore(loop, single.getBody()->getTerminator());
    rewriter.setInsertionPoint(single.getBody()->getTerminator());
    for (auto [result, cell] : llvm::zip(loop->getResults(), cells)) {
      Value value = result;
      if (value.getType().isIndex())
        value = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getI64Type(), value);
      memref::StoreOp::create(rewriter, loc, value, cell, ValueRange{zero});
    }
    single->setAttr(kKernelMarker, rewriter.getUnitAttr());
    rewriter.setInsertionPointAfter(single);
    for (auto [result, cell] : llvm::zip(loop->getResults(), cells)) {
      Value value = memref::LoadOp::create(rewriter, loc, cell, ValueRange{zero});
      if (result.getType().isIndex())
        value = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), value);
      memref::DeallocOp::create(rewriter, loc, cell);
      result.replaceUsesWithIf(value, [&](OpOperand &use) {
        return !single->isAncestor(use.getOwner());
      });
    }
  }
  return success();
}

struct GpuMapKernelsPass : impl::GpuMapKernelsPassBase<GpuMapKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Declarations (the model-support helpers) have no code to map, host
    // functions (--tc-gpu-keep-host-arrays) work on host memory.
    if (getOperation().isExternal() || isHostFunction(getOperation()))
      return;
    if (blockSize < 1 || blockSize > 1024) {
      getOperation()->emitError("block-size must be between 1 and 1024");
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    // A clone (the deallocation pipeline's, for a result that aliases an
    // argument) is an allocation and a copy: the copy a kernel.
    SmallVector<bufferization::CloneOp> clones;
    getOperation()->walk([&](bufferization::CloneOp op) { clones.push_back(op); });
    for (bufferization::CloneOp clone : clones) {
      auto type = dyn_cast<MemRefType>(clone.getType());
      if (!type || !type.getLayout().isIdentity()) {
        clone.emitError("cannot clone a buffer with a non-identity layout on a GPU");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(clone);
      SmallVector<Value> sizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          sizes.push_back(memref::DimOp::create(rewriter, clone.getLoc(),
                                                clone.getInput(), d));
      Value copy = memref::AllocOp::create(rewriter, clone.getLoc(), type, sizes);
      memref::CopyOp::create(rewriter, clone.getLoc(), clone.getInput(), copy);
      rewriter.replaceOp(clone, copy);
    }
    // A copy between device buffers is a kernel like any other.
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp op) { copies.push_back(op); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
    if (failed(serializeHostLoops(rewriter, getOperation())))
      return signalPassFailure();
    // Fused ops (--tc-gpu-form-attention) are kernels of their own.
    SmallVector<tc_gpu::AttentionOp> attentions;
    getOperation()->walk(
        [&](tc_gpu::AttentionOp op) { attentions.push_back(op); });
    for (tc_gpu::AttentionOp op : attentions)
      if (failed(buildAttentionKernel(rewriter, op, asyncCopies)))
        return signalPassFailure();
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<linalg::LinalgOp>())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      if (!op.hasPureBufferSemantics()) {
        op.emitError("expected a linalg op on buffers (run after bufferization)");
        return signalPassFailure();
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
        return signalPassFailure();
      ContractionFusion fusion = findContractionFusion(op, fused);
      hoistEpilogueOperands(rewriter, op, fusion);
      bool built =
          succeeded(buildTiledContraction(rewriter, op, fusion, asyncCopies));
      if (!built) {
        // A block reduction reads its inputs in vectors: their producers
        // stay. The reductions and the elementwise op after them that
        // make a normalization or a softmax go into one kernel.
        ContractionFusion direct = fusion.withoutProducedInputs();
        RowChain chain =
            findRowChain(op, direct, fused, minBlockReduction);
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
          (*loop)->setAttr(kKernelMarker, rewriter.getUnitAttr());
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
    for (linalg::LinalgOp op : ops) {
      if (done.contains(op) || fused.contains(op))
        continue;
      // Elementwise ops along contiguous rows: a vector per thread.
      if (FailureOr<scf::ParallelOp> loop =
              buildVectorizedElementwise(rewriter, op);
          succeeded(loop)) {
        (*loop)->setAttr(kKernelMarker, rewriter.getUnitAttr());
        continue;
      }
      if (failed(lowerToParallelLoops(rewriter, op)))
        return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp op) {
      if (op->hasAttr(kKernelMarker))
        loops.push_back(op);
    });
    for (scf::ParallelOp loop : loops)
      if (failed(mapToBlocksAndThreads(rewriter, loop, blockSize)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
