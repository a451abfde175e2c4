//===- ConvertDispatchesToLLVM.cpp - --tc-cpu-convert-dispatches-to-llvm --===//
//
// The upstream conversions to the LLVM dialect do not know tc_cpu.dispatch:
// after them, its memref captures are descriptors behind unrealized casts
// and its count an index behind one. This pattern gives the dispatch the
// converted values, each memref expanded into its descriptor's fields as a
// call passes it (the workgroup function's lowered arguments), so that the
// casts reconcile and --tc-cpu-emit-entry lowers the dispatch on a module
// that is LLVM throughout.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUCONVERTDISPATCHESTOLLVMPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Whether every operand of `op` already has an LLVM type.
bool hasLLVMOperands(tc_cpu::DispatchOp op) {
  return llvm::all_of(op->getOperandTypes(),
                      [](Type type) { return LLVM::isCompatibleType(type); });
}

struct DispatchLowering : ConvertOpToLLVMPattern<tc_cpu::DispatchOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tc_cpu::DispatchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> captures = getTypeConverter()->promoteOperands(
        op.getLoc(), op.getCaptures(), adaptor.getCaptures(), rewriter);
    auto lowered = tc_cpu::DispatchOp::create(
        rewriter, op.getLoc(), op.getWorkgroupAttr(), op.getKernelAttr(),
        op.getOpsAttr(), op.getNodesAttr(), adaptor.getEnv(),
        adaptor.getCount(), captures);
    // The kernel's key and configuration (discardable attributes) too.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      lowered->setAttr(attr.getName(), attr.getValue());
    rewriter.eraseOp(op);
    return success();
  }
};

struct CpuConvertDispatchesToLLVMPass
    : impl::CpuConvertDispatchesToLLVMPassBase<CpuConvertDispatchesToLLVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    patterns.add<DispatchLowering>(converter);
    ConversionTarget target(*ctx);
    target.addDynamicallyLegalOp<tc_cpu::DispatchOp>(hasLLVMOperands);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::cpu
