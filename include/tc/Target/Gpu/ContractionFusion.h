//===- ContractionFusion.h - elementwise work inside a contraction kernel -===//
//
// A convolution or matmul reaches --tc-gpu-map-kernels as three ops on
// buffers: one that fills its output with a start value (the bias
// broadcast, or zeros), the contraction accumulating into that output, and
// an elementwise op reading the result (the activation, a residual add).
// Each would be a kernel of its own, the output written and read back in
// between. A contraction's kernel can do both itself: start its
// accumulators from the fill's value, and apply the elementwise op to each
// result before storing it. mobilenet_v2's 52 convolutions and its Gemm
// take 3 kernels each without this.
//
// A convolution's input is often padded first: a buffer filled with the
// padding value, the input copied into its interior, two kernels that
// write and read the padded copy once more. The contraction's kernel can
// read the input itself instead, taking the padding value outside it.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_CONTRACTIONFUSION_H
#define TC_TARGET_GPU_CONTRACTIONFUSION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {

/// An input of a contraction that reads a padded copy of another buffer:
/// `fill` writes the padding value into every element of the padded
/// buffer, then `copy` copies `source` into its interior, a view at
/// offsets `low` (unit strides). Read instead through paddedLoad: the
/// source's element where the index falls inside it, else the fill's
/// value.
struct PaddedInput {
  OpOperand *operand = nullptr;
  Value source;
  SmallVector<OpFoldResult> low, sizes;
  linalg::LinalgOp fill, copy;
};

/// An input of a contraction that a transpose (or a copy, the identity
/// permutation) `producer` wrote from `source` and nothing else reads: read
/// instead at the source's permuted indices. Attention's heads are
/// transposed copies of slices of Q, K and V, each read by one batch
/// matmul.
struct PermutedInput {
  OpOperand *operand = nullptr;
  Value source;
  /// As linalg.transpose's: input dimension i is the source's
  /// permutation[i].
  SmallVector<int64_t> permutation;
  linalg::LinalgOp producer;
  /// When the source is a reshape of a buffer that `copy` wrote from
  /// `copied` and nothing else reads (attention's heads: a strided slice
  /// of the Q, K, V projection, copied so that it can be reshaped): that
  /// copy, which goes too, the kernel reading `copied` at the indices the
  /// reshape maps to.
  Operation *copy = nullptr;
  Value copied;
};

/// The copy (linalg.copy or memref.copy) that wrote the buffer `view` is a
/// reshape of (collapse_shape and expand_shape views, each used once, or
/// none), when that buffer (an allocation or a buffer of the arena, static
/// shape, identity layout) is written by nothing else and read by nothing
/// but `reader` through `view`; its source in `copied`. Null otherwise.
Operation *reshapedCopy(Value view, Operation *reader, Value &copied);

/// The allocation, arena or argument `buffer` is a view of (through every
/// view-like op, memref.view included).
Value rootOf(Value buffer);

/// The buffer `value` is a view of: an allocation, an argument, or a view
/// of the memory plan's arena (one buffer of the plan each).
Value bufferOf(Value value);

/// Whether `written`, a buffer a fused kernel writes, cannot share memory
/// with `read`, which the memory plan may have seen die at `point`:
/// another allocation or argument, or another buffer of the same arena
/// placed before `point` (the plan kept their live ranges apart) or known
/// to cover other bytes. Bufferization may well write a contraction's
/// result into the very buffer its padded input was copied from.
bool memoryApart(Value written, Value read, Operation *point);

/// The ops that write the value a contraction reads through one of its
/// inputs, and the buffer they read it from.
struct InputProducers {
  /// A transpose or copy; or, for a pad, a fill and a copy into `interior`.
  SmallVector<Operation *> ops;
  Value source;
  memref::SubViewOp interior;
};

/// The producers of what `operand` of `contraction` reads: the buffer (an
/// allocation or a buffer of the arena, identity layout) is, in the
/// contraction's block, last written before it by a transpose or copy of
/// all of it (read from operand 0), or by a fill and then a copy into a
/// view of its interior (a pad); nothing else touches it in between, the
/// contraction reads it through `operand` only, and after the contraction
/// it is written whole before anything reads it again (bufferization
/// reuses such buffers layer after layer). std::nullopt otherwise. Both
/// --tc-gpu-place-input-producers (on allocations, memref.copy) and the
/// fusion (on the arena, linalg.copy) use it.
std::optional<InputProducers> findInputProducers(linalg::LinalgOp contraction,
                                                 OpOperand *operand);

