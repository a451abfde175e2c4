//===- ApproximateMath.cpp - the --tc-cpu-approximate-math pass -----------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
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

struct CpuApproximateMathPass
    : impl::CpuApproximateMathPassBase<CpuApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::cpu
