// RUN: tc-opt %s -tc-fuse-layer-norm -split-input-file | FileCheck %s

// PyTorch's pre-opset-17 export: ReduceMean, Sub, Pow 2, ReduceMean, Add,
// Sqrt, Div, Mul gamma, Add beta.
// CHECK-LABEL: func @pytorch
// CHECK-NOT: tc.reduce_mean
// CHECK: %[[N:.*]] = tc.layer_norm %arg0, %arg1, %arg2 {axis = 2 : i64, epsilon = 9.99999996E-13 : f32}
// CHECK-SAME: (tensor<2x32x128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<2x32x128xf32>
// CHECK-NOT: tc.div
// CHECK: return %[[N]]
func.func @pytorch(%x: tensor<2x32x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<2x32x128xf32> {
  %two = tc.constant dense<2.000000e+00> : tensor<f32>
  %eps = tc.constant dense<9.99999996E-13> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 2>, keepdims} : (tensor<2x32x128xf32>) -> tensor<2x32x1xf32>
  %1 = tc.sub %x, %0 : (tensor<2x32x128xf32>, tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
  %2 = tc.pow %1, %two : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32x128xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 2>, keepdims} : (tensor<2x32x128xf32>) -> tensor<2x32x1xf32>
  %4 = tc.add %3, %eps : (tensor<2x32x1xf32>, tensor<f32>) -> tensor<2x32x1xf32>
  %5 = tc.sqrt %4 : tensor<2x32x1xf32>
  %6 = tc.div %1, %5 : (tensor<2x32x128xf32>, tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
  %7 = tc.mul %6, %g : (tensor<2x32x128xf32>, tensor<128xf32>) -> tensor<2x32x128xf32>
  %8 = tc.add %7, %b : (tensor<2x32x128xf32>, tensor<128xf32>) -> tensor<2x32x128xf32>
  return %8 : tensor<2x32x128xf32>
}

// -----

// d * d for the square, Rsqrt, gamma on the left, no beta, two trailing
// axes.
// CHECK-LABEL: func @rsqrt_two_axes
// CHECK: %[[N:.*]] = tc.layer_norm %arg0, %arg1 {axis = 1 : i64}
// CHECK-SAME: (tensor<4x8x16xf32>, tensor<8x16xf32>) -> tensor<4x8x16xf32>
// CHECK-NEXT: return %[[N]]
func.func @rsqrt_two_axes(%x: tensor<4x8x16xf32>, %g: tensor<8x16xf32>) -> tensor<4x8x16xf32> {
  %eps = tc.constant dense<1.0e-05> : tensor<1xf32>
  %0 = tc.reduce_mean %x {axes = array<i64: 2, 1>, keepdims} : (tensor<4x8x16xf32>) -> tensor<4x1x1xf32>
  %1 = tc.sub %x, %0 : (tensor<4x8x16xf32>, tensor<4x1x1xf32>) -> tensor<4x8x16xf32>
  %2 = tc.mul %1, %1 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 1, 2>, keepdims} : (tensor<4x8x16xf32>) -> tensor<4x1x1xf32>
  %4 = tc.add %eps, %3 : (tensor<1xf32>, tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
  %5 = tc.rsqrt %4 : tensor<4x1x1xf32>
  %6 = tc.mul %5, %1 : (tensor<4x1x1xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %7 = tc.mul %g, %6 : (tensor<8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %7 : tensor<4x8x16xf32>
}

// -----

// Reciprocal(Sqrt) and no gamma or beta: the scale is a constant of ones.
// CHECK-LABEL: func @reciprocal_no_affine
// CHECK: %[[ONES:.*]] = tc.constant dense<1.000000e+00> : tensor<64xf32>
// CHECK: %[[N:.*]] = tc.layer_norm %arg0, %[[ONES]] {axis = 1 : i64}
// CHECK-NEXT: return %[[N]]
func.func @reciprocal_no_affine(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %eps = tc.constant dense<1.0e-05> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %1 = tc.sub %x, %0 : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %2 = tc.mul %1, %1 : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 1>, keepdims} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %4 = tc.add %3, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %5 = tc.sqrt %4 : tensor<?x1xf32>
  %6 = tc.reciprocal %5 : tensor<?x1xf32>
  %7 = tc.mul %1, %6 : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  return %7 : tensor<?x64xf32>
}

// -----

// gamma and beta with leading 1s are reshaped to the normalized shape.
// CHECK-LABEL: func @params_with_leading_ones
// CHECK-DAG: %[[G:.*]] = tc.reshape %arg1 : (tensor<1x1x16xf32>) -> tensor<16xf32>
// CHECK-DAG: %[[B:.*]] = tc.reshape %arg2 : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK: tc.layer_norm %arg0, %[[G]], %[[B]] {axis = 2 : i64
func.func @params_with_leading_ones(%x: tensor<2x4x16xf32>, %g: tensor<1x1x16xf32>, %b: tensor<1x16xf32>) -> tensor<2x4x16xf32> {
  %eps = tc.constant dense<1.0e-05> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 2>, keepdims} : (tensor<2x4x16xf32>) -> tensor<2x4x1xf32>
  %1 = tc.sub %x, %0 : (tensor<2x4x16xf32>, tensor<2x4x1xf32>) -> tensor<2x4x16xf32>
  %2 = tc.mul %1, %1 : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 2>, keepdims} : (tensor<2x4x16xf32>) -> tensor<2x4x1xf32>
  %4 = tc.add %3, %eps : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %5 = tc.sqrt %4 : tensor<2x4x1xf32>
  %6 = tc.div %1, %5 : (tensor<2x4x16xf32>, tensor<2x4x1xf32>) -> tensor<2x4x16xf32>
  %7 = tc.mul %6, %g : (tensor<2x4x16xf32>, tensor<1x1x16xf32>) -> tensor<2x4x16xf32>
  %8 = tc.add %b, %7 : (tensor<1x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %8 : tensor<2x4x16xf32>
}

// -----

// Not layer norm: the mean is over a leading axis (instance-norm style).
// CHECK-LABEL: func @not_trailing
// CHECK-NOT: tc.layer_norm
func.func @not_trailing(%x: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %eps = tc.constant dense<1.0e-05> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<4x8x16xf32>) -> tensor<4x1x16xf32>
  %1 = tc.sub %x, %0 : (tensor<4x8x16xf32>, tensor<4x1x16xf32>) -> tensor<4x8x16xf32>
  %2 = tc.mul %1, %1 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 1>, keepdims} : (tensor<4x8x16xf32>) -> tensor<4x1x16xf32>
  %4 = tc.add %3, %eps : (tensor<4x1x16xf32>, tensor<f32>) -> tensor<4x1x16xf32>
  %5 = tc.sqrt %4 : tensor<4x1x16xf32>
  %6 = tc.div %1, %5 : (tensor<4x8x16xf32>, tensor<4x1x16xf32>) -> tensor<4x8x16xf32>
  return %6 : tensor<4x8x16xf32>
}

