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
/// Index into a broadcast operand of shape `shape` for the result position
/// whose multi-index is `index` (aligned at the trailing dimension).
int64_t broadcastIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> index) {
  int64_t linear = 0, offset = index.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + (shape[d] == 1 ? 0 : index[offset + d]);
  return linear;
}

/// Folds a binary op on two constants with numpy broadcasting. Large
/// results are left alone: folding them would copy weights at compile time.
template <typename ElementT, typename AttrElementT, typename Fn>
Attribute foldBroadcast(DenseElementsAttr lhs, DenseElementsAttr rhs,
                        RankedTensorType result, Fn fn) {
  if (!result.hasStaticShape() || result.getNumElements() > 1024)
    return {};
  if (lhs.isSplat() && rhs.isSplat()) {
    std::optional<ElementT> v =
        fn(lhs.getSplatValue<ElementT>(), rhs.getSplatValue<ElementT>());
    return v ? DenseElementsAttr::get(result, *v) : Attribute();
  }
  SmallVector<ElementT> a(lhs.getValues<ElementT>());
  SmallVector<ElementT> b(rhs.getValues<ElementT>());
  ArrayRef<int64_t> shape = result.getShape();
  SmallVector<int64_t> index(shape.size(), 0);
  SmallVector<ElementT> out;
  for (int64_t i = 0; i < result.getNumElements(); ++i) {
    int64_t rest = i;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    auto ai = lhs.isSplat() ? 0 : broadcastIndex(lhs.getType().getShape(), index);
    auto bi = rhs.isSplat() ? 0 : broadcastIndex(rhs.getType().getShape(), index);
    std::optional<ElementT> v = fn(a[ai], b[bi]);
    if (!v)
      return {};
    out.push_back(*v);
  }
  return DenseElementsAttr::get(result, out);
}

/// Evaluates `fn` elementwise over small constants with numpy broadcasting;
/// `fn` sees one element attribute per operand and returns the result's.
Attribute
evaluateBroadcast(ArrayRef<Attribute> operands, RankedTensorType result,
                  function_ref<Attribute(ArrayRef<Attribute>)> fn) {
  SmallVector<DenseElementsAttr> dense;
  for (Attribute operand : operands) {
    auto d = dyn_cast_if_present<DenseElementsAttr>(operand);
    if (!d)
      return {};
    dense.push_back(d);
  }
  if (!result.hasStaticShape() || result.getNumElements() > 1024)
    return {};
  ArrayRef<int64_t> shape = result.getShape();
  SmallVector<int64_t> index(shape.size(), 0);
  SmallVector<Attribute> out, args(dense.size());
  for (int64_t i = 0; i < result.getNumElements(); ++i) {
    int64_t rest = i;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    for (auto [k, d] : llvm::enumerate(dense))
      args[k] = d.getValues<Attribute>()[d.isSplat() ? 0
                                                     : broadcastIndex(
                                                           d.getType().getShape(),
                                                           index)];
    Attribute v = fn(args);
    if (!v)
      return {};
    out.push_back(v);
  }
  return DenseElementsAttr::get(result, out);
}

template <typename FloatFn, typename IntFn>
OpFoldResult foldConstants(Operation *op, ArrayRef<Attribute> operands,
                           FloatFn floatFn, IntFn intFn) {
  auto lhs = dyn_cast_if_present<DenseElementsAttr>(operands[0]);
  auto rhs = dyn_cast_if_present<DenseElementsAttr>(operands[1]);
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (!lhs || !rhs || lhs.getElementType() != rhs.getElementType())
    return {};
  Type element = result.getElementType();
  if (isa<FloatType>(element))
    return foldBroadcast<APFloat, FloatAttr>(lhs, rhs, result, floatFn);
  if (isa<IntegerType>(element))
    return foldBroadcast<APInt, IntegerAttr>(lhs, rhs, result, intFn);
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
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a + b;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a + b;
      });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (isIdentityOperand(getLhs(), getRhs(), getType(), 0.0))
    return getLhs();
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a - b;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isIdentityOperand(getLhs(), getRhs(), getType(), 1.0))
    return getLhs();
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a * b;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a * b;
      });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isIdentityOperand(getLhs(), getRhs(), getType(), 1.0))
    return getLhs();
  // Integer division truncates toward zero (unsigned types divide
  // unsigned); a zero divisor has no value to fold to.
  bool isUnsigned = getType().getElementType().isUnsignedInteger();
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a / b;
      },
      [isUnsigned](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero())
          return std::nullopt;
        return isUnsigned ? a.udiv(b) : a.sdiv(b);
      });
}

