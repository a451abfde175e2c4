//===- ApproximateMath.cpp - the --tc-cpu-approximate-math pass -----------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUAPPROXIMATEMATHPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The functions whose upstream approximations are accurate to a few ulp
/// over the whole f32 range.
bool isApproximated(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained({"tanh", "erf", "exp", "expm1", "log", "log1p",
                             "log2", "sin", "cos", "atan"},
                            name);
}

/// The largest denominator a sigmoid's reciprocal sees: exp overflows to
/// infinity below x = -88.7, and a reciprocal estimate of infinity is not
/// 0; 1 / 2^100 is 0 to every purpose of a sigmoid.
constexpr double kLargestSigmoidDenominator = 0x1p100;

/// Whether `value` is the constant 1.0, a scalar or a splat.
bool isOne(Value value) { return matchPattern(value, m_OneFloat()); }

/// A sigmoid's 1 / (1 + exp(y)) on f32 vectors (SiLU's, EfficientNet's
/// every activation): the denominator, clamped to at most 2^100, is finite
/// and at least 1, so the division may be a reciprocal estimate refined by
/// a Newton step (fast-math arcp and ninf: on AVX-512, vrcp14ps and a few
/// multiply-adds, where vdivps alone takes about 10 cycles per vector, more
/// than the multiply-adds of the 1x1 convolution whose output it
/// activates). The result is within about an ulp of the division's.
struct SigmoidReciprocal : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || !type.getElementType().isF32() || !isOne(op.getLhs()))
      return failure();
    // The denominator: 1 + exp(...), in either order.
    auto add = op.getRhs().getDefiningOp<arith::AddFOp>();
    if (!add || (!isOne(add.getLhs()) && !isOne(add.getRhs())))
      return failure();
    Value other = isOne(add.getLhs()) ? add.getRhs() : add.getLhs();
    if (!other.getDefiningOp<math::ExpOp>())
      return failure();
    auto wanted = arith::FastMathFlags::arcp | arith::FastMathFlags::ninf |
                  arith::FastMathFlags::contract;
    if (bitEnumContainsAll(op.getFastmath(), wanted))
      return failure();
    Location loc = op.getLoc();
    Value largest = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(
            type, rewriter.getF32FloatAttr(kLargestSigmoidDenominator)));
    Value clamped =
        arith::MinimumFOp::create(rewriter, loc, op.getRhs(), largest);
    rewriter.replaceOpWithNewOp<arith::DivFOp>(
        op, op.getLhs(), clamped,
        arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                      op.getFastmath() | wanted));
    return success();
  }
};

struct CpuApproximateMathPass
    : impl::CpuApproximateMathPassBase<CpuApproximateMathPass> {
  void runOnOperation() override {
    // Before exp becomes a polynomial, while the sigmoid is recognizable.
    RewritePatternSet sigmoids(&getContext());
    sigmoids.add<SigmoidReciprocal>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(sigmoids))))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::cpu
