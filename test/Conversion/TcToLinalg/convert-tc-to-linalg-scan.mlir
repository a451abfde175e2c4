// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// cumsum adds, for each position, the elements on the chosen side of it.
// CHECK-DAG: #[[SRC:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @cumsum_exclusive_reverse
// CHECK: linalg.generic {indexing_maps = [#[[SRC]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.cmpi sgt
// CHECK: arith.select
func.func @cumsum_exclusive_reverse(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = tc.cumsum %x {axis = 1 : i64, exclusive, reverse} : tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// top_k ranks each element in its row (ties: lower index first), then picks
// rank j for output position j.
// CHECK-LABEL: func.func @top_k
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x10xi64>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xi64>)
// CHECK: arith.cmpi eq
func.func @top_k(%x: tensor<2x10xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
  %v, %i = tc.top_k %x {k = 3 : i64, axis = 1 : i64} : (tensor<2x10xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi64>
}

// -----

// non_zero counts the non-zero elements (NaN included: une), allocates the
// [rank, count] result, then writes each non-zero element's row-major
// indices into the next column.
// CHECK-LABEL: func.func @non_zero
// CHECK: %[[COUNT:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK:   arith.remui %[[I]]
// CHECK:   arith.divui %[[I]]
// CHECK:   arith.cmpf une
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[COUNT]]) : tensor<2x?xi64>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[EMPTY]], %{{.*}} = %{{.*}}) -> (tensor<2x?xi64>, index)
// CHECK:   scf.if
// CHECK:     tensor.insert
// CHECK:     tensor.insert
func.func @non_zero(%x: tensor<3x4xf32>) -> tensor<2x?xi64> {
  %0 = tc.non_zero %x : (tensor<3x4xf32>) -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}
