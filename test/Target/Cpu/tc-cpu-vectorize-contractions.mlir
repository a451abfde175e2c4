// RUN: tc-opt %s --tc-cpu-vectorize-contractions=lower=false --split-input-file | FileCheck %s
// RUN: tc-opt %s --tc-cpu-vectorize-contractions --split-input-file | FileCheck %s --check-prefix=LOWER

// A 20x70 output in 8x32 register tiles. N is first split into 64 + 6
// columns (linalg::splitOp): a rest wider than one vector register would be
// split into powers of two (LLVM widens vectors to a power of two, and a
// widened vector of several registers moves its tail through the stack),
// one of at most 16 lanes stays one vector; rows 16..20 are the peeled
// partial tiles. Every tile has static sizes. The accumulator is read
// before the reduction loop, carried in registers (iter_args) and written
// after it.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %[[M:.*]] = %c0 to %c16 step %c8
// CHECK:   scf.for %[[N:.*]] = %c0 to %c64 step %c32
// CHECK:     %[[ACC:.*]] = vector.transfer_read %arg2[%[[M]], %[[N]]]{{.*}} : memref<20x70xf32>, vector<8x32xf32>
// CHECK:     %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c40 step %c1 iter_args(%[[A:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK:       vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:     vector.transfer_write %[[SUM]], %arg2[%[[M]], %[[N]]]
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: vector.contract {{.*}} : vector<8x1xf32>, vector<1x6xf32> into vector<8x6xf32>
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

