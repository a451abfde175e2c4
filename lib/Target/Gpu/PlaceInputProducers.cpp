//===- PlaceInputProducers.cpp - --tc-gpu-place-input-producers ----------===//
//
// A contraction's kernel may read a padded input's source itself, or a
// transposed input's source at permuted indices, instead of the buffer the
// pad (a fill and a copy into its interior) or the transpose wrote
// (ContractionFusion.h): two or one kernels fewer, the buffer never
// written or read. The kernel then reads the source while it writes its
// output, and reads it later than the producer did. The arena plan
// (--tc-cpu-plan-memory) sees the source's last use at the producer and
// is free to give its memory to any buffer allocated after that: the
// contraction's output (mobilenet_v2: a depthwise convolution's output
// lands exactly on the expansion's output it pads), or, when the producer
// runs long before the contraction (attention's V is transposed next to
// Q and K, read after the softmax), anything in between.
//
// Before the plan, this pass therefore moves each such producer (with the
// copy that made a transpose's source, when the transpose reads a reshape
// of a buffer only that copy writes) down to just before the contraction (before the fill of its output, which its
// kernel also takes over), when nothing in between touches the produced
// buffer or writes the source, and moves the allocation of the
// contraction's outputs (and of the elementwise op that reads its result
// right after it) above the producers. What is computed stays the same;
// the source now lives until the contraction in the plan's eyes, and the
// outputs overlap it, so the plan keeps them apart.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"
#include "tc/Target/Gpu/ContractionFusion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUPLACEINPUTPRODUCERSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// The allocation a buffer is a view of, if any.
memref::AllocOp allocationOf(Value buffer) {
  return rootOf(buffer).getDefiningOp<memref::AllocOp>();
}

/// The buffer `op` writes when it copies into one (memref.copy, or a
/// linalg op on buffers with one output), else null.
Value writtenBuffer(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (linalgOp && linalgOp.hasPureBufferSemantics() &&
      linalgOp.getNumDpsInits() == 1)
    return linalgOp.getDpsInitOperand(0)->get();
  return {};
}

