//===- FormAttention.cpp - --tc-gpu-form-attention ------------------------===//
//
// tc.attention lowers in general to the scores' contraction, a softmax and
// a second contraction: three kernels, the [batch..., Lq, Lk] scores
// written to device memory and read back twice. A 16-bit attention with
// static shapes and heads the kernel's shared tiles hold instead becomes
// tc_gpu.attention, which --tc-gpu-map-kernels builds as one flash-style
// kernel (AttentionKernel.h). The op is destination-style: it bufferizes
// into a fresh buffer like a linalg op.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/AttentionKernel.h"
#include "tc/Target/Gpu/Passes.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUFORMATTENTIONPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// Whether the kernel computes `op`: f16 or bf16, static shapes without
/// empty extents (no blocks to launch, or a sum over no keys), heads that
/// planAttention fits.
bool suitsKernel(tc::AttentionOp op) {
  SmallVector<Value> operands = {op.getQuery(), op.getKey(), op.getValue(),
                                 op.getResult()};
  if (op.getMask())
    operands.push_back(op.getMask());
  for (Value v : operands) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() == 0)
      return false;
  }
  auto query = cast<RankedTensorType>(op.getQuery().getType());
  auto value = cast<RankedTensorType>(op.getValue().getType());
  Type element = query.getElementType();
  if (!element.isF16() && !element.isBF16())
    return false;
  return planAttention(query.getShape().back(), value.getShape().back())
      .has_value();
}

/// `value` as the tc.transposes producing it read it: their first input,
/// and for each of `value`'s dims the input's dim that holds it.
std::pair<Value, SmallVector<int64_t>> throughTransposes(Value value) {
  SmallVector<int64_t> permutation = llvm::to_vector(
      llvm::seq<int64_t>(0, cast<RankedTensorType>(value.getType()).getRank()));
  while (auto transpose = value.getDefiningOp<tc::TransposeOp>()) {
    // The transpose's dim i is its input's dim permutation[i].
    permutation = applyPermutation(transpose.getPermutation(), permutation);
    value = transpose.getInput();
  }
  return {value, permutation};
}

/// The permutation as the op's attribute, none for the identity.
DenseI64ArrayAttr permutationAttr(OpBuilder &b, ArrayRef<int64_t> permutation) {
  return isIdentityPermutation(permutation)
             ? DenseI64ArrayAttr()
             : b.getDenseI64ArrayAttr(permutation);
}

struct GpuFormAttentionPass
    : impl::GpuFormAttentionPassBase<GpuFormAttentionPass> {
  void runOnOperation() override {
    SmallVector<tc::AttentionOp> found;
    getOperation().walk([&](tc::AttentionOp op) {
      if (suitsKernel(op))
        found.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (tc::AttentionOp op : found) {
      rewriter.setInsertionPoint(op);
      llvm::SmallSetVector<Operation *, 4> readThrough;
      for (Value operand : {op.getQuery(), op.getKey(), op.getValue()})
        while (auto transpose = operand.getDefiningOp<tc::TransposeOp>()) {
          readThrough.insert(transpose);
          operand = transpose.getInput();
        }
      // The kernel reads Q, K and V where the transposes before them (the
      // heads moved ahead of the sequence) read them, and writes its result
      // as the one transpose that alone reads it (the heads moved back)
      // would: neither is a copy of its own.
      auto [query, queryPermutation] = throughTransposes(op.getQuery());
      auto [key, keyPermutation] = throughTransposes(op.getKey());
      auto [value, valuePermutation] = throughTransposes(op.getValue());
      Operation *replaced = op;
      auto type = cast<RankedTensorType>(op.getResult().getType());
      SmallVector<int64_t> initPermutation =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      if (op.getResult().hasOneUse())
        if (auto after =
                dyn_cast<tc::TransposeOp>(*op.getResult().getUsers().begin())) {
          // The stored result's dim j is the logical dim p[j].
          initPermutation = invertPermutationVector(after.getPermutation());
          type = cast<RankedTensorType>(after.getResult().getType());
          replaced = after;
        }
      Value init = tensor::EmptyOp::create(
          rewriter, op.getLoc(), type.getShape(), type.getElementType());
      auto formed = tc_gpu::AttentionOp::create(
          rewriter, op.getLoc(), TypeRange{type}, query, key, value,
          op.getMask(), init, op.getScaleAttr(), op.getKeyTransposedAttr(),
          permutationAttr(rewriter, queryPermutation),
          permutationAttr(rewriter, keyPermutation),
          permutationAttr(rewriter, valuePermutation),
          permutationAttr(rewriter, initPermutation));
      rewriter.replaceOp(replaced, formed.getResults());
      if (replaced != op)
        rewriter.eraseOp(op);
      // The transposes read through go where nothing else reads them.
      bool erased = true;
      while (erased) {
        erased = false;
        for (auto it = readThrough.begin(); it != readThrough.end(); ++it)
          if ((*it)->use_empty()) {
            rewriter.eraseOp(*it);
            readThrough.erase(it);
            erased = true;
            break;
          }
      }
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
