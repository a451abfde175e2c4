// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Constants keep their blob; an unsigned type is only retyped.
// CHECK-LABEL: func.func @constants
// CHECK: arith.constant dense<[1, 2, -1]> : tensor<3xi8>
// CHECK: arith.constant dense_resource<blob> : tensor<2xf32>
func.func @constants() -> (tensor<3xui8>, tensor<2xf32>) {
  %0 = tc.constant dense<[1, 2, 255]> : tensor<3xui8>
  %1 = tc.constant dense_resource<blob> : tensor<2xf32>
  return %0, %1 : tensor<3xui8>, tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @shape_of
// CHECK: tensor.dim %arg0, %c0
// CHECK: tensor.from_elements {{.*}} : tensor<2xi64>
func.func @shape_of(%x: tensor<?x4xf32>) -> tensor<2xi64> {
  %0 = tc.shape_of %x : (tensor<?x4xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// A range of unknown length computes max(0, ceil((limit - start) / delta)).
// CHECK-LABEL: func.func @range
// CHECK: arith.ceildivsi
// CHECK: arith.maxsi
// CHECK: linalg.generic
// CHECK: linalg.index 0
func.func @range(%s: tensor<i64>, %l: tensor<i64>, %d: tensor<i64>) -> tensor<?xi64> {
  %0 = tc.range %s, %l, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
