// RUN: %pyonnx %models reductions %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// ReduceSum-13 reads its axes from an input, the others (before 18) from
// an attribute; negative axes are normalized; no axes means all.
// CHECK: tc.reduce_sum %arg0 {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK: tc.reduce_mean %arg0 {axes = array<i64: 2>, keepdims} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// CHECK: tc.reduce_max %arg0 {axes = array<i64: 0, 1, 2>, keepdims} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// CHECK: tc.argmax %arg0 {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x4xi64>
// LogSumExp subtracts the maximum first.
// CHECK: %[[MAX:.*]] = tc.reduce_max %arg0 {axes = array<i64: 1>, keepdims}
// CHECK: tc.sub %arg0, %[[MAX]]
// CHECK: tc.exp
// CHECK: tc.reduce_sum
// CHECK: tc.log
// CHECK: tc.add
// CHECK: tc.reshape {{.*}} -> tensor<2x4xf32>
