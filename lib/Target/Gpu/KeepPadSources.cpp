//===- KeepPadSources.cpp - --tc-gpu-keep-pad-sources ---------------------===//
//
// A padded convolution input is two kernels on a GPU (fill the padded
// buffer, copy the source into its interior) unless the convolution's
// kernel reads the source itself (ContractionFusion.h). That kernel then
// reads the source while writing its output, so the two must not share
// memory; but the arena plan (--tc-cpu-plan-memory) sees the source's last
// use at the copy and is free to give the output, allocated after the
// copy, the same bytes, which it often does (mobilenet_v2: a depthwise
// convolution's output lands exactly on the expansion's output it pads).
// Moving the output's allocation above the copy makes the two live at
// once in the plan's eyes. Only the allocation moves: what is computed and
// in what order stays.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUKEEPPADSOURCESPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// The allocation a buffer is a view of, if any.
memref::AllocOp allocationOf(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return alloc;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return {};
    buffer = view.getViewSource();
  }
  return {};
}

/// The op with reduction loops after `copy` in its block that reads
/// `padded` as an input.
linalg::LinalgOp paddedReader(Value padded, Operation *copy) {
  for (Operation *user : padded.getUsers()) {
    auto reader = dyn_cast<linalg::LinalgOp>(user);
    if (reader && reader->getBlock() == copy->getBlock() &&
        copy->isBeforeInBlock(reader) && reader.getNumReductionLoops() > 0 &&
        llvm::any_of(reader.getDpsInputOperands(), [&](OpOperand *input) {
          return input->get() == padded;
        }))
      return reader;
  }
  return {};
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

/// Moves the allocation of `buffer` above `copy` when it is in the copy's
/// block after it and its sizes are defined before it.
void allocateBefore(Value buffer, Operation *copy) {
  memref::AllocOp alloc = allocationOf(buffer);
  if (!alloc || alloc->getBlock() != copy->getBlock() ||
      alloc->isBeforeInBlock(copy))
    return;
  for (Value operand : alloc->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && (def->getBlock() != copy->getBlock() ||
                !def->isBeforeInBlock(copy)))
      return;
  }
  alloc->moveBefore(copy);
}

struct GpuKeepPadSourcesPass
    : impl::GpuKeepPadSourcesPassBase<GpuKeepPadSourcesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, Value>> copies;
    getOperation()->walk([&](Operation *op) {
      Value target;
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        target = copy.getTarget();
      else if (auto copy = dyn_cast<linalg::CopyOp>(op);
               copy && copy.hasPureBufferSemantics())
        target = copy.getDpsInitOperand(0)->get();
      if (auto interior = target ? target.getDefiningOp<memref::SubViewOp>()
                                 : memref::SubViewOp())
        copies.push_back({op, interior.getSource()});
    });
    for (auto [copy, padded] : copies) {
      linalg::LinalgOp reader = paddedReader(padded, copy);
      if (!reader)
        continue;
      for (OpOperand &init : reader.getDpsInitsMutable())
        allocateBefore(init.get(), copy);
      if (linalg::LinalgOp epilogue = epilogueOf(reader))
        for (OpOperand &init : epilogue.getDpsInitsMutable())
          allocateBefore(init.get(), copy);
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
