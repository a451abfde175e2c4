//===- ElementwiseOps.cpp - inference and folders of elementwise tc ops ---===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

namespace {
struct NamedOperand {
  Value value;
  StringRef name;
};

/// Broadcasts all operands' shapes; names the first pair that does not
/// broadcast. The result has `elementType`.
LogicalResult inferBroadcastResult(std::optional<Location> loc,
                                   StringRef opName,
                                   ArrayRef<NamedOperand> operands,
                                   Type elementType,
                                   SmallVectorImpl<Type> &inferred) {
  for (size_t i = 0; i < operands.size(); ++i)
    for (size_t j = i + 1; j < operands.size(); ++j) {
      ArrayRef<int64_t> a = getRankedType(operands[i].value).getShape();
      ArrayRef<int64_t> b = getRankedType(operands[j].value).getShape();
      if (!broadcastShapes(a, b))
        return emitInferError(loc, opName, "operands are not broadcast-compatible: ",
                              describeBroadcastMismatch(a, operands[i].name, b,
                                                        operands[j].name));
    }
  SmallVector<int64_t> shape;
  for (const NamedOperand &operand : operands)
    shape = *broadcastShapes(shape, getRankedType(operand.value).getShape());
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

Type elementTypeOf(Value v) { return getRankedType(v).getElementType(); }
} // namespace

// Unary ops get their inference from SameOperandsAndResultType in ODS.

// Binary ops broadcast lhs and rhs; the result has lhs's element type.
#define TC_BINARY_INFER(OP)                                                    \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &inferred) {        \
    return inferBroadcastResult(                                               \
        loc, getOperationName(),                                               \
        {{adaptor.getLhs(), "lhs"}, {adaptor.getRhs(), "rhs"}},                \
        elementTypeOf(adaptor.getLhs()), inferred);                            \
  }
TC_BINARY_INFER(AddOp)
TC_BINARY_INFER(SubOp)
TC_BINARY_INFER(MulOp)
TC_BINARY_INFER(DivOp)
TC_BINARY_INFER(MaxOp)
TC_BINARY_INFER(MinOp)
TC_BINARY_INFER(ModOp)
TC_BINARY_INFER(PreluOp)
TC_BINARY_INFER(AndOp)
TC_BINARY_INFER(OrOp)
TC_BINARY_INFER(XorOp)
TC_BINARY_INFER(ShiftLeftOp)
TC_BINARY_INFER(ShiftRightOp)
TC_BINARY_INFER(PowOp)
#undef TC_BINARY_INFER

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferBroadcastResult(
      loc, getOperationName(),
      {{adaptor.getLhs(), "lhs"}, {adaptor.getRhs(), "rhs"}},
      IntegerType::get(context, 1), inferred);
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferBroadcastResult(loc, getOperationName(),
                              {{adaptor.getCondition(), "condition"},
                               {adaptor.getOnTrue(), "on_true"},
                               {adaptor.getOnFalse(), "on_false"}},
                              elementTypeOf(adaptor.getOnTrue()), inferred);
}

LogicalResult ClampOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  inferred.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult ModOp::verify() {
  if (!getFmod() && !isa<IntegerType>(getType().getElementType()))
    return emitOpError("needs the 'fmod' attribute for floating-point "
                       "operands (ONNX Mod with fmod=0 is integer-only)");
  return success();
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

namespace {
/// Folds a binary op whose operands and result all have one static type.
template <typename FloatFn, typename IntFn>
OpFoldResult foldSameTypeConstants(Operation *op, ArrayRef<Attribute> operands,
                                   FloatFn floatFn, IntFn intFn) {
  Type type = op->getResult(0).getType();
  if (op->getOperand(0).getType() != type ||
      op->getOperand(1).getType() != type)
    return {};
  Type element = cast<ShapedType>(type).getElementType();
  if (isa<FloatType>(element))
    return constFoldBinaryOp<FloatAttr, APFloat, /*PoisonAttr=*/void>(
        operands, floatFn);
  if (isa<IntegerType>(element))
    return constFoldBinaryOp<IntegerAttr, APInt, /*PoisonAttr=*/void>(
        operands, intFn);
  return {};
}

/// `op(x, c)` is `x` when c is the identity splat and broadcasting does not
/// change x's type.
bool isIdentityOperand(Value lhs, Value rhs, Type resultType, double identity) {
  if (lhs.getType() != resultType)
    return false;
  Type element = getElementTypeOrSelf(rhs.getType());
  if (isa<FloatType>(element))
    return matchPattern(rhs, m_Constant()) &&
           ((identity == 0.0 && matchPattern(rhs, m_AnyZeroFloat())) ||
            (identity == 1.0 && matchPattern(rhs, m_OneFloat())));
  if (isa<IntegerType>(element))
    return (identity == 0.0 && matchPattern(rhs, m_Zero())) ||
           (identity == 1.0 && matchPattern(rhs, m_One()));
  return false;
}
} // namespace

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (isIdentityOperand(getLhs(), getRhs(), getType(), 0.0))
    return getLhs();
  return foldSameTypeConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a + b; },
      [](const APInt &a, const APInt &b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (isIdentityOperand(getLhs(), getRhs(), getType(), 0.0))
    return getLhs();
  return foldSameTypeConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a - b; },
      [](const APInt &a, const APInt &b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isIdentityOperand(getLhs(), getRhs(), getType(), 1.0))
    return getLhs();
  return foldSameTypeConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a * b; },
      [](const APInt &a, const APInt &b) { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isIdentityOperand(getLhs(), getRhs(), getType(), 1.0))
    return getLhs();
  // Integer division by zero has no value to fold to; only floats fold.
  if (!isa<FloatType>(getType().getElementType()))
    return {};
  return foldSameTypeConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a / b; },
      [](const APInt &, const APInt &) -> std::optional<APInt> {
        return std::nullopt;
      });
}

OpFoldResult NegOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return {};
}
