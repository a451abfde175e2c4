//===- ApplyPrecision.cpp - contractions in tf32/fp16/bf16 (--precision) --===//
//
// Autocast's policy as a graph rewrite: the ops whose cost is in their
// multiply-adds read 16-bit operands and write a 16-bit result, computed
// with f32 accumulation; the rest of the graph stays f32. Doing it on the
// tc graph, before fusion, lets every target share one numerics (the CPU's
// result is the reference for the GPU's) and lets the casts fuse into the
// kernels around the contraction instead of being kernels of their own.
// TF32 is the same policy with a rounding in place of the cast: the factors
// keep f32 storage, rounded to TF32's 10 mantissa bits as tensor cores read
// them, and the products, exact in f32, accumulate in f32.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/NodeNames.h"
#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

namespace mlir::tc {
#define GEN_PASS_DEF_TCAPPLYPRECISIONPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// fp16's largest finite value; anything at or above 65520 rounds to
/// infinity.
constexpr double kHalfOverflow = 65520.0;

/// The largest finite magnitude of the f32 constant `value` comes from,
/// through layout ops, or nullopt when it is not a constant.
std::optional<double> constantMagnitude(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<TransposeOp, ReshapeOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    auto constant = dyn_cast<ConstantOp>(def);
    if (!constant)
      return std::nullopt;
    auto elements = dyn_cast<ElementsAttr>(constant.getValue());
    if (!elements)
      return std::nullopt;
    double largest = 0;
    auto consider = [&](float x) {
      if (std::isfinite(x))
        largest = std::max(largest, static_cast<double>(std::fabs(x)));
    };
    if (auto dense = dyn_cast<DenseElementsAttr>(elements);
        dense && dense.isSplat()) {
      consider(dense.getSplatValue<APFloat>().convertToFloat());
      return largest;
    }
    std::optional<ArrayRef<char>> bytes = constantBytes(elements);
    if (!bytes)
      return std::nullopt;
    for (size_t i = 0; i + sizeof(float) <= bytes->size(); i += sizeof(float)) {
      float x;
      std::memcpy(&x, bytes->data() + i, sizeof(float));
      consider(x);
    }
    return largest;
  }
  return std::nullopt;
}

/// The ops the policy runs in the 16-bit type. All their operands are cast:
/// a convolution's bias and attention's mask join the f32 accumulation.
bool isPolicyOp(Operation *op) {
  return isa<MatmulOp, BatchMatmulOp, ConvOp, ConvTransposeOp, AttentionOp>(
      op);
}

/// What the policy does to an operand: cast it to a 16-bit type (`low`),
/// or, for tf32 (`low` null), round it to TF32's precision and keep f32.
struct Narrowing {
  Type low;

  TensorType typeFor(TensorType type) const {
    return low ? type.clone(low) : type;
  }
  /// Whether `op` narrows a `type` value as this policy does.
  bool isNarrowing(Operation *op, TensorType type) const {
    if (!low)
      return isa<RoundToTf32Op>(op);
    auto cast = dyn_cast<CastOp>(op);
    return cast && cast.getType() == typeFor(type) && !cast.getSaturate();
  }
  Value create(OpBuilder &b, Location loc, Value value) const {
    auto type = cast<TensorType>(value.getType());
    if (!low)
      return RoundToTf32Op::create(b, loc, value);
    return CastOp::create(b, loc, typeFor(type), value);
  }
};

/// `value` narrowed. The narrowing moves above layout ops (reshape,
/// transpose, slice) that only this op reads, which is exact: a weight is
/// then narrowed at the constant, where tc-fold-constants converts it, and
/// an activation where it is computed, so that one narrowing serves every
/// view of it (attention's Q, K and V sliced from one projection). A value
/// that is itself a `low` result widened to f32 (the previous
/// contraction's, through views) is used as it was, since widening and
/// narrowing back is the identity, as is a value already rounded to TF32.
/// `reader` is the op that reads `value`.
Value narrowOperand(OpBuilder &b, Location loc, Value value,
                    const Narrowing &narrowing, Operation *reader) {
  auto type = cast<TensorType>(value.getType());
  Operation *def = value.getDefiningOp();
  if (def && isa<TransposeOp, ReshapeOp, SliceOp>(def) && def->hasOneUse()) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(def);
    Value input =
        narrowOperand(b, loc, def->getOperand(0), narrowing, def);
    Operation *layout = b.clone(*def);
    layout->setOperand(0, input);
    layout->getResult(0).setType(narrowing.typeFor(type));
    return layout->getResult(0);
  }
  if (auto widened = dyn_cast_if_present<CastOp>(def);
      narrowing.low && widened &&
      widened.getInput().getType() == narrowing.typeFor(type))
    return widened.getInput();
  if (!narrowing.low && isa_and_present<RoundToTf32Op>(def))
    return value;
  for (Operation *user : value.getUsers())
    if (narrowing.isNarrowing(user, type) &&
        user->getBlock() == reader->getBlock() &&
        user->isBeforeInBlock(reader))
      return user->getResult(0);
  OpBuilder::InsertionGuard guard(b);
  if (Operation *producer = value.getDefiningOp())
    b.setInsertionPointAfter(producer);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
  return narrowing.create(b, loc, value);
}

