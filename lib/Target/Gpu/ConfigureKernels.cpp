//===- ConfigureKernels.cpp - contraction tiles for a build's targets -----===//
//
// The kernels of a model are shared by every GPU target it is compiled for
// (one host code launches them), so their tiles are chosen from the
// targets' descriptions (GpuTargetInfo, MatrixInstruction) together, here,
// in one place, rather than by a rule inside the kernel builder.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "tc/Target/Cpu/KernelConfig.h"
#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/ElementwiseKernel.h"
#include "tc/Target/Gpu/GpuTarget.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUCONFIGUREKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"

namespace {

/// Shared memory of buildTiledContraction's block with `registerTile`
/// outputs per thread and side, at most: two pairs of A's and B's tiles,
/// each row padded by a vector, whether a tile keeps K along its rows
/// (T x (E + pad)) or its columns (E x (T + pad)). (The builder takes a
/// third set only where it fits kPortableSharedBytes, which every target
/// gives.)
int64_t sharedBytes(int64_t registerTile, int64_t factorBytes) {
  int64_t e = kMatmulTile * registerTile;
  int64_t pad = std::max<int64_t>(1, kVectorBytes / factorBytes);
  int64_t tile = std::max(kMatmulTile * (e + pad), e * (kMatmulTile + pad));
  return 2 * 2 * tile * factorBytes;
}

/// The bytes of one factor of `shape`: its matrix-core element's, else an
/// f32's.
int64_t factorBytes(const TiledContractionShape &shape) {
  return shape.matrixElement
             ? std::max<int64_t>(
                   1, shape.matrixElement.getIntOrFloatBitWidth() / 8)
             : 4;
}

/// Whether every target of `targets` gives a block of the tiled
/// contraction with `registerTile` its shared memory and its threads.
bool fitsEveryTarget(ArrayRef<GpuTarget> targets, int64_t registerTile,
                     int64_t factorBytes) {
  int64_t bytes = sharedBytes(registerTile, factorBytes);
  return llvm::all_of(targets, [&](const GpuTarget &target) {
    GpuTargetInfo info = target.backend->targetInfo(target.chip);
    return bytes <= info.sharedMemoryBytes &&
           kMatmulTile * kMatmulTile <= info.maxThreadsPerBlock;
  });
}

/// The alternatives buildTiledContraction can build `shape`'s kernel in on
/// every target of `targets`, at most `count`, largest tile first: each
/// register tile whose threads hold the accumulators the targets' matrix
/// instructions give a lane (`needed`) and whose shared memory fits every
/// target, with three stages and with two where every target copies
/// asynchronously (`async`), else with two.
SmallVector<Attribute> tileCandidates(MLIRContext *ctx,
                                      const TiledContractionShape &shape,
                                      ArrayRef<GpuTarget> targets,
                                      int64_t needed, bool async,
                                      int64_t count) {
  SmallVector<int64_t> registerTiles;
  if (shape.matrixElement)
    registerTiles.push_back(kMatmulLargeRegisterTile);
  registerTiles.append({kMatmulWideRegisterTile, kMatmulRegisterTile});
  SmallVector<Attribute> candidates;
  for (int64_t registerTile : registerTiles) {
    if (registerTile * registerTile < needed ||
        !fitsEveryTarget(targets, registerTile, factorBytes(shape)))
      continue;
    int64_t side = kMatmulTile * registerTile;
    SmallVector<int64_t, 2> stageCounts = {2};
    if (async)
      stageCounts = {3, 2};
    for (int64_t stages : stageCounts)
      if (int64_t(candidates.size()) < count)
        candidates.push_back(fusion::KernelConfigAttr::get(
            ctx, kTiledContractionStrategy, {side, side, kMatmulTile},
            /*workgroups=*/0, stages));
  }
  return candidates;
}

struct GpuConfigureKernelsPass
    : impl::GpuConfigureKernelsPassBase<GpuConfigureKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<StringRef> specs;
    StringRef(targets).split(specs, ',', -1, /*KeepEmpty=*/false);
    SmallVector<GpuTarget> parsed;
    for (StringRef spec : specs) {
      std::string error;
      FailureOr<GpuTarget> target = parseGpuTarget(spec.trim(), error);
      if (failed(target)) {
        getOperation().emitError("tc-gpu-configure-kernels: ") << error;
        return signalPassFailure();
      }
      parsed.push_back(*target);
    }
    if (parsed.empty())
      return;
    MLIRContext *ctx = &getContext();
    bool async = copyAsynchronously(targets);
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(fusion::FusionDialect::kConfigAttr))
        return;
      std::optional<TiledContractionShape> shape = tiledContractionShape(op);
      if (!shape)
        return;
      // The accumulators a lane of each target's matrix instruction holds.
      int64_t needed = 0;
      if (shape->matrixElement)
        for (const GpuTarget &target : parsed)
          if (std::optional<MatrixInstruction> mma =
                  target.backend->matrixInstruction(ctx, target.chip,
                                                    shape->matrixElement))
            needed = std::max(needed, mma->cElements());
      // The alternatives the host code may run instead of the heuristic
      // kernel, named by the kernel's key for the tuning table.
      if (candidates > 0) {
        SmallVector<Attribute> alternatives =
            tileCandidates(ctx, *shape, parsed, needed, async, candidates);
        if (!alternatives.empty()) {
          op->setAttr(fusion::FusionDialect::kCandidatesAttr,
                      ArrayAttr::get(ctx, alternatives));
          op->setAttr(fusion::FusionDialect::kKernelKeyAttr,
                      StringAttr::get(ctx, cpu::kernelKey(op, "gpu")));
        }
      }
      if (!shape->matrixElement ||
          needed <= kMatmulRegisterTile * kMatmulRegisterTile)
        return;
      const int64_t wide = kMatmulTile * kMatmulWideRegisterTile;
      auto small = [&](int64_t extent) {
        return !ShapedType::isDynamic(extent) && extent < wide;
      };
      if (small(shape->m) && small(shape->n))
        return;
      // The 128 x 128 tile where the heuristics take it (its threads hold
      // 64 accumulators), else the 64 x 64 one.
      int64_t registerTile = takesLargeTile(*shape) ? kMatmulLargeRegisterTile
                                                    : kMatmulWideRegisterTile;
      int64_t side = kMatmulTile * registerTile;
      if (!fitsEveryTarget(parsed, registerTile, factorBytes(*shape)))
        return;
      op->setAttr(fusion::FusionDialect::kConfigAttr,
                  fusion::KernelConfigAttr::get(ctx, kTiledContractionStrategy,
                                                {side, side, kMatmulTile},
                                                /*workgroups=*/0,
                                                /*stages=*/0));
    });
  }
};

} // namespace
} // namespace mlir::tc::gpu
