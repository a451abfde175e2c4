//===- Elementwise.cpp - tc elementwise ops to linalg.generic -------------===//
//
// Every elementwise tc op becomes one all-parallel linalg.generic over the
// broadcast result shape; each operand reads through its numpy broadcast
// map. The scalar computation per op is one `scalar` overload below, so the
// generic structure is written once.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include <cmath>

namespace mlir::tc::to_linalg {
namespace {

/// What a scalar body sees: the converted operand values and the tc element
/// types of the operands and the result (which still say "unsigned").
struct ScalarArgs {
  OpBuilder &b;
  Location loc;
  ValueRange args;
  ArrayRef<Type> types;
  Type resultType;

  Value arg(unsigned i) const { return args[i]; }
  bool isFloat() const { return isa<FloatType>(types[0]); }
  bool isUnsigned() const {
    return isUnsignedInt(types[0]) ||
           (isa<IntegerType>(types[0]) && types[0].getIntOrFloatBitWidth() == 1);
  }
  Value constant(double value) const {
    return scalarConstant(b, loc, args[0].getType(), value);
  }
};

#define UNARY_FLOAT(OP, MATHOP)                                                \
  Value scalar(OP, const ScalarArgs &s) {                                      \
    return MATHOP::create(s.b, s.loc, s.arg(0));                               \
  }
UNARY_FLOAT(ExpOp, math::ExpOp)
UNARY_FLOAT(LogOp, math::LogOp)
UNARY_FLOAT(SqrtOp, math::SqrtOp)
UNARY_FLOAT(RsqrtOp, math::RsqrtOp)
UNARY_FLOAT(TanhOp, math::TanhOp)
UNARY_FLOAT(ErfOp, math::ErfOp)
UNARY_FLOAT(SinOp, math::SinOp)
UNARY_FLOAT(CosOp, math::CosOp)
UNARY_FLOAT(TanOp, math::TanOp)
UNARY_FLOAT(AsinOp, math::AsinOp)
UNARY_FLOAT(AcosOp, math::AcosOp)
UNARY_FLOAT(AtanOp, math::AtanOp)
UNARY_FLOAT(SinhOp, math::SinhOp)
UNARY_FLOAT(CoshOp, math::CoshOp)
UNARY_FLOAT(AsinhOp, math::AsinhOp)
UNARY_FLOAT(AcoshOp, math::AcoshOp)
UNARY_FLOAT(AtanhOp, math::AtanhOp)
UNARY_FLOAT(FloorOp, math::FloorOp)
UNARY_FLOAT(CeilOp, math::CeilOp)
UNARY_FLOAT(RoundOp, math::RoundEvenOp)
#undef UNARY_FLOAT

/// Round to nearest even at bit 13: add 0xfff plus the lowest kept bit,
/// then clear the 13 dropped bits. A carry out of the mantissa steps the
/// exponent, which is the rounding up (to infinity past TF32's largest
/// value); NaN, whose payload the mask could clear, is kept as it is.
Value scalar(RoundToTf32Op, const ScalarArgs &s) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, s.arg(0));
  Value kept = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, c(13)), c(1));
  Value biased = arith::AddIOp::create(
      b, loc, bits, arith::AddIOp::create(b, loc, kept, c(0xfff)));
  Value rounded = arith::BitcastOp::create(
      b, loc, b.getF32Type(),
      arith::AndIOp::create(b, loc, biased, c(static_cast<int32_t>(0xffffe000u))));
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                    s.arg(0), s.arg(0));
  return arith::SelectOp::create(b, loc, nan, s.arg(0), rounded);
}

Value scalar(AbsOp, const ScalarArgs &s) {
  if (s.isFloat())
    return math::AbsFOp::create(s.b, s.loc, s.arg(0));
  if (s.isUnsigned())
    return s.arg(0);
  return math::AbsIOp::create(s.b, s.loc, s.arg(0));
}

Value scalar(NegOp, const ScalarArgs &s) {
  if (s.isFloat())
    return arith::NegFOp::create(s.b, s.loc, s.arg(0));
  return arith::SubIOp::create(s.b, s.loc, s.constant(0), s.arg(0));
}

