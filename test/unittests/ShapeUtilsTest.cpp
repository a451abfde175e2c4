//===- ShapeUtilsTest.cpp - broadcasting and window arithmetic ------------===//

#include "tc/Dialect/Tc/IR/ShapeUtils.h"

#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tc;

namespace {
constexpr int64_t kDyn = ShapedType::kDynamic;

TEST(ShapeUtils, BroadcastAlignsTrailingDimensions) {
  auto shape = broadcastShapes({4, 1, 8}, {3, 1});
  ASSERT_TRUE(shape);
  EXPECT_EQ(*shape, (SmallVector<int64_t>{4, 3, 8}));
}

TEST(ShapeUtils, BroadcastScalarKeepsOtherShape) {
  auto shape = broadcastShapes({}, {2, 5});
  ASSERT_TRUE(shape);
  EXPECT_EQ(*shape, (SmallVector<int64_t>{2, 5}));
}

TEST(ShapeUtils, BroadcastDynamicAgainstStatic) {
  // ? vs 1 stays dynamic; ? vs 7 must be 7 at run time.
  auto shape = broadcastShapes({kDyn, kDyn}, {1, 7});
  ASSERT_TRUE(shape);
  EXPECT_EQ(*shape, (SmallVector<int64_t>{kDyn, 7}));
}

TEST(ShapeUtils, BroadcastMismatchIsDescribed) {
  EXPECT_FALSE(broadcastShapes({2, 3}, {4}));
  EXPECT_EQ(describeBroadcastMismatch({2, 3}, "lhs", {4}, "rhs"),
            "dimension 1 of lhs (3) does not match dimension 0 of rhs (4) "
            "and neither is 1");
  EXPECT_EQ(describeBroadcastMismatch({2, 3}, "lhs", {3}, "rhs"), "");
}

TEST(ShapeUtils, OneDirectionalBroadcast) {
  EXPECT_TRUE(isBroadcastableTo({1, 8}, {4, 3, 8}));
  EXPECT_TRUE(isBroadcastableTo({kDyn}, {5}));
  EXPECT_FALSE(isBroadcastableTo({2, 8}, {4, 3, 8}));
  EXPECT_FALSE(isBroadcastableTo({1, 1, 1, 8}, {4, 3, 8}));
}

TEST(ShapeUtils, WindowedOutputSize) {
  // 224 input, 3x3 kernel, stride 2, pad 1: 112 (MobileNet's first conv).
  EXPECT_EQ(getWindowedOutputSize(224, 3, 2, 1, 1, 1, false), 112);
  // Dilation widens the window: span 5 on 7 gives 3.
  EXPECT_EQ(getWindowedOutputSize(7, 3, 1, 2, 0, 0, false), 3);
  // Window larger than the padded input does not fit.
  EXPECT_EQ(getWindowedOutputSize(2, 5, 1, 1, 0, 0, false), std::nullopt);
  EXPECT_EQ(getWindowedOutputSize(kDyn, 3, 1, 1, 0, 0, false), kDyn);
}

TEST(ShapeUtils, CeilModeDropsWindowsStartingInEndPadding) {
  // ONNX: 5 wide, kernel 2, stride 2: floor 2, ceil 3.
  EXPECT_EQ(getWindowedOutputSize(5, 2, 2, 1, 0, 0, false), 2);
  EXPECT_EQ(getWindowedOutputSize(5, 2, 2, 1, 0, 0, true), 3);
  // 4 wide, kernel 2, stride 2, end pad 1: the third window would start in
  // the padding, so ceil mode still gives 2.
  EXPECT_EQ(getWindowedOutputSize(4, 2, 2, 1, 0, 1, true), 2);
}

TEST(ShapeUtils, CompatibleReturnTypes) {
  MLIRContext context;
  Type f32 = Float32Type::get(&context), i32 = IntegerType::get(&context, 32);
  Type dyn = RankedTensorType::get({kDyn, 4}, f32);
  Type stat = RankedTensorType::get({2, 4}, f32);
  Type other = RankedTensorType::get({2, 5}, f32);
  Type ints = RankedTensorType::get({2, 4}, i32);
  EXPECT_TRUE(areCompatibleReturnTypes({dyn}, {stat}));
  EXPECT_TRUE(areCompatibleReturnTypes({stat}, {dyn}));
  EXPECT_FALSE(areCompatibleReturnTypes({stat}, {other}));
  EXPECT_FALSE(areCompatibleReturnTypes({stat}, {ints}));
  EXPECT_FALSE(areCompatibleReturnTypes({stat}, {stat, stat}));
}

TEST(ShapeUtils, ElementCountAndFormat) {
  EXPECT_EQ(getStaticElementCount({2, 3, 4}), 24);
  EXPECT_EQ(getStaticElementCount({}), 1);
  EXPECT_EQ(getStaticElementCount({2, kDyn}), std::nullopt);
  EXPECT_EQ(formatShape({4, kDyn, 8}), "4x?x8");
}
} // namespace
