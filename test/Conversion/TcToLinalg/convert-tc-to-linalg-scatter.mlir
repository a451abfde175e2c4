// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Scatters are loop nests over the updates that carry the result tensor.
// CHECK-LABEL: func.func @scatter_elements_add
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg0)
// CHECK: scf.for
// CHECK: tensor.extract %arg2
// CHECK: tensor.extract %arg1
// CHECK: arith.addf
// CHECK: tensor.insert
func.func @scatter_elements_add(%x: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = tc.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "add"} : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_nd
// CHECK: scf.for
// CHECK: tensor.extract %arg1
// CHECK: tensor.insert
func.func @scatter_nd(%x: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %0 = tc.scatter_nd %x, %i, %u : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
