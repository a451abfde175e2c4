//===- GroupCanonicalization.cpp - shrink fusion.group interfaces ---------===//
//
// A group's operands and results are the kernel's arguments and outputs, so
// keeping them minimal matters: every dead input is a pointer passed and every
// dead result a buffer written for nothing.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {
/// A result that just yields one of the group's block arguments is the
/// corresponding input: its users read the input directly.
struct ForwardPassThroughResults : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    for (auto [result, yielded] :
         llvm::zip(op.getResults(), op.getYield().getValues())) {
      auto arg = dyn_cast<BlockArgument>(yielded);
      if (!arg || arg.getOwner() != &op.getBodyBlock() || result.use_empty())
        continue;
      rewriter.replaceAllUsesWith(result, op.getInputs()[arg.getArgNumber()]);
      changed = true;
    }
    return success(changed);
  }
};

/// The same value passed twice becomes one input.
struct MergeDuplicateInputs : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    llvm::SmallDenseMap<Value, BlockArgument> first;
    Block &body = op.getBodyBlock();
    for (auto [input, arg] : llvm::zip(op.getInputs(), body.getArguments())) {
      auto [it, inserted] = first.try_emplace(input, arg);
      if (inserted || arg.use_empty())
        continue;
      rewriter.replaceAllUsesWith(arg, it->second);
      changed = true;
    }
    return success(changed);
  }
};

/// Rebuilds the group without inputs whose block argument is unused and
/// without results nobody reads.
struct DropDeadInputsAndResults : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBodyBlock();
    llvm::BitVector keepInput(op.getInputs().size());
    llvm::BitVector keepResult(op.getNumResults());
    for (BlockArgument arg : body.getArguments())
      keepInput[arg.getArgNumber()] = !arg.use_empty();
    for (OpResult result : op.getResults())
      keepResult[result.getResultNumber()] = !result.use_empty();
    if (keepInput.all() && keepResult.all())
      return rewriter.notifyMatchFailure(op, "every input and result is used");

    SmallVector<Value> inputs;
    for (auto [index, input] : llvm::enumerate(op.getInputs()))
      if (keepInput[index])
        inputs.push_back(input);
    SmallVector<Type> resultTypes;
    SmallVector<Value> yielded;
    YieldOp yield = op.getYield();
    for (auto [index, value] : llvm::enumerate(yield.getValues()))
      if (keepResult[index]) {
        resultTypes.push_back(value.getType());
        yielded.push_back(value);
      }

    auto group = GroupOp::create(rewriter, op.getLoc(), resultTypes, inputs,
                                 op.getName(), op.getKind(), op.getReason());
    group->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    Block &newBody = group.getBodyBlock();
    // Unused arguments need no replacement value.
    SmallVector<Value> argValues(body.getNumArguments());
    unsigned next = 0;
    for (BlockArgument arg : body.getArguments())
      if (keepInput[arg.getArgNumber()])
        argValues[arg.getArgNumber()] = newBody.getArgument(next++);
    rewriter.mergeBlocks(&body, &newBody, argValues);
    rewriter.modifyOpInPlace(
        yield, [&] { yield.getValuesMutable().assign(yielded); });

    next = 0;
    for (OpResult result : op.getResults())
      if (keepResult[result.getResultNumber()])
        rewriter.replaceAllUsesWith(result, group.getResult(next++));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void GroupOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *context) {
  patterns.add<ForwardPassThroughResults, MergeDuplicateInputs,
               DropDeadInputsAndResults>(context);
}
