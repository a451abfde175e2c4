//===- TcOpsTest.cpp - building tc ops from C++, as the importer will -----===//

#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include <gtest/gtest.h>

using namespace mlir;

namespace {
class TcOpsTest : public ::testing::Test {
protected:
  TcOpsTest() : builder(&context) {
    DialectRegistry registry;
    tc::registerTcDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A function whose arguments have the given types; the builder is left
  /// in its body.
  func::FuncOp makeFunc(TypeRange inputs) {
    auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                     builder.getFunctionType(inputs, {}));
    builder.setInsertionPointToEnd(func.addEntryBlock());
    return func;
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element = {}) {
    return RankedTensorType::get(shape, element ? element : builder.getF32Type());
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(TcOpsTest, BinaryOpInfersBroadcastResult) {
  func::FuncOp f = makeFunc({tensor({4, 1}), tensor({8})});
  auto add = tc::AddOp::create(builder, builder.getUnknownLoc(),
                               f.getArgument(0), f.getArgument(1));
  EXPECT_EQ(add.getType(), tensor({4, 8}));
}

TEST_F(TcOpsTest, CompareInfersBool) {
  func::FuncOp f = makeFunc({tensor({3}), tensor({})});
  auto cmp = tc::CompareOp::create(builder, builder.getUnknownLoc(),
                                   tc::ComparePredicate::lt, f.getArgument(0),
                                   f.getArgument(1));
  EXPECT_EQ(cmp.getType(), tensor({3}, builder.getI1Type()));
}

TEST_F(TcOpsTest, ConvInfersOutputSize) {
  func::FuncOp f =
      makeFunc({tensor({1, 3, 224, 224}), tensor({32, 3, 3, 3})});
  auto conv = tc::ConvOp::create(
      builder, builder.getUnknownLoc(), f.getArgument(0), f.getArgument(1),
      /*bias=*/Value(), builder.getDenseI64ArrayAttr({2, 2}),
      builder.getDenseI64ArrayAttr({1, 1, 1, 1}), DenseI64ArrayAttr(),
      builder.getI64IntegerAttr(1));
  EXPECT_EQ(conv.getType(), tensor({1, 32, 112, 112}));
}

TEST_F(TcOpsTest, InferenceReportsErrorsBeforeBuilding) {
  // The importer asks inference first so that a bad model gives a
  // diagnostic instead of an assertion inside the builder.
  func::FuncOp f = makeFunc({tensor({2, 3}), tensor({4})});
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  SmallVector<Type> inferred;
  tc::AddOp::Adaptor adaptor({f.getArgument(0), f.getArgument(1)});
  EXPECT_TRUE(failed(tc::AddOp::inferReturnTypes(
      &context, builder.getUnknownLoc(), adaptor, inferred)));
  EXPECT_EQ(message, "'tc.add' op operands are not broadcast-compatible: "
                     "dimension 1 of lhs (3) does not match dimension 0 of "
                     "rhs (4) and neither is 1");
}

TEST_F(TcOpsTest, ShapeOfFoldsStaticShape) {
  func::FuncOp f = makeFunc({tensor({2, 7})});
  auto shape = tc::ShapeOfOp::create(builder, builder.getUnknownLoc(),
                                     f.getArgument(0));
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(shape->fold(folded)));
  auto attr = dyn_cast<DenseIntElementsAttr>(cast<Attribute>(folded[0]));
  ASSERT_TRUE(attr);
  EXPECT_EQ(SmallVector<int64_t>(attr.getValues<int64_t>()),
            (SmallVector<int64_t>{2, 7}));
}

TEST_F(TcOpsTest, VerifierNamesTheProblem) {
  func::FuncOp f = makeFunc({tensor({2, 3})});
  // A reshape to a different element count is built unchecked and must be
  // caught by the verifier.
  auto reshape = tc::ReshapeOp::create(builder, builder.getUnknownLoc(),
                                       tensor({7}), f.getArgument(0), Value());
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(reshape)));
  EXPECT_EQ(message,
            "'tc.reshape' op input has 6 elements but the result type has 7");
}
} // namespace