// Max and Min fold on constants (shape arithmetic such as
// Max(Shape(x), target) in expanded functions). NaN propagates, as in the
// lowering of ONNX Max/Min.
OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = getType().getElementType().isUnsignedInteger();
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return maximum(a, b);
      },
      [isUnsigned](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
      });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = getType().getElementType().isUnsignedInteger();
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return minimum(a, b);
      },
      [isUnsigned](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
      });
}

namespace {
/// Folds a unary op on a small constant (shape arithmetic: -axis, |step|).
template <typename FloatFn, typename IntFn>
OpFoldResult foldUnary(Attribute operand, RankedTensorType type,
                       FloatFn floatFn, IntFn intFn) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(operand);
  if (!dense || dense.getNumElements() > 1024 || !type.hasStaticShape())
    return {};
  if (isa<FloatType>(type.getElementType())) {
    SmallVector<APFloat> values;
    for (APFloat v : dense.getValues<APFloat>())
      values.push_back(floatFn(v));
    return DenseElementsAttr::get(type, values);
  }
  SmallVector<APInt> values;
  for (APInt v : dense.getValues<APInt>())
    values.push_back(intFn(v));
  return DenseElementsAttr::get(type, values);
}
} // namespace

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldUnary(
      adaptor.getInput(), getType(), [](APFloat v) { return neg(v); },
      [](APInt v) { return -v; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = getType().getElementType().isUnsignedInteger();
  return foldUnary(
      adaptor.getInput(), getType(), [](APFloat v) { return abs(v); },
      [isUnsigned](APInt v) { return isUnsigned ? v : v.abs(); });
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  ComparePredicate predicate = getPredicate();
  bool isUnsigned = getLhs().getType().getElementType().isUnsignedInteger();
  Type i1 = getType().getElementType();
  return evaluateBroadcast(
      adaptor.getOperands(), getType(), [&](ArrayRef<Attribute> v) -> Attribute {
        bool r;
        if (auto a = dyn_cast<IntegerAttr>(v[0])) {
          APInt x = a.getValue(), y = cast<IntegerAttr>(v[1]).getValue();
          switch (predicate) {
          case ComparePredicate::eq: r = x == y; break;
          case ComparePredicate::ne: r = x != y; break;
          case ComparePredicate::lt: r = isUnsigned ? x.ult(y) : x.slt(y); break;
          case ComparePredicate::le: r = isUnsigned ? x.ule(y) : x.sle(y); break;
          case ComparePredicate::gt: r = isUnsigned ? x.ugt(y) : x.sgt(y); break;
          case ComparePredicate::ge: r = isUnsigned ? x.uge(y) : x.sge(y); break;
          }
        } else {
          APFloat::cmpResult c = cast<FloatAttr>(v[0]).getValue().compare(
              cast<FloatAttr>(v[1]).getValue());
          switch (predicate) {
          case ComparePredicate::eq: r = c == APFloat::cmpEqual; break;
          case ComparePredicate::ne: r = c != APFloat::cmpEqual; break;
          case ComparePredicate::lt: r = c == APFloat::cmpLessThan; break;
          case ComparePredicate::le:
            r = c == APFloat::cmpLessThan || c == APFloat::cmpEqual;
            break;
          case ComparePredicate::gt: r = c == APFloat::cmpGreaterThan; break;
          case ComparePredicate::ge:
            r = c == APFloat::cmpGreaterThan || c == APFloat::cmpEqual;
            break;
          }
        }
        return IntegerAttr::get(i1, r ? 1 : 0);
      });
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  // Both branches the same value: the condition does not matter.
  if (getOnTrue() == getOnFalse() && getOnTrue().getType() == getType())
    return getOnTrue();
  return evaluateBroadcast(adaptor.getOperands(), getType(),
                           [](ArrayRef<Attribute> v) -> Attribute {
                             return cast<IntegerAttr>(v[0]).getValue().isZero()
                                        ? v[2]
                                        : v[1];
                           });
}