/// Whether `op` (or anything nested in it) touches a buffer whose root is
/// `root`, and whether it may write it.
bool touches(Operation *op, Value root, bool writesOnly) {
  bool found = false;
  op->walk([&](Operation *inner) {
    // Views and other ops without memory effects touch no memory.
    if (isMemoryEffectFree(inner))
      return WalkResult::advance();
    for (OpOperand &operand : inner->getOpOperands()) {
      if (!isa<BaseMemRefType>(operand.get().getType()) ||
          rootOf(operand.get()) != root)
        continue;
      // Reads through a linalg op's inputs or a copy's source are fine
      // when only writes matter.
      auto linalgOp = dyn_cast<linalg::LinalgOp>(inner);
      auto copy = dyn_cast<memref::CopyOp>(inner);
      bool reads = (linalgOp && linalgOp.isDpsInput(&operand)) ||
                   (copy && operand.get() == copy.getSource());
      if (writesOnly && reads)
        continue;
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Where producers of `contraction`'s inputs go: before the fill of its
/// output right before it (which its kernel takes over too), else before
/// it.
Operation *insertionPoint(linalg::LinalgOp contraction) {
  Value output = contraction.getDpsInitOperand(0)->get();
  for (Operation *op = contraction->getPrevNode(); op; op = op->getPrevNode()) {
    if (isMemoryEffectFree(op) || isa<memref::AllocOp>(op))
      continue;
    if (writtenBuffer(op) == output && isa<linalg::LinalgOp>(op))
      return op;
    break;
  }
  return contraction;
}

/// The linalg op right after `op` in its block (only ops without memory
/// effects and allocations between) when it reads one of `op`'s outputs.
linalg::LinalgOp epilogueOf(linalg::LinalgOp op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(next)) {
      for (OpOperand *input : linalgOp.getDpsInputOperands())
        for (OpOperand &init : op.getDpsInitsMutable())
          if (input->get() == init.get())
            return linalgOp;
      return {};
    }
    if (!isMemoryEffectFree(next) && !isa<memref::AllocOp>(next))
      return {};
  }
  return {};
}

/// Moves the allocation of `buffer` above `point` when it is in the
/// point's block after it and its sizes are defined before it.
void allocateBefore(Value buffer, Operation *point) {
  memref::AllocOp alloc = allocationOf(buffer);
  if (!alloc || alloc->getBlock() != point->getBlock() ||
      alloc->isBeforeInBlock(point))
    return;
  for (Value operand : alloc->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && (def->getBlock() != point->getBlock() ||
                !def->isBeforeInBlock(point)))
      return;
  }
  alloc->moveBefore(point);
}

/// Moves the producers of `contraction`'s inputs next to it and its
/// outputs' allocations above them.
void placeProducers(linalg::LinalgOp contraction) {
  if (!contraction.hasPureBufferSemantics() ||
      contraction.getNumDpsInits() != 1 ||
      contraction.getNumReductionLoops() == 0)
    return;
  Operation *point = insertionPoint(contraction);
  Operation *first = nullptr;
  for (OpOperand *input : contraction.getDpsInputOperands()) {
    std::optional<InputProducers> producers =
        findInputProducers(contraction, input);
    if (!producers ||
        !isa<linalg::TransposeOp, linalg::CopyOp, memref::CopyOp>(
            producers->ops.back()))
      continue;
    // Each op to move, with the buffer it writes and its source's root:
    // nothing it passes may touch that buffer or write that source (ops
    // already moved here belong to other inputs' producers, whose buffers
    // and sources are their own).
    struct Move {
      Operation *op;
      Value produced, sourceRoot;
    };
    SmallVector<Move> moves;
    Value produced = rootOf(input->get());
    for (Operation *op : producers->ops)
      moves.push_back({op, produced, rootOf(producers->source)});
    auto movable = [&](ArrayRef<Move> group) {
      for (const Move &move : group)
        for (Operation *op = move.op->getNextNode(); op && op != point;
             op = op->getNextNode()) {
          if (llvm::any_of(group, [&](const Move &m) { return m.op == op; }))
            continue;
          if (touches(op, move.produced, /*writesOnly=*/false) ||
              touches(op, move.sourceRoot, /*writesOnly=*/true))
            return false;
        }
      return true;
    };
    // The copy that made a transpose's source (a strided slice copied so
    // that it can be reshaped) moves with it, when it can.
    Value copied;
    if (Operation *copy = isa<linalg::TransposeOp>(moves.back().op)
                              ? reshapedCopy(producers->source,
                                             moves.back().op, copied)
                              : nullptr) {
      SmallVector<Move> withCopy{
          {copy, rootOf(copy->getOperand(1)), rootOf(copied)}};
      withCopy.append(moves);
      if (movable(withCopy))
        moves = std::move(withCopy);
    }
    if (!movable(moves))
      continue;
    for (const Move &move : moves)
      move.op->moveBefore(point);
    if (!first || moves.front().op->isBeforeInBlock(first))
      first = moves.front().op;
  }
  if (!first)
    return;
  for (OpOperand &init : contraction.getDpsInitsMutable())
    allocateBefore(init.get(), first);
  if (linalg::LinalgOp epilogue = epilogueOf(contraction))
    for (OpOperand &init : epilogue.getDpsInitsMutable())
      allocateBefore(init.get(), first);
}

struct GpuPlaceInputProducersPass
    : impl::GpuPlaceInputProducersPassBase<GpuPlaceInputProducersPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() > 0)
        contractions.push_back(op);
    });
    for (linalg::LinalgOp contraction : contractions)
      placeProducers(contraction);
  }
};

} // namespace
} // namespace mlir::tc::gpu
