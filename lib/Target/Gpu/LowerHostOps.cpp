//===- LowerHostOps.cpp - --tc-gpu-lower-host-ops -------------------------===//
//
// tc_gpu.launch, tc_gpu.device_constant, tc_gpu.download and
// tc_gpu.upload become calls of the runtime's environment (tc_gpu_env_v2,
// include/tc-runtime/module_abi.h), by conversion patterns that run with the
// host code's LLVM lowering: after the memref and func conversions, the ops'
// memrefs are descriptors behind casts, which the patterns' adaptors hand over.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"
#include "tc/Target/Host/ModuleAbi.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPULOWERHOSTOPSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// env->launch(runtime, kernel, dims, params, count): the arguments, memrefs
/// expanded (allocated, aligned, offset, sizes, strides), stored in one
/// stack struct; a stack array of pointers to its fields (the kernel
/// parameter convention of cuLaunchKernel and hipModuleLaunchKernel); the
/// grid and block extents as six i32.
struct LaunchLowering : ConvertOpToLLVMPattern<tc_gpu::LaunchOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tc_gpu::LaunchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    auto caller = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!caller)
      return rewriter.notifyMatchFailure(op, "expects an llvm.func parent");
    SmallVector<Value, 4> params = getTypeConverter()->promoteOperands(
        loc, op.getArgs(), adaptor.getArgs(), rewriter);
    host::Emitter e = host::Emitter::at(rewriter, loc);
    Type ptr = e.ptr, i32 = e.i32;
    SmallVector<Type> paramTypes;
    for (Value param : params)
      paramTypes.push_back(param.getType());
    auto packed = LLVM::LLVMStructType::getLiteral(ctx, paramTypes);
    auto dimsType = LLVM::LLVMArrayType::get(i32, 6);
    auto pointersType =
        LLVM::LLVMArrayType::get(ptr, std::max<size_t>(1, params.size()));
    Value values, pointers, dims;
    {
      // Stack slots at function entry, so loops do not grow the stack.
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&caller.getBody().front());
      values =
          LLVM::AllocaOp::create(rewriter, loc, ptr, packed, e.constI64(1));
      pointers = LLVM::AllocaOp::create(rewriter, loc, ptr, pointersType,
                                        e.constI64(1));
      dims =
          LLVM::AllocaOp::create(rewriter, loc, ptr, dimsType, e.constI64(1));
    }
    for (auto [i, param] : llvm::enumerate(params)) {
      Value field = LLVM::GEPOp::create(
          rewriter, loc, ptr, packed, values,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(rewriter, loc, param, field);
      LLVM::StoreOp::create(rewriter, loc, field, e.element(ptr, pointers, i));
    }
    Value extents[] = {adaptor.getGridX(),  adaptor.getGridY(),
                       adaptor.getGridZ(),  adaptor.getBlockX(),
                       adaptor.getBlockY(), adaptor.getBlockZ()};
    for (auto [d, extent] : llvm::enumerate(extents)) {
      if (extent.getType() != i32)
        extent = LLVM::TruncOp::create(rewriter, loc, i32, extent);
      LLVM::StoreOp::create(rewriter, loc, extent, e.element(i32, dims, d));
    }
    Value env = adaptor.getEnv();
    auto launchType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                                  {ptr, i32, ptr, ptr, i32});
    Value count = LLVM::ConstantOp::create(
        rewriter, loc, i32,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(params.size())));
    Value kernel =
        LLVM::ConstantOp::create(rewriter, loc, i32, op.getKernelAttr());
    Value launch = loadEnvField(rewriter, loc, env, EnvField::Launch);
    Value runtime = loadEnvField(rewriter, loc, env, EnvField::Runtime);
    LLVM::CallOp::create(
        rewriter, loc, launchType,
        ValueRange{launch, runtime, kernel, dims, pointers, count});
    rewriter.eraseOp(op);
    return success();
  }
};

