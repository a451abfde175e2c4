// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// unique: a merge sort of the positions (scf.while over run widths, an
// scf.for merging each pair of runs), a scan counting the runs of equal
// values (the result size), a scan filling each run's first position and
// count and every element's inverse index; unsorted renumbers the runs by
// first occurrence. The values are gathered at the first positions.
// CHECK-LABEL: func.func @unique_unsorted
// CHECK: %[[SORTED:.*]]:3 = scf.while
// CHECK:   arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[RUNS:.*]] = scf.for {{.*}} -> (index)
// CHECK:   arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: %[[FIRSTS:.*]] = tensor.empty(%[[RUNS]]) : tensor<?xindex>
// CHECK: scf.for {{.*}} -> (index, tensor<?xindex>, tensor<?xindex>, tensor<?xindex>)
// CHECK: scf.for {{.*}} -> (index, tensor<?xindex>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?xi32>)
// CHECK:   tensor.extract %{{.*}} : tensor<6xi32>
func.func @unique_unsorted(%x: tensor<6xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>) {
  %0:4 = tc.unique %x {unsorted} : (tensor<6xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<?xi32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>
}

// -----

// With an axis, slices compare element by element until the first that
// differs (scf.while).
// CHECK-LABEL: func.func @unique_axis
// CHECK: scf.while
// CHECK:   scf.while
// CHECK:     arith.cmpf oeq
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x?xf32>)
func.func @unique_axis(%x: tensor<2x5xf32>) -> tensor<2x?xf32> {
  %0:4 = tc.unique %x {axis = 1 : i64} : (tensor<2x5xf32>) -> (tensor<2x?xf32>, tensor<?xi64>, tensor<5xi64>, tensor<?xi64>)
  return %0#0 : tensor<2x?xf32>
}

// -----

// non_max_suppression: per batch and class, a sort by decreasing score
// (ogt), then a scan that keeps a box when no kept box overlaps it by more
// than the IoU threshold; the filled rows are the result.
// CHECK-LABEL: func.func @nms
// CHECK: %[[LIMIT:.*]] = tensor.extract %arg2
// CHECK: %[[IOU:.*]] = tensor.extract %arg3
// CHECK: scf.for {{.*}} -> (index, tensor<?x3xi64>)
// CHECK:   scf.for {{.*}} -> (index, tensor<?x3xi64>, tensor<?xindex>)
// CHECK:     scf.while
// CHECK:       arith.cmpf ogt
// CHECK:     scf.for
// CHECK:       scf.if
// CHECK:         arith.divf
// CHECK:         arith.cmpf ogt, %{{.*}}, %[[IOU]]
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, 3] [1, 1] : tensor<?x3xi64> to tensor<?x3xi64>
func.func @nms(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>) -> tensor<?x3xi64> {
  %0 = tc.non_max_suppression %b, %s, %m, %i : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

// det: per matrix, LU with partial pivoting: find the pivot row (largest
// magnitude), swap (negating the determinant), multiply the pivot in, and
// eliminate below it unless it is zero. The running product is kept in the
// result tensor, filled with 1 first.
// CHECK-LABEL: func.func @det
// CHECK: %[[ONES:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[ONES]]) -> (tensor<4x3x3xf32>, tensor<4xf32>)
// CHECK:   scf.for {{.*}} -> (tensor<4x3x3xf32>, tensor<4xf32>)
// CHECK:     math.absf
// CHECK:     arith.cmpf ogt
// CHECK:     scf.if {{.*}} -> (tensor<4x3x3xf32>)
// CHECK:     arith.negf
// CHECK:     arith.mulf
// CHECK:     arith.cmpf une
// CHECK:     scf.if {{.*}} -> (tensor<4x3x3xf32>)
// CHECK:       arith.divf
func.func @det(%x: tensor<4x3x3xf32>) -> tensor<4xf32> {
  %0 = tc.det %x : (tensor<4x3x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// tensor_scatter: a parallel generic over the cache; circular positions
// wrap modulo the cache length, and the update is read only where it lands.
// CHECK-LABEL: func.func @tensor_scatter
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<2x8x4xf32>)
// CHECK:   tensor.extract %arg2
// CHECK:   arith.remsi
// CHECK:   scf.if
// CHECK:     tensor.extract %arg1
func.func @tensor_scatter(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %w: tensor<2xi64>) -> tensor<2x8x4xf32> {
  %0 = tc.tensor_scatter %c, %u, %w {axis = 1 : i64, circular} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

// random_uniform: SplitMix64 of the flat position keyed by the seed; the
// top 11 bits (f16's precision) scaled into [low, high).
// CHECK-LABEL: func.func @random
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x3xf16>)
// CHECK:   arith.muli {{.*}} : i64
// CHECK:   arith.shrui
// CHECK:   arith.uitofp {{.*}} : i64 to f32
// CHECK:   arith.truncf {{.*}} : f32 to f16
func.func @random(%x: tensor<?x3xf16>) -> tensor<?x3xf16> {
  %0 = tc.random_uniform %x {low = -1.0 : f64, high = 1.0 : f64, seed = 5 : i64} : (tensor<?x3xf16>) -> tensor<?x3xf16>
  return %0 : tensor<?x3xf16>
}
