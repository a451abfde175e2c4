//===- TransferHostValues.cpp - --tc-gpu-transfer-host-values -------------===//
//
// On a GPU target the buffers of the host code are device memory, but some
// values must reach the host: a shape given as data (Range, Expand,
// Reshape), a loop's trip count or condition, an If's condition, the count
// of elements a NonZero or Compress selects. Each host memref.load of a
// device buffer becomes a download of that one element into a host cell (a
// memref.alloca, on the host's stack) and a load of the cell; each host
// memref.store becomes a store into a cell and an upload. The copies are
// calls of placeholders that --tc-gpu-emit-entry turns into the runtime's
// env->download and env->upload (which wait for the kernels launched before
// them) and --tc-gpu-emulate-kernels into memref.copy.
//
// A download costs a device synchronization: loops that would download
// element after element are moved into one-thread kernels before this pass
// (--tc-gpu-map-kernels), so what reaches here is a handful of scalars.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUTRANSFERHOSTVALUESPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {

bool isHostCell(Value buffer) {
  while (buffer) {
    if (buffer.getDefiningOp<memref::AllocaOp>())
      return true;
    Operation *view = buffer.getDefiningOp();
    if (!isa_and_present<memref::CastOp, memref::SubViewOp>(view))
      return false;
    buffer = view->getOperand(0);
  }
  return false;
}

func::FuncOp declarePlaceholder(ModuleOp module, StringRef name,
                                FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto declaration = func::FuncOp::create(b, module.getLoc(), name, type);
  declaration.setPrivate();
  return declaration;
}

namespace {

/// The device element a host access reaches, as the 0-d view the
/// placeholders take (one declaration per element type).
Value elementView(OpBuilder &b, Location loc, Value buffer, ValueRange indices) {
  auto type = cast<MemRefType>(buffer.getType());
  auto fixed = MemRefType::get(
      {}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {}),
      type.getMemorySpace());
  Value view = buffer;
  if (type.getRank() > 0) {
    SmallVector<OpFoldResult> offsets(indices.begin(), indices.end());
    SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
    MemRefType reduced = memref::SubViewOp::inferRankReducedResultType(
        {}, type, offsets, ones, ones);
    view = memref::SubViewOp::create(b, loc, reduced, buffer, offsets, ones, ones);
  }
  if (view.getType() != fixed)
    view = memref::CastOp::create(b, loc, fixed, view);
  return view;
}

struct GpuTransferHostValuesPass
    : impl::GpuTransferHostValuesPassBase<GpuTransferHostValuesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> hosts(module.getOps<func::FuncOp>());
    for (func::FuncOp func : hosts) {
      if (func.isExternal() || isHostFunction(func))
        continue;
      SmallVector<Operation *> accesses;
      func.walk([&](Operation *op) {
        if (auto load = dyn_cast<memref::LoadOp>(op);
            load && !isHostCell(load.getMemRef()))
          accesses.push_back(op);
        if (auto store = dyn_cast<memref::StoreOp>(op);
            store && !isHostCell(store.getMemRef()))
          accesses.push_back(op);
      });
      for (Operation *op : accesses)
        if (failed(transfer(module, func, op)))
          return signalPassFailure();
    }
  }

  LogicalResult transfer(ModuleOp module, func::FuncOp func, Operation *op) {
    Location loc = op->getLoc();
    bool isLoad = isa<memref::LoadOp>(op);
    Value buffer = isLoad ? cast<memref::LoadOp>(op).getMemRef()
                          : cast<memref::StoreOp>(op).getMemRef();
    ValueRange indices = isLoad ? cast<memref::LoadOp>(op).getIndices()
                                : cast<memref::StoreOp>(op).getIndices();
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    int64_t bytes;
    if (element.isIndex())
      bytes = 8;
    else if (element.isIntOrFloat())
      bytes = (element.getIntOrFloatBitWidth() + 7) / 8;
    else
      return op->emitError("cannot move a value of type ")
             << element << " between the device and the host";
    // The cell at the function's entry: a loop must not grow the stack.
    OpBuilder b(op->getContext());
    b.setInsertionPointToStart(&func.getBody().front());
    auto cellType = MemRefType::get({}, element);
    Value cell = memref::AllocaOp::create(b, loc, cellType);

    b.setInsertionPoint(op);
    Value view = elementView(b, loc, buffer, indices);
    Value size = arith::ConstantIndexOp::create(b, loc, bytes);
    if (isLoad) {
      tc_gpu::DownloadOp::create(b, loc, view, cell, size);
      Value value = memref::LoadOp::create(b, loc, cell, ValueRange{});
      op->getResult(0).replaceAllUsesWith(value);
    } else {
      memref::StoreOp::create(b, loc, cast<memref::StoreOp>(op).getValue(),
                              cell, ValueRange{});
      tc_gpu::UploadOp::create(b, loc, cell, view, size);
    }
    op->erase();
    return success();
  }
};

} // namespace
} // namespace mlir::tc::gpu
