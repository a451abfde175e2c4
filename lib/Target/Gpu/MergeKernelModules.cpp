//===- MergeKernelModules.cpp - --tc-gpu-merge-kernel-modules -------------===//
//
// One gpu.module per model and target: one binary to embed, load and
// validate, however many kernels the model has.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUMERGEKERNELMODULESPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

struct GpuMergeKernelModulesPass
    : impl::GpuMergeKernelModulesPassBase<GpuMergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<mlir::gpu::GPUModuleOp> modules(
        module.getOps<mlir::gpu::GPUModuleOp>());
    if (modules.empty())
      return;
    MLIRContext *ctx = &getContext();
    // Outlining names every kernel after its function and uniquifies the
    // modules; a kernel takes its module's (unique) name, with the
    // function's appended when a module holds several.
    llvm::DenseMap<SymbolRefAttr, StringAttr> renamed;
    for (mlir::gpu::GPUModuleOp kernels : modules) {
      auto funcs = kernels.getOps<mlir::gpu::GPUFuncOp>();
      bool single = std::next(funcs.begin()) == funcs.end();
      for (mlir::gpu::GPUFuncOp func : funcs) {
        StringAttr name =
            single ? kernels.getSymNameAttr()
                   : StringAttr::get(ctx, kernels.getSymName() + "_" +
                                              SymbolTable::getSymbolName(func).getValue());
        renamed[SymbolRefAttr::get(kernels.getSymNameAttr(),
                                   {FlatSymbolRefAttr::get(SymbolTable::getSymbolName(func))})] =
            name;
      }
    }
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto merged = mlir::gpu::GPUModuleOp::create(builder, module.getLoc(),
                                                 "kernels");
    merged->setAttrs(modules.front()->getAttrs());
    merged.setSymName("kernels");
    Block &body = merged.getBodyRegion().front();
    for (mlir::gpu::GPUModuleOp kernels : modules) {
      for (Operation &op :
           llvm::make_early_inc_range(kernels.getBodyRegion().front())) {
        if (auto func = dyn_cast<mlir::gpu::GPUFuncOp>(op))
          SymbolTable::setSymbolName(func, renamed[SymbolRefAttr::get(
              kernels.getSymNameAttr(),
              {FlatSymbolRefAttr::get(SymbolTable::getSymbolName(func))})]);
        if (auto symbol = dyn_cast<SymbolOpInterface>(op);
            symbol && SymbolTable::lookupSymbolIn(merged, symbol.getName())) {
          op.emitError("symbol clash while merging kernel modules");
          return signalPassFailure();
        }
        op.moveBefore(&body, body.end());
      }
      kernels.erase();
    }
    WalkResult result = module.walk([&](mlir::gpu::LaunchFuncOp launch) {
      StringAttr name = renamed.lookup(launch.getKernel());
      if (!name) {
        launch.emitError("launches a kernel outside the outlined modules");
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(SymbolRefAttr::get(
          StringAttr::get(ctx, "kernels"), {FlatSymbolRefAttr::get(name)}));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
