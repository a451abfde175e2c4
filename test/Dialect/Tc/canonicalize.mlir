// RUN: tc-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @add_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tc.constant dense<0.0> : tensor<f32>
  %0 = tc.add %x, %zero : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Constants move to the right of commutative ops, then fold away.
// CHECK-LABEL: func @zero_plus_int
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-NEXT: return %[[X]]
func.func @zero_plus_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  %zero = tc.constant dense<0> : tensor<4xi32>
  %0 = tc.add %zero, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Adding zero still broadcasts: the add stays when it changes the shape.
// CHECK-LABEL: func @add_zero_broadcasts
// CHECK: tc.add
func.func @add_zero_broadcasts(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  %zero = tc.constant dense<0.0> : tensor<2x1xf32>
  %0 = tc.add %x, %zero : (tensor<4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @mul_div_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @mul_div_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = tc.constant dense<1.0> : tensor<f32>
  %0 = tc.mul %x, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = tc.div %0, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %zero = tc.constant dense<0.0> : tensor<f32>
  %2 = tc.sub %1, %zero : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_constants
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<[7.750000e+00, 8.500000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_constants() -> tensor<2xf32> {
  %a = tc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = tc.constant dense<[4.0, 4.0]> : tensor<2xf32>
  %0 = tc.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = tc.mul %0, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = tc.sub %1, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = tc.div %2, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = tc.add %3, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %4 : tensor<2xf32>
}

// -----

// Integer division by zero is not folded: it has no value.
// CHECK-LABEL: func @no_int_div_fold
// CHECK: tc.div
func.func @no_int_div_fold() -> tensor<2xi32> {
  %a = tc.constant dense<[1, 2]> : tensor<2xi32>
  %b = tc.constant dense<[0, 2]> : tensor<2xi32>
  %0 = tc.div %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func @double_neg
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @double_neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tc.neg %x : tensor<4xf32>
  %1 = tc.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @identity_shape_ops
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identity_shape_ops(%x: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tc.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tc.transpose %x {permutation = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tc.concat %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 2, 3>, steps = array<i64: 1, 1>}
      : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tc.broadcast %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tc.pad %x {padding = array<i64: 0, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = tc.cast %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tc.reduce_sum %x {axes = array<i64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
      tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A slice that takes part of the input stays.
// CHECK-LABEL: func @real_slice
// CHECK: tc.slice
func.func @real_slice(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = tc.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 2, 3>, steps = array<i64: 1, 1>}
      : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = tc.reshape %[[X]] : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = tc.reshape %x : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = tc.reshape %0 : (tensor<24xf32>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func @reshape_constant
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT: return %[[C]]
func.func @reshape_constant() -> tensor<2x2xi32> {
  %c = tc.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = tc.reshape %c : (tensor<4xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func @transpose_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = tc.transpose %[[X]] {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_chain(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %0 = tc.transpose %x {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = tc.transpose %0 {permutation = array<i64: 2, 1, 0>} : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>
  return %1 : tensor<3x2x4xf32>
}

// -----

// Two transposes that cancel fold to the input.
// CHECK-LABEL: func @transpose_inverse
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_inverse(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = tc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @splat_views
// CHECK-DAG: tc.constant dense<2.000000e+00> : tensor<3x2xf32>
// CHECK-DAG: tc.constant dense<2.000000e+00> : tensor<4x2x3xf32>
// CHECK-NOT: tc.transpose
// CHECK-NOT: tc.broadcast
func.func @splat_views() -> (tensor<3x2xf32>, tensor<4x2x3xf32>) {
  %c = tc.constant dense<2.0> : tensor<2x3xf32>
  %0 = tc.transpose %c {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = tc.broadcast %c : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func @static_shape_of
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<[2, 7]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @static_shape_of(%x: tensor<2x7xf32>) -> tensor<2xi64> {
  %0 = tc.shape_of %x : (tensor<2x7xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func @dynamic_shape_of
// CHECK: tc.shape_of
func.func @dynamic_shape_of(%x: tensor<?x7xf32>) -> tensor<2xi64> {
  %0 = tc.shape_of %x : (tensor<?x7xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Pure ops without users disappear.
// CHECK-LABEL: func @dead_code
// CHECK-NEXT: return
func.func @dead_code(%x: tensor<4xf32>) {
  %0 = tc.exp %x : tensor<4xf32>
  %1 = tc.softmax %0 {axis = 0 : i64} : tensor<4xf32>
  return
}

// -----

// Integer division truncates toward zero; constants broadcast while folding
// (shape arithmetic: a gathered size divided by a scalar).
// CHECK-LABEL: func @int_div_broadcast_fold
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<[3, -3, 2]> : tensor<3xi64>
// CHECK-NEXT: return %[[C]]
func.func @int_div_broadcast_fold() -> tensor<3xi64> {
  %a = tc.constant dense<[7, -7, 5]> : tensor<3xi64>
  %b = tc.constant dense<2> : tensor<i64>
  %0 = tc.div %a, %b : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// CHECK-LABEL: func @broadcast_fold
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<{{\[}}[11, 12], [21, 22]]> : tensor<2x2xi32>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_fold() -> tensor<2x2xi32> {
  %a = tc.constant dense<[[10], [20]]> : tensor<2x1xi32>
  %b = tc.constant dense<[1, 2]> : tensor<2xi32>
  %0 = tc.add %a, %b : (tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Data movement on small constants folds (shape arithmetic).
// CHECK-LABEL: func @shape_arith
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<[8, 6, 2]> : tensor<3xi64>
// CHECK-NEXT: return %[[C]]
func.func @shape_arith(%x: tensor<2x3x4xf32>) -> tensor<3xi64> {
  %s = tc.shape_of %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %i = tc.constant dense<[2, 1]> : tensor<2xi64>
  %g = tc.gather %s, %i {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %two = tc.constant dense<2> : tensor<i64>
  %m = tc.mul %g, %two : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %first = tc.slice %m {starts = array<i64: 0>, ends = array<i64: 2>, steps = array<i64: 1>} : (tensor<2xi64>) -> tensor<2xi64>
  %r = tc.slice %s {starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 1>} : (tensor<3xi64>) -> tensor<1xi64>
  %c = tc.concat %first, %r {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  %i32 = tc.cast %c : (tensor<3xi64>) -> tensor<3xi32>
  %back = tc.cast %i32 : (tensor<3xi32>) -> tensor<3xi64>
  return %back : tensor<3xi64>
}

// -----

// The attention-mask arithmetic exporters emit folds away.
// CHECK-LABEL: func @mask_arith
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<[2, 32, 1]> : tensor<3xi64>
// CHECK-NEXT: %[[B:.*]] = tc.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-NEXT: return %[[C]], %[[B]]
func.func @mask_arith() -> (tensor<3xi64>, tensor<3xi1>) {
  %ones = tc.constant dense<1> : tensor<3xi64>
  %neg = tc.constant dense<-1> : tensor<i64>
  %m = tc.mul %ones, %neg : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %target = tc.constant dense<[2, -1, 1]> : tensor<3xi64>
  %eq = tc.compare eq, %target, %m : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  %full = tc.constant dense<[2, 32, 1]> : tensor<3xi64>
  %r = tc.select %eq, %ones, %full : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %fixed = tc.select %eq, %full, %full : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %u1 = tc.constant dense<[1, 200, 3]> : tensor<3xui8>
  %u2 = tc.constant dense<[2, 100, 3]> : tensor<3xui8>
  %lt = tc.compare ge, %u2, %u1 : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  return %fixed, %lt : tensor<3xi64>, tensor<3xi1>
}

// -----

// CHECK-LABEL: func @range_fold
// CHECK-DAG: tc.constant dense<[1, 4, 7]> : tensor<3xi64>
// CHECK-DAG: tc.constant dense<[5.000000e+00, 4.500000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK-NOT: tc.range
func.func @range_fold() -> (tensor<3xi64>, tensor<3xf32>) {
  %s = tc.constant dense<1> : tensor<i64>
  %l = tc.constant dense<9> : tensor<i64>
  %d = tc.constant dense<3> : tensor<i64>
  %0 = tc.range %s, %l, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %fs = tc.constant dense<5.0> : tensor<f32>
  %fl = tc.constant dense<3.6> : tensor<f32>
  %fd = tc.constant dense<-0.5> : tensor<f32>
  %1 = tc.range %fs, %fl, %fd : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xi64>, tensor<3xf32>
}

// -----

// Equal dynamic types with a shape operand are not the identity.
// CHECK-LABEL: func @dynamic_shape_operand
// CHECK: tc.reshape
// CHECK: tc.broadcast
func.func @dynamic_shape_operand(%x: tensor<?x?xf32>, %s: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = tc.reshape %x, %s : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = tc.broadcast %x, %s : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func @fold_neg_abs
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<[3, 1]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @fold_neg_abs() -> tensor<2xi64> {
  %c = tc.constant dense<[-3, 1]> : tensor<2xi64>
  %0 = tc.neg %c : tensor<2xi64>
  %1 = tc.abs %0 : tensor<2xi64>
  return %1 : tensor<2xi64>
}
