//===- WidenBroadcastOperands.cpp - --tc-cpu-widen-broadcast-operands -----===//
//
// A register tile (RegisterTiling.h) reads one operand along its vector
// lanes and broadcasts the other, one element per tile row and reduction
// step. An f32 broadcast is folded into the FMA as a memory operand; a
// bf16/f16 one (--precision) takes a scalar load, a widening shift and a
// broadcast from a general register per row and step, which compete with
// the FMAs for the vector ports: a bf16 ResNet-50 ran at 3/4 of the fp32
// one's speed. Widening that operand to f32 before the tile, once per
// element (a tile reads it once per lane block of N), is exact and gives
// the tile the f32 broadcast back; the lanes operand, read as whole
// vectors, stays 16-bit and keeps halving the weights' memory traffic.
//
// Runs on tensors, after --tc-cpu-pack-weights. The widening is an
// elementwise generic before the contraction's kernel (a fusion.group),
// or inside it when the kernel computes the operand itself.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/APFloat.h"

#include <cstring>

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUWIDENBROADCASTOPERANDSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The input of `op` a register tile would broadcast, when it is 16-bit
/// and the accumulator f32, and the body only widens it.
OpOperand *narrowBroadcastOperand(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      !hasMultiplyAddBody(op))
    return nullptr;
  Type acc = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (!acc.isF32())
    return nullptr;
  std::optional<RegisterTileDims> dims = registerTileDims(op);
  if (!dims || !dims->rows)
    return nullptr;
  OpOperand *found = nullptr;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Type element = getElementTypeOrSelf(in->get().getType());
    if ((!element.isBF16() && !element.isF16()) ||
        op.getMatchingIndexingMap(in).isFunctionOfDim(dims->lanes))
      continue;
    if (found)
      return nullptr;
    found = in;
  }
  return found;
}

/// The body's uses of the block argument of `operand` are all extensions to
/// f32 (generic bodies from --convert-tc-to-linalg and generalized named
/// ops).
bool onlyWidened(linalg::GenericOp op, OpOperand *operand) {
  BlockArgument arg = op.getMatchingBlockArgument(operand);
  return llvm::all_of(arg.getUsers(), [](Operation *user) {
    auto ext = dyn_cast<arith::ExtFOp>(user);
    return ext && ext.getType().isF32();
  });
}

/// `narrow` extended to f32 by an elementwise generic at the rewriter's
/// insertion point.
Value widened(RewriterBase &rewriter, Location loc, Value narrow) {
  auto type = cast<RankedTensorType>(narrow.getType());
  auto wideType = type.clone(rewriter.getF32Type());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, narrow);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes,
                                        rewriter.getF32Type());
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, wideType, ValueRange{narrow}, ValueRange{empty},
      ArrayRef<AffineMap>{identity, identity}, parallel,
      [](OpBuilder &b, Location l, ValueRange args) {
        Value x = arith::ExtFOp::create(b, l, b.getF32Type(), args[0]);
        linalg::YieldOp::create(b, l, x);
      });
  return generic.getResult(0);
}

/// `value`, a 16-bit weight, as an f32 constant made at compile time (the
/// filter of a convolution whose tile puts the image width in lanes); or
/// null. A weight read elsewhere too keeps its 16-bit copy for those reads.
Value widenConstant(RewriterBase &rewriter, Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!constant || !type)
    return nullptr;
  std::optional<ArrayRef<char>> bytes = floatWeightBytes(constant, type);
  if (!bytes)
    return nullptr;
  bool half = type.getElementType().isF16();
  auto wideType = type.clone(rewriter.getF32Type());
  DenseResourceElementsAttr wide =
      weightResource(wideType, "widened", [&](char *out) {
        const llvm::fltSemantics &semantics =
            half ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat();
        for (size_t i = 0; i < bytes->size() / 2; ++i) {
          uint16_t bits;
          std::memcpy(&bits, bytes->data() + 2 * i, 2);
          float x;
          if (!half) {
            uint32_t word = uint32_t(bits) << 16;
            std::memcpy(&x, &word, 4);
          } else {
            x = llvm::APFloat(semantics, llvm::APInt(16, bits)).convertToFloat();
          }
          std::memcpy(out + 4 * i, &x, 4);
        }
      });
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(constant);
  return arith::ConstantOp::create(rewriter, constant.getLoc(), wide);
}

