// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Linear resize: two taps per resized dim, four reads for two dims; the
// unresized dims read their own index.
// CHECK-LABEL: func.func @linear
// CHECK: linalg.generic
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: arith.truncf {{.*}} : f64 to f32
func.func @linear(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32> {
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 2.0>, mode = "linear"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

// Nearest with asymmetric coordinates: x / scale, rounded, one read.
// CHECK-LABEL: func.func @nearest
// CHECK: arith.divf
// CHECK: math.ceil
// CHECK-COUNT-1: tensor.extract %arg0
func.func @nearest(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 2.0>, coordinate_transformation_mode = "asymmetric"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}
