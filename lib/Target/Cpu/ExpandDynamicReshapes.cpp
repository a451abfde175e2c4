//===- ExpandDynamicReshapes.cpp - the --tc-expand-dynamic-reshapes pass --===//
//
// A workaround for MLIR 22's --expand-strided-metadata, which assumes at
// most one dynamic size per expanded group (Passes.td says more). Runs in
// every pipeline right before that pass.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_EXPANDDYNAMICRESHAPESPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Whether some reassociation group of `expand` has two or more dynamic
/// result sizes: the case upstream's folding cannot take.
bool hasSeveralDynamicSizesInAGroup(memref::ExpandShapeOp expand) {
  MemRefType type = expand.getResultType();
  for (ReassociationIndices group : expand.getReassociationIndices())
    if (llvm::count_if(group, [&](int64_t dim) {
          return type.isDynamicDim(dim);
        }) > 1)
      return true;
  return false;
}

/// a * b, folded when both are constants.
OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return b.getIndexAttr(*l * *r);
  if (l == 1)
    return rhs;
  if (r == 1)
    return lhs;
  return arith::MulIOp::create(b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, lhs),
                               getValueOrCreateConstantIndexOp(b, loc, rhs))
      .getResult();
}

/// Rewrites `expand` as a reinterpret_cast of its source's base buffer;
/// false (and nothing changed) when either layout is not strided.
bool rewrite(memref::ExpandShapeOp expand) {
  MemRefType sourceType = expand.getSrcType();
  MemRefType resultType = expand.getResultType();
  SmallVector<int64_t> sourceStrides, resultStrides;
  int64_t sourceOffset, resultOffset;
  if (failed(sourceType.getStridesAndOffset(sourceStrides, sourceOffset)) ||
      failed(resultType.getStridesAndOffset(resultStrides, resultOffset)))
    return false;

  OpBuilder b(expand);
  Location loc = expand.getLoc();
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc,
                                                           expand.getSrc());
  // What the result type fixes stays static: reinterpret_cast's verifier
  // wants the type and the operands to agree.
  auto fixed = [&](int64_t known, OpFoldResult computed) -> OpFoldResult {
    return ShapedType::isDynamic(known) ? computed : b.getIndexAttr(known);
  };
  SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
  for (auto [dim, size] : llvm::enumerate(sizes))
    size = fixed(resultType.getDimSize(dim), size);

  // In each group, the innermost dimension steps like the source dimension
  // it came from, and each outer one over the inner ones' extent.
  SmallVector<OpFoldResult> strides(resultType.getRank());
  for (auto [sourceDim, group] :
       llvm::enumerate(expand.getReassociationIndices())) {
    OpFoldResult step =
        fixed(sourceStrides[sourceDim], metadata.getStrides()[sourceDim]);
    for (int64_t dim : llvm::reverse(group)) {
      strides[dim] = fixed(resultStrides[dim], step);
      if (dim != group.front())
        step = multiply(b, loc, step, sizes[dim]);
    }
  }
  OpFoldResult offset =
      fixed(resultOffset, fixed(sourceOffset, metadata.getOffset()));

  auto cast = memref::ReinterpretCastOp::create(
      b, loc, resultType, metadata.getBaseBuffer(), offset, sizes, strides);
  expand.getResult().replaceAllUsesWith(cast.getResult());
  expand.erase();
  return true;
}

struct ExpandDynamicReshapesPass
    : impl::ExpandDynamicReshapesPassBase<ExpandDynamicReshapesPass> {
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> expands;
    getOperation()->walk([&](memref::ExpandShapeOp expand) {
      if (hasSeveralDynamicSizesInAGroup(expand))
        expands.push_back(expand);
    });
    for (memref::ExpandShapeOp expand : expands)
      (void)rewrite(expand);
  }
};

} // namespace
} // namespace mlir::tc::cpu
