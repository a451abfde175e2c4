// RUN: tc-opt %s --tc-cpu-vectorize-contractions=lower=false --split-input-file | FileCheck %s
// RUN: tc-opt %s --tc-cpu-vectorize-contractions --split-input-file | FileCheck %s --check-prefix=LOWER

// A 20x70 output in 8x32 register tiles: full tiles over rows 0..16 and
// columns 0..64, then the peeled partial tiles (8x6, 4x32, 4x6), each with
// static sizes. The accumulator is read before the reduction loop, carried
// in registers (iter_args) and written after it.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %[[M:.*]] = %c0 to %c16 step %c8
// CHECK:   scf.for %[[N:.*]] = %c0 to %c64 step %c32
// CHECK:     %[[ACC:.*]] = vector.transfer_read %arg2[%[[M]], %[[N]]]{{.*}} : memref<20x70xf32>, vector<8x32xf32>
// CHECK:     %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c40 step %c1 iter_args(%[[A:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK:       vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:     vector.transfer_write %[[SUM]], %arg2[%[[M]], %[[N]]]
// CHECK:   vector.contract {{.*}} : vector<8x1xf32>, vector<1x6xf32> into vector<8x6xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x6xf32> into vector<4x6xf32>
// CHECK-NOT: linalg.matmul
// Lowered, each k step is one broadcast FMA per accumulator row.
// LOWER-LABEL: func.func @matmul
// LOWER-NOT: vector.contract
// LOWER-COUNT-8: vector.fma {{.*}} : vector<32xf32>
func.func @matmul(%a: memref<20x40xf32>, %b: memref<40x70xf32>, %c: memref<20x70xf32>) {
  linalg.matmul ins(%a, %b : memref<20x40xf32>, memref<40x70xf32>) outs(%c : memref<20x70xf32>)
  return
}

// -----

// A workgroup's slice of a batch matmul whose weights are broadcast along
// the batch: the unit batch loop and the weights' (0, k, n) dim are dropped,
// leaving a plain 2x384 by 128 contraction.
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_batch
// CHECK: scf.for {{.*}} = %c0 to %c384 step %c32
// CHECK: vector.contract {{.*}} : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
// CHECK-NOT: linalg.generic
func.func @broadcast_batch(%x: memref<32x2x128xf32>, %y: memref<32x2x384xf32>, %w: memref<1x128x384xf32>, %i: index) {
  %xs = memref.subview %x[%i, 0, 0] [1, 2, 128] [1, 1, 1] : memref<32x2x128xf32> to memref<1x2x128xf32, strided<[256, 128, 1], offset: ?>>
  %ys = memref.subview %y[%i, 0, 0] [1, 2, 384] [1, 1, 1] : memref<32x2x384xf32> to memref<1x2x384xf32, strided<[768, 384, 1], offset: ?>>
  linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%xs, %w : memref<1x2x128xf32, strided<[256, 128, 1], offset: ?>>, memref<1x128x384xf32>) outs(%ys : memref<1x2x384xf32, strided<[768, 384, 1], offset: ?>>) {
  ^bb0(%in: f32, %in_1: f32, %acc: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A 1x1 convolution as the body x * w with x, read along N, first: the
// contraction still gets w (the rows) on the left, so that it lowers to one
// 32-lane FMA per row, not to 3-lane FMAs per column.
#xk = affine_map<(m, n, k) -> (k, n)>
#wk = affine_map<(m, n, k) -> (m, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @n_side_first
// CHECK: vector.contract {{.*}} : vector<3x1xf32>, vector<1x32xf32> into vector<3x32xf32>
// LOWER-LABEL: func.func @n_side_first
// LOWER-COUNT-3: vector.fma {{.*}} : vector<32xf32>
func.func @n_side_first(%x: memref<16x64xf32>, %w: memref<3x16xf32>, %o: memref<3x64xf32>) {
  linalg.generic {indexing_maps = [#xk, #wk, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<16x64xf32>, memref<3x16xf32>) outs(%o : memref<3x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A dynamic batch is tiled by 1, so the tiles are static all the same.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK: scf.for {{.*}} = %c0 to %{{.*}} step %c1
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
func.func @dynamic_batch(%a: memref<?x4x8xf32>, %b: memref<?x8x16xf32>, %c: memref<?x4x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x4x8xf32>, memref<?x8x16xf32>) outs(%c : memref<?x4x16xf32>)
  return
}

// -----

// A single-row matmul (a matrix-vector product) has a unit accumulator
// dimension; lowering it must terminate with one FMA chain per tile.
// LOWER-LABEL: func.func @single_row
// LOWER: scf.for {{.*}} iter_args({{.*}}) -> (vector<32xf32>)
// LOWER: vector.fma {{.*}} : vector<32xf32>
// LOWER-NOT: vector.contract
func.func @single_row(%a: memref<1x16xf32>, %b: memref<16x32xf32>, %c: memref<1x32xf32>) {
  linalg.matmul ins(%a, %b : memref<1x16xf32>, memref<16x32xf32>) outs(%c : memref<1x32xf32>)
  return
}

// -----

// Not register-tiled: a convolution's window map (oh + kh) keeps its linalg
// form.
#x = affine_map<(oh, ow, kh, kw) -> (oh + kh, ow + kw)>
#k = affine_map<(oh, ow, kh, kw) -> (kh, kw)>
#o = affine_map<(oh, ow, kh, kw) -> (oh, ow)>
// CHECK-LABEL: func.func @window
// CHECK: linalg.generic
// CHECK-NOT: vector.contract
func.func @window(%x: memref<10x10xf32>, %k: memref<3x3xf32>, %o: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#x, #k, #o], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : memref<10x10xf32>, memref<3x3xf32>) outs(%o : memref<8x8xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %0 = arith.mulf %in, %w : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A dynamic M is tiled by 1: one 32-lane row at a time.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: scf.for {{.*}} = %c0 to %{{.*}} step %c1
// CHECK: vector.contract {{.*}} : vector<1xf32>, vector<1x32xf32> into vector<32xf32>
func.func @dynamic_rows(%a: memref<?x16xf32>, %b: memref<16x32xf32>, %c: memref<?x32xf32>) {
  linalg.matmul ins(%a, %b : memref<?x16xf32>, memref<16x32xf32>) outs(%c : memref<?x32xf32>)
  return
}
