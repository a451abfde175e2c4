// RUN: tc-opt %s -canonicalize -split-input-file | FileCheck %s

// A result that passes an input through is that input; inputs the body does
// not read and results nobody reads are dropped; duplicates merge.
// CHECK-LABEL: func @shrink
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[G:.*]] = fusion.group "g" elementwise (%[[A:.*]] = %[[X]] : tensor<4xf32>) -> tensor<4xf32> reason("r") {
// CHECK-NEXT: %[[E:.*]] = tc.exp %[[A]]
// CHECK-NEXT: %[[S:.*]] = tc.add %[[E]], %[[A]]
// CHECK-NEXT: fusion.yield %[[S]] : tensor<4xf32>
// CHECK: return %[[G]], %[[Y]]
func.func @shrink(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:3 = fusion.group "g" elementwise (%a = %x, %b = %y, %c = %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) reason("r") {
    %0 = tc.exp %a : tensor<4xf32>
    %1 = tc.add %0, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    fusion.yield %1, %b, %0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A group whose results nobody reads is dead.
// CHECK-LABEL: func @dead
// CHECK-NOT: fusion.group
func.func @dead(%x: tensor<4xf32>) {
  %r = fusion.group "g" elementwise (%a = %x : tensor<4xf32>) -> tensor<4xf32> reason("r") {
    %0 = tc.exp %a : tensor<4xf32>
    fusion.yield %0 : tensor<4xf32>
  }
  return
}

// -----

// Folding inside the body works as anywhere else.
// CHECK-LABEL: func @fold_inside
// CHECK: fusion.group
// CHECK-NEXT: %[[E:.*]] = tc.exp
// CHECK-NEXT: fusion.yield %[[E]]
func.func @fold_inside(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = fusion.group "g" elementwise (%a = %x : tensor<4xf32>) -> tensor<4xf32> reason("r") {
    %zero = tc.constant dense<0.0> : tensor<f32>
    %0 = tc.exp %a : tensor<4xf32>
    %1 = tc.add %0, %zero : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    fusion.yield %1 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
