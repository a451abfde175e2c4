//===- PrepareHost.cpp - --tc-gpu-prepare-host ----------------------------===//
//
// The host side of a GPU target: what is left of @main once its kernels are
// outlined (shapes, allocations, launches) is lowered like CPU code, with
// each launch a call into the runtime. This pass makes each launch a
// tc_gpu.launch and each constant a tc_gpu.device_constant, ops that
// --tc-gpu-lower-host-ops lowers into those calls within the host code's
// LLVM lowering, where their memrefs are expanded the way the kernels'
// parameters are (allocated pointer, aligned pointer, offset, sizes,
// strides).
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
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
    module->setAttr(kGpuKernelsAttr, ArrayAttr::get(ctx, names));

    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    if (failed(main.insertArgument(0, ptrType, {}, main.getLoc()))) {
      main.emitError("cannot add the environment argument");
      return signalPassFailure();
    }
    Value env = main.getArgument(0);
    OpBuilder b(ctx);
    // Constants (weights) live in the module's read-only data on the host;
    // kernels read their device copies, which the runtime uploads once:
    // each memref.get_global goes through a tc_gpu.device_constant, one
    // index per global.
    llvm::StringMap<unsigned> constantIndex;
    SmallVector<memref::GetGlobalOp> globals;
    main.walk([&](memref::GetGlobalOp op) { globals.push_back(op); });
    for (memref::GetGlobalOp global : globals) {
      auto type = cast<MemRefType>(global.getType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
        global.emitError("GPU targets need constants of static shape");
        return signalPassFailure();
      }
      unsigned index = constantIndex
                           .try_emplace(global.getName(), constantIndex.size())
                           .first->second;
      b.setInsertionPointAfter(global);
      int64_t bytes = type.getNumElements() *
                      ((type.getElementTypeBitWidth() + 7) / 8);
      Value size = arith::ConstantIndexOp::create(b, global.getLoc(), bytes);
      auto device = tc_gpu::DeviceConstantOp::create(b, global.getLoc(), index,
                                                     env, size, global);
      global.getResult().replaceAllUsesExcept(device, device);
    }
    auto launch = [&](mlir::gpu::LaunchFuncOp launch,
                      OpBuilder &b) -> LogicalResult {
      if (launch->getParentOfType<func::FuncOp>() != main)
        return launch.emitError(
            "kernel launches outside @main are not supported");
      if (launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
          launch.getAsyncToken())
        return launch.emitError("clusters, dynamic shared memory and async "
                                "launches are not supported");
      auto found = indexOf.find(launch.getKernelName().getValue());
      if (found == indexOf.end())
        return launch.emitError("launches a kernel outside the kernel module");
      mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      tc_gpu::LaunchOp::create(b, launch.getLoc(), found->second, env, grid.x,
                               grid.y, grid.z, block.x, block.y, block.z,
                               launch.getKernelOperands());
      return success();
    };
    if (failed(replaceLaunches(module, launch)))
      return signalPassFailure();
  }
};

} // namespace

LogicalResult replaceLaunches(
    ModuleOp module,
    function_ref<LogicalResult(mlir::gpu::LaunchFuncOp, OpBuilder &)> replace) {
  SmallVector<mlir::gpu::LaunchFuncOp> launches;
  module.walk([&](mlir::gpu::LaunchFuncOp op) { launches.push_back(op); });
  for (mlir::gpu::LaunchFuncOp launch : launches) {
    OpBuilder b(launch);
    if (failed(replace(launch, b)))
      return failure();
    launch.erase();
  }
  for (auto kernels :
       llvm::make_early_inc_range(module.getOps<mlir::gpu::GPUModuleOp>()))
    kernels.erase();
  module->removeAttr("gpu.container_module");
  return success();
}

} // namespace mlir::tc::gpu
