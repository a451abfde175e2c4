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

// -----

// Scales and sizes read at run time: the output extents come from %sizes
// and every dim's scale from %scales; the static dims keep their extents.
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG: %[[H:.*]] = tensor.extract %arg2[%{{.*}}]
// CHECK-DAG: %[[W:.*]] = tensor.extract %arg2[%{{.*}}]
// CHECK-DAG: %[[HI:.*]] = arith.index_cast %[[H]] : i64 to index
// CHECK-DAG: %[[WI:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK: tensor.empty(%[[HI]], %[[WI]]) : tensor<1x3x?x?xf32>
// CHECK: linalg.generic
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
func.func @dynamic(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf64>, %sizes: tensor<4xi64>) -> tensor<1x3x?x?xf32> {
  %0 = tc.dynamic_resize %x, %scales, %sizes {mode = "linear"} : (tensor<1x3x4x4xf32>, tensor<4xf64>, tensor<4xi64>) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}

// -----

// Constant scales on a dynamic image: the output size is floor(h * scale).
// CHECK-LABEL: func.func @dynamic_image
// CHECK: tensor.dim %arg0, %{{.*}}
// CHECK: %[[HF:.*]] = arith.sitofp
// CHECK: %[[SIZE:.*]] = math.floor
// CHECK: %[[HO:.*]] = arith.fptosi %[[SIZE]]
// CHECK: tensor.empty
// CHECK: linalg.generic
func.func @dynamic_image(%x: tensor<1x1x?x4xf32>) -> tensor<1x1x?x8xf32> {
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 2.0>, mode = "nearest"} : (tensor<1x1x?x4xf32>) -> tensor<1x1x?x8xf32>
  return %0 : tensor<1x1x?x8xf32>
}
