// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Gather reads the indices through a projection, wraps negative indices,
// clamps, and extracts the element.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}]
// CHECK: arith.index_cast
// CHECK: arith.select
// CHECK: arith.minsi
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<100x16xf32>
func.func @gather(%table: tensor<100x16xf32>, %ids: tensor<2x5xi64>) -> tensor<2x5x16xf32> {
  %0 = tc.gather %table, %ids {axis = 0 : i64} : (tensor<100x16xf32>, tensor<2x5xi64>) -> tensor<2x5x16xf32>
  return %0 : tensor<2x5x16xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements
// CHECK: linalg.index 0
// CHECK: tensor.extract %arg0
func.func @gather_elements(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = tc.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// gather_nd reads each index component from the last dim of `indices`.
// CHECK-LABEL: func.func @gather_nd
// CHECK: linalg.generic
// CHECK-COUNT-2: tensor.extract %arg1
// CHECK: tensor.extract %arg0
func.func @gather_nd(%x: tensor<4x5x6xf32>, %i: tensor<3x2xi64>) -> tensor<3x6xf32> {
  %0 = tc.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
