//===- NarrowTypes.cpp - f8, f4, i4 and i2 elements as bytes --------------===//
//
// LLVM has no float8/float4 types (MLIR's LLVM type converter turns them
// into plain integers, and arith.extf/truncf on them do not lower), and
// sub-byte integers in memory have unspecified padding bits. So after
// conversion these types live in tensors of i8, in the byte layout of
// include/tc-runtime/module_abi.h: float patterns in the low bits, small
// integers sign- or zero-extended. Only casts look inside the bytes; they
// decode to f32 / i8 and encode back with integer arithmetic, following
// ONNX Cast (and, where ONNX defers to it, ml_dtypes, which produced the
// ONNX test data):
//   - RNE rounding, subnormals included;
//   - saturating (ONNX `saturate`, the default): out-of-range values and
//     infinities clamp to the largest finite value, NaN stays NaN;
//   - not saturating: overflow becomes Inf (E5M2) or NaN (the others);
//   - FNUZ formats have no -0 (it becomes +0) and one NaN, 0x80;
//   - f4E2M1FN has neither NaN nor Inf: it always saturates, and NaN becomes
//     a zero (ml_dtypes' choice: the NaN's sign bit inverted);
//   - f8E8M0FNU is an unsigned power of two: the input's f32 exponent,
//     rounded up when any fraction bit is set (ONNX round_mode "up").
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APFloat.h"

namespace mlir::tc::to_linalg {
namespace {

/// How a float format spends its special encodings.
enum class Specials { Ieee, Fn, Fnuz, None };

/// A float8/float4 format: field widths, bias, and where NaN/Inf live.
struct NarrowFormat {
  unsigned width, mantissa, bias;
  uint64_t maxCode; // magnitude bits of the largest finite value
  Specials specials;
  const llvm::fltSemantics *semantics;

  static NarrowFormat of(FloatType type) {
    const llvm::fltSemantics &sem = type.getFloatSemantics();
    NarrowFormat f;
    f.width = type.getWidth();
    f.mantissa = llvm::APFloat::semanticsPrecision(sem) - 1;
    f.bias = 1 - llvm::APFloat::semanticsMinExponent(sem);
    f.maxCode = llvm::APFloat::getLargest(sem).bitcastToAPInt().getZExtValue();
    f.semantics = &sem;
    if (isa<Float8E5M2Type>(type))
      f.specials = Specials::Ieee;
    else if (isa<Float8E4M3FNType>(type))
      f.specials = Specials::Fn;
    else if (isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(type))
      f.specials = Specials::Fnuz;
    else
      f.specials = Specials::None;
    return f;
  }
};

/// Integer arithmetic on one integer type, to keep the bit twiddling short.
struct Bits {
  OpBuilder &b;
  Location loc;
  IntegerType type;

