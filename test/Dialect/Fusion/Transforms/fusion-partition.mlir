// RUN: tc-opt %s --fusion-partition --split-input-file | FileCheck %s

// A conv takes its bias-add and relu epilogue; the pooling after it is its
// own kernel; the reshape is a view; the matmul takes its bias epilogue.
// CHECK-LABEL: func.func @cnn
// CHECK: %[[CONV:.*]] = fusion.group "g0_conv" conv
// CHECK-SAME: reason("conv anchor with an elementwise epilogue of 2 ops")
// CHECK-NEXT: tc.conv
// CHECK-NEXT: tc.add
// CHECK-NEXT: tc.relu
// CHECK-NEXT: fusion.yield
// CHECK: fusion.group "g1_pooling" pooling (%{{.*}} = %[[CONV]]
// CHECK-SAME: reason("max_pool anchor")
// CHECK: fusion.group "g2_reduction" reduction
// CHECK: fusion.group "g3_view" view
// CHECK-SAME: reason("reshape is a view of its input: no kernel")
// CHECK: fusion.group "g4_matmul" matmul
// CHECK-SAME: reason("matmul anchor with an elementwise epilogue of 1 op")
// CHECK-NEXT: tc.matmul
// CHECK-NEXT: tc.add
func.func @cnn(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x1x1xf32>, %m: tensor<4x10xf32>, %c: tensor<10xf32>) -> tensor<1x10xf32> {
  %0 = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = tc.add %0, %b : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %2 = tc.relu %1 : tensor<1x4x8x8xf32>
  %3 = tc.max_pool %2 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %4 = tc.reduce_mean %3 {axes = array<i64: 2, 3>, keepdims} : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %5 = tc.reshape %4 : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %6 = tc.matmul %5, %m : (tensor<1x4xf32>, tensor<4x10xf32>) -> tensor<1x10xf32>
  %7 = tc.add %6, %c : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return %7 : tensor<1x10xf32>
}

// -----

// Softmax takes the scaling before it (read row by row); the scale is not
// fused into the matmul that feeds it, which would need it whole per tile.
// CHECK-LABEL: func.func @attention_scores
// CHECK: fusion.group "g0_matmul" matmul
// CHECK-SAME: reason("batch_matmul anchor")
// CHECK: fusion.group "g1_softmax" softmax
// CHECK-SAME: reason("softmax anchor with an elementwise prologue of 1 op")
// CHECK-NEXT: tc.mul
// CHECK-NEXT: tc.softmax
func.func @attention_scores(%q: tensor<2x4x8xf32>, %k: tensor<2x8x4xf32>, %s: tensor<f32>) -> tensor<2x4x4xf32> {
  %0 = tc.batch_matmul %q, %k : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %1 = tc.mul %0, %s : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
  %2 = tc.softmax %1 {axis = 2 : i64} : tensor<2x4x4xf32>
  return %2 : tensor<2x4x4xf32>
}

// -----

// A value used outside the chain ends the group there: nothing is computed
// twice. The exp feeds two consumers, so it is a group of its own.
// CHECK-LABEL: func.func @shared_value
// CHECK: fusion.group "g0_elementwise" elementwise
// CHECK-SAME: reason("elementwise chain of 2 ops")
// CHECK-NEXT: tc.neg
// CHECK-NEXT: tc.exp
// CHECK: fusion.group "g1_elementwise" elementwise
// CHECK-SAME: reason("a single elementwise op")
// CHECK: fusion.group "g2_elementwise" elementwise
// CHECK-SAME: reason("a single elementwise op")
func.func @shared_value(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = tc.neg %x : tensor<16xf32>
  %1 = tc.exp %0 : tensor<16xf32>
  %2 = tc.tanh %1 : tensor<16xf32>
  %3 = tc.sqrt %1 : tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// -----

// Constants stay outside and enter as inputs.
// CHECK-LABEL: func.func @constants_outside
// CHECK: %[[C:.*]] = tc.constant
// CHECK: fusion.group "g0_elementwise" elementwise (%{{.*}} = %arg0, %{{.*}} = %[[C]]
func.func @constants_outside(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = tc.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = tc.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
