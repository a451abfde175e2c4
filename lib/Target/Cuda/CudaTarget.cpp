//===- CudaTarget.cpp - NVIDIA GPUs through NVVM --------------------------===//
//
// Kernels become PTX through LLVM's NVPTX back end (libdevice linked for the
// math functions) and a cubin through the CUDA toolkit's ptxas. Without a
// toolkit only the PTX is produced, which the driver can still load, but
// which nothing has checked before it reaches a GPU.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Utils/BackendUtils.h"
#include "tc/Target/Gpu/GpuTarget.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace mlir::tc::gpu {
namespace {

/// The CUDA toolkit: $TC_CUDA_PATH, $CUDA_HOME or /usr/local/cuda, when it
/// has ptxas.
std::string findCudaToolkit() {
  for (const char *variable : {"TC_CUDA_PATH", "CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(variable))
      return *value;
  return "/usr/local/cuda";
}

class CudaBackend : public GpuBackend {
public:
  StringRef prefix() const override { return "cuda"; }

  ArrayRef<StringRef> chips() const override {
    static const StringRef chips[] = {"sm_80", "sm_86", "sm_89", "sm_90",
                                      "sm_100"};
    return chips;
  }

  void addAttachTarget(OpPassManager &pm, StringRef chip) const override {
    GpuNVVMAttachTargetOptions options;
    options.chip = chip.str();
    options.optLevel = 3;
    // PTX ISA 8.1 (CUDA 12.1 drivers) at least: from it on, kernels on
    // sm_70+ take up to 32 KB of parameters instead of 4 KB, which a
    // kernel with many buffers (each a descriptor of 3 + 2 x rank words)
    // can exceed. Newer chips get the lowest version they need from LLVM.
    if (chip == "sm_80" || chip == "sm_86" || chip == "sm_89" ||
        chip == "sm_90")
      options.features = "+ptx81";
    pm.addPass(createGpuNVVMAttachTarget(options));
  }

  void addDeviceLowering(OpPassManager &pm, StringRef) const override {
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  }

  LogicalResult serialize(Operation *gpuModule, GpuImage &image,
                          std::string &error) const override {
    auto module = cast<mlir::gpu::GPUModuleOp>(gpuModule);
    mlir::gpu::TargetAttrInterface target = singleTarget(module, "NVVM", error);
    if (!target)
      return failure();
    std::string toolkit = findCudaToolkit();
    llvm::SmallString<256> ptxas(toolkit);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    bool assemble = llvm::sys::fs::can_execute(ptxas);
    std::string assembly;
    // TargetOptions keeps function_refs: the callables must outlive it (a
    // temporary lambda was gone by the time serialization called it,
    // AddressSanitizer: stack-use-after-scope).
    auto symbols = [&]() -> SymbolTable * { return nullptr; };
    auto keepAssembly = [&](StringRef isa) { assembly = isa.str(); };
    mlir::gpu::TargetOptions options(
        toolkit, {}, "", "",
        assemble ? mlir::gpu::CompilationTarget::Binary
                 : mlir::gpu::CompilationTarget::Assembly,
        symbols, {}, {}, {}, keepAssembly);
    std::optional<SmallVector<char, 0>> object =
        target.serializeToObject(module, options);
    if (!object) {
      error = "serializing the kernels for cuda:" + image.target.chip +
              " failed (see the diagnostics above)";
      return failure();
    }
    image.binary.assign(object->begin(), object->end());
    if (assemble) {
      image.format = "cubin";
      image.assembly = std::move(assembly);
    } else {
      image.format = "ptx";
      image.assembly = image.binary;
    }
    return success();
  }

  LogicalResult validate(const GpuImage &image,
                         std::string &error) const override {
    if (image.format != "cubin") {
      error = "no cubin to check: ptxas was not found (set TC_CUDA_PATH to "
              "a CUDA toolkit)";
      return failure();
    }
    std::optional<ElfSummary> elf = readElf(image.binary, "cubin", error);
    if (!elf)
      return failure();
    if (elf->machine != llvm::ELF::EM_CUDA) {
      error = "the cubin's ELF machine is not EM_CUDA";
      return failure();
    }
    for (const std::string &kernel : image.kernels)
      if (!elf->symbols.contains(kernel)) {
        error = "the cubin does not define kernel '" + kernel + "'";
        return failure();
      }
    return success();
  }
};

} // namespace

const GpuBackend &getCudaBackend() {
  static const CudaBackend backend;
  return backend;
}

} // namespace mlir::tc::gpu
