// RUN: tc-opt %s --convert-tc-to-linalg --tc-cpu-winograd-conv --canonicalize | FileCheck %s

// Winograd only where it is estimated faster than the direct convolution:
// the larger of its operations (two per multiply-add) and its weight bytes
// times 20 (the default flops-per-byte).

// ResNet's 14x14 stage at batch 1: 16 tiles of 4x4. F(4x4, 3x3) reads 9.4
// MB of transformed weights (189 M operations' time) for 75 M operations;
// the direct convolution does 231 M: F(4x4).
// CHECK-LABEL: func.func @stage3
// CHECK: arith.constant dense{{.*}} : tensor<36x8x256x32xf32>
func.func @stage3(%x: tensor<1x256x14x14xf32>) -> tensor<1x256x14x14xf32> {
  %w = arith.constant dense<0.5> : tensor<256x256x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<256xf32>
  %y = tc.conv %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x256x14x14xf32>, tensor<256x256x3x3xf32>, tensor<256xf32>) -> tensor<1x256x14x14xf32>
  return %y : tensor<1x256x14x14xf32>
}

// ResNet's 7x7 stage at batch 1: 16 tiles of 2x2 (4 of 4x4). F(2x2, 3x3)
// would read 16.8 MB of transformed weights (335 M operations' time); the
// direct convolution does 231 M operations and reads 9.4 MB: it stays
// direct.
// CHECK-LABEL: func.func @stage4
// CHECK-NOT: dense_resource
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins({{.*}}tensor<512x512x3x3xf32>)
func.func @stage4(%x: tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<512x512x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<512xf32>
  %y = tc.conv %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x512x7x7xf32>, tensor<512x512x3x3xf32>, tensor<512xf32>) -> tensor<1x512x7x7xf32>
  return %y : tensor<1x512x7x7xf32>
}

// The same layer at batch 8: 32 tiles of 4x4. F(4x4, 3x3) reads 37.7 MB
// (755 M operations' time) for 604 M operations, against the direct 1.85 G:
// F(4x4).
// CHECK-LABEL: func.func @stage4_batch8
// CHECK: arith.constant dense{{.*}} : tensor<36x16x512x32xf32>
func.func @stage4_batch8(%x: tensor<8x512x7x7xf32>) -> tensor<8x512x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<512x512x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<512xf32>
  %y = tc.conv %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<8x512x7x7xf32>, tensor<512x512x3x3xf32>, tensor<512xf32>) -> tensor<8x512x7x7xf32>
  return %y : tensor<8x512x7x7xf32>
}
