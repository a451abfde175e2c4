//===- VerifyHostCode.cpp - --tc-gpu-verify-host-code ---------------------===//
//
// On a GPU target the tensors live in device memory: host code may compute
// shapes from the descriptors of its buffers, allocate and launch, and read
// single values through host cells (--tc-gpu-transfer-host-values), but not
// touch elements otherwise. What still does (a buffer's address handed to a
// host helper that --tc-gpu-stage-host-buffers did not stage) is reported
// here, at the op's location, which names
// its ONNX node, instead of reading device memory from the host at run
// time.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUVERIFYHOSTCODEPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// Whether `op` reads or writes the elements of a buffer, or hands a
/// buffer's address to host code that will (a model-support helper such as
/// the image decoder).
bool accessesBufferElements(Operation *op) {
  // A buffer's address compared with another (the deallocation's alias
  // checks) is harmless; one that reaches a call, perhaps after some
  // arithmetic, is read or written there.
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(op)) {
    SmallVector<Value> worklist = {op->getResult(0)};
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (Operation *user : value.getUsers()) {
        // A call is host code. (The staging copies of
        // --tc-gpu-stage-host-buffers, tc_gpu.stage_copy, take device
        // addresses and are not calls.)
        if (isa<CallOpInterface>(user))
          return true;
        if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::AddIOp,
                arith::MulIOp>(user))
          worklist.append(user->result_begin(), user->result_end());
      }
    }
    return false;
  }
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()) &&
           e.getValue() && isa<BaseMemRefType>(e.getValue().getType()) &&
           !isHostCell(e.getValue());
  });
}

struct GpuVerifyHostCodePass
    : impl::GpuVerifyHostCodePassBase<GpuVerifyHostCodePass> {
  void runOnOperation() override {
    bool ok = true;
    // One error per ONNX node, however many accesses it left on the host.
    llvm::DenseSet<Location> reported;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<mlir::gpu::GPUModuleOp>(op) ||
          (isa<func::FuncOp>(op) && isHostFunction(op)))
        return WalkResult::skip();
      if (accessesBufferElements(op) && reported.insert(op->getLoc()).second) {
        op->emitError() << "'" << op->getName()
                        << "' reads or writes tensor elements on the host; GPU "
                           "targets keep tensors in device memory and do not "
                           "support this yet";
        ok = false;
      }
      if (accessesBufferElements(op))
        ok = false;
      return WalkResult::advance();
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
