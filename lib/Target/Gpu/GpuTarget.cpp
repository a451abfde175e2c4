//===- GpuTarget.cpp - target names and per-target kernel compilation -----===//

#include "tc/Target/Gpu/GpuTarget.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tc::gpu {

LogicalResult GpuBackend::lowerSubgroupLoadMatrices(
    RewriterBase &, tc_gpu::SubgroupLoadMatricesOp op, StringRef chip) const {
  return op.emitOpError("has no lowering for ") << prefix() << ":" << chip;
}

LogicalResult GpuBackend::lowerAsyncCopy(RewriterBase &rewriter, Operation *op,
                                         StringRef) const {
  lowerAsyncCopyInPlace(rewriter, op);
  return success();
}

void lowerAsyncCopyInPlace(RewriterBase &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  if (auto copy = dyn_cast<tc_gpu::AsyncCopyOp>(op)) {
    Location loc = copy.getLoc();
    auto source = cast<MemRefType>(copy.getSource().getType());
    auto type = VectorType::get({static_cast<int64_t>(copy.getElements())},
                                source.getElementType());
    Value value =
        KernelBuilder{rewriter, loc}.orZero(type, copy.getValid(), [&] {
          return vector::LoadOp::create(rewriter, loc, type, copy.getSource(),
                                        copy.getSourceIndices())
              .getResult();
        });
    vector::StoreOp::create(rewriter, loc, value, copy.getDest(),
                            copy.getDestIndices());
  }
  rewriter.eraseOp(op);
}

bool copyAsynchronously(StringRef targets) {
  SmallVector<StringRef> specs;
  targets.split(specs, ',', -1, /*KeepEmpty=*/false);
  if (specs.empty())
    return false;
  return llvm::all_of(specs, [](StringRef spec) {
    std::string error;
    FailureOr<GpuTarget> target = parseGpuTarget(spec.trim(), error);
    return succeeded(target) &&
           target->backend->targetInfo(target->chip).asyncCopies;
  });
}

std::string GpuTarget::name() const {
  return (backend->prefix() + ":" + chip).str();
}

namespace {
SmallVector<const GpuBackend *> &backends() {
  static SmallVector<const GpuBackend *> registered;
  return registered;
}
} // namespace

void registerGpuBackend(const GpuBackend &backend) {
  if (llvm::none_of(backends(), [&](const GpuBackend *b) {
        return b->prefix() == backend.prefix();
      }))
    backends().push_back(&backend);
}

ArrayRef<const GpuBackend *> registeredGpuBackends() { return backends(); }

std::string supportedGpuTargets() {
  std::string list;
  for (const GpuBackend *backend : backends())
    for (StringRef chip : backend->chips()) {
      if (!list.empty())
        list += ", ";
      list += (backend->prefix() + ":" + chip).str();
    }
  return list;
}

FailureOr<GpuTarget> parseGpuTarget(StringRef spec, std::string &error) {
  auto [prefix, chip] = spec.split(':');
  for (const GpuBackend *backend : backends()) {
    if (prefix != backend->prefix())
      continue;
    if (llvm::is_contained(backend->chips(), chip))
      return GpuTarget{backend, chip.str()};
    error = "unsupported " + prefix.str() + " architecture '" + chip.str() +
            "'; supported targets: cpu, " + supportedGpuTargets();
    return failure();
  }
  error = "unknown target '" + spec.str() +
          "'; supported targets: cpu, " + supportedGpuTargets();
  return failure();
}

LogicalResult TargetInstructions::init(MLIRContext *context, StringRef target,
                                       std::string &error) {
  ctx = context;
  if (target.empty())
    return success();
  FailureOr<GpuTarget> parsed = parseGpuTarget(target, error);
  if (failed(parsed))
    return failure();
  gpu = *parsed;
  return success();
}

const MatrixInstruction *TargetInstructions::operator()(Type element) {
  if (!gpu)
    return nullptr;
  auto [it, inserted] = cache.try_emplace(element);
  if (inserted)
    it->second = gpu->backend->matrixInstruction(ctx, gpu->chip, element);
  return it->second ? &*it->second : nullptr;
}

FailureOr<GpuImage> compileKernels(ModuleOp module, const GpuTarget &target,
                                   std::string &error,
                                   const KernelCompileOptions &options) {
  const GpuBackend &backend = *target.backend;
  OwningOpRef<ModuleOp> clone(module.clone());
  PassManager pm(module.getContext());
  backend.addAttachTarget(pm, target.chip);
  OpPassManager &prepare = pm.nest<mlir::gpu::GPUModuleOp>();
  // Block matrix products as this target's matrix instructions (or scalar
  // code), then those as the vendor's intrinsics.
  GpuExpandBlockMmaPassOptions expand;
  expand.target = target.name();
  prepare.addPass(createGpuExpandBlockMmaPass(expand));
  GpuLowerSubgroupMmaPassOptions lower;
  lower.target = target.name();
  prepare.addPass(createGpuLowerSubgroupMmaPass(lower));
  prepare.addPass(createGpuAlignWorkgroupMemoryPass());
  if (options.fpContract)
    prepare.addPass(createGpuContractFloatOpsPass());
  prepare.addPass(cpu::createExpandDynamicReshapesPass());
  prepare.addPass(memref::createExpandStridedMetadataPass());
  prepare.addPass(createLowerAffinePass());
  prepare.addPass(createSCFToControlFlowPass());
  prepare.addPass(arith::createArithExpandOpsPass());
  // The vectorized elementwise kernels' loads, stores and broadcasts
  // (ElementwiseKernel.h), with the alignment they carry; before the
  // vendor's conversion, which lowers the arith ops this leaves (lane
  // constants of vector.step).
  prepare.addPass(createConvertVectorToLLVMPass());
  backend.addDeviceLowering(pm, target.chip);
  OpPassManager &finish = pm.nest<mlir::gpu::GPUModuleOp>();
  // What the vendor's conversion leaves of math (trunc, ...) has LLVM
  // intrinsics on every GPU.
  finish.addPass(createConvertMathToLLVMPass());
  finish.addPass(createCanonicalizerPass());
  finish.addPass(createCSEPass());
  finish.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(*clone))) {
    error = "lowering the kernels for " + target.name() +
            " failed (see the diagnostics above)";
    return failure();
  }
  GpuImage image;
  image.target = target;
  auto modules = clone->getOps<mlir::gpu::GPUModuleOp>();
  if (modules.empty())
    return image; // Nothing to launch: every op folded away.
  if (std::next(modules.begin()) != modules.end()) {
    error = "expected one kernel module (run --tc-gpu-merge-kernel-modules)";
    return failure();
  }
  mlir::gpu::GPUModuleOp kernels = *modules.begin();
  for (Operation &op : kernels.getBodyRegion().front())
    if (auto symbol = dyn_cast<SymbolOpInterface>(op);
        symbol && !symbol.isDeclaration() &&
        (op.hasAttr(mlir::gpu::GPUDialect::getKernelFuncAttrName()) ||
         op.hasAttr("nvvm.kernel") || op.hasAttr("rocdl.kernel")))
      image.kernels.push_back(symbol.getName().str());
  if (failed(backend.serialize(kernels, image, error)) ||
      failed(backend.validate(image, error)))
    return failure();
  return image;
}

} // namespace mlir::tc::gpu
