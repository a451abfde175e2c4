// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// The shared-memory contraction stages its tiles in vectors where an
// operand's contiguous innermost dimension is indexed by K's or its own
// role's last loop alone (static extent and layout that the lanes divide).
// Row-major A (96 x 64) runs along K: its 32 x 16 tile is 128 vectors of
// four, one for each of threads 0 to 127 (thread v: row v / 4, column
// (v % 4) 4). Row-major B (64 x 128) runs along N: 16 rows of 8 vectors.
// Each vector is guarded as a whole and its lanes are stored to the tile
// (A's transposed: K, then M). A thread's positions in the tiles are the
// same at every step. The block stages step 0 into the first pair of
// tiles; step s multiplies pair s % 2 and stages step s + 1 into the
// other pair, loading before the products and storing after them, with
// one barrier per step.
// CHECK-LABEL: func.func @row_major
// CHECK-SAME: (%[[A:.*]]: memref<96x64xf32>, %[[B:.*]]: memref<64x128xf32>
// CHECK: gpu.launch
// CHECK-SAME: threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in
// CHECK-SAME: workgroup(%[[AS0:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>>, %[[BS0:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>>, %[[AS1:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>>, %[[BS1:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.load %[[A]][
// CHECK: %[[SCALED:.*]] = arith.muli %[[TY]], %c16
// CHECK: %[[LINEAR:.*]] = arith.addi %[[SCALED]], %[[TX]]
// CHECK: %[[SOME:.*]] = arith.cmpi ult, %[[LINEAR]], %c128
// CHECK: %[[ROW:.*]] = arith.divui %[[LINEAR]], %c4
// CHECK: %[[CHUNK:.*]] = arith.remui %[[LINEAR]], %c4
// CHECK: %[[COLUMN:.*]] = arith.muli %[[CHUNK]], %c4
// CHECK: vector.load %[[A]]
// CHECK: vector.load %[[B]]
// CHECK: scf.if %[[SOME]] {
// CHECK:   memref.store %{{.*}}, %[[AS0]][%[[COLUMN]], %[[ROW]]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK:   %[[ODD:.*]] = arith.cmpi ne
// CHECK:   %[[AC:.*]] = arith.select %[[ODD]], %[[AS1]], %[[AS0]]
// CHECK:   %[[BC:.*]] = arith.select %[[ODD]], %[[BS1]], %[[BS0]]
// CHECK:   %[[NEXT:.*]] = arith.addi %[[K0]], %c16
// CHECK:   %[[V:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK:     vector.load %[[A]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<96x64xf32>, vector<4xf32>
// CHECK:   } else {
// CHECK:   scf.if
// CHECK:     vector.load %[[B]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK:   scf.for
// CHECK:     memref.load %[[AC]]
// CHECK:     memref.load %[[BC]]
// CHECK:   %[[AN:.*]] = arith.select %[[ODD]], %[[AS0]], %[[AS1]]
// CHECK:   scf.if %[[SOME]] {
// CHECK:     %[[E0:.*]] = vector.extract %[[V]][0]
// CHECK:     memref.store %[[E0]], %[[AN]][%[[COLUMN]], %[[ROW]]]
// CHECK:     vector.extract %[[V]][3]
// CHECK:   gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.load %[[B]][
// CHECK: return
func.func @row_major(%a: memref<96x64xf32>, %b: memref<64x128xf32>, %c: memref<96x128xf32>) {
  linalg.matmul ins(%a, %b : memref<96x64xf32>, memref<64x128xf32>) outs(%c : memref<96x128xf32>)
  return
}

// -----

// Gemm with transB: B (128 x 64, N x K) runs along K, each vector's four
// elements going down a column of the B tile. f16 A (rows of 64 halves):
// vectors of eight.
// CHECK-LABEL: func.func @transposed_b_f16
// CHECK-SAME: (%[[A:.*]]: memref<96x64xf16>, %[[B:.*]]: memref<128x64xf32>
// CHECK: gpu.launch
// CHECK: vector.load %[[A]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<96x64xf16>, vector<8xf16>
// CHECK-COUNT-8: vector.extract
// CHECK: vector.load %[[B]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
// CHECK: gpu.barrier
#a = affine_map<(i, j, k) -> (i, k)>
#bt = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @transposed_b_f16(%x: memref<96x64xf16>, %w: memref<128x64xf32>, %y: memref<96x128xf32>) {
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<96x64xf16>, memref<128x64xf32>) outs(%y : memref<96x128xf32>) {
  ^bb0(%p: f16, %q: f32, %o: f32):
    %e = arith.extf %p : f16 to f32
    %0 = arith.mulf %e, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Scalars where vectors cannot be proven whole and aligned: A's rows are
// 66 wide (2 divides them: vectors of two), B is a view at a dynamic
// offset, C's K (the convolution window's last loop, extent 3) is odd.
// CHECK-LABEL: func.func @unaligned
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}} : memref<96x66xf32>, vector<2xf32>
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
// CHECK-LABEL: func.func @odd_window
// CHECK-NOT: vector.load {{.*}}xf32>, vector
// CHECK: return
func.func @unaligned(%a: memref<96x66xf32>, %b: memref<66x128xf32, strided<[128, 1], offset: ?>>, %c: memref<96x128xf32>) {
  linalg.matmul ins(%a, %b : memref<96x66xf32>, memref<66x128xf32, strided<[128, 1], offset: ?>>) outs(%c : memref<96x128xf32>)
  return
}
func.func @odd_window(%x: memref<2x8x10x10xf32>, %w: memref<32x8x3x3xf32>, %y: memref<2x32x8x8xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<2x8x10x10xf32>, memref<32x8x3x3xf32>) outs(%y : memref<2x32x8x8xf32>)
  return
}
