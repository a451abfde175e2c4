//===- EmulateKernels.cpp - --tc-gpu-emulate-kernels ----------------------===//
//
// The GPU path without a GPU: the same kernels and host code that
// --target=cuda/rocm compile, with each kernel run on the CPU by looping
// over its blocks and threads. Lowered by the CPU pipeline's tail, the
// result runs under tc-run like any CPU model, so the conformance suite
// checks the numerics of GPU code generation (tiling, index arithmetic,
// bounds guards, outlining, the host side's allocations) on our machines.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUEMULATEKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

using mlir::gpu::Dimension;

/// Builds `@__tc_emulated_<name>` from a kernel.
FailureOr<func::FuncOp> emulate(ModuleOp module, mlir::gpu::GPUFuncOp kernel) {
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitError("cannot emulate a kernel with several blocks");
  if (!kernel.getWorkgroupAttributions().empty() ||
      !kernel.getPrivateAttributions().empty())
    return kernel.emitError("cannot emulate a kernel with memory attributions");
  WalkResult barriers = kernel.walk([](mlir::gpu::BarrierOp) {
    return WalkResult::interrupt();
  });
  if (barriers.wasInterrupted())
    return kernel.emitError("cannot emulate a kernel with barriers");

  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = kernel.getLoc();
  SmallVector<Type> types(kernel.getArgumentTypes());
  types.append(6, b.getIndexType());
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      b, loc, ("__tc_emulated_" + SymbolTable::getSymbolName(kernel).getValue()).str(),
      b.getFunctionType(types, {}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  unsigned numKernelArgs = kernel.getNumArguments();
  auto extent = [&](unsigned i) { return entry->getArgument(numKernelArgs + i); };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // Blocks z, y, x, then threads z, y, x: x innermost, as consecutive
  // threads are on a GPU.
  SmallVector<Value> ids(6);
  for (int level : {2, 1, 0, 5, 4, 3}) {
    auto loop = scf::ForOp::create(b, loc, zero, extent(level), one);
    ids[level] = loop.getInductionVar();
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  IRMapping mapping;
  for (unsigned i = 0; i < numKernelArgs; ++i)
    mapping.map(kernel.getArgument(i), entry->getArgument(i));
  for (Operation &op : kernel.getBody().front()) {
    auto dim = [](Dimension d) { return static_cast<int>(d); };
    if (auto id = dyn_cast<mlir::gpu::BlockIdOp>(op)) {
      mapping.map(id.getResult(), ids[dim(id.getDimension())]);
    } else if (auto id = dyn_cast<mlir::gpu::ThreadIdOp>(op)) {
      mapping.map(id.getResult(), ids[3 + dim(id.getDimension())]);
    } else if (auto size = dyn_cast<mlir::gpu::GridDimOp>(op)) {
      mapping.map(size.getResult(), extent(dim(size.getDimension())));
    } else if (auto size = dyn_cast<mlir::gpu::BlockDimOp>(op)) {
      mapping.map(size.getResult(), extent(3 + dim(size.getDimension())));
    } else if (isa<mlir::gpu::ReturnOp>(op)) {
      continue;
    } else {
      Operation *clone = b.clone(op, mapping);
      bool nestedGpu = false;
      clone->walk([&](Operation *inner) {
        if (inner->getDialect() &&
            inner->getDialect()->getNamespace() == "gpu")
          nestedGpu = true;
      });
      if (nestedGpu)
        return op.emitError("cannot emulate gpu dialect ops inside regions");
    }
  }
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  return func;
}

struct GpuEmulateKernelsPass
    : impl::GpuEmulateKernelsPassBase<GpuEmulateKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<SymbolRefAttr, func::FuncOp> emulated;
    for (auto kernels : module.getOps<mlir::gpu::GPUModuleOp>())
      for (auto kernel : kernels.getOps<mlir::gpu::GPUFuncOp>()) {
        FailureOr<func::FuncOp> func = emulate(module, kernel);
        if (failed(func))
          return signalPassFailure();
        emulated[SymbolRefAttr::get(
            kernels.getSymNameAttr(),
            {FlatSymbolRefAttr::get(SymbolTable::getSymbolName(kernel))})] = *func;
      }
    auto calleeFor = [&](mlir::gpu::LaunchFuncOp launch,
                         TypeRange) -> func::FuncOp {
      func::FuncOp callee = emulated.lookup(launch.getKernel());
      if (!callee)
        launch.emitError("launches a kernel that is not in a kernel module");
      return callee;
    };
    if (failed(replaceLaunches(module, {}, /*dimsFirst=*/false, calleeFor)))
      return signalPassFailure();
    emulateTransfers(module);
  }

  /// Downloads and uploads (--tc-gpu-transfer-host-values) copy within the
  /// one memory: (bytes, destination, source) becomes memref.copy.
  static void emulateTransfers(ModuleOp module) {
    auto isTransfer = [](StringRef name) {
      return name.starts_with("__tc_gpu_download_") ||
             name.starts_with("__tc_gpu_upload_");
    };
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (isTransfer(call.getCallee()) && call.getNumOperands() == 3)
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      OpBuilder b(call);
      memref::CopyOp::create(b, call.getLoc(), call.getOperand(2),
                             call.getOperand(1));
      call.erase();
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (func.isExternal() && isTransfer(func.getName()) &&
          func.symbolKnownUseEmpty(module))
        func.erase();
  }
};

} // namespace
} // namespace mlir::tc::gpu
