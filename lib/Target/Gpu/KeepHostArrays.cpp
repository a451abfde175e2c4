//===- KeepHostArrays.cpp - --tc-gpu-keep-host-arrays ---------------------===//
//
// Not every buffer of the host code holds tensor data. Bufferization's
// deallocation, when it cannot tell statically whether two buffers alias,
// fills small arrays with buffer addresses and ownership flags and calls a
// helper (`dealloc_helper`) that compares them: bookkeeping of the host,
// which on a GPU target must neither become kernels nor live in device
// memory. This pass finds such arrays (static memref.alloc only read,
// written and handed to functions that do nothing but scalar loads and
// stores on them), turns them into memref.alloca at the function's entry
// (host cells, see isHostCell) and marks the helpers `tc.host_function`,
// which --tc-gpu-map-kernels and --tc-gpu-transfer-host-values leave alone.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUKEEPHOSTARRAYSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {

bool isHostFunction(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (auto self = dyn_cast<func::FuncOp>(op))
    func = self;
  return func && func->hasAttr(kHostFunctionAttr);
}

namespace {

/// A private function whose memref arguments are only read, written and
/// measured, with nothing else touching memory: a scalar helper.
bool isScalarHelper(func::FuncOp func) {
  if (func.isExternal() || !func.isPrivate())
    return false;
  WalkResult result = func.walk([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    if (isa<memref::LoadOp, memref::StoreOp, memref::DimOp>(op) ||
        isa<func::ReturnOp, scf::YieldOp, scf::ConditionOp>(op))
      return WalkResult::advance();
    if (isPure(op) || isa<scf::ForOp, scf::IfOp, scf::WhileOp>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// The uses of `buffer` and of its memref.cast views (not the casts).
SmallVector<OpOperand *> usesThroughCasts(Value buffer) {
  SmallVector<OpOperand *> uses;
  SmallVector<Value> values = {buffer};
  while (!values.empty())
    for (OpOperand &use : values.pop_back_val().getUses()) {
      if (auto cast = dyn_cast<memref::CastOp>(use.getOwner()))
        values.push_back(cast.getResult());
      else
        uses.push_back(&use);
    }
  return uses;
}

/// Whether the static allocation `alloc` is only host bookkeeping: loaded,
/// stored, freed, and passed (perhaps through memref.cast) to helpers.
bool isHostArray(memref::AllocOp alloc,
                 const llvm::DenseSet<StringRef> &helpers) {
  if (!alloc.getType().hasStaticShape())
    return false;
  bool reachesHelper = false;
  for (OpOperand *use : usesThroughCasts(alloc.getResult())) {
    Operation *user = use->getOwner();
    if (auto call = dyn_cast<func::CallOp>(user)) {
      if (!helpers.contains(call.getCallee()))
        return false;
      reachesHelper = true;
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      // Storing the buffer itself somewhere would be an escape.
      if (use->get() != store.getMemRef())
        return false;
    } else if (!isa<memref::LoadOp, memref::DeallocOp>(user)) {
      return false;
    }
  }
  return reachesHelper;
}

struct GpuKeepHostArraysPass
    : impl::GpuKeepHostArraysPassBase<GpuKeepHostArraysPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseSet<StringRef> helpers;
    for (auto func : module.getOps<func::FuncOp>())
      if (isScalarHelper(func))
        helpers.insert(func.getName());
    if (helpers.empty())
      return;
    // A helper stays on the host only if every buffer it is given does.
    llvm::DenseSet<StringRef> refused;
    SmallVector<memref::AllocOp> arrays;
    module.walk([&](func::CallOp call) {
      if (!helpers.contains(call.getCallee()))
        return;
      for (Value operand : call.getOperands()) {
        if (!isa<BaseMemRefType>(operand.getType()))
          continue;
        while (auto cast = operand.getDefiningOp<memref::CastOp>())
          operand = cast.getSource();
        auto alloc = operand.getDefiningOp<memref::AllocOp>();
        if (alloc && isHostArray(alloc, helpers))
          arrays.push_back(alloc);
        else
          refused.insert(call.getCallee());
      }
    });
    // Arrays shared with a refused helper stay device buffers too.
    // In program order, so that the output is the same on every run.
    llvm::SetVector<Operation *> kept;
    for (memref::AllocOp alloc : arrays) {
      bool shared = llvm::any_of(usesThroughCasts(alloc.getResult()),
                                 [&](OpOperand *use) {
                                   auto call = dyn_cast<func::CallOp>(use->getOwner());
                                   return call && refused.contains(call.getCallee());
                                 });
      if (!shared)
        kept.insert(alloc);
    }
    for (auto func : module.getOps<func::FuncOp>())
      if (helpers.contains(func.getName()) && !refused.contains(func.getName()))
        func->setAttr(kHostFunctionAttr, UnitAttr::get(&getContext()));

    IRRewriter rewriter(&getContext());
    for (Operation *op : kept) {
      auto alloc = cast<memref::AllocOp>(op);
      auto func = alloc->getParentOfType<func::FuncOp>();
      // At the entry: an alloca in a loop would grow the stack each trip.
      rewriter.setInsertionPointToStart(&func.getBody().front());
      auto alloca = memref::AllocaOp::create(rewriter, alloc.getLoc(),
                                             alloc.getType(), ValueRange{},
                                             alloc.getAlignmentAttr());
      for (OpOperand *use : usesThroughCasts(alloc.getResult()))
        if (isa<memref::DeallocOp>(use->getOwner()))
          rewriter.eraseOp(use->getOwner());
      rewriter.replaceOp(alloc, alloca.getResult());
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