/// env->choices[site], widened to an index: which alternative of a tunable
/// kernel the host code runs (-1 the heuristic kernel).
struct TunedChoiceLowering : ConvertOpToLLVMPattern<tc_gpu::TunedChoiceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tc_gpu::TunedChoiceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!adaptor.getEnv() || !op.getSite())
      return rewriter.notifyMatchFailure(
          op, "expects a site and the environment (--tc-gpu-prepare-host)");
    Location loc = op.getLoc();
    host::Emitter e = host::Emitter::at(rewriter, loc);
    Value choices =
        loadEnvField(rewriter, loc, adaptor.getEnv(), EnvField::Choices);
    Value address = LLVM::GEPOp::create(
        rewriter, loc, e.ptr, e.i32, choices,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(*op.getSite())});
    Value choice = e.load(e.i32, address);
    Type index = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, LLVM::SExtOp::create(rewriter, loc, index, choice));
    return success();
  }
};

/// The descriptor of env->constant(runtime, index, aligned host pointer,
/// bytes): the device copy, with the host descriptor's offset, sizes and
/// strides.
struct DeviceConstantLowering
    : ConvertOpToLLVMPattern<tc_gpu::DeviceConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tc_gpu::DeviceConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptr = LLVM::LLVMPointerType::get(op.getContext());
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    MemRefDescriptor host(adaptor.getHost());
    Value env = adaptor.getEnv();
    auto type = LLVM::LLVMFunctionType::get(ptr, {ptr, i32, ptr, i64});
    Value index =
        LLVM::ConstantOp::create(rewriter, loc, i32, op.getIndexAttr());
    Value function = loadEnvField(rewriter, loc, env, EnvField::Constant);
    Value runtime = loadEnvField(rewriter, loc, env, EnvField::Runtime);
    Value device =
        LLVM::CallOp::create(rewriter, loc, type,
                             ValueRange{function, runtime, index,
                                        host.alignedPtr(rewriter, loc),
                                        adaptor.getBytes()})
            .getResult();
    Value descriptor = host;
    descriptor = LLVM::InsertValueOp::create(rewriter, loc, descriptor, device,
                                             ArrayRef<int64_t>{0});
    descriptor = LLVM::InsertValueOp::create(rewriter, loc, descriptor, device,
                                             ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, descriptor);
    return success();
  }
};

/// env->download(runtime, cell, element, bytes) or env->upload(runtime,
/// element, cell, bytes), the environment being @main's first argument.
template <typename CopyOp>
struct CopyLowering : ConvertOpToLLVMPattern<CopyOp> {
  using ConvertOpToLLVMPattern<CopyOp>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename CopyOp::Adaptor;
  static constexpr bool kDownload = std::is_same_v<CopyOp, tc_gpu::DownloadOp>;

  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto main = op->template getParentOfType<LLVM::LLVMFuncOp>();
    if (!main || main.getName() != "main" || main.getNumArguments() == 0)
      return op.emitError("host-value copies outside @main are not supported");
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i64 = rewriter.getI64Type();
    Value bytes = adaptor.getBytes();
    // An element's address: the aligned pointer plus offset x bytes.
    auto address = [&](Value descriptor) -> Value {
      MemRefDescriptor memref(descriptor);
      Value offset = LLVM::MulOp::create(rewriter, loc,
                                         memref.offset(rewriter, loc), bytes);
      return LLVM::GEPOp::create(rewriter, loc, ptr, rewriter.getI8Type(),
                                 memref.alignedPtr(rewriter, loc),
                                 ValueRange{offset});
    };
    Value destination =
        address(kDownload ? adaptor.getCell() : adaptor.getElement());
    Value source =
        address(kDownload ? adaptor.getElement() : adaptor.getCell());
    Value env = main.getArgument(0);
    Value copy = loadEnvField(
        rewriter, loc, env, kDownload ? EnvField::Download : EnvField::Upload);
    Value runtime = loadEnvField(rewriter, loc, env, EnvField::Runtime);
    auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                            {ptr, ptr, ptr, i64});
    LLVM::CallOp::create(rewriter, loc, type,
                         ValueRange{copy, runtime, destination, source, bytes});
    rewriter.eraseOp(op);
    return success();
  }
};

struct GpuLowerHostOpsPass
    : impl::GpuLowerHostOpsPassBase<GpuLowerHostOpsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    patterns
        .add<LaunchLowering, DeviceConstantLowering, TunedChoiceLowering,
             CopyLowering<tc_gpu::DownloadOp>, CopyLowering<tc_gpu::UploadOp>>(
            converter);
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addIllegalOp<tc_gpu::LaunchOp, tc_gpu::DeviceConstantOp,
                        tc_gpu::TunedChoiceOp, tc_gpu::DownloadOp,
                        tc_gpu::UploadOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
