//===- ElementwiseKernel.h - vectorized elementwise GPU kernels -*- C++ -*-===//
//
// The general path of --tc-gpu-map-kernels gives each thread one output
// element; for elementwise ops whose innermost loop is contiguous in memory
// each thread instead moves a vector of up to kVectorBytes.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_ELEMENTWISEKERNEL_H
#define TC_TARGET_GPU_ELEMENTWISEKERNEL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {

/// The widest global access per thread on both vendors: ld.global.v4.b32 on
/// NVIDIA, global_load_dwordx4 on AMD.
constexpr int64_t kVectorBytes = 16;

/// Bytes of one element of `type` in memory, or 0 for types whose vectors
/// are not plain arrays of it (i1 vectors are bit-packed; index has no
/// fixed width).
int64_t elementBytes(Type type);

/// The bytes of a static buffer of `type`'s elements (0 where
/// elementBytes is).
int64_t bufferBytes(MemRefType type);

/// Whether vectors of `lanes` elements taken along the innermost dimension
/// of `type`, at indices that are multiples of `lanes`, start at element
/// offsets that are multiples of `lanes` (an identity layout with a static
/// innermost extent that `lanes` divides, or unit innermost stride and a
/// static offset and outer strides that it divides).
bool rowsAligned(MemRefType type, int64_t lanes);

/// Lanes for vectors along loop `loop` of `op` (on buffers) whose widest
/// element is `widest` bytes: kVectorBytes / widest, halved until they
/// divide the loop's static extent and suit (rowsAligned) every buffer
/// operand that varies along the loop, which must do so along its
/// innermost dimension with plain elements. 1 (no vectors) otherwise, and
/// for a dynamic or empty loop.
int64_t lanesAlong(linalg::LinalgOp op, unsigned loop, int64_t widest);

/// Replaces `op` (on buffers, every loop parallel) by an scf.parallel over
/// its loops whose innermost loop steps by L lanes, each iteration one
/// vector.load per operand read along that loop (a scalar load and a
/// broadcast for operands that do not vary along it), the op's body on
/// vectors, and one vector.store per output. Every operand that varies
/// along the innermost loop must do so along its own innermost dimension,
/// with unit stride. L is kVectorBytes / the widest element, halved until
/// it divides the innermost extent (static) and each such operand's offset
/// and outer strides (static, or implied by an identity layout), and at
/// least 2: so each vector starts at a multiple of its size, and the
/// loads and stores carry that alignment, which is what makes them single
/// 8- or 16-byte accesses (device buffers start at least 64-byte aligned).
/// The body may hold elementwise-mappable ops, constants and linalg.index.
/// Innermost loops that every operand reads contiguously fold into one
/// first when that allows more lanes (an op over 1 x 960 x 7 x 7 becomes
/// one over 47040, in vectors of 4); `op` is then the folded op. Returns
/// the loop, or failure with `op` (perhaps folded) left in place.
FailureOr<scf::ParallelOp> buildVectorizedElementwise(RewriterBase &rewriter,
                                                      linalg::LinalgOp &op);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_ELEMENTWISEKERNEL_H