  Value c(uint64_t value) const {
    return arith::ConstantIntOp::create(
        b, loc, type, APInt(type.getWidth(), value, /*isSigned=*/false));
  }
  Value shr(Value x, Value n) const { return arith::ShRUIOp::create(b, loc, x, n); }
  Value shr(Value x, uint64_t n) const { return shr(x, c(n)); }
  Value shl(Value x, Value n) const { return arith::ShLIOp::create(b, loc, x, n); }
  Value shl(Value x, uint64_t n) const { return shl(x, c(n)); }
  Value band(Value x, uint64_t m) const { return arith::AndIOp::create(b, loc, x, c(m)); }
  Value bor(Value x, Value y) const { return arith::OrIOp::create(b, loc, x, y); }
  Value bor(Value x, uint64_t m) const { return bor(x, c(m)); }
  Value add(Value x, Value y) const { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, uint64_t y) const { return add(x, c(y)); }
  Value sub(Value x, Value y) const { return arith::SubIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value cmp(arith::CmpIPredicate p, Value x, uint64_t y) const {
    return cmp(p, x, c(y));
  }
  Value select(Value cond, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value select(Value cond, uint64_t x, Value y) const {
    return select(cond, c(x), y);
  }
  /// x >> s rounded to nearest, ties to even (s >= 1, may be a value).
  Value shrRoundEven(Value x, Value s) const {
    Value half = shl(c(1), sub(s, c(1)));
    Value odd = band(shr(x, s), 1);
    return shr(add(add(x, sub(half, c(1))), odd), s);
  }
};

using P = arith::CmpIPredicate;

bool isNarrowFloat(Type type) {
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(type);
}

bool isNarrowInt(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && (intType.getWidth() == 2 || intType.getWidth() == 4);
}

/// The byte of a small integer with only its own bits kept, extended.
Value canonicalInt(OpBuilder &b, Location loc, Value byte, IntegerType type) {
  Bits i8{b, loc, b.getI8Type()};
  unsigned spare = 8 - type.getWidth();
  if (type.isUnsigned())
    return i8.band(byte, (1u << type.getWidth()) - 1);
  return arith::ShRSIOp::create(b, loc, i8.shl(byte, spare), i8.c(spare));
}

/// f8E8M0FNU bits -> f32: 2^(code - 127); 0xff is NaN.
Value decodeE8M0(OpBuilder &b, Location loc, Value byte) {
  Bits i32{b, loc, b.getI32Type()};
  Value code = arith::ExtUIOp::create(b, loc, i32.type, byte);
  // Code 0 is 2^-127, an f32 subnormal.
  Value bits = i32.select(i32.cmp(P::eq, code, 0), 0x00400000,
                          i32.shl(code, 23));
  bits = i32.select(i32.cmp(P::eq, code, 0xff), 0x7fc00000, bits);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

/// f8/f4 bits -> f32 (exact: every value of these formats is an f32).
Value decodeFloat(OpBuilder &b, Location loc, Value byte, FloatType type) {
  if (isa<Float8E8M0FNUType>(type))
    return decodeE8M0(b, loc, byte);
  NarrowFormat f = NarrowFormat::of(type);
  Bits i32{b, loc, b.getI32Type()};
  Value v = i32.band(arith::ExtUIOp::create(b, loc, i32.type, byte),
                     (1u << f.width) - 1);
  unsigned exponentMask = (1u << (f.width - 1 - f.mantissa)) - 1;
  Value sign = i32.shl(i32.shr(v, f.width - 1), 31);
  Value exponent = i32.band(i32.shr(v, f.mantissa), exponentMask);
  Value mantissa = i32.band(v, (1u << f.mantissa) - 1);
  // value = significand * 2^(max(exponent, 1) - bias - mantissa bits), where
  // the significand has the implicit bit unless the number is subnormal.
  Value isSubnormal = i32.cmp(P::eq, exponent, 0);
  Value significand =
      i32.select(isSubnormal, mantissa, i32.bor(mantissa, 1u << f.mantissa));
  Value scaleExponent = i32.add(i32.select(isSubnormal, 1, exponent),
                                127 - f.bias - f.mantissa);
  Type f32 = b.getF32Type();
  Value scale =
      arith::BitcastOp::create(b, loc, f32, i32.shl(scaleExponent, 23));
  Value magnitude = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, f32, significand), scale);
  Value bits = i32.bor(arith::BitcastOp::create(b, loc, i32.type, magnitude),
                       sign);
  Value nan = i32.bor(sign, 0x7fc00000);
  switch (f.specials) {
  case Specials::Ieee: {
    Value special = i32.cmp(P::eq, exponent, exponentMask);
    Value inf = i32.bor(sign, 0x7f800000);
    bits = i32.select(special,
                      i32.select(i32.cmp(P::eq, mantissa, 0), inf, nan), bits);
    break;
  }
  case Specials::Fn:
    bits = i32.select(i32.cmp(P::eq, i32.band(v, 0x7f), 0x7f), nan, bits);
    break;
  case Specials::Fnuz:
    bits = i32.select(i32.cmp(P::eq, v, 0x80), 0x7fc00000, bits);
    break;
  case Specials::None:
    break;
  }
  return arith::BitcastOp::create(b, loc, f32, bits);
}

/// f32 -> f8E8M0FNU bits, rounding up (ONNX Cast round_mode "up").
Value encodeE8M0(OpBuilder &b, Location loc, Value x, bool saturate) {
  Bits i32{b, loc, b.getI32Type()};
  Value u = arith::BitcastOp::create(b, loc, i32.type, x);
  Value exponent = i32.band(i32.shr(u, 23), 0xff);
  Value fraction = i32.band(u, 0x7fffff);
  // Below f32's normals the value is fraction * 2^-149; code 0 (2^-127) is
  // fraction 2^22, so only more than that rounds up to code 1.
  Value roundUp = i32.select(i32.cmp(P::eq, exponent, 0),
                             i32.cmp(P::ugt, fraction, 0x400000),
                             i32.cmp(P::ne, fraction, 0));
  Value code = i32.add(exponent, arith::ExtUIOp::create(b, loc, i32.type, roundUp));
  // Saturating keeps the largest power (0xfe) for overflow and infinity.
  if (saturate)
    code = arith::MinUIOp::create(b, loc, code, i32.c(0xfe));
  Value isNaN = i32.cmp(P::ugt, i32.band(u, 0x7fffffff), 0x7f800000);
  code = i32.select(isNaN, 0xff, code);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), code);
}

/// f32 or f64 -> f8/f4 bits (f4 in the low nibble).
Value encodeFloat(OpBuilder &b, Location loc, Value x, FloatType type,
                  bool saturate) {
  auto source = cast<FloatType>(x.getType());
  if (isa<Float8E8M0FNUType>(type)) {
    if (!source.isF32()) // as ONNX's reference: through f32
      x = source.getWidth() > 32
              ? Value(arith::TruncFOp::create(b, loc, b.getF32Type(), x))
              : Value(arith::ExtFOp::create(b, loc, b.getF32Type(), x));
    return encodeE8M0(b, loc, x, saturate);
  }
  NarrowFormat f = NarrowFormat::of(type);
  unsigned w = source.getWidth();
  unsigned sm = llvm::APFloat::semanticsPrecision(source.getFloatSemantics()) - 1;
  unsigned sbias = 1 - llvm::APFloat::semanticsMinExponent(source.getFloatSemantics());
  Bits iw{b, loc, b.getIntegerType(w)};
  bool saturating = saturate || f.specials == Specials::None;

  Value u = arith::BitcastOp::create(b, loc, iw.type, x);
  Value sign = iw.shr(u, w - 1);
  Value a = iw.band(u, (uint64_t(1) << (w - 1)) - 1); // magnitude bits
  uint64_t infBits = ((uint64_t(1) << (w - 1 - sm)) - 1) << sm;
  Value isNaN = iw.cmp(P::ugt, a, infBits);
  Value isInf = iw.cmp(P::eq, a, infBits);
  if (saturating) {
    // Positive floats order like their bits: clamp the magnitude to the
    // format's largest value (exact in the source type); NaN is set below.
    llvm::APFloat largest = llvm::APFloat::getLargest(*f.semantics);
    bool lost;
    largest.convert(source.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
    a = arith::MinUIOp::create(b, loc, a,
                               iw.c(largest.bitcastToAPInt().getZExtValue()));
  }

  // Normal in the target: rebias the exponent and round the mantissa.
  Value exponent = iw.shr(a, sm);
  Value rebiased = iw.sub(a, iw.c(uint64_t(sbias - f.bias) << sm));
  Value normal = iw.shrRoundEven(rebiased, iw.c(sm - f.mantissa));
  // Subnormal in the target: the significand with its implicit bit, shifted
  // to units of the smallest subnormal; the shift is clamped to [1, sm + 2]
  // (beyond that everything rounds to 0).
  Value significand = iw.bor(iw.band(a, (uint64_t(1) << sm) - 1),
                             uint64_t(1) << sm);
  Value shift = iw.sub(iw.c(sbias + sm + 1 - f.bias - f.mantissa), exponent);
  shift = arith::MinSIOp::create(b, loc, shift, iw.c(sm + 2));
  shift = arith::MaxSIOp::create(b, loc, shift, iw.c(1));
  Value subnormal = iw.shrRoundEven(significand, shift);
  Value isNormal = iw.cmp(P::uge, exponent, sbias - f.bias + 1);
  Value code = iw.select(isNormal, normal, subnormal);

  Value signBit = iw.shl(sign, f.width - 1);
  Value result = iw.bor(signBit, code);
  if (!saturating) {
    // Overflow: infinity where the format has one, else NaN.
    Value overflow = arith::OrIOp::create(
        b, loc, iw.cmp(P::ugt, code, f.maxCode), isInf);
    Value special = f.specials == Specials::Ieee ? iw.bor(signBit, 0x7c)
                    : f.specials == Specials::Fn ? iw.bor(signBit, 0x7f)
                                                 : iw.c(0x80);
    result = iw.select(overflow, special, result);
  }
  if (f.specials == Specials::Fnuz) // no negative zero
    result = iw.select(iw.cmp(P::eq, code, 0), 0, result);
  Value nan;
  switch (f.specials) {
  case Specials::Ieee:
    nan = iw.bor(signBit, 0x7e);
    break;
  case Specials::Fn:
    nan = iw.bor(signBit, 0x7f);
    break;
  case Specials::Fnuz:
    nan = iw.c(0x80);
    break;
  case Specials::None:
    nan = iw.shl(arith::XOrIOp::create(b, loc, sign, iw.c(1)), f.width - 1);
    break;
  }
  result = iw.select(isNaN, nan, result);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), result);
}

