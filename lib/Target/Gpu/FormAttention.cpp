//===- FormAttention.cpp - --tc-gpu-form-attention ------------------------===//
//
// tc.attention lowers in general to the scores' contraction, a softmax and
// a second contraction: three kernels, the [batch..., Lq, Lk] scores
// written to device memory and read back twice. A 16-bit attention with
// static heads the kernel's shared tiles hold (sequence lengths and batch
// dims static or dynamic) instead becomes
// tc_gpu.attention, which --tc-gpu-map-kernels builds as one flash-style
// kernel (AttentionKernel.h). The op is destination-style: it bufferizes
// into a fresh buffer like a linalg op.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/AttentionKernel.h"
#include "tc/Target/Gpu/Passes.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "tc/Dialect/Tc/IR/NodeNames.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUFORMATTENTIONPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// Whether the kernel computes `op`: f16 or bf16, static heads that
/// planAttention fits (the key's too), no extent statically 0; sequence
/// lengths and batch dims may be dynamic (the kernel reads them at run
/// time, and a run with no keys gives zeros, as the general lowering).
bool suitsKernel(tc::AttentionOp op) {
  SmallVector<Value> operands = {op.getQuery(), op.getKey(), op.getValue(),
                                 op.getResult()};
  if (op.getMask())
    operands.push_back(op.getMask());
  for (Value v : operands) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || llvm::is_contained(type.getShape(), 0))
      return false;
  }
  auto query = cast<RankedTensorType>(op.getQuery().getType());
  auto key = cast<RankedTensorType>(op.getKey().getType());
  auto value = cast<RankedTensorType>(op.getValue().getType());
  Type element = query.getElementType();
  if (!element.isF16() && !element.isBF16())
    return false;
  int64_t head = query.getShape().back();
  int64_t keyHead =
      key.getDimSize(key.getRank() - (op.getKeyTransposed() ? 2 : 1));
  if (ShapedType::isDynamic(head) || ShapedType::isDynamic(keyHead) ||
      ShapedType::isDynamic(value.getShape().back()))
    return false;
  return planAttention(head, value.getShape().back()).has_value();
}

/// The run-time extent of logical dim `d` of `tensor`.
Value dimOf(OpBuilder &b, Location loc, Value tensor, int64_t d) {
  return tensor::DimOp::create(b, loc, tensor, d);
}

/// The result's logical extents where they are dynamic (null where
/// static), from the operands: its batch dims from the first operand whose
/// dim there is dynamic, Lq from the query. Checks at run time, as the
/// general lowering's broadcasts do, that every dynamic extent of the
/// operands equals the one it meets (a run-time 1 is not stretched), so
/// that the kernel may index a dynamic dim without broadcasting it.
SmallVector<Value> checkedExtents(OpBuilder &b, tc::AttentionOp op) {
  Location loc = op.getLoc();
  auto result = cast<RankedTensorType>(op.getResult().getType());
  int64_t rank = result.getRank();
  // A static extent of the result is what the dynamic ones must equal.
  SmallVector<Value> extents(rank);
  for (int64_t i = 0; i < rank; ++i)
    if (!result.isDynamicDim(i))
      extents[i] = arith::ConstantIndexOp::create(b, loc, result.getDimSize(i));
  auto check = [&](Value x, Value expected, const Twine &what) {
    Value same =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, expected);
    cf::AssertOp::create(b, loc, same,
                         (describeNode(op) + ": the extents of " + what +
                          " differ (a run-time extent must equal the others "
                          "on its axis; broadcasting an extent known only at "
                          "run time to be 1 is not supported)")
                             .str());
  };
  bool transposed = op.getKeyTransposed();
  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  SmallVector<std::pair<Value, StringRef>> operands = {
      {query, "query"}, {key, "key"}, {value, "value"}};
  if (op.getMask())
    operands.push_back({op.getMask(), "mask"});
  // Batch dims and Lq: the first dynamic extent on each, the others
  // checked against it.
  for (int64_t i = 0; i + 1 < rank; ++i) {
    for (auto [operand, name] : operands) {
      auto type = cast<RankedTensorType>(operand.getType());
      int64_t d = i - (rank - type.getRank());
      bool rows = i == rank - 2;
      // Lq is the query's and the mask's rows, not a key or value dim.
      if (d < 0 || (rows && operand != query && operand != op.getMask()) ||
          !type.isDynamicDim(d))
        continue;
      Value extent = dimOf(b, loc, operand, d);
      if (!extents[i])
        extents[i] = extent;
      else
        check(extent, extents[i],
              Twine(name) + " axis " + Twine(d) + " and of the attention");
    }
  }
  // Lk: the key's, the value's rows and the mask's last dim.
  Value keys;
  auto keyType = cast<RankedTensorType>(key.getType());
  int64_t keyAxis = keyType.getRank() - (transposed ? 1 : 2);
  if (!keyType.isDynamicDim(keyAxis))
    keys = arith::ConstantIndexOp::create(b, loc, keyType.getDimSize(keyAxis));
  auto valueType = cast<RankedTensorType>(value.getType());
  SmallVector<std::tuple<Value, int64_t, StringRef>> keyDims = {
      {key, keyAxis, "key"}, {value, valueType.getRank() - 2, "value"}};
  if (Value mask = op.getMask())
    keyDims.push_back(
        {mask, cast<RankedTensorType>(mask.getType()).getRank() - 1, "mask"});
  for (auto [operand, d, name] : keyDims) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (!type.isDynamicDim(d) || type.getDimSize(d) == 1)
      continue;
    Value extent = dimOf(b, loc, operand, d);
    if (!keys)
      keys = extent;
    else
      check(extent, keys,
            Twine(name) + " axis " + Twine(d) + " and of the keys");
  }
  for (int64_t i = 0; i < rank; ++i)
    if (!result.isDynamicDim(i))
      extents[i] = Value();
  return extents;
}

/// The dynamic sizes of the stored result (`type`, its dim j the logical
/// dim permutation[j]), checked (checkedExtents).
SmallVector<Value> storedSizes(OpBuilder &b, tc::AttentionOp op,
                               ArrayRef<int64_t> permutation,
                               RankedTensorType type) {
  SmallVector<Value> logical = checkedExtents(b, op);
  SmallVector<Value> sizes;
  for (int64_t j = 0; j < type.getRank(); ++j)
    if (type.isDynamicDim(j))
      sizes.push_back(logical[permutation[j]]);
  return sizes;
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
          rewriter, op.getLoc(), type.getShape(), type.getElementType(),
          storedSizes(rewriter, op, initPermutation, type));
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
