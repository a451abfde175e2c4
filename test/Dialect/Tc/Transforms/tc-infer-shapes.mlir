// RUN: tc-opt %s -tc-infer-shapes -split-input-file | FileCheck %s

// Static sizes flow through a chain and into the signature.
// CHECK-LABEL: func @chain
// CHECK-SAME: -> tensor<4x8xf32>
// CHECK: tc.add %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: tc.exp %{{.*}} : tensor<4x8xf32>
// CHECK: tc.reduce_sum %{{.*}} {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK: tc.cast %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf16>
func.func @chain(%a: tensor<4x1xf32>, %b: tensor<8xf32>) -> tensor<?x?xf32> {
  %0 = tc.add %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<?x?xf32>
  %1 = tc.exp %0 : tensor<?x?xf32>
  %2 = tc.reduce_sum %1 {axes = array<i64: 1>} : (tensor<?x?xf32>) -> tensor<?xf32>
  %3 = tc.cast %1 : (tensor<?x?xf32>) -> tensor<?x?xf16>
  return %1 : tensor<?x?xf32>
}

// -----

// A declared type that is already more static is kept.
// CHECK-LABEL: func @keep_declared
// CHECK: tc.add %{{.*}}, %{{.*}} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK: tc.matmul %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
func.func @keep_declared(%a: tensor<?x8xf32>, %b: tensor<8xf32>, %w: tensor<8x3xf32>) -> tensor<?x?xf32> {
  %0 = tc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = tc.matmul %0, %w : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// Sizes that stay unknown stay dynamic.
// CHECK-LABEL: func @dynamic_batch
// CHECK: tc.conv {{.*}} -> tensor<?x8x6x6xf32>
// CHECK: tc.reshape %{{.*}} : (tensor<?x8x6x6xf32>) -> tensor<?x288xf32>
func.func @dynamic_batch(%x: tensor<?x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<?x288xf32> {
  %0 = tc.conv %x, %w : (tensor<?x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %1 = tc.reshape %0 : (tensor<?x?x?x?xf32>) -> tensor<?x288xf32>
  return %1 : tensor<?x288xf32>
}

// -----

// Inside a fusion group: arguments follow the inputs, results the yield.
// CHECK-LABEL: func @group
// CHECK: fusion.group "g0" elementwise (%{{.*}} = %{{.*}} : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: tc.relu %{{.*}} : tensor<2x4xf32>
// CHECK: fusion.yield %{{.*}} : tensor<2x4xf32>
func.func @group(%x: tensor<2x4xf32>) -> tensor<?x4xf32> {
  %0 = tc.exp %x : tensor<2x4xf32>
  %1 = tc.reshape %0 : (tensor<2x4xf32>) -> tensor<?x4xf32>
  %2 = fusion.group "g0" elementwise (%a = %1 : tensor<?x4xf32>) -> tensor<?x4xf32> reason("test") {
    %r = tc.relu %a : tensor<?x4xf32>
    fusion.yield %r : tensor<?x4xf32>
  }
  return %2 : tensor<?x4xf32>
}

// -----

// A value read by an op outside tc keeps its type, so that op stays valid.
// CHECK-LABEL: func @foreign_user
// CHECK: tc.add {{.*}} -> tensor<?xf32>
// CHECK: tensor.dim
func.func @foreign_user(%a: tensor<4xf32>) -> index {
  %0 = tc.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %0, %c0 : tensor<?xf32>
  return %d : index
}

// -----

// Private functions keep their signature (their callers are not updated).
// CHECK-LABEL: func private @helper
// CHECK-SAME: -> tensor<?xf32>
func.func private @helper(%a: tensor<4xf32>) -> tensor<?xf32> {
  %0 = tc.exp %a : tensor<4xf32>
  %1 = tc.reshape %0 : (tensor<4xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
