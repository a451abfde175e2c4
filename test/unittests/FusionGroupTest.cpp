//===- FusionGroupTest.cpp - building and simplifying fusion.group --------===//

#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <gtest/gtest.h>

using namespace mlir;

namespace {
class FusionGroupTest : public ::testing::Test {
protected:
  FusionGroupTest() : builder(&context) {
    DialectRegistry registry;
    tc::registerTcDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    type = RankedTensorType::get({4, 8}, builder.getF32Type());
    func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                builder.getFunctionType({type, type}, {type}));
    builder.setInsertionPointToEnd(func.addEntryBlock());
  }

  /// group(a, b, a) { exp(a); yield exp, b-argument } -> exp result used,
  /// pass-through result used; input #2 duplicates input #0.
  fusion::GroupOp buildGroup() {
    Location loc = builder.getUnknownLoc();
    Value a = func.getArgument(0), b = func.getArgument(1);
    auto group = fusion::GroupOp::create(
        builder, loc, TypeRange{type, type}, ValueRange{a, b, a}, "g0",
        fusion::GroupKind::elementwise, "exp chain");
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&group.getBodyBlock());
    Block &body = group.getBodyBlock();
    auto exp = tc::ExpOp::create(builder, loc, body.getArgument(2));
    fusion::YieldOp::create(builder, loc,
                            ValueRange{exp.getResult(), body.getArgument(1)});
    return group;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  RankedTensorType type;
  func::FuncOp func;
};

TEST_F(FusionGroupTest, BuilderMirrorsInputsAsBlockArguments) {
  fusion::GroupOp group = buildGroup();
  func::ReturnOp::create(builder, builder.getUnknownLoc(), group.getResult(0));
  EXPECT_EQ(group.getBodyBlock().getNumArguments(), 3u);
  EXPECT_EQ(group.getKind(), fusion::GroupKind::elementwise);
  EXPECT_EQ(group.getReason(), "exp chain");
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(FusionGroupTest, CanonicalizationShrinksTheInterface) {
  fusion::GroupOp group = buildGroup();
  // Use both results: the pass-through one must be forwarded to %b.
  auto sum = tc::AddOp::create(builder, builder.getUnknownLoc(),
                               group.getResult(0), group.getResult(1));
  func::ReturnOp::create(builder, builder.getUnknownLoc(), sum.getResult());
  ASSERT_TRUE(succeeded(verify(*module)));

  RewritePatternSet patterns(&context);
  fusion::GroupOp::getCanonicalizationPatterns(patterns, &context);
  ASSERT_TRUE(succeeded(applyPatternsGreedily(*module, std::move(patterns))));
  ASSERT_TRUE(succeeded(verify(*module)));

  fusion::GroupOp shrunk;
  module->walk([&](fusion::GroupOp g) { shrunk = g; });
  ASSERT_TRUE(shrunk);
  // Only %a remains an input (duplicate merged, %b unused inside), and only
  // the exp result remains a result.
  ASSERT_EQ(shrunk.getInputs().size(), 1u);
  EXPECT_EQ(shrunk.getInputs()[0], func.getArgument(0));
  EXPECT_EQ(shrunk.getNumResults(), 1u);
  auto add = cast<tc::AddOp>(*shrunk->getUsers().begin());
  EXPECT_EQ(add.getRhs(), func.getArgument(1));
  EXPECT_EQ(shrunk.getName(), "g0");
}
} // namespace