/// `value`, the result of a computing kernel that only this reader uses,
/// widened where that kernel writes it, so that it is written once, in f32
/// (the rounding to 16 bits and the widening then fuse into one generic);
/// or null.
Value widenProducer(RewriterBase &rewriter, Location loc, Value value) {
  auto producer = value.getDefiningOp<fusion::GroupOp>();
  if (!producer || !value.hasOneUse() ||
      producer.getKind() == fusion::GroupKind::view ||
      producer.getKind() == fusion::GroupKind::opaque)
    return nullptr;
  unsigned result = cast<OpResult>(value).getResultNumber();
  fusion::YieldOp yield = producer.getYield();
  rewriter.setInsertionPoint(yield);
  Value wide = widened(rewriter, loc, yield.getOperand(result));
  rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(result, wide); });
  rewriter.modifyOpInPlace(producer, [&] {
    producer.getResult(result).setType(wide.getType());
  });
  return producer.getResult(result);
}

/// `value` widened by a kernel of its own before `consumer`.
Value widenInKernelOfItsOwn(RewriterBase &rewriter, Location loc,
                            fusion::GroupOp consumer, Value value) {
  rewriter.setInsertionPoint(consumer);
  auto wideType =
      cast<RankedTensorType>(value.getType()).clone(rewriter.getF32Type());
  auto widening = fusion::GroupOp::create(
      rewriter, loc, TypeRange{wideType}, ValueRange{value},
      (consumer.getName() + "_widen").str(), fusion::GroupKind::elementwise,
      "widens a 16-bit operand its consumer's register tile broadcasts");
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&widening.getBodyBlock());
  Value body = widened(rewriter, loc, widening.getBodyBlock().getArgument(0));
  fusion::YieldOp::create(rewriter, loc, ValueRange{body});
  return widening.getResult(0);
}

/// Makes `op` read `operand` as f32. When it comes from the kernel's
/// input that nothing else in the kernel reads, the kernel's input is
/// widened, before the kernel: inside it, each workgroup would widen the
/// rows it reads again for every block of N it computes.
void widen(RewriterBase &rewriter, linalg::GenericOp op, OpOperand *operand) {
  Location loc = op.getLoc();
  Value narrow = operand->get();
  auto input = dyn_cast<BlockArgument>(narrow);
  auto group = input ? dyn_cast<fusion::GroupOp>(input.getOwner()->getParentOp())
                     : nullptr;
  Value wide;
  if (group && input.hasOneUse()) {
    OpOperand &outer = group->getOpOperand(input.getArgNumber());
    Value value = widenConstant(rewriter, outer.get());
    if (!value)
      value = widenProducer(rewriter, loc, outer.get());
    if (!value)
      value = widenInKernelOfItsOwn(rewriter, loc, group, outer.get());
    rewriter.modifyOpInPlace(group, [&] {
      outer.set(value);
      input.setType(value.getType());
    });
    wide = input;
  } else {
    rewriter.setInsertionPoint(op);
    wide = widened(rewriter, loc, narrow);
  }
  rewriter.modifyOpInPlace(op, [&] {
    operand->set(wide);
    BlockArgument arg = op.getMatchingBlockArgument(operand);
    arg.setType(rewriter.getF32Type());
    for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
      user->getResult(0).replaceAllUsesWith(arg);
      user->erase();
    }
  });
}

struct CpuWidenBroadcastOperandsPass
    : impl::CpuWidenBroadcastOperandsPassBase<CpuWidenBroadcastOperandsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (narrowBroadcastOperand(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        // Named ops (linalg.matmul) carry their casts implicitly.
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, op);
        if (failed(g))
          continue;
        generic = *g;
      }
      OpOperand *operand = narrowBroadcastOperand(generic);
      if (operand && onlyWidened(generic, operand))
        widen(rewriter, generic, operand);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
