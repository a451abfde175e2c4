//===- MatrixCoresTest.cpp - the back ends' matrix instruction layouts ----===//
//
// The emulation executes a matrix instruction as its layouts say, so it
// cannot tell a wrong layout that is still a permutation from the right
// one. These tests hold the descriptions to what can be checked without a
// GPU: every layout covers its matrix exactly once (twice for the operands
// that RDNA's half-waves share), and NVIDIA's agree with
// upstream MLIR's own encoding of PTX's mma.sync fragments (nvgpu's
// MMAUtils), written independently of ours.
//
//===----------------------------------------------------------------------===//

#include "tc/InitAllPasses.h"
#include "tc/Target/Gpu/GpuTarget.h"

#include "mlir/Dialect/NVGPU/Utils/MMAUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tc::gpu;

namespace {

/// (row, column) of `layout` at (lane, element).
std::pair<int64_t, int64_t> at(AffineMap layout, int64_t lane,
                               int64_t element) {
  SmallVector<int64_t> rc = layout.compose(ArrayRef<int64_t>{lane, element});
  return {rc[0], rc[1]};
}

/// Every element of a rows x columns matrix is held by exactly `copies`
/// (lane, element) pairs of `layout`, and a lane holds no element twice.
void expectCovers(AffineMap layout, int64_t lanes, int64_t rows,
                  int64_t columns, int64_t copies, const std::string &what) {
  std::map<std::pair<int64_t, int64_t>, int64_t> held;
  int64_t perLane = rows * columns * copies / lanes;
  for (int64_t lane = 0; lane < lanes; ++lane) {
    std::set<std::pair<int64_t, int64_t>> inLane;
    for (int64_t e = 0; e < perLane; ++e) {
      auto [r, c] = at(layout, lane, e);
      EXPECT_TRUE(r >= 0 && r < rows && c >= 0 && c < columns)
          << what << ": lane " << lane << " element " << e << " at " << r << ","
          << c;
      EXPECT_TRUE(inLane.insert({r, c}).second)
          << what << ": lane " << lane << " holds " << r << "," << c
          << " twice";
      ++held[{r, c}];
    }
  }
  EXPECT_EQ(static_cast<int64_t>(held.size()), rows * columns) << what;
  for (auto [position, count] : held)
    EXPECT_EQ(count, copies) << what << ": " << position.first << ","
                             << position.second << " held " << count
                             << " times";
}

/// The instruction of the registered target `spelling` ("cuda:sm_90") for
/// operands of `element`.
std::optional<MatrixInstruction>
instruction(MLIRContext &ctx, const char *spelling, Type element) {
  tc::registerAllGpuBackends();
  std::string error;
  FailureOr<GpuTarget> target = parseGpuTarget(spelling, error);
  EXPECT_TRUE(succeeded(target)) << error;
  return target->backend->matrixInstruction(&ctx, target->chip, element);
}

TEST(MatrixCores, LayoutsCoverTheirMatrices) {
  MLIRContext ctx;
  Type f32 = Float32Type::get(&ctx);
  for (const char *spelling :
       {"cuda:sm_80", "cuda:sm_90", "rocm:gfx90a", "rocm:gfx942",
        "rocm:gfx1100"})
    for (Type element : {Type(Float16Type::get(&ctx)),
                         Type(BFloat16Type::get(&ctx)), f32}) {
      // TF32 (f32 factors): NVIDIA's, and gfx942's XF32.
      if (element == f32 && StringRef(spelling).starts_with("rocm") &&
          StringRef(spelling) != "rocm:gfx942")
        continue;
      std::optional<MatrixInstruction> mma =
          instruction(ctx, spelling, element);
      ASSERT_TRUE(mma.has_value()) << spelling;
      std::string name = spelling;
      expectCovers(mma->aLayout, mma->subgroupSize, mma->m, mma->k,
                   mma->aCopies, name + " A");
      expectCovers(mma->bLayout, mma->subgroupSize, mma->k, mma->n,
                   mma->bCopies, name + " B");
      expectCovers(mma->cLayout, mma->subgroupSize, mma->m, mma->n, 1,
                   name + " C");
    }
}

/// TF32 factors (f32 operands) have NVIDIA's mma.sync m16n8k8 and
/// gfx942's XF32 MFMA 16x16x8 (two elements of A and of B per lane); gfx90a
/// and gfx1100 have none.
TEST(MatrixCores, Tf32OnNvidiaAndCdna3) {
  MLIRContext ctx;
  Type f32 = Float32Type::get(&ctx);
  for (const char *spelling : {"rocm:gfx90a", "rocm:gfx1100"})
    EXPECT_FALSE(instruction(ctx, spelling, f32).has_value()) << spelling;
  std::optional<MatrixInstruction> xf32 = instruction(ctx, "rocm:gfx942", f32);
  ASSERT_TRUE(xf32.has_value());
  EXPECT_EQ(xf32->k, 8);
  EXPECT_EQ(xf32->aElements(), 2);
  EXPECT_EQ(xf32->bElements(), 2);
  EXPECT_EQ(xf32->cElements(), 4);
  EXPECT_FALSE(xf32->matrixLoads);
  std::optional<MatrixInstruction> mma = instruction(ctx, "cuda:sm_80", f32);
  ASSERT_TRUE(mma.has_value());
  EXPECT_EQ(mma->k, 8);
  EXPECT_EQ(mma->aElements(), 4);
  EXPECT_EQ(mma->bElements(), 2);
  EXPECT_FALSE(
      instruction(ctx, "cuda:sm_90", IntegerType::get(&ctx, 8)).has_value());
}

/// RDNA 3's WMMA: both half-waves hold the same A and B (lanes l and
/// l + 16 load the same elements), and C's rows alternate between them.
TEST(MatrixCores, RdnaHalfWavesCopyTheOperands) {
  MLIRContext ctx;
  std::optional<MatrixInstruction> mma =
      instruction(ctx, "rocm:gfx1100", Float16Type::get(&ctx));
  ASSERT_TRUE(mma.has_value());
  EXPECT_EQ(mma->subgroupSize, 32);
  EXPECT_EQ(mma->aElements(), 16);
  EXPECT_EQ(mma->cElements(), 8);
  for (int64_t lane = 0; lane < 16; ++lane)
    for (int64_t i = 0; i < 16; ++i) {
      EXPECT_EQ(at(mma->aLayout, lane, i), at(mma->aLayout, lane + 16, i));
      EXPECT_EQ(at(mma->bLayout, lane, i), at(mma->bLayout, lane + 16, i));
      EXPECT_EQ(at(mma->aLayout, lane, i), std::make_pair(lane, i));
      EXPECT_EQ(at(mma->bLayout, lane, i), std::make_pair(i, lane));
    }
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(at(mma->cLayout, 3, i), std::make_pair(2 * i, int64_t(3)));
    EXPECT_EQ(at(mma->cLayout, 19, i), std::make_pair(2 * i + 1, int64_t(3)));
  }
}