// -----

// Not fused: the variance is also returned.
// CHECK-LABEL: func @variance_used
// CHECK-NOT: tc.layer_norm
func.func @variance_used(%x: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<2x1xf32>) {
  %eps = tc.constant dense<1.0e-05> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %1 = tc.sub %x, %0 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  %2 = tc.mul %1, %1 : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %4 = tc.add %3, %eps : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %5 = tc.sqrt %4 : tensor<2x1xf32>
  %6 = tc.div %1, %5 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  return %6, %3 : tensor<2x16xf32>, tensor<2x1xf32>
}

// -----

// Not fused: the centered value has a third reader.
// CHECK-LABEL: func @centered_used
// CHECK-NOT: tc.layer_norm
func.func @centered_used(%x: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>) {
  %eps = tc.constant dense<1.0e-05> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %1 = tc.sub %x, %0 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  %2 = tc.mul %1, %1 : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %4 = tc.add %3, %eps : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %5 = tc.sqrt %4 : tensor<2x1xf32>
  %6 = tc.div %1, %5 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  %7 = tc.exp %1 : tensor<2x16xf32>
  return %6, %7 : tensor<2x16xf32>, tensor<2x16xf32>
}

// -----

// Not fused: the square is a Pow with exponent 3.
// CHECK-LABEL: func @wrong_exponent
// CHECK-NOT: tc.layer_norm
func.func @wrong_exponent(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %three = tc.constant dense<3.000000e+00> : tensor<f32>
  %eps = tc.constant dense<1.0e-05> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %1 = tc.sub %x, %0 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  %2 = tc.pow %1, %three : (tensor<2x16xf32>, tensor<f32>) -> tensor<2x16xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %4 = tc.add %3, %eps : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %5 = tc.sqrt %4 : tensor<2x1xf32>
  %6 = tc.div %1, %5 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  return %6 : tensor<2x16xf32>
}

// -----

// gamma that varies along a leading axis is not a layer_norm scale: the
// normalization is fused, the multiplication stays.
// CHECK-LABEL: func @gamma_per_row
// CHECK: %[[N:.*]] = tc.layer_norm %arg0, %{{.*}} {axis = 1 : i64
// CHECK: tc.mul %[[N]], %arg1
func.func @gamma_per_row(%x: tensor<2x16xf32>, %g: tensor<2x1xf32>) -> tensor<2x16xf32> {
  %eps = tc.constant dense<1.0e-05> : tensor<f32>
  %0 = tc.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %1 = tc.sub %x, %0 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  %2 = tc.mul %1, %1 : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
  %3 = tc.reduce_mean %2 {axes = array<i64: 1>, keepdims} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %4 = tc.add %3, %eps : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %5 = tc.sqrt %4 : tensor<2x1xf32>
  %6 = tc.div %1, %5 : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  %7 = tc.mul %6, %g : (tensor<2x16xf32>, tensor<2x1xf32>) -> tensor<2x16xf32>
  return %7 : tensor<2x16xf32>
}
