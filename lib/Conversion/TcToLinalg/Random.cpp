//===- Random.cpp - tc.random_uniform to a parallel generic ---------------===//
//
// A counter-based generator: element i of the result is a pure function of
// (seed, i), so the generic stays parallel (and tileable, and a GPU kernel)
// and the numbers do not depend on how the loop is split. The function is
// SplitMix64: the key advances by the golden-ratio increment per element
// and the finalizer scrambles the sum. The top `p` bits (the result type's
// precision) make a value in [0, 1) that converts exactly, so a draw never
// rounds up to 1 (which Bernoulli's `u < p` relies on).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include <cmath>

namespace mlir::tc::to_linalg {
namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

uint64_t mixConstant(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The SplitMix64 finalizer on an i64 value.
Value mix(OpBuilder &b, Location l, Value x) {
  auto c = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, l, b.getI64Type(),
                                        static_cast<int64_t>(v));
  };
  auto step = [&](Value v, unsigned shift, std::optional<uint64_t> factor) {
    Value s = arith::XOrIOp::create(b, l, v, arith::ShRUIOp::create(b, l, v, c(shift)));
    return factor ? Value(arith::MulIOp::create(b, l, s, c(*factor))) : s;
  };
  x = step(x, 30, 0xbf58476d1ce4e5b9ULL);
  x = step(x, 27, 0x94d049bb133111ebULL);
  return step(x, 31, std::nullopt);
}

struct RandomUniformPattern : OpConversionPattern<RandomUniformOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RandomUniformOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    auto element = cast<FloatType>(type.getElementType());
    // Work in f64 for f64 results, f32 otherwise; both hold the p-bit
    // integers exactly.
    Type work = element.getWidth() > 32 ? Type(rewriter.getF64Type())
                                        : Type(rewriter.getF32Type());
    unsigned precision = APFloat::semanticsPrecision(element.getFloatSemantics());
    int64_t rank = type.getRank();
    SmallVector<Value> sizes, extents;
    Value like = adaptor.getLike();
    for (int64_t d = 0; d < rank; ++d) {
      Value extent = like ? dimValue(rewriter, loc, like, d)
                          : arith::ConstantIndexOp::create(rewriter, loc,
                                                           type.getDimSize(d));
      extents.push_back(extent);
      if (type.isDynamicDim(d))
        sizes.push_back(extent);
    }
    uint64_t key = mixConstant(static_cast<uint64_t>(op.getSeed()) + kGolden);
    double low = op.getLow().convertToDouble();
    double scale = op.getHigh().convertToDouble() - low;
    Value result = buildParallelGeneric(
        rewriter, loc, type, sizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          Value flat = arith::ConstantIndexOp::create(b, l, 0);
          for (int64_t d = 0; d < rank; ++d)
            flat = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, flat, extents[d]),
                linalg::IndexOp::create(b, l, d));
          Type i64 = b.getI64Type();
          Value counter = arith::AddIOp::create(
              b, l, arith::IndexCastUIOp::create(b, l, i64, flat),
              arith::ConstantIntOp::create(b, l, i64, 1));
          Value x = arith::AddIOp::create(
              b, l, arith::ConstantIntOp::create(b, l, i64, static_cast<int64_t>(key)),
              arith::MulIOp::create(
                  b, l, counter,
                  arith::ConstantIntOp::create(b, l, i64,
                                               static_cast<int64_t>(kGolden))));
          Value bits = arith::ShRUIOp::create(
              b, l, mix(b, l, x),
              arith::ConstantIntOp::create(b, l, i64, 64 - precision));
          Value unit = arith::MulFOp::create(
              b, l, arith::UIToFPOp::create(b, l, work, bits),
              arith::ConstantOp::create(
                  b, l, b.getFloatAttr(work, std::ldexp(1.0, -int(precision)))));
          Value v = unit;
          if (low != 0.0 || scale != 1.0)
            v = arith::AddFOp::create(
                b, l,
                arith::MulFOp::create(
                    b, l, unit,
                    arith::ConstantOp::create(b, l, b.getFloatAttr(work, scale))),
                arith::ConstantOp::create(b, l, b.getFloatAttr(work, low)));
          if (work != element)
            v = arith::TruncFOp::create(b, l, element, v);
          return v;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateRandomPatterns(TcTypeConverter &converter,
                            RewritePatternSet &patterns) {
  patterns.add<RandomUniformPattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
