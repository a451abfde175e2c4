//===- MatrixCores.h - matrix instructions as target descriptions -*- C++ -*-===//
//
// A GPU kernel multiplies tiles on matrix cores through tc_gpu.block_mma,
// which names no vendor. What a target offers is described by data: one
// subgroup's matrix instruction, its shape and, for each operand, which
// lane holds which element (as Triton's target info does). The expansion of
// tc_gpu.block_mma into fragment loads and tc_gpu.subgroup_mma reads only
// that description, so it is the same code for every vendor and for the
// emulation, which executes the instruction's layouts on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_MATRIXCORES_H
#define TC_TARGET_GPU_MATRIXCORES_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>

namespace mlir::tc::gpu {

/// One subgroup's D = A B + C for A m x k, B k x n (16-bit floats), C and D
/// m x n (f32). Each layout maps (lane, element) to (row, column) of its
/// matrix; a lane holds m k aCopies / subgroupSize elements of A, and so
/// on. An operand's copies count the lanes that hold each of its elements:
/// 1 for NVIDIA's mma.sync and CDNA's MFMA, 2 for A and B of RDNA's WMMA,
/// whose two half-waves both hold the whole operand.
struct MatrixInstruction {
  int64_t m = 0, n = 0, k = 0, subgroupSize = 0;
  AffineMap aLayout, bLayout, cLayout;
  int64_t aCopies = 1, bCopies = 1;
  /// Whether the target has tc_gpu.subgroup_load_matrices (NVIDIA's
  /// ldmatrix) for this instruction's 16-bit operands. The expansion uses
  /// it for a fragment only where the fragment's layout is the load's,
  /// checked lane by lane (fragmentAsMatrixLoads).
  bool matrixLoads = false;

  int64_t aElements() const { return m * k * aCopies / subgroupSize; }
  int64_t bElements() const { return k * n * bCopies / subgroupSize; }
  int64_t cElements() const { return m * n / subgroupSize; }
};

/// Result `result` (0: row, 1: column) of a layout at (lane, element).
Value layoutAt(OpBuilder &b, Location loc, AffineMap layout, unsigned result,
               Value lane, int64_t element);

/// tc_gpu.subgroup_load_matrices' matrices (offsets, row and column) and
/// direction for one fragment.
struct MatrixLoads {
  SmallVector<int64_t> offsets;
  bool transpose = false;
};

/// Where the elements of a fragment of `count` elements lie in a shared
/// tile, as `layout` (lane, element) -> (row, column) of the instruction's
/// operand gives them: `rowResult` says which result of the layout indexes
/// the tile's rows (K for a K-major tile, the operand's side for a K-inner
/// one). Returns tc_gpu.subgroup_load_matrices' matrices when, for every
/// lane of a 32-lane subgroup, that load (transposed or not) gives exactly
/// these elements in this order (each matrix's columns starting at
/// multiples of 8 elements); otherwise std::nullopt.
std::optional<MatrixLoads> fragmentAsMatrixLoads(AffineMap layout,
                                                 int64_t count,
                                                 int64_t subgroupSize,
                                                 unsigned rowResult);

/// Rewrites every tc_gpu.block_mma and tc_gpu.block_mma_store under `root`:
/// with `instruction` (for tiles it divides), into fragment loads from the
/// shared tiles and tc_gpu.subgroup_mma; otherwise (null, or tiles it does
/// not divide) into scalar multiply-adds, each thread owning a small block
/// of the tile. `instructionFor` gives the instruction for an element type
/// (f16, bf16), or null.
using InstructionFor =
    function_ref<const MatrixInstruction *(Type element)>;
LogicalResult expandBlockMmas(Operation *root, InstructionFor instructionFor);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_MATRIXCORES_H
