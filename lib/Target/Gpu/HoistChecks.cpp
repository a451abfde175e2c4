//===- HoistChecks.cpp - --tc-gpu-hoist-checks ----------------------------===//
//
// A run-time check in a function's body (a cf.assert that two extents
// match before a broadcast, say) ends the run where it fails, so
// --tc-cpu-lower-checks splits the block there. On a GPU target that split
// separates a convolution from the residual add after it, which its
// kernel would otherwise do (ContractionFusion.h): with a symbolic batch,
// every residual add of mobilenet_v2 follows such a check. The checks only
// compare extents, computed from buffers allocated before the convolution,
// so this pass moves each top-level cf.assert, with the pure ops its
// condition is computed by, up to just after what those ops use. A failing
// check then stops the run sooner (and before work whose bounds it
// guards). Checks keep their order among themselves, so the first failing
// one in the model's order is still the one reported.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUHOISTCHECKSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// The op of `block` after which `op` may stand: the last of `block` that
/// defines one of its operands, or null (the start of the block).
Operation *lastDefinition(Operation *op, Block &block) {
  Operation *last = nullptr;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def && cast<BlockArgument>(operand).getOwner() != &block)
      continue;
    if (def && def->getBlock() != &block)
      continue;
    if (def && (!last || last->isBeforeInBlock(def)))
      last = def;
  }
  return last;
}

/// Moves `op` up to just after the last of its operands' definitions in
/// `block` and `floor` (or to the block's start).
void moveUp(Operation *op, Block &block, Operation *floor = nullptr) {
  Operation *last = lastDefinition(op, block);
  if (floor && (!last || last->isBeforeInBlock(floor)))
    last = floor;
  if (last) {
    if (last->isBeforeInBlock(op) && last->getNextNode() != op)
      op->moveAfter(last);
  } else if (&block.front() != op) {
    op->moveBefore(&block.front());
  }
}

/// Moves the pure ops of `block` that compute `value` up as far as their
/// operands allow, operands first.
void hoistComputation(Value value, Block &block, DenseSet<Operation *> &done) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &block || def->getNumRegions() ||
      !isPure(def) || !done.insert(def).second)
    return;
  for (Value operand : def->getOperands())
    hoistComputation(operand, block, done);
  moveUp(def, block);
}

struct GpuHoistChecksPass
    : impl::GpuHoistChecksPassBase<GpuHoistChecksPass> {
  void runOnOperation() override {
    if (getOperation().isExternal())
      return;
    Block &block = getOperation().getBody().front();
    SmallVector<cf::AssertOp> asserts(block.getOps<cf::AssertOp>());
    DenseSet<Operation *> done;
    // Checks keep their order: the first that fails in program order is
    // the one reported (a Reshape's baked batch, not the add it breaks).
    Operation *previous = nullptr;
    for (cf::AssertOp check : asserts) {
      hoistComputation(check.getArg(), block, done);
      moveUp(check, block, previous);
      previous = check;
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
