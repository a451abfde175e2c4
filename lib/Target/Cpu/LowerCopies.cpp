//===- LowerCopies.cpp - the --tc-cpu-lower-copies pass -------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPULOWERCOPIESPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The copies the LLVM lowering turns into a memcpy: identity layouts, or
/// static shapes that are contiguous. Any other copy (a view with a dynamic
/// offset or size, say) it lowers to a call of the memrefCopy runtime
/// function, which a model library does not have: those become loops.
bool isContiguous(Type type) {
  auto memref = cast<MemRefType>(type);
  return memref.getLayout().isIdentity() ||
         (memref.hasStaticShape() &&
          memref.areTrailingDimsContiguous(memref.getRank()));
}

/// The value a fill of a whole buffer writes: a linalg.fill's, or a
/// linalg.map's that yields a value from above (a bufferized tensor.pad).
Value filledValue(Operation *op, Value &buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureBufferSemantics())
      return {};
    buffer = fill.getOutputs()[0];
    return fill.getInputs()[0];
  }
  auto map = dyn_cast<linalg::MapOp>(op);
  if (!map || !map.getInputs().empty() || !map.hasPureBufferSemantics())
    return {};
  Block &body = map.getMapper().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1 || &body.front() != yield ||
      yield.getOperand(0).getParentBlock() == &body)
    return {};
  buffer = map.getInit();
  return yield.getOperand(0);
}

/// A padded input copied per workgroup is a fill of a new buffer with the
/// padding value, then a copy of the input into its interior (a static
/// subview). The fill then writes only what the copy leaves, the border:
/// a padded 2x113x113 plane pair was filled whole, a memset as large as
/// the copy (a tenth of a stride-2 depthwise convolution's time). The
/// border is one slab per padded side, disjoint: along dim d, the rows
/// before and after the interior, within the interior's range on the dims
/// before d and whole on those after.
void fillBorderOnly(Operation *fillOp) {
  Value buffer;
  Value value = filledValue(fillOp, buffer);
  if (!value || !buffer.getDefiningOp<memref::AllocOp>())
    return;
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return;
  // The copy into the interior, after nothing but side-effect-free ops.
  memref::CopyOp copy;
  for (Operation *op = fillOp->getNextNode(); op; op = op->getNextNode()) {
    if ((copy = dyn_cast<memref::CopyOp>(op)))
      break;
    if (!isMemoryEffectFree(op))
      return;
  }
  if (!copy)
    return;
  // The copy must not read the buffer itself (its border would then be
  // read before it is filled).
  Value source = copy.getSource();
  while (auto view = source.getDefiningOp<ViewLikeOpInterface>())
    source = view.getViewSource();
  if (source == buffer)
    return;
  auto interior = copy.getTarget().getDefiningOp<memref::SubViewOp>();
  if (!interior || interior.getSource() != buffer ||
      interior.getSourceType().getRank() != interior.getType().getRank() ||
      !interior.hasUnitStride())
    return;
  // Offsets and sizes may be dynamic: a channels-last workgroup's rows at
  // the image's top or bottom start inside the padding.
  SmallVector<OpFoldResult> offsets = interior.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = interior.getMixedSizes();
  ArrayRef<int64_t> shape = type.getShape();
  // The border fills go just before the copy, where the interior's
  // dynamic offsets and sizes are defined (only memory-effect-free ops lie
  // between the fill and the copy).
  IRRewriter rewriter(copy);
  Location loc = fillOp->getLoc();
  auto toValue = [&](OpFoldResult v) -> Value {
    if (auto attr = dyn_cast<Attribute>(v))
      return arith::ConstantIndexOp::create(rewriter, loc,
                                            cast<IntegerAttr>(attr).getInt());
    return cast<Value>(v);
  };
  auto sub = [&](OpFoldResult a, OpFoldResult b) -> OpFoldResult {
    std::optional<int64_t> x = getConstantIntValue(a),
                           y = getConstantIntValue(b);
    if (x && y)
      return rewriter.getIndexAttr(*x - *y);
    if (y == 0)
      return a;
    return arith::SubIOp::create(rewriter, loc, toValue(a), toValue(b))
        .getResult();
  };
  auto add = [&](OpFoldResult a, OpFoldResult b) -> OpFoldResult {
    std::optional<int64_t> x = getConstantIntValue(a),
                           y = getConstantIntValue(b);
    if (x && y)
      return rewriter.getIndexAttr(*x + *y);
    return arith::AddIOp::create(rewriter, loc, toValue(a), toValue(b))
        .getResult();
  };
  auto slab = [&](unsigned d, OpFoldResult begin, OpFoldResult end) {
    OpFoldResult extent = sub(end, begin);
    if (std::optional<int64_t> e = getConstantIntValue(extent); e && *e <= 0)
      return;
    SmallVector<OpFoldResult> slabOffsets, slabSizes;
    for (unsigned i = 0; i < shape.size(); ++i) {
      if (i < d) {
        slabOffsets.push_back(offsets[i]);
        slabSizes.push_back(sizes[i]);
      } else if (i == d) {
        slabOffsets.push_back(begin);
        slabSizes.push_back(extent);
      } else {
        slabOffsets.push_back(rewriter.getIndexAttr(0));
        slabSizes.push_back(rewriter.getIndexAttr(shape[i]));
      }
    }
    SmallVector<OpFoldResult> strides(shape.size(), rewriter.getIndexAttr(1));
    Value view = memref::SubViewOp::create(rewriter, loc, buffer, slabOffsets,
                                           slabSizes, strides);
    // The same fill on the slab: loops whose rows LLVM turns into memsets.
    Operation *fill = rewriter.clone(*fillOp);
    rewriter.modifyOpInPlace(fill, [&] {
      cast<DestinationStyleOpInterface>(fill).getDpsInitsMutable()[0].set(view);
    });
  };
  for (unsigned d = 0; d < shape.size(); ++d) {
    slab(d, rewriter.getIndexAttr(0), offsets[d]);
    slab(d, add(offsets[d], sizes[d]), rewriter.getIndexAttr(shape[d]));
  }
  rewriter.eraseOp(fillOp);
}

struct CpuLowerCopiesPass : impl::CpuLowerCopiesPassBase<CpuLowerCopiesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> fills;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::FillOp, linalg::MapOp>(op))
        fills.push_back(op);
    });
    for (Operation *fill : fills)
      fillBorderOnly(fill);
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (!isContiguous(copy.getSource().getType()) ||
          !isContiguous(copy.getTarget().getType()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      IRRewriter rewriter(copy);
      auto loops = linalg::CopyOp::create(rewriter, copy.getLoc(),
                                          copy.getSource(), copy.getTarget());
      rewriter.eraseOp(copy);
      // As a generic, --tc-cpu-vectorize-elementwise vectorizes it along
      // its last dimension (a named copy would stay scalar loops).
      rewriter.setInsertionPoint(loops);
      (void)linalg::generalizeNamedOp(rewriter, loops);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