Value scalar(SignOp, const ScalarArgs &s) {
  Value x = s.arg(0), zero = s.constant(0);
  Value one = s.constant(1), minusOne = s.constant(-1);
  Value positive, negative;
  if (s.isFloat()) {
    positive = arith::CmpFOp::create(s.b, s.loc, arith::CmpFPredicate::OGT, x, zero);
    negative = arith::CmpFOp::create(s.b, s.loc, arith::CmpFPredicate::OLT, x, zero);
    // NaN and +-0 pass through unchanged.
    Value neg = arith::SelectOp::create(s.b, s.loc, negative, minusOne, x);
    return arith::SelectOp::create(s.b, s.loc, positive, one, neg);
  }
  positive = arith::CmpIOp::create(s.b, s.loc,
                                   s.isUnsigned() ? arith::CmpIPredicate::ugt
                                                  : arith::CmpIPredicate::sgt,
                                   x, zero);
  if (s.isUnsigned())
    return arith::SelectOp::create(s.b, s.loc, positive, one, zero);
  negative = arith::CmpIOp::create(s.b, s.loc, arith::CmpIPredicate::slt, x, zero);
  Value neg = arith::SelectOp::create(s.b, s.loc, negative, minusOne, zero);
  return arith::SelectOp::create(s.b, s.loc, positive, one, neg);
}

Value scalar(ReluOp, const ScalarArgs &s) {
  if (s.isFloat())
    return arith::MaximumFOp::create(s.b, s.loc, s.arg(0), s.constant(0));
  if (s.isUnsigned())
    return s.arg(0);
  return arith::MaxSIOp::create(s.b, s.loc, s.arg(0), s.constant(0));
}

Value scalar(ReciprocalOp, const ScalarArgs &s) {
  return arith::DivFOp::create(s.b, s.loc, s.constant(1), s.arg(0));
}

Value scalar(SigmoidOp, const ScalarArgs &s) {
  Value negated = arith::NegFOp::create(s.b, s.loc, s.arg(0));
  Value exp = math::ExpOp::create(s.b, s.loc, negated);
  Value denominator = arith::AddFOp::create(s.b, s.loc, s.constant(1), exp);
  return arith::DivFOp::create(s.b, s.loc, s.constant(1), denominator);
}

Value scalar(SoftplusOp, const ScalarArgs &s) {
  // max(x, 0) + log1p(exp(-|x|)) never overflows, unlike log(1 + exp(x)).
  Value x = s.arg(0);
  Value positive = arith::MaximumFOp::create(s.b, s.loc, x, s.constant(0));
  Value absolute = math::AbsFOp::create(s.b, s.loc, x);
  Value exp = math::ExpOp::create(
      s.b, s.loc, arith::NegFOp::create(s.b, s.loc, absolute));
  Value log = math::Log1pOp::create(s.b, s.loc, exp);
  return arith::AddFOp::create(s.b, s.loc, positive, log);
}

Value scalar(SoftsignOp, const ScalarArgs &s) {
  Value absolute = math::AbsFOp::create(s.b, s.loc, s.arg(0));
  Value denominator =
      arith::AddFOp::create(s.b, s.loc, s.constant(1), absolute);
  return arith::DivFOp::create(s.b, s.loc, s.arg(0), denominator);
}

Value scalar(NotOp, const ScalarArgs &s) {
  return arith::XOrIOp::create(s.b, s.loc, s.arg(0), s.constant(-1));
}

Value scalar(LeakyReluOp op, const ScalarArgs &s) {
  Value x = s.arg(0);
  Value scaled = arith::MulFOp::create(
      s.b, s.loc, x, s.constant(op.getAlpha().convertToDouble()));
  Value negative = arith::CmpFOp::create(s.b, s.loc, arith::CmpFPredicate::OLT,
                                         x, s.constant(0));
  return arith::SelectOp::create(s.b, s.loc, negative, scaled, x);
}

Value scalar(EluOp op, const ScalarArgs &s) {
  Value x = s.arg(0);
  Value expm1 = math::ExpM1Op::create(s.b, s.loc, x);
  Value scaled = arith::MulFOp::create(
      s.b, s.loc, expm1, s.constant(op.getAlpha().convertToDouble()));
  Value positive = arith::CmpFOp::create(s.b, s.loc, arith::CmpFPredicate::OGT,
                                         x, s.constant(0));
  return arith::SelectOp::create(s.b, s.loc, positive, x, scaled);
}

Value scalar(HardSigmoidOp op, const ScalarArgs &s) {
  Value scaled = arith::MulFOp::create(
      s.b, s.loc, s.arg(0), s.constant(op.getAlpha().convertToDouble()));
  Value shifted = arith::AddFOp::create(
      s.b, s.loc, scaled, s.constant(op.getBeta().convertToDouble()));
  Value low = arith::MaximumFOp::create(s.b, s.loc, shifted, s.constant(0));
  return arith::MinimumFOp::create(s.b, s.loc, low, s.constant(1));
}