/// Compares `element`'s instruction with nvgpu's layouts of an m x n x k
/// mma.sync. nvgpu describes each operand by the subgroup's whole matrix
/// (B as n x k, as mma.sync reads it column-major) and numbers a lane's
/// values in register order, as ours; a TF32 operand is its f32 matrix.
void expectUpstreamLayouts(MLIRContext &ctx, Type element, int64_t k) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  Type f32 = Float32Type::get(&ctx);
  std::optional<MatrixInstruction> mma =
      instruction(ctx, "cuda:sm_90", element);
  ASSERT_TRUE(mma.has_value());
  ASSERT_EQ(mma->m, 16);
  ASSERT_EQ(mma->n, 8);
  ASSERT_EQ(mma->k, k);
  struct Operand {
    VectorType type;
    nvgpu::MatMulOperandRole role;
    AffineMap ours;
  };
  for (const Operand &o :
       {Operand{VectorType::get({16, k}, element), nvgpu::MatMulOperandRole::A,
                mma->aLayout},
        Operand{VectorType::get({8, k}, element), nvgpu::MatMulOperandRole::B,
                mma->bLayout},
        Operand{VectorType::get({16, 8}, f32), nvgpu::MatMulOperandRole::C,
                mma->cLayout}}) {
    FailureOr<AffineMap> theirs = nvgpu::getLaneIdAndValueIdToOperandCoord(
        b, loc, nvgpu::WarpMatrixInfo{o.type, o.role});
    ASSERT_TRUE(succeeded(theirs));
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t v = 0; v < o.type.getNumElements() / 32; ++v) {
        auto [r, c] = at(o.ours, lane, v);
        auto [tr, tc] = at(*theirs, lane, v);
        if (o.role == nvgpu::MatMulOperandRole::B)
          std::swap(tr, tc);
        EXPECT_EQ(r, tr) << "operand " << int(o.role) << " lane " << lane
                         << " value " << v;
        EXPECT_EQ(c, tc) << "operand " << int(o.role) << " lane " << lane
                         << " value " << v;
      }
  }
}

TEST(MatrixCores, CudaLayoutsAreUpstreamNvgpus) {
  MLIRContext ctx;
  expectUpstreamLayouts(ctx, Float16Type::get(&ctx), 16);
  expectUpstreamLayouts(ctx, Float32Type::get(&ctx), 8);
}

} // namespace
