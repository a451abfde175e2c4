// RUN: tc-opt %s --tc-cpu-vectorize-transforms --canonicalize | FileCheck %s

// out[p, q, l] += sum_{r, s} c[p, r] c[q, s] x[r, s, l] with the constant
// c = [[1, 0, -1], [2, 0.5, 0]]: a loop over the 32 lanes in vectors of 16;
// per vector, the 9 loads of the tile, t[r, q] = sum_s c[q, s] x[r, s]
// (x[r, 0] - x[r, 2], and 2 x[r, 0] + 0.5 x[r, 1]: the zeros skipped, the
// ones an add or subtract), then out[p, q] += sum_r c[p, r] t[r, q] on the
// loaded outputs, stored back; no generic is left.
memref.global "private" constant @c : memref<2x3xf32> = dense<[[1.0, 0.0, -1.0], [2.0, 0.5, 0.0]]>
// CHECK-LABEL: func.func @transform
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK-COUNT-9: vector.load %{{.*}} : memref<3x3x32xf32>, vector<16xf32>
// CHECK: arith.subf
// CHECK: arith.mulf %{{.*}}, %[[TWO]]
// CHECK: vector.fma %[[HALF]]
// CHECK-COUNT-4: vector.store %{{.*}} : memref<2x2x32xf32>, vector<16xf32>
// CHECK-NOT: vector.store
func.func @transform(%x: memref<3x3x32xf32>, %out: memref<2x2x32xf32>) {
  %c = memref.get_global @c : memref<2x3xf32>
  linalg.generic {
      indexing_maps = [affine_map<(p, q, l, r, s) -> (p, r)>,
                       affine_map<(p, q, l, r, s) -> (q, s)>,
                       affine_map<(p, q, l, r, s) -> (r, s, l)>,
                       affine_map<(p, q, l, r, s) -> (p, q, l)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%c, %c, %x : memref<2x3xf32>, memref<2x3xf32>, memref<3x3x32xf32>)
      outs(%out : memref<2x2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %v: f32, %acc: f32):
    %w = arith.mulf %a, %b : f32
    %t = arith.mulf %w, %v : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }
  return
}

// A matrix that is not a constant stays a generic.
// CHECK-LABEL: func.func @variable
// CHECK: linalg.generic
func.func @variable(%c: memref<2x3xf32>, %x: memref<3x3x32xf32>, %out: memref<2x2x32xf32>) {
  linalg.generic {
      indexing_maps = [affine_map<(p, q, l, r, s) -> (p, r)>,
                       affine_map<(p, q, l, r, s) -> (q, s)>,
                       affine_map<(p, q, l, r, s) -> (r, s, l)>,
                       affine_map<(p, q, l, r, s) -> (p, q, l)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%c, %c, %x : memref<2x3xf32>, memref<2x3xf32>, memref<3x3x32xf32>)
      outs(%out : memref<2x2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %v: f32, %acc: f32):
    %w = arith.mulf %a, %b : f32
    %t = arith.mulf %w, %v : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }
  return
}