Value scalar(GeluOp op, const ScalarArgs &s) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value x = s.arg(0);
  Value phi;
  if (op.getApproximateTanh()) {
    Value cube = arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, x, x), x);
    Value inner = arith::AddFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, cube, s.constant(0.044715)));
    Value scaled = arith::MulFOp::create(
        b, loc, inner, s.constant(std::sqrt(2.0 / M_PI)));
    phi = math::TanhOp::create(b, loc, scaled);
  } else {
    phi = math::ErfOp::create(
        b, loc, arith::MulFOp::create(b, loc, x, s.constant(M_SQRT1_2)));
  }
  Value onePlus = arith::AddFOp::create(b, loc, s.constant(1), phi);
  Value half = arith::MulFOp::create(b, loc, x, s.constant(0.5));
  return arith::MulFOp::create(b, loc, half, onePlus);
}

#define BINARY(OP, FOP, IOP)                                                   \
  Value scalar(OP, const ScalarArgs &s) {                                      \
    if (s.isFloat())                                                           \
      return FOP::create(s.b, s.loc, s.arg(0), s.arg(1));                      \
    return IOP::create(s.b, s.loc, s.arg(0), s.arg(1));                        \
  }
BINARY(AddOp, arith::AddFOp, arith::AddIOp)
BINARY(SubOp, arith::SubFOp, arith::SubIOp)
BINARY(MulOp, arith::MulFOp, arith::MulIOp)
#undef BINARY

#define SIGNED_BINARY(OP, FOP, SOP, UOP)                                       \
  Value scalar(OP, const ScalarArgs &s) {                                      \
    if (s.isFloat())                                                           \
      return FOP::create(s.b, s.loc, s.arg(0), s.arg(1));                      \
    if (s.isUnsigned())                                                        \
      return UOP::create(s.b, s.loc, s.arg(0), s.arg(1));                      \
    return SOP::create(s.b, s.loc, s.arg(0), s.arg(1));                        \
  }
SIGNED_BINARY(MaxOp, arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp)
SIGNED_BINARY(MinOp, arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp)
#undef SIGNED_BINARY

Value scalar(DivOp, const ScalarArgs &s) {
  if (s.isFloat())
    return arith::DivFOp::create(s.b, s.loc, s.arg(0), s.arg(1));
  // Integer division by zero is undefined in ONNX; make it yield 0 instead
  // of trapping the process.
  Value zero = s.constant(0), one = s.constant(1);
  Value isZero = arith::CmpIOp::create(s.b, s.loc, arith::CmpIPredicate::eq,
                                       s.arg(1), zero);
  Value divisor = arith::SelectOp::create(s.b, s.loc, isZero, one, s.arg(1));
  Value quotient =
      s.isUnsigned()
          ? Value(arith::DivUIOp::create(s.b, s.loc, s.arg(0), divisor))
          : Value(arith::DivSIOp::create(s.b, s.loc, s.arg(0), divisor));
  return arith::SelectOp::create(s.b, s.loc, isZero, zero, quotient);
}

Value scalar(ModOp op, const ScalarArgs &s) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value lhs = s.arg(0), rhs = s.arg(1);
  if (s.isFloat()) {
    Value rem = arith::RemFOp::create(b, loc, lhs, rhs);
    if (op.getFmod())
      return rem;
    // Python semantics: the result takes the divisor's sign.
    Value zero = s.constant(0);
    Value remNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rem, zero);
    Value rhsNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rhs, zero);
    Value remNonZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, rem, zero);
    Value differ = arith::XOrIOp::create(b, loc, remNeg, rhsNeg);
    Value fix = arith::AndIOp::create(b, loc, differ, remNonZero);
    Value adjusted = arith::AddFOp::create(b, loc, rem, rhs);
    return arith::SelectOp::create(b, loc, fix, adjusted, rem);
  }
  Value zero = s.constant(0), one = s.constant(1);
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value divisor = arith::SelectOp::create(b, loc, isZero, one, rhs);
  if (s.isUnsigned()) {
    Value rem = arith::RemUIOp::create(b, loc, lhs, divisor);
    return arith::SelectOp::create(b, loc, isZero, zero, rem);
  }
  Value rem = arith::RemSIOp::create(b, loc, lhs, divisor);
  if (!op.getFmod()) {
    Value remNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
    Value rhsNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, divisor, zero);
    Value remNonZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
    Value differ = arith::XOrIOp::create(b, loc, remNeg, rhsNeg);
    Value fix = arith::AndIOp::create(b, loc, differ, remNonZero);
    Value adjusted = arith::AddIOp::create(b, loc, rem, divisor);
    rem = arith::SelectOp::create(b, loc, fix, adjusted, rem);
  }
  return arith::SelectOp::create(b, loc, isZero, zero, rem);
}

