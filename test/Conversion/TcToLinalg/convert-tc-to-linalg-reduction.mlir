// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// keepdims reduces to the kept dims, then re-inserts the 1s as a view.
// CHECK-LABEL: func.func @mean_keepdims
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: tensor.expand_shape {{.*}} : tensor<?x32xf32> into tensor<?x32x1x1xf32>
func.func @mean_keepdims(%x: tensor<?x32x8x8xf32>) -> tensor<?x32x1x1xf32> {
  %0 = tc.reduce_mean %x {axes = array<i64: 2, 3>, keepdims} : (tensor<?x32x8x8xf32>) -> tensor<?x32x1x1xf32>
  return %0 : tensor<?x32x1x1xf32>
}

// -----

// CHECK-LABEL: func.func @max_int
// CHECK: arith.constant -128 : i8
// CHECK: arith.maxsi
func.func @max_int(%x: tensor<4x5xi8>) -> tensor<5xi8> {
  %0 = tc.reduce_max %x {axes = array<i64: 0>} : (tensor<4x5xi8>) -> tensor<5xi8>
  return %0 : tensor<5xi8>
}

// -----

// argmax keeps the best value and its index; the first maximum wins.
// CHECK-LABEL: func.func @argmax
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xi64>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 1
func.func @argmax(%x: tensor<3x4xf32>) -> tensor<3x1xi64> {
  %0 = tc.argmax %x {axis = 1 : i64, keepdims} : (tensor<3x4xf32>) -> tensor<3x1xi64>
  return %0 : tensor<3x1xi64>
}
