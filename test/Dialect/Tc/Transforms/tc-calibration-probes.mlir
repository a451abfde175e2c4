// RUN: tc-opt %s --tc-calibration-probes --canonicalize --split-input-file | FileCheck %s

// @main returns the largest magnitude each contraction reads or writes, in
// walk order, as one vector: max(|x|, |result|) for the batch matmul (its
// constant weight is checked at compile time), max(|rows|, |w2|, |result|)
// for the matmul; the model's own output is dropped.
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<2xf32> {tc.name = "magnitudes"})
// CHECK: %[[M:.*]] = tc.batch_matmul
// CHECK-NOT: tc.reduce_max %{{.*}} : (tensor<1x64x32xf32>)
// CHECK-DAG: tc.reduce_max %{{.*}} {axes = array<i64: 0, 1, 2>} : (tensor<2x8x64xf32>) -> tensor<f32>
// CHECK-DAG: tc.reduce_max %{{.*}} {axes = array<i64: 0, 1, 2>} : (tensor<2x8x32xf32>) -> tensor<f32>
// CHECK: %[[FIRST:.*]] = tc.max
// CHECK: tc.matmul
// CHECK-COUNT-3: tc.reduce_max
// CHECK: tc.max
// CHECK: %[[SECOND:.*]] = tc.max
// CHECK: %[[ALL:.*]] = tc.concat %[[FIRST]], %[[SECOND]] {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
// CHECK: return %[[ALL]]
func.func @main(%x: tensor<2x8x64xf32>, %w2: tensor<32x16xf32>) -> tensor<2x8x16xf32> {
  %w = tc.constant dense<0.5> : tensor<1x64x32xf32>
  %m = tc.batch_matmul %x, %w : (tensor<2x8x64xf32>, tensor<1x64x32xf32>) -> tensor<2x8x32xf32>
  %y = tc.relu %m : tensor<2x8x32xf32>
  %r = tc.reshape %y : (tensor<2x8x32xf32>) -> tensor<16x32xf32>
  %z = tc.matmul %r, %w2 : (tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<16x16xf32>
  %o = tc.reshape %z : (tensor<16x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// No contraction to measure: an empty vector.
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<0xf32> {tc.name = "magnitudes"})
// CHECK: %[[E:.*]] = tc.constant dense<> : tensor<0xf32>
// CHECK: return %[[E]]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tc.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
