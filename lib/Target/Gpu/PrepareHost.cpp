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

#include "tc/Dialect/Tc/IR/TcAttributes.h"
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
    // each memref.get_global goes through @__tc_gpu_constant_<K>(%env,
    // bytes, host buffer) -> device buffer.
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
      std::string callee = "__tc_gpu_constant_" + std::to_string(index);
      auto declaration = module.lookupSymbol<func::FuncOp>(callee);
      if (!declaration) {
        b.setInsertionPointToEnd(module.getBody());
        declaration = func::FuncOp::create(
            b, global.getLoc(), callee,
            b.getFunctionType({env.getType(), b.getIndexType(), type}, {type}));
        declaration.setPrivate();
      }
      b.setInsertionPointAfter(global);
      int64_t bytes = type.getNumElements() *
                      ((type.getElementTypeBitWidth() + 7) / 8);
      Value size = arith::ConstantIndexOp::create(b, global.getLoc(), bytes);
      auto call = func::CallOp::create(b, global.getLoc(), declaration,
                                       ValueRange{env, size, global});
      global.getResult().replaceAllUsesExcept(call.getResult(0), call);
    }
    auto calleeFor = [&](mlir::gpu::LaunchFuncOp launch,
                         TypeRange types) -> func::FuncOp {
      if (launch->getParentOfType<func::FuncOp>() != main) {
        launch.emitError("kernel launches outside @main are not supported");
        return nullptr;
      }
      if (launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
          launch.getAsyncToken()) {
        launch.emitError("clusters, dynamic shared memory and async launches "
                         "are not supported");
        return nullptr;
      }
      auto found = indexOf.find(launch.getKernelName().getValue());
      if (found == indexOf.end()) {
        launch.emitError("launches a kernel outside the kernel module");
        return nullptr;
      }
      std::string callee = "__tc_gpu_launch_" + std::to_string(found->second);
      return declarePlaceholder(module, callee, b.getFunctionType(types, {}));
    };
    if (failed(replaceLaunches(module, env, /*dimsFirst=*/true, calleeFor)))
      return signalPassFailure();
  }
};

} // namespace

LogicalResult replaceLaunches(
    ModuleOp module, ValueRange leading, bool dimsFirst,
    function_ref<func::FuncOp(mlir::gpu::LaunchFuncOp, TypeRange)> calleeFor) {
  SmallVector<mlir::gpu::LaunchFuncOp> launches;
  module.walk([&](mlir::gpu::LaunchFuncOp op) { launches.push_back(op); });
  for (mlir::gpu::LaunchFuncOp launch : launches) {
    mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    SmallVector<Value> dims = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    SmallVector<Value> operands(leading);
    if (dimsFirst)
      operands.append(dims);
    operands.append(launch.getKernelOperands().begin(),
                    launch.getKernelOperands().end());
    if (!dimsFirst)
      operands.append(dims);
    func::FuncOp callee = calleeFor(launch, ValueRange(operands).getTypes());
    if (!callee)
      return failure();
    OpBuilder b(launch);
    func::CallOp::create(b, launch.getLoc(), callee, operands);
    launch.erase();
  }
  for (auto kernels :
       llvm::make_early_inc_range(module.getOps<mlir::gpu::GPUModuleOp>()))
    kernels.erase();
  module->removeAttr("gpu.container_module");
  return success();
}

} // namespace mlir::tc::gpu