// 14 rows, which 8 does not divide, are two tiles of 7 (registerRows): no
// partial tile follows the full ones.
// CHECK-LABEL: func.func @seven_rows
// CHECK: scf.for %[[M:.*]] = %c0 to %c14 step %c7
// CHECK:   scf.for %[[N:.*]] = %c0 to %c64 step %c32
// CHECK:     vector.transfer_read %arg2[%[[M]], %[[N]]]{{.*}} : memref<14x64xf32>, vector<7x32xf32>
// CHECK-NOT: into vector<{{[0-6]}}x32xf32>
// CHECK: return
func.func @seven_rows(%a: memref<14x16xf32>, %b: memref<16x64xf32>, %c: memref<14x64xf32>) {
  linalg.matmul ins(%a, %b : memref<14x16xf32>, memref<16x64xf32>) outs(%c : memref<14x64xf32>)
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

// A convolution window (oh + kh, ow + kw) with the kernel loops tiled by 1:
// the input read along ow is plain once kh and kw are fixed. No output dim
// avoids the input, so no output dim shares a vector of it: each tile is
// four image rows of 8 lanes, each row its own accumulator (four
// independent multiply-add chains, not one), kept in registers across both
// kernel loops; the multiply and add are one vector.fma.
#x = affine_map<(oh, ow, kh, kw) -> (oh + kh, ow + kw)>
#k = affine_map<(oh, ow, kh, kw) -> (kh, kw)>
#o = affine_map<(oh, ow, kh, kw) -> (oh, ow)>
// CHECK-LABEL: func.func @window
// CHECK: scf.for %[[OH:.*]] = %c0 to %c8 step %c4
// CHECK:   vector.transfer_read %arg2[%[[OH]], %c0]{{.*}} vector<4x8xf32>
// CHECK:   scf.for {{.*}} iter_args
// CHECK:     scf.for {{.*}} iter_args
// CHECK:       vector.transfer_read %arg0{{.*}} vector<4x8xf32>
// CHECK:       vector.fma {{.*}} : vector<4x8xf32>
// CHECK:   vector.transfer_write {{.*}}, %arg2[%[[OH]], %c0]
// CHECK-NOT: linalg.generic
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

// An NCHW convolution with stride 2: the output channels are the rows (the
// filter does not read ow), ow the lanes. The window's input elements
// (2 * ow + kw) are one contiguous read and a shuffle of the even ones,
// not 8 scalar loads. The read is 16 elements wide (a 15-wide vector would
// be legalized element by element), the 16th masked: it lies past the
// window.
#x = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#o = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
// CHECK-LABEL: func.func @strided_conv
// CHECK: scf.for %[[OH:.*]] = %c0 to %c8 step %c1
// CHECK:   vector.transfer_read %arg2{{.*}} vector<8x8xf32>
// CHECK:   scf.for %[[C:.*]] = %c0 to %c4 step %c1 iter_args
// CHECK:     scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args
// CHECK:       scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args
// CHECK:         %[[WINDOW:.*]] = memref.subview %arg0[0, %[[C]], %{{.*}}, %[[KW]]] [1, 1, 1, 15]
// CHECK:         %[[WIDE:.*]] = vector.transfer_read %[[WINDOW]][%c0, %c0], %{{.*}} : {{.*}}, vector<16xf32>
// CHECK:         %[[ROW:.*]] = vector.shuffle %[[WIDE]], %[[WIDE]] [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK:         vector.insert %[[ROW]], %{{.*}} [0] : vector<8xf32> into vector<1x8xf32>
// CHECK:         vector.contract {{.*}} : vector<8x1xf32>, vector<1x8xf32> into vector<8x8xf32>
// CHECK-NOT: linalg.generic
func.func @strided_conv(%x: memref<1x4x17x17xf32>, %w: memref<8x4x3x3xf32>, %o: memref<1x8x8x8xf32>) {
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : memref<1x4x17x17xf32>, memref<8x4x3x3xf32>) outs(%o : memref<1x8x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A channel-blocked convolution with stride 2 (--tc-cpu-block-conv-
// channels: 32 output channels in lanes, 7 image columns the rows): each
// reduction step broadcasts every other input of the window row to a tile
// row. Those are scalar loads (broadcasts from memory, on load ports), not
// a contiguous read and shuffles, which took a cross-lane permute per
// element on a port that also does FMAs.
#xb = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#wb = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (fb, c, kh, kw, l)>
#ob = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (n, fb, oh, ow, l)>
// CHECK-LABEL: func.func @blocked_strided_conv
// CHECK:         memref.load %arg0
// CHECK-COUNT-6: memref.load %arg0
// CHECK-NEXT:    vector.from_elements {{.*}} : vector<1x7xf32>
// CHECK:         vector.contract {{.*}} : vector<1x7xf32>, vector<1x32xf32> into vector<7x32xf32>
// CHECK-NOT:     vector.shuffle
// CHECK:       return
func.func @blocked_strided_conv(%x: memref<1x4x15x15xf32>, %w: memref<2x4x3x3x32xf32>, %o: memref<1x2x7x7x32xf32>) {
  linalg.generic {indexing_maps = [#xb, #wb, #ob], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : memref<1x4x15x15xf32>, memref<2x4x3x3x32xf32>) outs(%o : memref<1x2x7x7x32xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A channel-blocked 3x3 convolution over 64 channels on a 7x7 image: its
// filter panel (73 KB) outgrows a first-level cache and all 7 row tiles
// read it, so the channels are taken in blocks of 16 (18 KB of filter)
// outside the tiles, each tile accumulating into its block of the output
// once per block of channels.
#xk = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wk = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (fb, c, kh, kw, l)>
#ok = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (n, fb, oh, ow, l)>
// CHECK-LABEL: func.func @reduction_blocks
// CHECK:     scf.for %[[CB:.*]] = %c0 to %c64 step %c16
// CHECK:       scf.for %[[OH:.*]] = %c0 to %c7 step %c1
// CHECK:         %[[ACC:.*]] = vector.transfer_read %arg2[%c0, %c0, %[[OH]], %c0, %c0]{{.*}} vector<7x32xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}} = %[[ACC]])
// CHECK:         vector.transfer_write {{.*}}, %arg2[%c0, %c0, %[[OH]], %c0, %c0]
func.func @reduction_blocks(%x: memref<1x64x9x9xf32>, %w: memref<1x64x3x3x32xf32>, %o: memref<1x1x7x7x32xf32>) {
  linalg.generic {indexing_maps = [#xk, #wk, #ok], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : memref<1x64x9x9xf32>, memref<1x64x3x3x32xf32>) outs(%o : memref<1x1x7x7x32xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A max-pooling window (one max of the input and the accumulator; the
// window-shape operand unused) is tiled like a depthwise convolution: the
// running maxima of four 8-lane rows stay in registers across the window.
#x = affine_map<(oh, ow, kh, kw) -> (oh + kh, ow + kw)>
#k = affine_map<(oh, ow, kh, kw) -> (kh, kw)>
#o = affine_map<(oh, ow, kh, kw) -> (oh, ow)>
// CHECK-LABEL: func.func @max_pool
// CHECK: scf.for %[[OH:.*]] = %c0 to %c8 step %c4
// CHECK:   %[[ACC:.*]] = vector.transfer_read %arg2[%[[OH]], %c0]{{.*}} vector<4x8xf32>
// CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
// CHECK:     scf.for {{.*}} iter_args
// CHECK:       vector.transfer_read %arg0{{.*}} vector<4x8xf32>
// CHECK:       arith.maximumf {{.*}} : vector<4x8xf32>
// CHECK-NOT: linalg.generic
// Lowered, each window step is one vector max.
// LOWER-LABEL: func.func @max_pool
// LOWER: arith.maximumf {{.*}} : vector<4x8xf32>
// LOWER-NOT: vector.multi_reduction
func.func @max_pool(%x: memref<10x10xf32>, %k: memref<3x3xf32>, %o: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#x, #k, #o], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : memref<10x10xf32>, memref<3x3xf32>) outs(%o : memref<8x8xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %0 = arith.maximumf %acc, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A depthwise convolution with stride 2 (NCHW; the filter reads only the
// channel): tiles of four output rows of 8 lanes. Each row of the window
// is every other element of its image row (2 * oh + kh, 2 * ow + kw): one
// contiguous 16-element read of the image and a shuffle of the even ones
// per row, four rows into one vector, not 32 scalar loads.
#x = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, c, oh, ow, kh, kw) -> (c, kh, kw)>
#o = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @depthwise_strided
// CHECK: scf.for %[[C:.*]] = %c0 to %c4 step %c1
// CHECK:   scf.for %[[OH:.*]] = %c0 to %c8 step %c4
// CHECK:     vector.transfer_read %arg2{{.*}} vector<4x8xf32>
// CHECK:         %[[ROWS:.*]] = memref.subview %arg0[0, %[[C]], %{{.*}}, %{{.*}}] [1, 1, 7, 15]
// CHECK-COUNT-4: vector.transfer_read %[[ROWS]][%c{{[0246]}}, %c0], %{{.*}} vector<16xf32>
// CHECK-NEXT:    vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK-NEXT:    vector.insert
// CHECK:         vector.fma {{.*}} : vector<4x8xf32>
// CHECK-NOT: linalg.generic
func.func @depthwise_strided(%x: memref<1x4x17x17xf32>, %w: memref<4x3x3xf32>, %o: memref<1x4x8x8xf32>) {
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : memref<1x4x17x17xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A depthwise convolution on a 7x7 image: rows of 7 lanes, narrower than
// a convolution with rows may use, are tiled since the tile reduces only
// over its window; its 7 rows are one tile (no partial tile), whose
// accumulators stay in registers across the window.
#x = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh + kh, ow + kw)>
#w = affine_map<(n, c, oh, ow, kh, kw) -> (c, kh, kw)>
#o = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @depthwise_7x7
// CHECK: scf.for %[[C:.*]] = %c0 to %c2 step %c1
// CHECK:   %[[ACC:.*]] = vector.transfer_read %arg2[%c0, %[[C]], %c0, %c0]{{.*}} vector<7x7xf32>
// CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<7x7xf32>)
// CHECK:     scf.for {{.*}} iter_args({{.*}}) -> (vector<7x7xf32>)
// CHECK:       vector.fma {{.*}} : vector<7x7xf32>
// CHECK:   vector.transfer_write {{.*}}, %arg2[%c0, %[[C]], %c0, %c0]
// CHECK-NOT: linalg.generic
func.func @depthwise_7x7(%x: memref<1x2x9x9xf32>, %w: memref<2x3x3xf32>, %o: memref<1x2x7x7xf32>) {
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : memref<1x2x9x9xf32>, memref<2x3x3xf32>) outs(%o : memref<1x2x7x7xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Not register-tiled: a global sum pool whose lanes (channels) are not the
// input's last dim would read every lane separately; and a body that is
// neither a multiply-add nor one combine of input and accumulator.
#x = affine_map<(c, h, w) -> (c, h, w)>
#o = affine_map<(c, h, w) -> (c)>
// CHECK-LABEL: func.func @global_pool
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @global_pool(%x: memref<32x7x7xf32>, %o: memref<32xf32>) {
  linalg.generic {indexing_maps = [#x, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : memref<32x7x7xf32>) outs(%o : memref<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %acc, %in : f32
    linalg.yield %0 : f32
  }
  return
}

#r = affine_map<(i, j) -> (i, j)>
#ro = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @sum_of_squares
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @sum_of_squares(%x: memref<16x64xf32>, %o: memref<16xf32>) {
  linalg.generic {indexing_maps = [#r, #ro], iterator_types = ["parallel", "reduction"]} ins(%x : memref<16x64xf32>) outs(%o : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A dynamic M (a sequence of any length) is tiled by 8 rows like a static
// one; the last partial tile, of fewer rows known only at run time, is
// peeled off and runs one row at a time, each row a static tile.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[FULL:.*]] = affine.apply
// CHECK: scf.for %{{.*}} = %c0 to %[[FULL]] step %c8
// CHECK:   vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK: scf.for %{{.*}} = %[[FULL]] to %{{.*}} step %c8
// CHECK:   scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK:     vector.contract {{.*}} : vector<1xf32>, vector<1x32xf32> into vector<32xf32>
func.func @dynamic_rows(%a: memref<?x16xf32>, %b: memref<16x32xf32>, %c: memref<?x32xf32>) {
  linalg.matmul ins(%a, %b : memref<?x16xf32>, memref<16x32xf32>) outs(%c : memref<?x32xf32>)
  return
}

// -----

// A dynamic N too (attention's scores with a key length of any size): full
// 8x32 tiles over both; the partial tiles, of fewer lanes or rows known
// only at run time, run one lane or row at a time.
// CHECK-LABEL: func.func @dynamic_rows_and_lanes
// CHECK: %[[ROWS:.*]] = affine.apply #{{.*}}()[%dim]
// CHECK: %[[LANES:.*]] = affine.apply #{{.*}}()[%dim_0]
// CHECK: scf.for %{{.*}} = %c0 to %[[ROWS]] step %c8
// CHECK: scf.for %{{.*}} = %c0 to %[[LANES]] step %c32
// CHECK:   vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK: scf.for %{{.*}} = %[[LANES]] to %{{.*}} step %c32
// CHECK:   vector.contract {{.*}} : vector<1xf32>, vector<8x1xf32> into vector<8xf32>
// CHECK: vector.contract {{.*}} : vector<1xf32>, vector<1x32xf32> into vector<32xf32>
// CHECK: vector.contract {{.*}} : vector<1xf32>, vector<1xf32> into f32
func.func @dynamic_rows_and_lanes(%a: memref<?x16xf32>, %b: memref<16x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x16xf32>, memref<16x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// A channel-blocked depthwise convolution (--tc-cpu-block-depthwise-convs):
// lanes are 32 channels, rows are 7 output columns, and each window
// position multiplies 7 input vectors by one filter vector, both along the
// lanes. That is one vector.fma on the 7x32 tile, not the outer-product
// lowering's one 7-wide FMA per lane.
// CHECK-LABEL: func.func @blocked_depthwise
// CHECK: vector.fma {{.*}} : vector<7x32xf32>
// CHECK-NOT: vector.contract
// LOWER-LABEL: func.func @blocked_depthwise
// LOWER-NOT: vector<7xf32>
// LOWER: return
func.func @blocked_depthwise(%x: memref<1x1x9x9x32xf32>, %w: memref<1x3x3x32xf32>, %y: memref<1x1x7x7x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 + d5, d3 + d6, d4)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d6, d4)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x9x9x32xf32>, memref<1x3x3x32xf32>) outs(%y : memref<1x1x7x7x32xf32>) {
  ^bb0(%in: f32, %f: f32, %out: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A kernel's #fusion.kernel_config (--tc-cpu-configure-kernels, or by
// hand) sets its register tile: 4 rows of 16 lanes here, kept when the
// named op is generalized.
// CHECK-LABEL: func.func @configured_tile
// CHECK: scf.for %[[M:.*]] = %c0 to %c20 step %c4
// CHECK:   scf.for %[[N:.*]] = %c0 to %c64 step %c16
// CHECK:     vector.transfer_read %arg2[%[[M]], %[[N]]]{{.*}} : memref<20x64xf32>, vector<4x16xf32>
// CHECK-NOT: vector<8x32xf32>
// CHECK: return
func.func @configured_tile(%a: memref<20x40xf32>, %b: memref<40x64xf32>, %c: memref<20x64xf32>) {
  linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [4, 16], workgroups = 64>}
      ins(%a, %b : memref<20x40xf32>, memref<40x64xf32>) outs(%c : memref<20x64xf32>)
  return
}

// -----

// Weights larger than a core's cache (768 x 512, 1.5 MB) and the
// activations (64 x 768, 192 KB): the column tiles go outside the row tiles,
// so that each column panel of the weights is read once and stays in cache
// while all row tiles pass over it.
// CHECK-LABEL: func.func @columns_outside_rows
// CHECK: scf.for %[[N:.*]] = %c0 to %c512 step %c32
// CHECK:   scf.for %[[M:.*]] = %c0 to %c64 step %c8
// CHECK:     vector.transfer_read %arg2[%[[M]], %[[N]]]{{.*}} : memref<64x512xf32>, vector<8x32xf32>
func.func @columns_outside_rows(%a: memref<64x768xf32>, %b: memref<768x512xf32>, %c: memref<64x512xf32>) {
  linalg.matmul ins(%a, %b : memref<64x768xf32>, memref<768x512xf32>) outs(%c : memref<64x512xf32>)
  return
}

// -----

// A 1x1 convolution in NCHW over 64 of a 56x56 image's positions: the
// image is the lanes' side, one row of 256 channels 12.5 KB apart. Each
// 32-lane panel of it is copied into a contiguous stack buffer (allocated
// once, at the function's entry), which the panel's eight row tiles read.
#wc = affine_map<(f, p, c) -> (f, c)>
#xc = affine_map<(f, p, c) -> (c, p)>
#yc = affine_map<(f, p, c) -> (f, p)>
// CHECK-LABEL: func.func @pack_strided_panel
// CHECK:      %[[PANEL:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256x32xf32>
// CHECK:      scf.for %[[N:.*]] = %c0 to %c64 step %c32
// CHECK:        scf.for %[[K:.*]] = %c0 to %c256 step %c1
// CHECK:          %[[ROW:.*]] = vector.transfer_read %arg1[%[[K]], %[[N]]]{{.*}} vector<32xf32>
// CHECK:          vector.transfer_write %[[ROW]], %[[PANEL]][%[[K]], %c0]
// CHECK:        scf.for %[[M:.*]] = %c0 to %c64 step %c8
// CHECK:          scf.for
// CHECK:            vector.transfer_read %[[PANEL]]
// CHECK-NOT:        vector.transfer_read %arg1
func.func @pack_strided_panel(%w: memref<64x256xf32>, %x: memref<256x64xf32, strided<[3136, 1]>>,
                              %y: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#wc, #xc, #yc],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %x : memref<64x256xf32>, memref<256x64xf32, strided<[3136, 1]>>)
      outs(%y : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not packed: over 64 channels the image's slice (16 KB) stays in the
// first-level cache after the first row tile; with rows 256 B apart (a
// contiguous 256x64 input) the stride prefetcher reaches them.
#wn = affine_map<(f, p, c) -> (f, c)>
#xn = affine_map<(f, p, c) -> (c, p)>
#yn = affine_map<(f, p, c) -> (f, p)>
// CHECK-LABEL: func.func @panels_not_packed
// CHECK-NOT:   memref.alloca
// CHECK:       return
func.func @panels_not_packed(%w: memref<64x64xf32>, %x: memref<64x64xf32, strided<[3136, 1]>>,
                             %y: memref<64x64xf32>, %w2: memref<64x256xf32>,
                             %x2: memref<256x64xf32>) {
  linalg.generic {indexing_maps = [#wn, #xn, #yn],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %x : memref<64x64xf32>, memref<64x64xf32, strided<[3136, 1]>>)
      outs(%y : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#wn, #xn, #yn],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w2, %x2 : memref<64x256xf32>, memref<256x64xf32>)
      outs(%y : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
