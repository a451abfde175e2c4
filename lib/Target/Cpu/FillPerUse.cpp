//===- FillPerUse.cpp - the --tc-cpu-fill-per-use pass --------------------===//
//
// --tc-cpu-distribute splits a large zero fill (a register-tiled matmul's
// accumulator, which keeps its fill outside its workgroups) into a
// workgroup loop of its own. Once the fusion groups are inlined, CSE
// merges the identical fill loops of different kernels (the batched
// matmuls of ResNet-50's Winograd convolutions, four of one shape) into
// one zero tensor, which each kernel then takes as the init of its loop.
// Every kernel writes its init in place, so bufferization gave each a
// buffer of its own and copied the shared zeros into it: a copy per use,
// run serially in @main. A fill loop with several such uses is cloned
// before each use but the first, so that each kernel's buffer is filled in
// place instead. (The GPU pipeline's --tc-gpu-fill-per-use does the same
// for plain fills.)
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUFILLPERUSEPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Whether `loop` only fills a tensor.empty: one shared output initialized
/// by a tensor.empty, and a body of slices, fills and index arithmetic.
bool isFillLoop(scf::ForallOp loop) {
  if (loop.getNumResults() != 1 ||
      !loop.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return false;
  bool fills = false;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<linalg::FillOp>(op)) {
      fills = true;
      continue;
    }
    if (!isa<tensor::ExtractSliceOp>(op) && !isMemoryEffectFree(&op))
      return false;
    if (op.getNumRegions() != 0)
      return false;
  }
  return fills;
}

struct CpuFillPerUsePass : impl::CpuFillPerUsePassBase<CpuFillPerUsePass> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> loops;
    getOperation()->walk([&](scf::ForallOp loop) {
      if (!loop->getParentOfType<scf::ForallOp>() && isFillLoop(loop))
        loops.push_back(loop);
    });
    OpBuilder b(&getContext());
    for (scf::ForallOp loop : loops) {
      // The uses that write into the zeros in place: other loops' inits.
      SmallVector<OpOperand *> inits;
      for (OpOperand &use : loop->getResult(0).getUses()) {
        auto user = dyn_cast<scf::ForallOp>(use.getOwner());
        if (user && llvm::is_contained(user.getOutputsMutable(), use))
          inits.push_back(&use);
      }
      if (inits.size() < 2)
        continue;
      // Program order, so that the first keeps the original.
      llvm::sort(inits, [](OpOperand *a, OpOperand *c) {
        return a->getOwner()->isBeforeInBlock(c->getOwner());
      });
      for (OpOperand *use : ArrayRef(inits).drop_front()) {
        b.setInsertionPoint(use->getOwner());
        IRMapping mapping;
        Value dest = loop.getOutputs()[0];
        mapping.map(dest, b.clone(*dest.getDefiningOp())->getResult(0));
        use->set(b.clone(*loop, mapping)->getResult(0));
      }
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
