//===- PrepareHost.cpp - --tc-gpu-prepare-host ----------------------------===//
//
// The host side of a GPU target: what is left of @main once its kernels are
// outlined (shapes, allocations, launches) is lowered like CPU code, with
// each launch a call into the runtime. This pass marks the launches as
// placeholder calls that survive the LLVM lowering with their operands
// expanded the way the kernels' parameters are (a memref becomes allocated
// pointer, aligned pointer, offset, sizes, strides), so the entry emitter
// only has to pass them on.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUPREPAREHOSTPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

struct GpuPrepareHostPass
    : impl::GpuPrepareHostPassBase<GpuPrepareHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal()) {
      module.emitError("expected a func.func @main with a body");
      return signalPassFailure();
    }
    // The kernel table: names in the order of the (single) kernel module.
    SmallVector<Attribute> names;
    llvm::StringMap<unsigned> indexOf;
    for (auto kernels : module.getOps<mlir::gpu::GPUModuleOp>())
      for (auto func : kernels.getOps<mlir::gpu::GPUFuncOp>()) {
        StringRef name = SymbolTable::getSymbolName(func).getValue();
        indexOf[name] = names.size();
        names.push_back(StringAttr::get(ctx, name));
      }
    module->setAttr("tc.gpu_kernels", ArrayAttr::get(ctx, names));

    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    if (failed(main.insertArgument(0, ptrType, {}, main.getLoc()))) {
      main.emitError("cannot add the environment argument");
      return signalPassFailure();
    }
    Value env = main.getArgument(0);
    OpBuilder b(ctx);
    SmallVector<mlir::gpu::LaunchFuncOp> launches;
    module.walk([&](mlir::gpu::LaunchFuncOp op) { launches.push_back(op); });
    for (mlir::gpu::LaunchFuncOp launch : launches) {
      if (launch->getParentOfType<func::FuncOp>() != main) {
        launch.emitError("kernel launches outside @main are not supported");
        return signalPassFailure();
      }
      if (launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
          launch.getAsyncToken()) {
        launch.emitError("clusters, dynamic shared memory and async launches "
                         "are not supported");
        return signalPassFailure();
      }
      auto found = indexOf.find(launch.getKernelName().getValue());
      if (found == indexOf.end()) {
        launch.emitError("launches a kernel outside the kernel module");
        return signalPassFailure();
      }
      SmallVector<Value> operands = {env};
      mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      operands.append({grid.x, grid.y, grid.z, block.x, block.y, block.z});
      operands.append(launch.getKernelOperands().begin(),
                      launch.getKernelOperands().end());
      std::string callee = "__tc_gpu_launch_" + std::to_string(found->second);
      auto declaration = module.lookupSymbol<func::FuncOp>(callee);
      if (!declaration) {
        b.setInsertionPointToEnd(module.getBody());
        declaration = func::FuncOp::create(
            b, launch.getLoc(), callee,
            b.getFunctionType(ValueRange(operands).getTypes(), {}));
        declaration.setPrivate();
      }
      b.setInsertionPoint(launch);
      func::CallOp::create(b, launch.getLoc(), declaration, operands);
      launch.erase();
    }
    for (auto kernels :
         llvm::make_early_inc_range(module.getOps<mlir::gpu::GPUModuleOp>()))
      kernels.erase();
    module->removeAttr("gpu.container_module");
  }
};

} // namespace
} // namespace mlir::tc::gpu
