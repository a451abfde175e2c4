//===- StageHostBuffers.cpp - --tc-gpu-stage-host-buffers -----------------===//
//
// Some ops are host C code, not kernels: the image decoder reads the
// encoded bytes and writes the pixels through plain pointers. On a GPU
// target those buffers are device memory, so each such call gets a host
// copy of its buffer: allocated, filled from the device before a reading
// call, copied back after a writing one, freed right after, so that no
// staging buffer outlives its call (and no run-time check can leave one
// behind). The allocation, the copies and the free are tc_gpu ops
// (stage_alloc, stage_copy, stage_free) on i64 addresses, lowered per
// target with the rest of the host code (lowerStagingOps).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "tc/Conversion/Passes.h"
#include "tc/Dialect/Tc/IR/NodeNames.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUSTAGEHOSTBUFFERSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// The buffer whose aligned address `pointer` is (through index casts).
FailureOr<Value> bufferOf(Value pointer) {
  while (Operation *def = pointer.getDefiningOp()) {
    if (auto extract = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(def))
      return extract.getSource();
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      break;
    pointer = def->getOperand(0);
  }
  return failure();
}

/// Stages operand `index` of `call` (see the pass description).
LogicalResult stage(func::CallOp call, int64_t index, bool reads) {
  Location loc = call.getLoc();
  if (index < 0 || index >= call.getNumOperands() ||
      !call.getOperand(index).getType().isInteger(64))
    return call.emitError("the buffer operand of a host helper is not an i64 "
                          "address");
  Value device = call.getOperand(index);
  FailureOr<Value> buffer = bufferOf(device);
  if (failed(buffer))
    return call.emitError("cannot tell which buffer a host helper reads or "
                          "writes, to copy it through host memory");
  auto type = cast<MemRefType>(buffer->getType());
  Type element = type.getElementType();
  if (!type.getLayout().isIdentity() || !element.isIntOrFloat())
    return call.emitError("cannot copy a buffer of type ")
           << type << " through host memory for a host helper";

  OpBuilder b(call);
  Type i64 = b.getI64Type();
  Value count = arith::ConstantIndexOp::create(
      b, loc, (element.getIntOrFloatBitWidth() + 7) / 8);
  for (int64_t d = 0; d < type.getRank(); ++d)
    count = arith::MulIOp::create(
        b, loc, count, memref::DimOp::create(b, loc, *buffer, d));
  Value bytes = arith::IndexCastOp::create(b, loc, i64, count);
  // malloc(0) may return null: at least one byte.
  Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
  Value size = arith::MaxUIOp::create(b, loc, bytes, one);
  Value host = tc_gpu::StageAllocOp::create(b, loc, i64, size);
  Value null = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value allocated =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, host, null);
  cf::AssertOp::create(b, loc, allocated,
                       describeNode(call) +
                           ": out of host memory for a copy of a device "
                           "tensor that host code reads or writes");
  if (reads)
    tc_gpu::StageCopyOp::create(b, loc, host, device, bytes, /*download=*/true);
  call->setOperand(index, host);
  b.setInsertionPointAfter(call);
  if (!reads)
    tc_gpu::StageCopyOp::create(b, loc, device, host, bytes,
                                /*download=*/false);
  tc_gpu::StageFreeOp::create(b, loc, host);
  return success();
}

struct GpuStageHostBuffersPass
    : impl::GpuStageHostBuffersPassBase<GpuStageHostBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (!isHostFunction(call) && (call->hasAttr(kReadsBufferAttr) ||
                                    call->hasAttr(kWritesBufferAttr)))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      for (auto [name, reads] : {std::pair{kReadsBufferAttr, true},
                                 std::pair{kWritesBufferAttr, false}}) {
        auto index = call->getAttrOfType<IntegerAttr>(name);
        if (!index)
          continue;
        if (failed(stage(call, index.getInt(), reads)))
          return signalPassFailure();
        call->removeAttr(name);
      }
    }
  }
};

} // namespace

void lowerStagingOps(ModuleOp module, StagingCopy copy) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<tc_gpu::StageAllocOp, tc_gpu::StageFreeOp, tc_gpu::StageCopyOp>(op))
      ops.push_back(op);
  });
  OpBuilder b(module.getContext());
  Type ptr = LLVM::LLVMPointerType::get(module.getContext());
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    auto toPointer = [&](Value address) {
      return LLVM::IntToPtrOp::create(b, loc, ptr, address).getResult();
    };
    if (auto alloc = dyn_cast<tc_gpu::StageAllocOp>(op)) {
      // (The module's malloc and free: declared once, never failing here.)
      LLVM::LLVMFuncOp malloc =
          *LLVM::lookupOrCreateMallocFn(b, module, b.getI64Type());
      Value pointer =
          LLVM::CallOp::create(b, loc, malloc, alloc.getBytes()).getResult();
      alloc.getHost().replaceAllUsesWith(
          LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), pointer));
    } else if (auto free = dyn_cast<tc_gpu::StageFreeOp>(op)) {
      LLVM::CallOp::create(b, loc, *LLVM::lookupOrCreateFreeFn(b, module),
                           ValueRange{toPointer(free.getHost())});
    } else {
      auto stageCopy = cast<tc_gpu::StageCopyOp>(op);
      copy(b, loc, stageCopy.getDownload(),
           toPointer(stageCopy.getDestination()),
           toPointer(stageCopy.getSource()), stageCopy.getBytes());
    }
    op->erase();
  }
}

} // namespace mlir::tc::gpu
