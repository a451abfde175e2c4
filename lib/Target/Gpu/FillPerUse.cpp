//===- FillPerUse.cpp - --tc-gpu-fill-per-use ------------------------------===//
//
// CSE makes one linalg.fill of every zero tensor of a shape, which many
// reductions and matmuls then take as their initial value. Each of them
// accumulates into its init in place, so bufferization gives each a
// buffer of its own and copies the shared fill's buffer into it: one fill
// kernel and one copy per use on a GPU. Here every op that takes a fill as
// its init gets a fill of its own, made just before it: bufferization
// fills each buffer in place, next to the op, and the op's kernel takes
// the fill over as its start value (ContractionFusion.h), so that neither
// is a kernel. A tensor.empty feeding the fill is cloned with it, so that
// every fill writes a tensor nothing else shares.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUFILLPERUSEPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

struct GpuFillPerUsePass : impl::GpuFillPerUsePassBase<GpuFillPerUsePass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics())
        fills.push_back(fill);
    });
    OpBuilder b(&getContext());
    for (linalg::FillOp fill : fills) {
      Value result = fill->getResult(0);
      // Every use that is an op's init gets its own fill, made just
      // before that op (where the op's kernel can take it over).
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : result.getUses()) {
        auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        if (dps && dps.isDpsInit(&use))
          uses.push_back(&use);
      }
      for (OpOperand *use : uses) {
        b.setInsertionPoint(use->getOwner());
        IRMapping mapping;
        Value dest = fill.getDpsInitOperand(0)->get();
        if (auto empty = dest.getDefiningOp<tensor::EmptyOp>())
          mapping.map(dest, b.clone(*empty)->getResult(0));
        use->set(b.clone(*fill, mapping)->getResult(0));
      }
      if (result.use_empty())
        fill->erase();
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