Value scalar(PreluOp, const ScalarArgs &s) {
  Value x = s.arg(0);
  Value scaled = arith::MulFOp::create(s.b, s.loc, x, s.arg(1));
  Value negative = arith::CmpFOp::create(s.b, s.loc, arith::CmpFPredicate::OLT,
                                         x, s.constant(0));
  return arith::SelectOp::create(s.b, s.loc, negative, scaled, x);
}

Value scalar(AndOp, const ScalarArgs &s) {
  return arith::AndIOp::create(s.b, s.loc, s.arg(0), s.arg(1));
}
Value scalar(OrOp, const ScalarArgs &s) {
  return arith::OrIOp::create(s.b, s.loc, s.arg(0), s.arg(1));
}
Value scalar(XorOp, const ScalarArgs &s) {
  return arith::XOrIOp::create(s.b, s.loc, s.arg(0), s.arg(1));
}

/// Shifts by the bit width or more give 0 (LLVM would give poison).
Value guardedShift(const ScalarArgs &s, Value shifted) {
  unsigned width = s.args[0].getType().getIntOrFloatBitWidth();
  Value tooFar = arith::CmpIOp::create(s.b, s.loc, arith::CmpIPredicate::uge,
                                       s.arg(1), s.constant(width));
  return arith::SelectOp::create(s.b, s.loc, tooFar, s.constant(0), shifted);
}
Value scalar(ShiftLeftOp, const ScalarArgs &s) {
  return guardedShift(s, arith::ShLIOp::create(s.b, s.loc, s.arg(0), s.arg(1)));
}
Value scalar(ShiftRightOp, const ScalarArgs &s) {
  if (s.isUnsigned())
    return guardedShift(
        s, arith::ShRUIOp::create(s.b, s.loc, s.arg(0), s.arg(1)));
  return arith::ShRSIOp::create(s.b, s.loc, s.arg(0), s.arg(1));
}

Value scalar(PowOp, const ScalarArgs &s) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Type baseType = s.types[0], exponentType = s.types[1];
  if (isa<FloatType>(baseType)) {
    Value exponent = castScalar(b, loc, s.arg(1), exponentType, baseType);
    return math::PowFOp::create(b, loc, s.arg(0), exponent);
  }
  if (isa<FloatType>(exponentType)) {
    // Integer base, float exponent: compute in double, truncate back.
    Type f64 = b.getF64Type();
    Value base = castScalar(b, loc, s.arg(0), baseType, f64);
    Value exponent = castScalar(b, loc, s.arg(1), exponentType, f64);
    Value power = math::PowFOp::create(b, loc, base, exponent);
    return castScalar(b, loc, power, f64, baseType);
  }
  Value exponent = castScalar(b, loc, s.arg(1), exponentType, baseType);
  return math::IPowIOp::create(b, loc, s.arg(0), exponent);
}

Value scalar(CompareOp op, const ScalarArgs &s) {
  using P = ComparePredicate;
  P predicate = op.getPredicate();
  if (s.isFloat()) {
    arith::CmpFPredicate fp;
    switch (predicate) {
    case P::eq: fp = arith::CmpFPredicate::OEQ; break;
    case P::ne: fp = arith::CmpFPredicate::UNE; break;
    case P::lt: fp = arith::CmpFPredicate::OLT; break;
    case P::le: fp = arith::CmpFPredicate::OLE; break;
    case P::gt: fp = arith::CmpFPredicate::OGT; break;
    case P::ge: fp = arith::CmpFPredicate::OGE; break;
    }
    return arith::CmpFOp::create(s.b, s.loc, fp, s.arg(0), s.arg(1));
  }
  bool u = s.isUnsigned();
  arith::CmpIPredicate ip;
  switch (predicate) {
  case P::eq: ip = arith::CmpIPredicate::eq; break;
  case P::ne: ip = arith::CmpIPredicate::ne; break;
  case P::lt: ip = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
  case P::le: ip = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
  case P::gt: ip = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
  case P::ge: ip = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
  }
  return arith::CmpIOp::create(s.b, s.loc, ip, s.arg(0), s.arg(1));
}

Value scalar(SelectOp, const ScalarArgs &s) {
  return arith::SelectOp::create(s.b, s.loc, s.arg(0), s.arg(1), s.arg(2));
}