/// The operands of a policy op that are multiplied: all but a
/// convolution's bias and attention's mask, which join the f32
/// accumulation.
bool isMultiplied(Operation *op, unsigned operand) {
  if (isa<ConvOp, ConvTransposeOp>(op))
    return operand < 2;
  if (isa<AttentionOp>(op))
    return operand < 3;
  return true;
}

} // namespace

SmallVector<Operation *> mlir::tc::precisionPolicyOps(Operation *root) {
  auto isF32 = [](Value v) {
    auto type = dyn_cast<TensorType>(v.getType());
    return type && type.getElementType().isF32();
  };
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isPolicyOp(op) && llvm::all_of(op->getOperands(), isF32) &&
        llvm::all_of(op->getResults(), isF32))
      ops.push_back(op);
  });
  return ops;
}

namespace {

struct TcApplyPrecisionPass
    : tc::impl::TcApplyPrecisionPassBase<TcApplyPrecisionPass> {
  using TcApplyPrecisionPassBase::TcApplyPrecisionPassBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (precision != "fp32" && precision != "tf32" && precision != "fp16" &&
        precision != "bf16")
      return emitError(UnknownLoc::get(context),
                       "tc-apply-precision: unknown precision '" + precision +
                           "' (expected fp32, tf32, fp16 or bf16)");
    return success();
  }

  void runOnOperation() override {
    if (precision == "fp32")
      return;
    Builder types(&getContext());
    Narrowing narrowing;
    if (precision == "fp16")
      narrowing.low = types.getF16Type();
    else if (precision == "bf16")
      narrowing.low = types.getBF16Type();
    for (Operation *op : precisionPolicyOps(getOperation()))
      rewrite(op, narrowing);
  }

  void rewrite(Operation *op, const Narrowing &narrowing) {
    Type low = narrowing.low;
    if (auto seen = op->getAttrOfType<FloatAttr>(kCalibratedMaxAttr);
        seen && low && low.isF16() &&
        !(seen.getValueAsDouble() < kHalfOverflow)) {
      op->emitRemark() << "--precision=fp16 keeps " << describeNode(op)
                       << " in f32: the calibration run saw "
                       << llvm::formatv("{0:e3}", seen.getValueAsDouble())
                       << ", beyond fp16's range";
      return;
    }
    if (low && low.isF16())
      for (Value operand : op->getOperands())
        if (std::optional<double> largest = constantMagnitude(operand);
            largest && *largest >= kHalfOverflow) {
          op->emitRemark() << "--precision=fp16 keeps " << describeNode(op)
                           << " in f32: a constant operand holds "
                           << llvm::formatv("{0:e3}", *largest)
                           << ", beyond fp16's range";
          return;
        }
    OpBuilder b(op);
    Location loc = op->getLoc();
    for (OpOperand &operand : op->getOpOperands()) {
      // TF32 rounds the factors only; a 16-bit policy casts every operand.
      if (!low && !isMultiplied(op, operand.getOperandNumber()))
        continue;
      Value old = operand.get();
      operand.set(narrowOperand(b, loc, old, narrowing, op));
      // The f32 layout ops the narrowing moved above, and a widening it
      // made unnecessary, are dead now.
      for (Operation *def = old.getDefiningOp();
           def && isa<TransposeOp, ReshapeOp, SliceOp, CastOp>(def) &&
           def->use_empty();) {
        Operation *next = def->getOperand(0).getDefiningOp();
        def->erase();
        def = next;
      }
    }
    // TF32 keeps f32 results: tensor cores accumulate and write f32.
    // Attention's second product multiplies probabilities it computes
    // itself, in f32: only its first has TF32 factors, so it is not marked.
    if (!low) {
      if (!isa<AttentionOp>(op))
        op->setAttr(kTf32FactorsAttr, UnitAttr::get(op->getContext()));
      return;
    }
    b.setInsertionPointAfter(op);
    for (OpResult result : op->getResults()) {
      auto type = cast<TensorType>(result.getType());
      result.setType(type.clone(low));
      auto back = CastOp::create(b, loc, type, result);
      result.replaceAllUsesExcept(back, back);
    }
  }
};

} // namespace
