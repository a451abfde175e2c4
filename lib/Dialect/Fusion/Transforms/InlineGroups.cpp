//===- InlineGroups.cpp - dissolve fusion.group regions -------------------===//

#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "tc/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::fusion {
#define GEN_PASS_DEF_FUSIONINLINEGROUPSPASS
#include "tc/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

namespace {
struct FusionInlineGroupsPass
    : fusion::impl::FusionInlineGroupsPassBase<FusionInlineGroupsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Post-order: a group nested in another is inlined first.
    getOperation()->walk([&](GroupOp group) {
      YieldOp yield = group.getYield();
      rewriter.inlineBlockBefore(&group.getBodyBlock(), group,
                                 group.getInputs());
      rewriter.replaceOp(group, yield.getValues());
      rewriter.eraseOp(yield);
    });
  }
};
} // namespace
