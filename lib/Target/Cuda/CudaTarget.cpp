//===- CudaTarget.cpp - NVIDIA GPUs through NVVM --------------------------===//
//
// Kernels become PTX through LLVM's NVPTX back end (libdevice linked for the
// math functions) and a cubin through the CUDA toolkit's ptxas. Without a
// toolkit only the PTX is produced, which the driver can still load, but
// which nothing has checked before it reaches a GPU.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cuda/CudaTarget.h"
#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/GpuTarget.h"
#include "tc/Target/Gpu/Utils/BackendUtils.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
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

  StringRef assemblySuffix() const override { return ".ptx"; }

  ArrayRef<StringRef> chips() const override {
    static const StringRef chips[] = {"sm_80", "sm_86", "sm_89", "sm_90",
                                      "sm_100"};
    return chips;
  }

  /// 32-lane warps; 48 KB of static shared memory per block (more needs
  /// an opt-in attribute at launch); cp.async (sm_80 and later: every
  /// chip here).
  GpuTargetInfo targetInfo(StringRef) const override {
    return {/*subgroupSize=*/32, /*sharedMemoryBytes=*/48 * 1024,
            /*maxThreadsPerBlock=*/1024, /*asyncCopies=*/true};
  }

  /// cp.async through nvgpu.device_async_copy (its source size 0 where the
  /// copy is not valid: zeros, nothing read; .cg, past L1, for 16 bytes),
  /// and its groups as cp.async.commit_group and cp.async.wait_group.
  LogicalResult lowerAsyncCopy(RewriterBase &rewriter, Operation *op,
                               StringRef) const override {
    Location loc = op->getLoc();
    if (auto copy = dyn_cast<tc_gpu::AsyncCopyOp>(op)) {
      auto element =
          cast<MemRefType>(copy.getSource().getType()).getElementType();
      int64_t bytes = copy.getElements() * element.getIntOrFloatBitWidth() / 8;
      Value all =
          arith::ConstantIndexOp::create(rewriter, loc, copy.getElements());
      Value none = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value count =
          arith::SelectOp::create(rewriter, loc, copy.getValid(), all, none);
      nvgpu::DeviceAsyncCopyOp::create(
          rewriter, loc,
          nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
          copy.getDest(), copy.getDestIndices(), copy.getSource(),
          copy.getSourceIndices(), rewriter.getIndexAttr(copy.getElements()),
          count, bytes == 16 ? rewriter.getUnitAttr() : UnitAttr());
    } else if (isa<tc_gpu::AsyncCommitOp>(op)) {
      NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
    } else {
      NVVM::CpAsyncWaitGroupOp::create(
          rewriter, loc, cast<tc_gpu::AsyncWaitOp>(op).getPending());
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// mma.sync (sm_80 and later) with f32 accumulation; PTX's fragment
  /// layouts, with g = lane / 4 (the lane's group) and t = lane % 4 (its
  /// place in the group). C's element i is at row g (+8 for elements 2 and
  /// 3), column 2t + i % 2, for both shapes.
  /// - m16n8k16, f16 or bf16: A's element i at row g (+8 for registers 1
  ///   and 3), columns 2t + i % 2 (+8 for registers 2 and 3); B's at rows
  ///   2t + i % 2 (+8 for its second register), column g.
  /// - m16n8k8, TF32 (f32 operands that hold TF32 values, one per
  ///   register): A's element i at row g (+8 for elements 1 and 3), column
  ///   t (+4 for elements 2 and 3); B's at row t (+4 for element 1), column
  ///   g.
  std::optional<MatrixInstruction>
  matrixInstruction(MLIRContext *ctx, StringRef, Type element) const override {
    if (!element.isF16() && !element.isBF16() && !element.isF32())
      return std::nullopt;
    AffineExpr lane = getAffineDimExpr(0, ctx), i = getAffineDimExpr(1, ctx);
    AffineExpr g = lane.floorDiv(4), t = lane % 4;
    auto map = [&](AffineExpr row, AffineExpr column) {
      return AffineMap::get(2, 0, {row, column}, ctx);
    };
    MatrixInstruction mma;
    mma.m = 16;
    mma.n = 8;
    mma.subgroupSize = 32;
    mma.cLayout = map(g + i.floorDiv(2) * 8, t * 2 + i % 2);
    if (element.isF32()) {
      mma.k = 8;
      mma.aLayout = map(g + (i % 2) * 8, t + i.floorDiv(2) * 4);
      mma.bLayout = map(t + i * 4, g);
      return mma;
    }
    mma.k = 16;
    mma.aLayout = map(g + (i.floorDiv(2) % 2) * 8, t * 2 + i % 2 + i.floorDiv(4) * 8);
    mma.bLayout = map(t * 2 + i % 2 + i.floorDiv(2) * 8, g);
    // ldmatrix gives each lane pairs along K, with .trans from K-major
    // tiles: A's fragment is four 8 x 8 matrices, B's two.
    mma.matrixLoads = true;
    return mma;
  }

  /// ldmatrix, with .trans for `transpose` (sm_75 and later): lane l gives the
  /// address of row l % 8 of matrix (l / 8) % n (with fewer than four matrices
  /// the instruction ignores the later lanes' addresses, which repeat the first
  /// ones'), and receives a 32-bit pair from each matrix.
  LogicalResult lowerSubgroupLoadMatrices(RewriterBase &rewriter,
                                          tc_gpu::SubgroupLoadMatricesOp op,
                                          StringRef) const override {
    Location loc = op.getLoc();
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto add = [&](Value a, Value b) -> Value {
      return arith::AddIOp::create(rewriter, loc, a, b);
    };
    int64_t n = op.getNumMatrices();
    Value lane = arith::RemUIOp::create(
        rewriter, loc, linearThreadId(rewriter, loc).first, index(32));
    Value matrix = arith::RemUIOp::create(
        rewriter, loc, arith::DivUIOp::create(rewriter, loc, lane, index(8)),
        index(n));
    ArrayRef<int64_t> offsets = op.getOffsets();
    Value rowOffset = index(offsets[0]), columnOffset = index(offsets[1]);
    for (int64_t i = 1; i < n; ++i) {
      Value is = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       matrix, index(i));
      rowOffset = arith::SelectOp::create(rewriter, loc, is,
                                          index(offsets[2 * i]), rowOffset);
      columnOffset = arith::SelectOp::create(
          rewriter, loc, is, index(offsets[2 * i + 1]), columnOffset);
    }
    Value rowInMatrix = arith::RemUIOp::create(rewriter, loc, lane, index(8));
    Value row = add(op.getRow(), add(rowOffset, rowInMatrix));
    Value column = add(op.getColumn(), columnOffset);
    VectorType result = op.getResult().getType();
    auto pairs = VectorType::get({n, 2}, result.getElementType());
    Value loaded = nvgpu::LdMatrixOp::create(rewriter, loc, pairs, op.getTile(),
                                             ValueRange{row, column},
                                             op.getTranspose(), n);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, result, loaded);
    return success();
  }

  /// nvvm.mma.sync reads A and B in 32-bit registers (f16 pairs as
  /// vector<2xf16>, bf16 pairs as i32, a TF32 value as the i32 of its f32
  /// bits) and returns D as a struct of four f32.
  LogicalResult lowerSubgroupMma(RewriterBase &rewriter, tc_gpu::SubgroupMmaOp op,
                                 StringRef) const override {
    Location loc = op.getLoc();
    Type element = op.getA().getType().getElementType();
    bool bf16 = element.isBF16(), tf32 = element.isF32();
    Type i32 = rewriter.getI32Type();
    auto registers = [&](Value fragment) {
      SmallVector<Value> values;
      int64_t count = cast<VectorType>(fragment.getType()).getNumElements();
      if (tf32) {
        for (int64_t r = 0; r < count; ++r)
          values.push_back(arith::BitcastOp::create(
              rewriter, loc, i32,
              vector::ExtractOp::create(rewriter, loc, fragment, r)));
        return values;
      }
      for (int64_t r = 0; r < count / 2; ++r) {
        Value pair = vector::ExtractStridedSliceOp::create(
            rewriter, loc, fragment, ArrayRef<int64_t>{2 * r}, ArrayRef<int64_t>{2},
            ArrayRef<int64_t>{1});
        if (bf16) {
          Value word = vector::BitCastOp::create(
              rewriter, loc, VectorType::get({1}, i32), pair);
          pair = vector::ExtractOp::create(rewriter, loc, word, 0);
        }
        values.push_back(pair);
      }
      return values;
    };
    SmallVector<Value> c;
    for (int64_t e = 0; e < 4; ++e)
      c.push_back(vector::ExtractOp::create(rewriter, loc, op.getC(), e));
    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                       {f32, f32, f32, f32});
    NVVM::MMATypes type = tf32   ? NVVM::MMATypes::tf32
                          : bf16 ? NVVM::MMATypes::bf16
                                 : NVVM::MMATypes::f16;
    Value d = NVVM::MmaOp::create(
        rewriter, loc, resultType, registers(op.getA()), registers(op.getB()), c,
        ArrayRef<int64_t>{16, 8, tf32 ? 8 : 16}, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{type, type},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
    SmallVector<Value> results;
    for (int64_t e = 0; e < 4; ++e)
      results.push_back(LLVM::ExtractValueOp::create(rewriter, loc, d, e));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, op.getC().getType(), results);
    return success();
  }

  /// `.minnctapersm`: without it ptxas may keep fewer registers than a
  /// kernel needs and spill a few bytes, for more blocks per
  /// multiprocessor than the kernel was designed for.
  void applyMinBlocksHint(Operation *kernel, int64_t blocks) const override {
    Builder b(kernel->getContext());
    kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    b.getI32IntegerAttr(blocks));
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
    // nvgpu.ldmatrix (tc_gpu.subgroup_load_matrices's lowering) first.
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
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

void registerCudaBackend() {
  static const CudaBackend backend;
  registerGpuBackend(backend);
}

} // namespace mlir::tc::gpu