/// Any float -> i8 holding an i4/u4/i2/u2: truncate toward zero and wrap
/// (ml_dtypes, which ONNX's reference uses); NaN and infinities give 0.
Value floatToNarrowInt(OpBuilder &b, Location loc, Value x, IntegerType type) {
  auto source = cast<FloatType>(x.getType());
  if (source.getWidth() < 32)
    x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  Type fType = x.getType();
  // Beyond 2^63 every float is a multiple of 2^40: its low bits are 0.
  Value magnitude = math::AbsFOp::create(b, loc, x);
  Value inRange = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OLT, magnitude,
      scalarConstant(b, loc, fType, 9223372036854775808.0));
  Value wide = arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
  wide = arith::SelectOp::create(
      b, loc, inRange, wide, scalarConstant(b, loc, b.getI64Type(), 0));
  Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), wide);
  return canonicalInt(b, loc, byte, type);
}

} // namespace

bool isByteStored(Type tcType) {
  return isNarrowFloat(tcType) || isNarrowInt(tcType);
}

Type storageType(Type tcType) {
  return isByteStored(tcType) ? IntegerType::get(tcType.getContext(), 8)
                              : Type();
}

std::pair<Value, Type> decodeNarrow(OpBuilder &b, Location loc, Value byte,
                                    Type tcType) {
  if (auto intType = dyn_cast<IntegerType>(tcType))
    return {canonicalInt(b, loc, byte, intType),
            IntegerType::get(b.getContext(), 8, intType.getSignedness())};
  return {decodeFloat(b, loc, byte, cast<FloatType>(tcType)), b.getF32Type()};
}

Value encodeNarrow(OpBuilder &b, Location loc, Value value, Type from,
                   Type to, bool saturate) {
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    if (isa<FloatType>(from))
      return floatToNarrowInt(b, loc, value, toInt);
    // Integers wrap: the low bits of any integer (bool is 0/1).
    Value byte = castScalar(b, loc, value, from,
                            IntegerType::get(b.getContext(), 8,
                                             toInt.getSignedness()));
    return canonicalInt(b, loc, byte, toInt);
  }
  auto toFloat = cast<FloatType>(to);
  // Encode from f32 or f64, the formats the bit arithmetic knows; both hold
  // f16/bf16 values exactly, and f64 every integer up to 2^53.
  Type via = b.getF32Type();
  if (from.isF64() || (isa<IntegerType>(from) && from.getIntOrFloatBitWidth() > 16))
    via = b.getF64Type();
  return encodeFloat(b, loc, castScalar(b, loc, value, from, via), toFloat,
                     saturate);
}

} // namespace mlir::tc::to_linalg
