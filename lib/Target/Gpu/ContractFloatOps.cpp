//===- ContractFloatOps.cpp - --tc-gpu-contract-float-ops ------------------===//
//
// A GPU does a fused multiply-add in one instruction at the rate of a
// multiply. LLVM forms one only from a multiply and an add that both allow
// contraction, so the kernels' float ops say so here, before the vendor's
// lowering turns them into LLVM ops (which keep the flag).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUCONTRACTFLOATOPSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

struct GpuContractFloatOpsPass
    : impl::GpuContractFloatOpsPassBase<GpuContractFloatOpsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation().walk([&](arith::ArithFastMathInterface op) {
      arith::FastMathFlags flags = op.getFastMathFlagsAttr()
                                       ? op.getFastMathFlagsAttr().getValue()
                                       : arith::FastMathFlags::none;
      op->setAttr(op.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(
                      ctx, flags | arith::FastMathFlags::contract));
    });
  }
};

} // namespace
} // namespace mlir::tc::gpu
