//===- AlignWorkgroupMemory.cpp - --tc-gpu-align-workgroup-memory ----------===//
//
// Shared memory becomes one LLVM global per workgroup attribution, aligned
// to its element unless the attribution says otherwise; a vector access
// needs its own size. A few bytes of padding per buffer buy the contraction
// kernel its one 16-byte read of A's tile per step instead of four.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUALIGNWORKGROUPMEMORYPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

struct GpuAlignWorkgroupMemoryPass
    : impl::GpuAlignWorkgroupMemoryPassBase<GpuAlignWorkgroupMemoryPass> {
  void runOnOperation() override {
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    Builder b(&getContext());
    getOperation().walk([&](mlir::gpu::GPUFuncOp kernel) {
      for (unsigned i = 0, e = kernel.getNumWorkgroupAttributions(); i < e; ++i) {
        auto set = dyn_cast_or_null<IntegerAttr>(
            kernel.getWorkgroupAttributionAttr(i, name));
        if (!set || set.getInt() < kWorkgroupAlignment)
          kernel.setWorkgroupAttributionAttr(
              i, name, b.getI64IntegerAttr(kWorkgroupAlignment));
      }
    });
  }
};

} // namespace
} // namespace mlir::tc::gpu
