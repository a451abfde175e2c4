//===- RegisterTiling.h - the loops a CPU register tile spans --*- C++ -*-===//
//
// Which loops of a multiply-add kernel (matmul, batch matmul, convolution)
// a register tile spans: N, the output's last dimension, in vector lanes,
// and M, the rows whose accumulators share one vector of the N-side input.
// --tc-cpu-vectorize-contractions builds the tiles; --tc-cpu-distribute
// reads the same choice to split kernels into workgroups that hold whole
// tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_CPU_REGISTERTILING_H
#define TC_TARGET_CPU_REGISTERTILING_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include <optional>

namespace mlir::tc::cpu {

/// Rows of a register tile (the default of --tc-cpu-vectorize-contractions'
/// `rows`): workgroups hold whole multiples of it.
constexpr int64_t kRegisterRows = 8;

/// The fewest output columns (N) worth a register tile.
constexpr int64_t kMinLanes = 8;

struct RegisterTileDims {
  /// N: the loop of the output's last dimension (parallel, static range of
  /// at least kMinLanes).
  unsigned lanes;
  /// M: the static output loop closest to N (range > 1) that no input reads
  /// together with N; none for a single-row tile (a depthwise convolution).
  std::optional<unsigned> rows;
};

/// acc + a * b (possibly through casts), for floats or integers.
bool hasMultiplyAddBody(linalg::LinalgOp op);

/// Whether `expr` is a loop, a constant, or a convolution window
/// `o * s + k * d` (s, d positive constants; either term may be a bare loop).
bool isPlainOrWindow(AffineExpr expr);

/// The register tile's loops for a multiply-add kernel with reductions, one
/// output, plain or window maps; nothing for other ops.
std::optional<RegisterTileDims> registerTileDims(linalg::LinalgOp op);

} // namespace mlir::tc::cpu

#endif // TC_TARGET_CPU_REGISTERTILING_H