/// What a contraction's kernel takes over (any of them may be absent).
struct ContractionFusion {
  /// Writes every element of the contraction's output just before it, from
  /// its inputs alone (all loops parallel, the output indexed by them in
  /// order, its old value unread).
  linalg::LinalgOp init;
  /// Reads the contraction's output just after it, at its own loop values
  /// (elementwise, all loops parallel, that input and its own output both
  /// indexed by them in order), and writes another buffer or the same.
  linalg::LinalgOp epilogue;
  /// Whether the contraction's own result must still be stored: its
  /// output is read by something other than the two ops, or the epilogue
  /// writes elsewhere while the output lives on.
  bool storeOutput = true;
  /// Inputs read through their padding (the fill and copy of each go).
  SmallVector<PaddedInput> pads;
  /// Inputs read through their transpose or copy (which go).
  SmallVector<PermutedInput> permuted;

  bool empty() const {
    return !init && !epilogue && pads.empty() && permuted.empty();
  }
  /// This fusion without the inputs read through their producers (for a
  /// kernel that reads its inputs by other means).
  ContractionFusion withoutProducedInputs() const {
    ContractionFusion fusion = *this;
    fusion.pads.clear();
    fusion.permuted.clear();
    return fusion;
  }
  /// The ops the contraction's kernel does the work of, to be erased.
  SmallVector<Operation *> fusedOps() const;
};

/// The fill, epilogue and input producers `contraction` (a linalg op on
/// buffers with reduction loops and one output) can take, none in `claimed`
/// (ops already taken by another contraction). Only ops next to the
/// contraction in its block, with nothing but memory-effect-free ops
/// between them, qualify: the work then moves into the contraction's
/// kernel without passing another op that reads or writes memory. An
/// epilogue that writes another buffer than the contraction's output
/// qualifies only when that buffer's memory is taken before the fill (or
/// the contraction): the memory plan could otherwise have given it the
/// memory of an input the kernel still reads; nor may it be a buffer the
/// contraction reads.
///
/// An input is read through its producer (PaddedInput, PermutedInput)
/// when the buffer is read by nothing but the contraction, its producing
/// ops are in the contraction's block before it, nothing between the last
/// of them and the contraction writes memory (but ops the kernel takes
/// over), and no buffer the kernel writes can share memory with the
/// producer's source, whose last use the memory plan saw at the producer:
/// a different allocation, a buffer of the arena placed before the
/// producer (--tc-gpu-place-input-producers arranges that), or bytes known
/// to be disjoint.
ContractionFusion findContractionFusion(linalg::LinalgOp contraction,
                                        const DenseSet<Operation *> &claimed);

/// Moves the ops between `contraction` and the fusion's epilogue (views,
/// constants, allocations: findContractionFusion allows nothing else
/// there but deallocations, which stay) before the contraction, so that
/// the epilogue's operands are defined where its kernel will read them.
void hoistEpilogueOperands(RewriterBase &rewriter, linalg::LinalgOp contraction,
                           const ContractionFusion &fusion);

/// The start value of the accumulator of output `indices` (the
/// contraction output's indices): the init op's body at those indices, or
/// the output's element there without one.
Value fusedStartValue(OpBuilder &b, Location loc, linalg::LinalgOp contraction,
                      const ContractionFusion &fusion, ValueRange indices);

/// Stores `result` of output `indices`: into the contraction's output when
/// it must be stored, and through the epilogue's body into its output.
/// Returns the value stored into the epilogue's output (null without one).
Value storeFusedResult(OpBuilder &b, Location loc, linalg::LinalgOp contraction,
                       const ContractionFusion &fusion, Value result,
                       ValueRange indices);

/// `input` (an input operand of `contraction`) at loop values `loops`:
/// a load through its indexing map; for a padded input, the source's
/// element when inside it and the padding value outside; for a permuted
/// one, the source's element at the permuted indices.
Value loadFusedInput(OpBuilder &b, Location loc, linalg::LinalgOp contraction,
                     const ContractionFusion &fusion, OpOperand *input,
                     ArrayRef<Value> loops);

/// The one-thread-per-output lowering of a contraction with a fusion: one
/// scf.parallel over its parallel loops, each iteration starting its
/// accumulator (fusedStartValue), running the reduction loops as scf.for
/// with the accumulator carried in a register, then storing
/// (storeFusedResult). Replaces `contraction`; the caller erases the fused
/// ops. Fails, with nothing changed, for a body that reads loop indices.
FailureOr<scf::ParallelOp> buildFusedContractionLoops(
    RewriterBase &rewriter, linalg::LinalgOp contraction,
    const ContractionFusion &fusion);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_CONTRACTIONFUSION_H
