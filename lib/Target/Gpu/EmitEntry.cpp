//===- EmitEntry.cpp - --tc-gpu-emit-entry --------------------------------===//
//
// The GPU part of the model.so ABI (include/tc-runtime/module_abi.h), on the
// LLVM dialect of a GPU target's host code:
//   - tc_module_gpu_run_v3: tc_module_run_v1's marshalling around @main;
//   - each host staging copy (--tc-gpu-stage-host-buffers): env->download
//     or env->upload;
//   - malloc and free (the memref lowering's) become env->alloc and
//     env->release: every buffer of the host code is device memory;
//   - the images and kernel names as constant tables.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Gpu/Passes.h"
#include "tc/Target/Host/ModuleAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUEMITENTRYPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

using host::Emitter;

/// env->download(runtime, destination, source, bytes) (`download`) or
/// env->upload(runtime, destination, source, bytes), at `e`.
void callEnvCopy(Emitter &e, Value env, bool download, Value destination,
                 Value source, Value bytes) {
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(e.b.getContext()), {e.ptr, e.ptr, e.ptr, e.i64});
  LLVM::CallOp::create(
      e.b, e.loc, type,
      ValueRange{loadEnvField(e.b, e.loc, env,
                              download ? EnvField::Download : EnvField::Upload),
                 loadEnvField(e.b, e.loc, env, EnvField::Runtime), destination,
                 source, bytes});
}

/// malloc(size) -> env->alloc(runtime, size); free(p) -> env->release.
LogicalResult redirectAllocations(LLVM::LLVMFuncOp main) {
  MLIRContext *ctx = main.getContext();
  SmallVector<LLVM::CallOp> calls;
  main.walk([&](LLVM::CallOp call) {
    if (call.getCallee() &&
        (*call.getCallee() == "malloc" || *call.getCallee() == "free" ||
         *call.getCallee() == "aligned_alloc"))
      calls.push_back(call);
  });
  Value env = main.getArgument(0);
  for (LLVM::CallOp call : calls) {
    OpBuilder b(call);
    Emitter e = Emitter::at(b, call.getLoc());
    if (*call.getCallee() == "aligned_alloc")
      return call.emitError("aligned_alloc on the host of a GPU target");
    if (*call.getCallee() == "malloc") {
      auto type = LLVM::LLVMFunctionType::get(e.ptr, {e.ptr, e.i64});
      auto alloc = LLVM::CallOp::create(
          b, e.loc, type,
          ValueRange{loadEnvField(e.b, e.loc, env, EnvField::Alloc),
                     loadEnvField(e.b, e.loc, env, EnvField::Runtime),
                     call.getArgOperands()[0]});
      call.getResult().replaceAllUsesWith(alloc.getResult());
    } else {
      auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                              {e.ptr, e.ptr});
      LLVM::CallOp::create(
          b, e.loc, type,
          ValueRange{loadEnvField(e.b, e.loc, env, EnvField::Release),
                     loadEnvField(e.b, e.loc, env, EnvField::Runtime),
                     call.getArgOperands()[0]});
    }
    call.erase();
  }
  return success();
}

