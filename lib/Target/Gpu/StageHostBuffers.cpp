//===- StageHostBuffers.cpp - --tc-gpu-stage-host-buffers -----------------===//
//
// Some ops are host C code, not kernels: the image decoder reads the
// encoded bytes and writes the pixels through plain pointers. On a GPU
// target those buffers are device memory, so each such call gets a host
// copy of its buffer: allocated, filled from the device before a reading
// call, copied back after a writing one, freed right after, so that no
// staging buffer outlives its call (and no run-time check can leave one
// behind). The copies are placeholders, lowered per target with the rest
// of the host code (lowerStagingCalls).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

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

/// `name(i64 x operands) -> i64 (or nothing)`, declared on first use.
func::FuncOp declare(ModuleOp module, StringRef name, unsigned operands,
                     bool returnsValue) {
  Builder b(module.getContext());
  Type i64 = b.getI64Type();
  return declarePlaceholder(
      module, name,
      b.getFunctionType(SmallVector<Type>(operands, i64),
                        returnsValue ? TypeRange{i64} : TypeRange{}));
}

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
LogicalResult stage(ModuleOp module, func::CallOp call, int64_t index,
                    bool reads) {
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
  Value host =
      func::CallOp::create(b, loc, declare(module, kStageAlloc, 1, true), size)
          .getResult(0);
  Value null = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value allocated =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, host, null);
  cf::AssertOp::create(b, loc, allocated,
                       describeNode(call) +
                           ": out of host memory for a copy of a device "
                           "tensor that host code reads or writes");
  if (reads)
    func::CallOp::create(b, loc, declare(module, kStageDownload, 3, false),
                         ValueRange{host, device, bytes});
  call->setOperand(index, host);
  b.setInsertionPointAfter(call);
  if (!reads)
    func::CallOp::create(b, loc, declare(module, kStageUpload, 3, false),
                         ValueRange{device, host, bytes});
  func::CallOp::create(b, loc, declare(module, kStageFree, 1, false), host);
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
        if (failed(stage(module, call, index.getInt(), reads)))
          return signalPassFailure();
        call->removeAttr(name);
      }
    }
  }
};

} // namespace

LogicalResult lowerStagingCalls(ModuleOp module, StagingCopy copy) {
  SmallVector<CallOpInterface> calls;
  module.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_if_present<SymbolRefAttr>(
        call.getCallableForCallee().dyn_cast<SymbolRefAttr>());
    if (callee && callee.getRootReference().getValue().starts_with(kStagePrefix))
      calls.push_back(call);
  });
  OpBuilder b(module.getContext());
  Type ptr = LLVM::LLVMPointerType::get(module.getContext());
  for (CallOpInterface call : calls) {
    StringRef name = cast<SymbolRefAttr>(call.getCallableForCallee())
                         .getRootReference()
                         .getValue();
    Location loc = call.getLoc();
    b.setInsertionPoint(call);
    SmallVector<Value> args(call.getArgOperands());
    auto toPointer = [&](Value address) {
      return LLVM::IntToPtrOp::create(b, loc, ptr, address).getResult();
    };
    if (name == kStageAlloc && args.size() == 1 && call->getNumResults() == 1) {
      FailureOr<LLVM::LLVMFuncOp> malloc =
          LLVM::lookupOrCreateMallocFn(b, module, b.getI64Type());
      if (failed(malloc))
        return call.emitError("cannot declare malloc");
      Value pointer = LLVM::CallOp::create(b, loc, *malloc, args).getResult();
      call->getResult(0).replaceAllUsesWith(
          LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), pointer));
    } else if (name == kStageFree && args.size() == 1) {
      FailureOr<LLVM::LLVMFuncOp> free = LLVM::lookupOrCreateFreeFn(b, module);
      if (failed(free))
        return call.emitError("cannot declare free");
      LLVM::CallOp::create(b, loc, *free, ValueRange{toPointer(args[0])});
    } else if ((name == kStageDownload || name == kStageUpload) &&
               args.size() == 3) {
      copy(b, loc, name == kStageDownload, toPointer(args[0]),
           toPointer(args[1]), args[2]);
    } else {
      return call.emitError("malformed staging placeholder");
    }
    call->erase();
  }
  for (StringRef name : {kStageAlloc, kStageFree, kStageDownload, kStageUpload})
    if (Operation *declaration = module.lookupSymbol(name))
      declaration->erase();
  return success();
}

} // namespace mlir::tc::gpu
