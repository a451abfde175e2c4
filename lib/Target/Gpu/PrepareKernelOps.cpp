//===- PrepareKernelOps.cpp - --tc-gpu-prepare-kernel-ops -----------------===//
//
// The first phase of --tc-gpu-map-kernels: what is a kernel but not yet a
// linalg op becomes one (a clone: an allocation and a copy; a memref.copy:
// linalg.copy), and the host loops that touch buffer elements outside
// linalg run in one GPU thread.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Gpu/KernelMapping.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUPREPAREKERNELOPSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// Whether a host loop or conditional can run in one GPU thread: it reads
/// or writes buffer elements outside linalg (scatters, the counts of
/// NonZero and Compress, NMS) and neither allocates nor calls, and its
/// results are scalars a kernel can hand back through memory.
bool runsInOneThread(Operation *op) {
  if (!isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op))
    return false;
  if (!llvm::all_of(op->getResultTypes(),
                    [](Type t) { return t.isIntOrIndexOrFloat(); }))
    return false;
  bool touches = false, unsuitable = false;
  op->walk([&](Operation *inner) {
    if (isa<memref::LoadOp, memref::StoreOp, linalg::LinalgOp>(inner))
      touches = true;
    if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp, func::CallOp,
            scf::ParallelOp>(inner))
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
      cells.push_back(
          memref::AllocOp::create(rewriter, loc, MemRefType::get({1}, stored)));
    }
    auto single = scf::ParallelOp::create(rewriter, loc, zero, one, one);
    rewriter.moveOpBefore(loop, single.getBody()->getTerminator());
    rewriter.setInsertionPoint(single.getBody()->getTerminator());
    for (auto [result, cell] : llvm::zip(loop->getResults(), cells)) {
      Value value = result;
      if (value.getType().isIndex())
        value = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                           value);
      memref::StoreOp::create(rewriter, loc, value, cell, ValueRange{zero});
    }
    single->setAttr(kGpuKernelMarker, rewriter.getUnitAttr());
    rewriter.setInsertionPointAfter(single);
    for (auto [result, cell] : llvm::zip(loop->getResults(), cells)) {
      Value value =
          memref::LoadOp::create(rewriter, loc, cell, ValueRange{zero});
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

} // namespace

LogicalResult prepareKernelOps(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  // A clone (the deallocation pipeline's, for a result that aliases an
  // argument) is an allocation and a copy: the copy a kernel.
  SmallVector<bufferization::CloneOp> clones;
  func->walk([&](bufferization::CloneOp op) { clones.push_back(op); });
  for (bufferization::CloneOp clone : clones) {
    auto type = dyn_cast<MemRefType>(clone.getType());
    if (!type || !type.getLayout().isIdentity()) {
      clone.emitError(
          "cannot clone a buffer with a non-identity layout on a GPU");
      return failure();
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
  func->walk([&](memref::CopyOp op) { copies.push_back(op); });
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
  }
  return serializeHostLoops(rewriter, func);
}

namespace {

struct GpuPrepareKernelOpsPass
    : impl::GpuPrepareKernelOpsPassBase<GpuPrepareKernelOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!mapsKernelsOf(func))
      return;
    if (failed(prepareKernelOps(func)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