void emitTables(ModuleOp module, ArrayRef<Attribute> kernels,
                ArrayRef<Attribute> images) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  Emitter e = Emitter::at(b, loc);
  SmallVector<LLVM::GlobalOp> names;
  for (auto [i, kernel] : llvm::enumerate(kernels))
    names.push_back(
        host::constantBytes(b, loc, "__tc_gpu_kernel_name_" + std::to_string(i),
                            cast<StringAttr>(kernel).getValue(), true));
  host::constantCount(b, loc, "tc_module_gpu_kernel_count_v1", kernels.size());
  host::constantTable(b, loc, "tc_module_gpu_kernels_v1", e.ptr, names.size(),
                      [&](OpBuilder &ib) {
                        SmallVector<Value> values;
                        for (LLVM::GlobalOp name : names)
                          values.push_back(
                              LLVM::AddressOfOp::create(ib, loc, name));
                        return values;
                      });
  struct ImageGlobals {
    LLVM::GlobalOp target, format, data;
    uint64_t size;
  };
  SmallVector<ImageGlobals> globals;
  for (auto [i, attr] : llvm::enumerate(images)) {
    auto image = cast<DictionaryAttr>(attr);
    std::string suffix = std::to_string(i);
    StringRef data = image.getAs<StringAttr>("data").getValue();
    globals.push_back(
        {host::constantBytes(b, loc, "__tc_gpu_target_" + suffix,
                             image.getAs<StringAttr>("target").getValue(),
                             true),
         host::constantBytes(b, loc, "__tc_gpu_format_" + suffix,
                             image.getAs<StringAttr>("format").getValue(),
                             true),
         // PTX is text the driver reads up to its NUL.
         host::constantBytes(b, loc, "__tc_gpu_image_" + suffix, data,
                             image.getAs<StringAttr>("format").getValue() ==
                                 "ptx"),
         data.size()});
  }
  host::constantCount(b, loc, "tc_module_gpu_image_count_v1", images.size());
  auto imageType =
      LLVM::LLVMStructType::getLiteral(ctx, {e.ptr, e.ptr, e.ptr, e.i64});
  host::constantTable(
      b, loc, "tc_module_gpu_images_v1", imageType, globals.size(),
      [&](OpBuilder &ib) {
        SmallVector<Value> values;
        for (const ImageGlobals &g : globals) {
          Value fields[] = {
              LLVM::AddressOfOp::create(ib, loc, g.target),
              LLVM::AddressOfOp::create(ib, loc, g.format),
              LLVM::AddressOfOp::create(ib, loc, g.data),
              LLVM::ConstantOp::create(
                  ib, loc, e.i64,
                  ib.getI64IntegerAttr(static_cast<int64_t>(g.size)))};
          values.push_back(host::structValue(ib, loc, imageType, fields));
        }
        return values;
      });
}

struct GpuEmitEntryPass : impl::GpuEmitEntryPassBase<GpuEmitEntryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<LLVM::LLVMFuncOp>("main");
    auto kernels = module->getAttrOfType<ArrayAttr>(kGpuKernelsAttr);
    auto images = module->getAttrOfType<ArrayAttr>(kGpuImagesAttr);
    if (!main || !kernels || !images) {
      module.emitError("expected an llvm.func @main and the tc.gpu_kernels "
                       "and tc.gpu_images attributes (set by "
                       "--tc-gpu-prepare-host)");
      return signalPassFailure();
    }
    FailureOr<SignatureAttr> signature =
        host::moduleSignature(module, "--tc-gpu-emit-entry");
    if (failed(signature))
      return signalPassFailure();
    SmallVector<host::TensorSlot> inputs, outputs;
    host::signatureSlots(*signature, inputs, outputs);
    if (failed(redirectAllocations(main)))
      return signalPassFailure();
    // After the redirection: staging buffers are host memory (malloc).
    WalkResult outside = module.walk([&](Operation *op) {
      if (isa<tc_gpu::StageAllocOp, tc_gpu::StageFreeOp, tc_gpu::StageCopyOp>(
              op) &&
          op->getParentOfType<LLVM::LLVMFuncOp>() != main) {
        op->emitError("host staging outside @main is not supported");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (outside.wasInterrupted())
      return signalPassFailure();
    Value env = main.getArgument(0);
    lowerStagingOps(module, [&](OpBuilder &b, Location loc, bool download,
                                Value destination, Value source, Value bytes) {
      Emitter e = Emitter::at(b, loc);
      callEnvCopy(e, env, download, destination, source, bytes);
    });
    // Only the ABI symbols leave the module: its @main and helpers must not
    // clash with the CPU code's in the same library.
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (!fn.isExternal())
        fn.setLinkage(LLVM::Linkage::Internal);
    host::shareConstants(module);
    emitTables(module, kernels.getValue(), images.getValue());
    // Device outputs are released by the runtime after a failed run.
    if (failed(host::emitRunFunction(module, main, inputs, outputs,
                                     "tc_module_gpu_run_v3",
                                     "tc_module_gpu_check_messages_v1",
                                     /*releaseOutputsOnError=*/false)))
      return signalPassFailure();
    for (StringRef attr : {kSignatureAttr, kGpuKernelsAttr, kGpuImagesAttr})
      module->removeAttr(attr);
  }
};

} // namespace

Value loadEnvField(OpBuilder &b, Location loc, Value env, EnvField field) {
  MLIRContext *ctx = b.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  auto envType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(8, ptr));
  Value address = LLVM::GEPOp::create(
      b, loc, ptr, envType, env,
      ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(field)});
  return LLVM::LoadOp::create(b, loc, ptr, address);
}

} // namespace mlir::tc::gpu
