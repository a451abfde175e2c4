// RUN: tc-opt %s --tc-cpu-vectorize-elementwise --split-input-file | FileCheck %s

// A bias add over 4 rows of 70: the columns split into 64 (four vectors of
// 16) and 6 lanes (less than a register: one vector); every tile is one
// vector with the row fixed. The
// bias is read along the lanes only.
#row = affine_map<(i, j) -> (i, j)>
#bias = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @bias_add
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1
// CHECK:   scf.for %[[J:.*]] = %c0 to %c64 step %c16
// CHECK:     vector.transfer_read {{.*}} : memref<16xf32, {{.*}}>, vector<16xf32>
// CHECK:     vector.transfer_read {{.*}} : memref<16xf32, {{.*}}>, vector<16xf32>
// CHECK:     arith.addf {{.*}} : vector<16xf32>
// CHECK:     vector.transfer_write {{.*}} : vector<16xf32>, memref<16xf32, {{.*}}>
// CHECK: arith.addf {{.*}} : vector<6xf32>
// CHECK-NOT: linalg.generic
func.func @bias_add(%x: memref<4x70xf32>, %b: memref<70xf32>, %y: memref<4x70xf32>) {
  linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<4x70xf32>, memref<70xf32>) outs(%y : memref<4x70xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Casts keep their element widths: i8 in, f32 out, 32 lanes of f32 at
// lanes=32.
// RUN: tc-opt %s --tc-cpu-vectorize-elementwise=lanes=32 --split-input-file | FileCheck %s --check-prefix=WIDE
#id = affine_map<(i) -> (i)>
// WIDE-LABEL: func.func @dequantize
// WIDE: scf.for {{.*}} = %c0 to %c64 step %c32
// WIDE:   arith.sitofp {{.*}} : vector<32xi8> to vector<32xf32>
// WIDE:   arith.mulf {{.*}} : vector<32xf32>
func.func @dequantize(%x: memref<64xi8>, %y: memref<64xf32>) {
  %scale = arith.constant 0.5 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<64xi8>) outs(%y : memref<64xf32>) {
  ^bb0(%a: i8, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %scale : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Left to loops: a transposed read (the lanes are not contiguous in x).
#t = affine_map<(i, j) -> (j, i)>
#id2 = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @transposed
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @transposed(%x: memref<32x32xf32>, %y: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : memref<32x32xf32>) outs(%y : memref<32x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Left to loops: a gather (a load in the body) and a dynamic row length.
#id3 = affine_map<(i) -> (i)>
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @gather(%idx: memref<64xindex>, %table: memref<100xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel"]} ins(%idx : memref<64xindex>) outs(%y : memref<64xf32>) {
  ^bb0(%i: index, %o: f32):
    %0 = memref.load %table[%i] : memref<100xf32>
    linalg.yield %0 : f32
  }
  return
}

// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @dynamic(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel"]} ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A SiLU on 3 channels of a 7x7 image (a view of a larger buffer, as in a
// workgroup): rows of 7 are narrower than a vector, so the contiguous dims
// collapse into one (147 lanes: vectors of 16 and a rest of 3) first.
#id = affine_map<(c, h, w) -> (c, h, w)>
// CHECK-LABEL: func.func @narrow_rows
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : memref<3x7x7xf32, strided<[49, 7, 1], offset: ?>> into memref<147xf32, strided<[1], offset: ?>>
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : memref<3x7x7xf32> into memref<147xf32>
// CHECK: math.exp {{.*}} : vector<16xf32>
// CHECK: math.exp {{.*}} : vector<3xf32>
// CHECK-NOT: linalg.generic
func.func @narrow_rows(%x: memref<8x7x7xf32>, %c: index, %y: memref<3x7x7xf32>) {
  %v = memref.subview %x[%c, 0, 0] [3, 7, 7] [1, 1, 1] : memref<8x7x7xf32> to memref<3x7x7xf32, strided<[49, 7, 1], offset: ?>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : memref<3x7x7xf32, strided<[49, 7, 1], offset: ?>>) outs(%y : memref<3x7x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %in, %d : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not collapsed: a transposed read (w, h) keeps the image dims apart; the
// op stays a loop nest.
#t = affine_map<(c, h, w) -> (c, w, h)>
#id = affine_map<(c, h, w) -> (c, h, w)>
// CHECK-LABEL: func.func @narrow_transposed
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic
func.func @narrow_transposed(%x: memref<3x7x7xf32>, %y: memref<3x7x7xf32>) {
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<3x7x7xf32>) outs(%y : memref<3x7x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A squeeze-excitation scale: [2, 64, 7, 7] times a per-channel [2, 64, 1,
// 1] read at (n, c, 0, 0). The scale is read through a collapse_shape
// without its unit dims, so that its map names loops only and the image's
// rows collapse (49 lanes: vectors of 16 and a rest of 1).
#s = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
// CHECK-LABEL: func.func @narrow_rows_scaled
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : memref<2x64x1x1xf32> into memref<2x64xf32>
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<2x64x7x7xf32> into memref<2x64x49xf32>
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.generic
func.func @narrow_rows_scaled(%s: memref<2x64x1x1xf32>, %x: memref<2x64x7x7xf32>, %y: memref<2x64x7x7xf32>) {
  linalg.generic {indexing_maps = [#s, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %x : memref<2x64x1x1xf32>, memref<2x64x7x7xf32>) outs(%y : memref<2x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A fill (max pooling's -inf on one 56x56 plane of a workgroup) is
// vectorized along its rows like any elementwise op: 56 lanes as three
// vectors of 16 and one of 8, the value a constant vector.
// CHECK-LABEL: func.func @fill_plane
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK: vector.transfer_write {{.*}} : vector<16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.fill
func.func @fill_plane(%y: memref<1x64x56x56xf32>, %c: index) {
  %cst = arith.constant 0xFF800000 : f32
  %v = memref.subview %y[0, %c, 0, 0] [1, 1, 56, 56] [1, 1, 1, 1] : memref<1x64x56x56xf32> to memref<1x1x56x56xf32, strided<[200704, 3136, 56, 1], offset: ?>>
  linalg.fill ins(%cst : f32) outs(%v : memref<1x1x56x56xf32, strided<[200704, 3136, 56, 1], offset: ?>>)
  return
}

// -----

// A dynamic row: full vectors of 16 lanes up to the last multiple of 16,
// then the partial last tile, of a width known only at run time, peeled off
// and left to loops.
// CHECK-LABEL: func.func @dynamic_row
// CHECK: %[[FULL:.*]] = affine.apply #{{.*}}()[%[[DIM:.*]]]
// CHECK: scf.for %{{.*}} = %c0 to %[[FULL]] step %c16
// CHECK:   math.exp %{{.*}} : vector<16xf32>
// CHECK: scf.for %{{.*}} = %[[FULL]] to %[[DIM]] step %c16
// CHECK:   linalg.generic
// CHECK:     math.exp %{{.*}} : f32
func.func @dynamic_row(%x: memref<3x?xf32>, %y: memref<3x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<3x?xf32>) outs(%y : memref<3x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  }
  return
}
