//===- FloatMath.h - scalar float arithmetic for generic bodies -----------===//
//
// Resize and the sampling ops compute positions and interpolation weights
// with scalar float arithmetic inside linalg.generic bodies; this is their
// shared vocabulary.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_CONVERSION_TCTOLINALG_FLOATMATH_H
#define TC_LIB_CONVERSION_TCTOLINALG_FLOATMATH_H

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::tc::to_linalg {

/// Scalar float arithmetic in one type, in the body of a generic.
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type ft;

  Value f(double v) { return scalarConstant(b, loc, ft, v); }
  // Arithmetic on two constants folds (to what the same operations in
  // double on the host give), so parameters known when compiling cost
  // nothing in the body.
  Value add(Value x, Value y) { return b.createOrFold<arith::AddFOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.createOrFold<arith::SubFOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulFOp>(loc, x, y); }
  Value div(Value x, Value y) { return b.createOrFold<arith::DivFOp>(loc, x, y); }
  Value floor(Value x) { return math::FloorOp::create(b, loc, x); }
  Value lt(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value gt(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value clamp(Value x, double lo, double hi) {
    // maxnum/minnum: a NaN position becomes `lo`, not a NaN index.
    x = arith::MaxNumFOp::create(b, loc, x, f(lo));
    return arith::MinNumFOp::create(b, loc, x, f(hi));
  }
  /// An integer-valued float position as an index clamped into [0, size):
  /// the float is clamped first so that the conversion is always defined.
  Value toIndex(Value x, int64_t size) {
    x = clamp(x, 0, double(size - 1));
    Value asInt = arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), asInt);
  }
  Value and_(Value x, Value y) {
    return x ? arith::AndIOp::create(b, loc, x, y) : y;
  }

  /// Keys' cubic convolution weights of the taps at floor(x) - 1 .. + 2 for
  /// `ratio` = x - floor(x).
  SmallVector<Value> cubicWeights(Value ratio, double a) {
    auto far = [&](Value t) { // ((a t - 5a) t + 8a) t - 4a, t in [1, 2]
      return sub(mul(add(mul(sub(mul(f(a), t), f(5 * a)), t), f(8 * a)), t),
                 f(4 * a));
    };
    auto near = [&](Value t) { // ((a + 2) t - (a + 3)) t t + 1, t in [0, 1]
      return add(mul(mul(sub(mul(f(a + 2), t), f(a + 3)), t), t), f(1));
    };
    Value rest = sub(f(1), ratio);
    return {far(add(ratio, f(1))), near(ratio), near(rest),
            far(add(rest, f(1)))};
  }
};

} // namespace mlir::tc::to_linalg

#endif // TC_LIB_CONVERSION_TCTOLINALG_FLOATMATH_H
