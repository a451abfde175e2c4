//===- Distribute.cpp - the --tc-cpu-distribute pass ----------------------===//
//
// Turns each top-level linalg op into one kernel: its outermost parallel
// loop is split into workgroups with scf.forall (upstream tile-and-fuse with
// a thread count), and the producers that only feed this op are computed
// inside the tile. Producers are fused only when the tile reads a proper
// slice of them; a producer every workgroup would need whole (the input of a
// convolution split by output channel, say) stays its own kernel instead of
// being recomputed per workgroup. Ops with reductions are fused only as the
// producer of an elementwise consumer, i.e. with their epilogue.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUDISTRIBUTEPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

bool isAllParallel(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp &&
         linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

/// True when the slice covers every element of its source.
bool isWholeTensor(tensor::ExtractSliceOp slice) {
  auto sourceType = slice.getSourceType();
  for (auto [i, size] : llvm::enumerate(slice.getMixedSizes())) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant || sourceType.isDynamicDim(i) ||
        *constant != sourceType.getDimSize(i))
      return false;
  }
  return true;
}

struct CpuDistributePass
    : impl::CpuDistributePassBase<CpuDistributePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<Operation *> candidates;
    // Top-level ops, and the ops of each fusion group: a group's ops can
    // only fuse with each other, since everything else enters as an input.
    for (Operation &op : func.getBody().front()) {
      if (isa<linalg::LinalgOp>(op))
        candidates.push_back(&op);
      if (auto group = dyn_cast<fusion::GroupOp>(op))
        for (Operation &inner : group.getBodyBlock())
          if (isa<linalg::LinalgOp>(inner))
            candidates.push_back(&inner);
    }
    DenseSet<Operation *> erased;
    IRRewriter rewriter(&getContext());
    for (Operation *op : llvm::reverse(candidates)) {
      if (erased.contains(op))
        continue;
      if (op->use_empty()) {
        erased.insert(op);
        rewriter.eraseOp(op);
        continue;
      }
      distribute(rewriter, cast<linalg::LinalgOp>(op), erased);
    }
  }

  void distribute(IRRewriter &rewriter, linalg::LinalgOp op,
                  DenseSet<Operation *> &erased) {
    if (!op.hasPureTensorSemantics())
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    int64_t work = 1;
    for (int64_t size : ranges)
      work *= ShapedType::isDynamic(size) ? 64 : size;
    if (work < minWork)
      return;
    // The outermost parallel loop with more than one iteration.
    std::optional<unsigned> dim;
    for (auto [i, size] : llvm::enumerate(ranges)) {
      if (iterators[i] != utils::IteratorType::parallel)
        continue;
      if (ShapedType::isDynamic(size) || size > 1) {
        dim = i;
        break;
      }
    }
    if (!dim)
      return;
    int64_t workgroups = maxWorkgroups;
    if (!ShapedType::isDynamic(ranges[*dim]))
      workgroups = std::min(workgroups, ranges[*dim]);
    SmallVector<OpFoldResult> numThreads(ranges.size(),
                                         rewriter.getIndexAttr(0));
    numThreads[*dim] = rewriter.getIndexAttr(workgroups);

    scf::SCFTilingOptions tiling;
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    tiling.setNumThreads(numThreads);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    // Ops already computed inside the tile: the root and every producer
    // fused so far. A producer may only be fused when nothing else uses it.
    auto absorbed = std::make_shared<DenseSet<Operation *>>();
    absorbed->insert(op);
    auto onlyFeedsTile = [absorbed](OpResult producer) {
      return llvm::all_of(producer.getUsers(), [&](Operation *user) {
        return absorbed->contains(user) ||
               (isa<tensor::ExtractSliceOp>(user) &&
                user->getParentOfType<scf::ForallOp>());
      });
    };
    options.setFusionControlFn(
        [absorbed, onlyFeedsTile](tensor::ExtractSliceOp slice,
                                  OpResult producer, bool isDestination)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          Operation *producerOp = producer.getOwner();
          if (!onlyFeedsTile(producer) || isWholeTensor(slice))
            return std::nullopt;
          auto fuse = [&]() {
            absorbed->insert(producerOp);
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          };
          if (isa<tensor::PadOp>(producerOp) || isa<linalg::FillOp>(producerOp))
            return fuse();
          if (!isa<linalg::LinalgOp>(producerOp))
            return std::nullopt;
          if (isAllParallel(producerOp))
            return fuse();
          // A reduction is fused only into its elementwise epilogue.
          if (!isDestination && !slice->use_empty() &&
              isAllParallel(*slice->getUsers().begin()))
            return fuse();
          return std::nullopt;
        });
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(result))
      return; // Stays a serial loop nest; correct, only slower.
    for (OpResult value : op->getResults())
      if (Value replacement = result->replacements.lookup(value))
        rewriter.replaceAllUsesWith(value, replacement);
    erased.insert(op);
    rewriter.eraseOp(op);
    // Tiling leaves the slices it fused through in the loop, dead; they still
    // use the original producers, which would otherwise look alive.
    for (LoopLikeOpInterface loop : result->loops) {
      SmallVector<Operation *> dead;
      loop->walk([&](tensor::ExtractSliceOp slice) {
        if (slice->use_empty())
          dead.push_back(slice);
      });
      for (Operation *slice : dead)
        rewriter.eraseOp(slice);
    }
    for (Operation *producer : result->fusedProducers) {
      if (producer->use_empty() && !erased.contains(producer)) {
        erased.insert(producer);
        rewriter.eraseOp(producer);
      }
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