Value scalar(ClampOp, const ScalarArgs &s) {
  Value x = s.arg(0), lo = s.arg(1), hi = s.arg(2);
  if (s.isFloat()) {
    Value low = arith::MaximumFOp::create(s.b, s.loc, x, lo);
    return arith::MinimumFOp::create(s.b, s.loc, low, hi);
  }
  if (s.isUnsigned()) {
    Value low = arith::MaxUIOp::create(s.b, s.loc, x, lo);
    return arith::MinUIOp::create(s.b, s.loc, low, hi);
  }
  Value low = arith::MaxSIOp::create(s.b, s.loc, x, lo);
  return arith::MinSIOp::create(s.b, s.loc, low, hi);
}

Value scalar(CastOp op, const ScalarArgs &s) {
  return castScalar(s.b, s.loc, s.arg(0), s.types[0], s.resultType,
                    op.getSaturate());
}

/// One pattern for every elementwise op: a parallel generic over the
/// broadcast shape whose body is `scalar(op, ...)`.
template <typename OpTy>
struct ElementwisePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getResult().getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    // Narrow types are bytes here (NarrowTypes.cpp): only casts decode them,
    // and select moves them; arithmetic on them is refused, not miscomputed.
    if (!isa<CastOp, SelectOp>(op.getOperation()) &&
        llvm::any_of(op->getOperandTypes(), [](Type type) {
          return isByteStored(cast<ShapedType>(type).getElementType());
        }))
      return rewriter.notifyMatchFailure(op, "arithmetic on a narrow type");
    SmallVector<Value> inputs(adaptor.getOperands());
    SmallVector<Type> tcTypes;
    SmallVector<AffineMap> maps;
    for (Value operand : op->getOperands()) {
      tcTypes.push_back(elementTypeOf(operand));
      maps.push_back(broadcastMap(rewriter.getContext(),
                                  cast<RankedTensorType>(operand.getType()),
                                  resultType.getShape()));
    }
    Value init = emptyBroadcastResult(rewriter, loc, resultType, inputs);
    checkBroadcastExtents(rewriter, loc, op, init, inputs);
    maps.push_back(rewriter.getMultiDimIdentityMap(resultType.getRank()));
    Type tcResultType = elementTypeOf(op.getResult());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        parallelIterators(resultType.getRank()),
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          ScalarArgs s{b, nestedLoc, args.drop_back(), tcTypes, tcResultType};
          linalg::YieldOp::create(b, nestedLoc, scalar(op, s));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void populateElementwisePatterns(TcTypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<
      ElementwisePattern<AbsOp>, ElementwisePattern<NegOp>,
      ElementwisePattern<SignOp>, ElementwisePattern<ReluOp>,
      ElementwisePattern<ExpOp>, ElementwisePattern<LogOp>,
      ElementwisePattern<SqrtOp>, ElementwisePattern<RsqrtOp>,
      ElementwisePattern<ReciprocalOp>, ElementwisePattern<TanhOp>,
      ElementwisePattern<SigmoidOp>, ElementwisePattern<ErfOp>,
      ElementwisePattern<SinOp>, ElementwisePattern<CosOp>,
      ElementwisePattern<TanOp>, ElementwisePattern<AsinOp>,
      ElementwisePattern<AcosOp>, ElementwisePattern<AtanOp>,
      ElementwisePattern<SinhOp>, ElementwisePattern<CoshOp>,
      ElementwisePattern<AsinhOp>, ElementwisePattern<AcoshOp>,
      ElementwisePattern<AtanhOp>, ElementwisePattern<FloorOp>,
      ElementwisePattern<CeilOp>, ElementwisePattern<RoundOp>,
      ElementwisePattern<RoundToTf32Op>,
      ElementwisePattern<SoftplusOp>, ElementwisePattern<SoftsignOp>,
      ElementwisePattern<NotOp>, ElementwisePattern<LeakyReluOp>,
      ElementwisePattern<EluOp>, ElementwisePattern<HardSigmoidOp>,
      ElementwisePattern<GeluOp>, ElementwisePattern<AddOp>,
      ElementwisePattern<SubOp>, ElementwisePattern<MulOp>,
      ElementwisePattern<DivOp>, ElementwisePattern<MaxOp>,
      ElementwisePattern<MinOp>, ElementwisePattern<ModOp>,
      ElementwisePattern<PreluOp>, ElementwisePattern<AndOp>,
      ElementwisePattern<OrOp>, ElementwisePattern<XorOp>,
      ElementwisePattern<ShiftLeftOp>, ElementwisePattern<ShiftRightOp>,
      ElementwisePattern<PowOp>, ElementwisePattern<CompareOp>,
      ElementwisePattern<SelectOp>, ElementwisePattern<ClampOp>,
      ElementwisePattern<CastOp>>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
