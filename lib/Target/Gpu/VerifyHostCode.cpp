//===- VerifyHostCode.cpp - --tc-gpu-verify-host-code ---------------------===//
//
// On a GPU target the tensors live in device memory: host code may compute
// shapes from the descriptors of its buffers, allocate and launch, but not
// read or write elements. What still does (a Reshape whose shape is data
// computed by the model, the trip count of a Loop) is reported here, at the
// op's location, which names its ONNX node, instead of reading device
// memory from the host at run time.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

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
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()) &&
           e.getValue() && isa<BaseMemRefType>(e.getValue().getType());
  });
}

struct GpuVerifyHostCodePass
    : impl::GpuVerifyHostCodePassBase<GpuVerifyHostCodePass> {
  void runOnOperation() override {
    bool ok = true;
    // One error per ONNX node, however many accesses it left on the host.
    llvm::DenseSet<Location> reported;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<mlir::gpu::GPUModuleOp>(op))
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
