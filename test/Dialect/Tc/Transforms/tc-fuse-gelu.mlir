// RUN: tc-opt %s -tc-fuse-gelu -split-input-file | FileCheck %s

// PyTorch's erf form: Div, Erf, Add 1, Mul x, Mul 0.5.
// CHECK-LABEL: func @erf_pytorch
// CHECK-NOT: tc.mul
// CHECK: %[[G:.*]] = tc.gelu %arg0 : tensor<2x8xf32>
// CHECK-NEXT: return %[[G]]
func.func @erf_pytorch(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %sqrt2 = tc.constant dense<1.41421354> : tensor<f32>
  %0 = tc.div %x, %sqrt2 : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = tc.erf %0 : tensor<2x8xf32>
  %2 = tc.add %1, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = tc.mul %x, %2 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = tc.mul %3, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4 : tensor<2x8xf32>
}

// -----

// 0.5 * x first, constants on the left and as 1-element tensors, and a
// multiplication by 1/sqrt(2) instead of the division.
// CHECK-LABEL: func @erf_half_first
// CHECK-NOT: tc.mul
// CHECK: %[[G:.*]] = tc.gelu %arg0 : tensor<4x?xf32>
// CHECK-NEXT: return %[[G]]
func.func @erf_half_first(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<1xf32>
  %one = tc.constant dense<1.000000e+00> : tensor<1xf32>
  %rsqrt2 = tc.constant dense<0.707106769> : tensor<1x1xf32>
  %0 = tc.mul %half, %x : (tensor<1xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  %1 = tc.mul %rsqrt2, %x : (tensor<1x1xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  %2 = tc.erf %1 : tensor<4x?xf32>
  %3 = tc.add %one, %2 : (tensor<1xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  %4 = tc.mul %0, %3 : (tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %4 : tensor<4x?xf32>
}

// -----

// x * (0.5 * (1 + erf(x / sqrt(2)))): the half scales the sum.
// CHECK-LABEL: func @erf_half_on_sum
// CHECK-NOT: tc.mul
// CHECK: %[[G:.*]] = tc.gelu %arg0 : tensor<8xf16>
// CHECK-NEXT: return %[[G]]
func.func @erf_half_on_sum(%x: tensor<8xf16>) -> tensor<8xf16> {
  %half = tc.constant dense<5.000000e-01> : tensor<f16>
  %one = tc.constant dense<1.000000e+00> : tensor<f16>
  %sqrt2 = tc.constant dense<1.414> : tensor<f16>
  %0 = tc.div %x, %sqrt2 : (tensor<8xf16>, tensor<f16>) -> tensor<8xf16>
  %1 = tc.erf %0 : tensor<8xf16>
  %2 = tc.add %1, %one : (tensor<8xf16>, tensor<f16>) -> tensor<8xf16>
  %3 = tc.mul %2, %half : (tensor<8xf16>, tensor<f16>) -> tensor<8xf16>
  %4 = tc.mul %x, %3 : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %4 : tensor<8xf16>
}

// -----

// The tanh form as GPT-2 exports it: x^3 as x * (x * x).
// CHECK-LABEL: func @tanh_gpt
// CHECK-NOT: tc.mul
// CHECK: %[[G:.*]] = tc.gelu %arg0 {approximate_tanh} : tensor<1x32x512xf32>
// CHECK-NEXT: return %[[G]]
func.func @tanh_gpt(%x: tensor<1x32x512xf32>) -> tensor<1x32x512xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %c = tc.constant dense<0.797884583> : tensor<f32>
  %k = tc.constant dense<4.471500e-02> : tensor<f32>
  %0 = tc.mul %x, %x : (tensor<1x32x512xf32>, tensor<1x32x512xf32>) -> tensor<1x32x512xf32>
  %1 = tc.mul %x, %0 : (tensor<1x32x512xf32>, tensor<1x32x512xf32>) -> tensor<1x32x512xf32>
  %2 = tc.mul %1, %k : (tensor<1x32x512xf32>, tensor<f32>) -> tensor<1x32x512xf32>
  %3 = tc.add %x, %2 : (tensor<1x32x512xf32>, tensor<1x32x512xf32>) -> tensor<1x32x512xf32>
  %4 = tc.mul %3, %c : (tensor<1x32x512xf32>, tensor<f32>) -> tensor<1x32x512xf32>
  %5 = tc.tanh %4 : tensor<1x32x512xf32>
  %6 = tc.add %5, %one : (tensor<1x32x512xf32>, tensor<f32>) -> tensor<1x32x512xf32>
  %7 = tc.mul %x, %6 : (tensor<1x32x512xf32>, tensor<1x32x512xf32>) -> tensor<1x32x512xf32>
  %8 = tc.mul %7, %half : (tensor<1x32x512xf32>, tensor<f32>) -> tensor<1x32x512xf32>
  return %8 : tensor<1x32x512xf32>
}

// -----

// The tanh form with Pow(x, 3) (an integer exponent), (x*x)*x elsewhere,
// and 0.5 * x computed first.
// CHECK-LABEL: func @tanh_pow
// CHECK-NOT: tc.mul
// CHECK: %[[G:.*]] = tc.gelu %arg0 {approximate_tanh} : tensor<2x8xf32>
// CHECK-NEXT: return %[[G]]
func.func @tanh_pow(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %c = tc.constant dense<0.79788456> : tensor<f32>
  %k = tc.constant dense<4.471500e-02> : tensor<f32>
  %three = tc.constant dense<3> : tensor<i64>
  %0 = tc.pow %x, %three : (tensor<2x8xf32>, tensor<i64>) -> tensor<2x8xf32>
  %1 = tc.mul %k, %0 : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = tc.add %1, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = tc.mul %c, %2 : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = tc.tanh %3 : tensor<2x8xf32>
  %5 = tc.add %one, %4 : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %6 = tc.mul %x, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %7 = tc.mul %6, %5 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %7 : tensor<2x8xf32>
}

// -----

// (x * x) * x for the cube.
// CHECK-LABEL: func @tanh_cube_left
// CHECK-NOT: tc.mul
// CHECK: tc.gelu %arg0 {approximate_tanh}
// CHECK-NOT: tc.tanh
func.func @tanh_cube_left(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %c = tc.constant dense<0.797884583> : tensor<f32>
  %k = tc.constant dense<4.471500e-02> : tensor<f32>
  %0 = tc.mul %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = tc.mul %0, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = tc.mul %1, %k : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = tc.add %x, %2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = tc.mul %3, %c : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = tc.tanh %4 : tensor<8xf32>
  %6 = tc.add %5, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %7 = tc.mul %x, %6 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %8 = tc.mul %7, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %8 : tensor<8xf32>
}

// -----

// Not GELU: the divisor is not sqrt(2).
// CHECK-LABEL: func @wrong_constant
// CHECK-NOT: tc.gelu
// CHECK: tc.erf
func.func @wrong_constant(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %d = tc.constant dense<1.415> : tensor<f32>
  %0 = tc.div %x, %d : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = tc.erf %0 : tensor<2x8xf32>
  %2 = tc.add %1, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = tc.mul %x, %2 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = tc.mul %3, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4 : tensor<2x8xf32>
}

// -----

// Not fused: the erf is also returned, so it would be computed twice.
// CHECK-LABEL: func @intermediate_used
// CHECK-NOT: tc.gelu
// CHECK: tc.erf
func.func @intermediate_used(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %sqrt2 = tc.constant dense<1.41421354> : tensor<f32>
  %0 = tc.div %x, %sqrt2 : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = tc.erf %0 : tensor<2x8xf32>
  %2 = tc.add %1, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = tc.mul %x, %2 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = tc.mul %3, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4, %1 : tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// Not fused: the 0.5 constant broadcasts x to a larger shape.
// CHECK-LABEL: func @broadcasting_constant
// CHECK-NOT: tc.gelu
func.func @broadcasting_constant(%x: tensor<8xf32>) -> tensor<3x8xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<3x1xf32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %sqrt2 = tc.constant dense<1.41421354> : tensor<f32>
  %0 = tc.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = tc.erf %0 : tensor<8xf32>
  %2 = tc.add %1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = tc.mul %x, %2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = tc.mul %3, %half : (tensor<8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  return %4 : tensor<3x8xf32>
}

// -----

// Not fused: erf of another value than the one multiplied.
// CHECK-LABEL: func @two_inputs
// CHECK-NOT: tc.gelu
func.func @two_inputs(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %sqrt2 = tc.constant dense<1.41421354> : tensor<f32>
  %0 = tc.div %y, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = tc.erf %0 : tensor<8xf32>
  %2 = tc.add %1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = tc.mul %x, %2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = tc.mul %3, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}
