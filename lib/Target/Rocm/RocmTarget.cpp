//===- RocmTarget.cpp - AMD GPUs through ROCDL ----------------------------===//
//
// Kernels become an HSA code object (HSACO, code object v5, the version
// Debian's HIP runtime loads) through LLVM's AMDGPU back end and ld.lld,
// with ROCm's device libraries (ocml, ockl bitcode) linked for the math
// functions. MLIR's serializer expects a ROCm installation tree
// (<root>/amdgcn/bitcode, <root>/llvm/bin/ld.lld); Debian installs the
// pieces elsewhere, so without a ROCm tree tc assembles one from symbolic
// links in a private directory.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Rocm/RocmTarget.h"
#include "tc/Target/Gpu/GpuTarget.h"
#include "tc/Target/Gpu/Utils/BackendUtils.h"
#include "tc/Target/Host/SharedLibrary.h"

#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <unistd.h>

namespace mlir::tc::gpu {
namespace {

bool hasDeviceLibs(StringRef root) {
  llvm::SmallString<256> ocml(root);
  llvm::sys::path::append(ocml, "amdgcn", "bitcode", "ocml.bc");
  return llvm::sys::fs::exists(ocml);
}

/// A ROCm tree for MLIR's serializer: $TC_ROCM_PATH or $ROCM_PATH, /opt/rocm
/// when it has the device libraries, else a directory of links to lld-22
/// and Debian's rocm-device-libs. "" when the device libraries are missing.
std::string findRocmTree(std::string &error) {
  for (const char *variable : {"TC_ROCM_PATH", "ROCM_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(variable))
      return *value;
  if (hasDeviceLibs("/opt/rocm"))
    return "/opt/rocm";
  std::string bitcode;
  for (const char *candidate : {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                                "/usr/lib/amdgcn/bitcode",
                                "/usr/share/amdgcn/bitcode"})
    if (llvm::sys::fs::exists(llvm::Twine(candidate) + "/ocml.bc")) {
      bitcode = candidate;
      break;
    }
  std::string lld = host::findLinker();
  if (bitcode.empty() || lld.empty()) {
    error = bitcode.empty() ? "ROCm device libraries (ocml.bc) not found: "
                              "install Debian's rocm-device-libs or set "
                              "TC_ROCM_PATH to a ROCm installation"
                            : "ld.lld (lld-22) not found";
    return "";
  }
  llvm::SmallString<256> root;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, root);
  llvm::sys::path::append(root, "tc-rocm-" + std::to_string(::getuid()));
  llvm::SmallString<256> bin(root), amdgcn(root);
  llvm::sys::path::append(bin, "llvm", "bin");
  llvm::sys::path::append(amdgcn, "amdgcn");
  if (llvm::sys::fs::create_directories(bin) ||
      llvm::sys::fs::create_directories(amdgcn)) {
    error = "cannot create the ROCm tree " + root.str().str();
    return "";
  }
  // Concurrent compilations share the tree: a correct link is left alone,
  // a missing or stale one is made under a unique name and renamed into
  // place (atomic), so no compilation ever sees it missing.
  auto link = [&](StringRef to, StringRef from) {
    llvm::SmallString<256> current, wanted;
    if (!llvm::sys::fs::real_path(from, current) &&
        !llvm::sys::fs::real_path(to, wanted) && current == wanted)
      return true;
    llvm::SmallString<256> fresh;
    llvm::sys::fs::createUniquePath(from + ".%%%%%%", fresh, false);
    if (llvm::sys::fs::create_link(to, fresh))
      return false;
    return !llvm::sys::fs::rename(fresh, from);
  };
  if (!link(lld, (bin + "/ld.lld").str()) ||
      !link(bitcode, (amdgcn + "/bitcode").str())) {
    error = "cannot link the ROCm tree in " + root.str().str();
    return "";
  }
  return root.str().str();
}

/// EF_AMDGPU_MACH of each chip tc targets.
std::optional<unsigned> machineFlag(StringRef chip) {
  return llvm::StringSwitch<std::optional<unsigned>>(chip)
      .Case("gfx90a", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX90A)
      .Case("gfx942", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942)
      .Case("gfx1100", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1100)
      .Default(std::nullopt);
}

class RocmBackend : public GpuBackend {
public:
  StringRef prefix() const override { return "rocm"; }

  StringRef assemblySuffix() const override { return ".s"; }

  ArrayRef<StringRef> chips() const override {
    static const StringRef chips[] = {"gfx90a", "gfx942", "gfx1100"};
    return chips;
  }

  /// 64-lane waves on CDNA, 32-lane on RDNA; 64 KB of LDS per block.
  GpuTargetInfo targetInfo(StringRef chip) const override {
    return {/*subgroupSize=*/chip.starts_with("gfx11") ? 32 : 64,
            /*sharedMemoryBytes=*/64 * 1024, /*maxThreadsPerBlock=*/1024};
  }

  /// The matrix instruction of each chip for f16 and bf16 operands with
  /// f32 accumulation, and on CDNA 3 for TF32 values held in f32.
  /// - CDNA (gfx90a, gfx942): MFMA 16x16x16 (v_mfma_f32_16x16x16f16 and
  ///   _bf16_1k) over a 64-lane wave. Lane l holds A's row l % 16 at
  ///   columns 4 (l / 16) + i, B's column l % 16 at rows 4 (l / 16) + i,
  ///   and C's column l % 16 at rows 4 (l / 16) + i.
  /// - CDNA 3 (gfx942), f32 factors: MFMA 16x16x8 on XF32 (the f32 inputs
  ///   read with TF32's precision, v_mfma_f32_16x16x8_xf32). Each lane
  ///   holds two elements of A and of B: columns (rows of B)
  ///   2 (l / 16) + i; C as above.
  /// - RDNA 3 (gfx1100): WMMA (v_wmma_f32_16x16x16_f16 and _bf16) over a
  ///   32-lane wave. Both half-waves hold all of A and B: lane l holds A's
  ///   row l % 16 and B's column l % 16, all 16 of k, so each element has two
  ///   copies; C is not copied: lane l holds column l % 16 at rows
  ///   2 i + l / 16 (AMD's "How to accelerate AI applications on RDNA 3
  ///   using WMMA" and rocWMMA give these layouts).
  std::optional<MatrixInstruction>
  matrixInstruction(MLIRContext *ctx, StringRef chip, Type element) const override {
    bool cdna = chip.starts_with("gfx9"), rdna3 = chip.starts_with("gfx11");
    bool xf32 = element.isF32() && chip == "gfx942";
    if ((!cdna && !rdna3) || !(element.isF16() || element.isBF16() || xf32))
      return std::nullopt;
    AffineExpr lane = getAffineDimExpr(0, ctx), i = getAffineDimExpr(1, ctx);
    auto map = [&](AffineExpr row, AffineExpr column) {
      return AffineMap::get(2, 0, {row, column}, ctx);
    };
    MatrixInstruction mma;
    mma.m = mma.n = mma.k = 16;
    AffineExpr position = lane % 16;
    if (cdna) {
      // A lane's k elements: a quarter of k, by its group of 16 lanes.
      mma.k = xf32 ? 8 : 16;
      AffineExpr quarter = lane.floorDiv(16) * (mma.k / 4) + i;
      mma.subgroupSize = 64;
      mma.aLayout = map(position, quarter);
      mma.bLayout = map(quarter, position);
      mma.cLayout = map(lane.floorDiv(16) * 4 + i, position);
      return mma;
    }
    mma.subgroupSize = 32;
    mma.aCopies = mma.bCopies = 2;
    mma.aLayout = map(position, i);
    mma.bLayout = map(i, position);
    mma.cLayout = map(i * 2 + lane.floorDiv(16), position);
    return mma;
  }

  /// amdgpu.mfma (CDNA) or amdgpu.wmma (RDNA), which
  /// --convert-amdgpu-to-rocdl turns into the chip's intrinsic.
  LogicalResult lowerSubgroupMma(RewriterBase &rewriter, tc_gpu::SubgroupMmaOp op,
                                 StringRef chip) const override {
    Type result = op.getC().getType();
    if (chip.starts_with("gfx11")) {
      rewriter.replaceOpWithNewOp<amdgpu::WMMAOp>(
          op, result, /*m=*/16u, /*n=*/16u, /*k=*/16u, op.getA(), op.getB(),
          op.getC());
      return success();
    }
    // f32 factors (gfx942's XF32): reduced precision selects the xf32
    // instruction. (Read before the replacement erases `op`.)
    bool xf32 = op.getA().getType().getElementType().isF32();
    auto mfma = rewriter.replaceOpWithNewOp<amdgpu::MFMAOp>(
        op, result, /*m=*/16u, /*n=*/16u,
        /*k=*/static_cast<uint32_t>(op.getShape()[2]), /*blocks=*/1u, op.getA(),
        op.getB(), op.getC());
    if (xf32)
      mfma.setReducePrecision(true);
    return success();
  }

  void addAttachTarget(OpPassManager &pm, StringRef chip) const override {
    GpuROCDLAttachTargetOptions options;
    options.chip = chip.str();
    options.optLevel = 3;
    // Code object v5: what Debian's HIP runtime loads (v6 needs ROCm 6.3).
    options.abiVersion = "500";
    // RDNA (gfx11) runs 32-wide waves; CDNA 64-wide.
    options.wave64Flag = !chip.starts_with("gfx11");
    pm.addPass(createGpuROCDLAttachTarget(options));
  }

  void addDeviceLowering(OpPassManager &pm, StringRef chip) const override {
    // Math functions the AMDGPU back end has no instruction for (tanh, erf,
    // ...) become calls into ocml, linked from the device libraries.
    ConvertMathToROCDLOptions math;
    math.chipset = chip.str();
    pm.addPass(createConvertMathToROCDL(math));
    ConvertGpuOpsToROCDLOpsOptions options;
    options.chipset = chip.str();
    options.runtime = mlir::gpu::amd::Runtime::HIP;
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(
        createConvertGpuOpsToROCDLOps(options));
    // Matrix-core operations (--tc-gpu-lower-subgroup-mma's amdgpu.mfma and
    // amdgpu.wmma).
    ConvertAMDGPUToROCDLPassOptions amdgpu;
    amdgpu.chipset = chip.str();
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(createConvertAMDGPUToROCDLPass(amdgpu));
  }

  LogicalResult serialize(Operation *gpuModule, GpuImage &image,
                          std::string &error) const override {
    auto module = cast<mlir::gpu::GPUModuleOp>(gpuModule);
    mlir::gpu::TargetAttrInterface target = singleTarget(module, "ROCDL", error);
    if (!target)
      return failure();
    std::string root = findRocmTree(error);
    if (root.empty())
      return failure();
    std::string assembly;
    auto symbols = [&]() -> SymbolTable * { return nullptr; };
    // TargetOptions keeps function_refs: the callables must outlive it.
    auto keepAssembly = [&](StringRef isa) { assembly = isa.str(); };
    mlir::gpu::TargetOptions options(
        root, {}, "", "", mlir::gpu::CompilationTarget::Binary, symbols, {},
        {}, {}, keepAssembly);
    std::optional<SmallVector<char, 0>> object =
        target.serializeToObject(module, options);
    if (!object) {
      error = "serializing the kernels for rocm:" + image.target.chip +
              " failed (see the diagnostics above)";
      return failure();
    }
    image.binary.assign(object->begin(), object->end());
    image.format = "hsaco";
    image.assembly = std::move(assembly);
    return success();
  }

  LogicalResult validate(const GpuImage &image,
                         std::string &error) const override {
    std::optional<ElfSummary> elf = readElf(image.binary, "HSACO", error);
    if (!elf)
      return failure();
    if (elf->machine != llvm::ELF::EM_AMDGPU ||
        elf->osAbi != llvm::ELF::ELFOSABI_AMDGPU_HSA) {
      error = "the HSACO is not an AMDGPU HSA code object";
      return failure();
    }
    if (elf->abiVersion != llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V5) {
      error = "the HSACO is not code object v5";
      return failure();
    }
    std::optional<unsigned> mach = machineFlag(image.target.chip);
    if (!mach || (elf->flags & llvm::ELF::EF_AMDGPU_MACH) != *mach) {
      error = "the HSACO was not built for " + image.target.chip;
      return failure();
    }
    // Kernel metadata: the amdhsa note the loader reads, and one kernel
    // descriptor (<name>.kd) per kernel.
    if (StringRef(image.binary).find("amdhsa.kernels") == StringRef::npos) {
      error = "the HSACO has no amdhsa.kernels metadata";
      return failure();
    }
    for (const std::string &kernel : image.kernels)
      if (!elf->symbols.contains(kernel + ".kd")) {
        error = "the HSACO has no kernel descriptor for '" + kernel + "'";
        return failure();
      }
    return success();
  }
};

} // namespace

void registerRocmBackend() {
  static const RocmBackend backend;
  registerGpuBackend(backend);
}

} // namespace mlir::tc::gpu
