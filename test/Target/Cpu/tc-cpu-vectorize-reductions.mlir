// RUN: tc-opt %s --tc-cpu-vectorize-reductions --split-input-file | FileCheck %s

// A row sum over 4 rows of 1000 (ReduceSum over the last axis): each row is
// read in chunks of 128 lanes (896 of them) and a 104-lane rest in powers
// of two (64 + 32 + 8; wider than one register, it is split), each reduced
// by one vector.reduction into the row's accumulator.
#x = affine_map<(i, j) -> (i, j)>
#r = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %c896 step %c128
// CHECK:     %[[V:.*]] = vector.transfer_read {{.*}} : memref<128xf32, {{.*}}>, vector<128xf32>
// CHECK:     %[[ACC:.*]] = vector.extract
// CHECK:     vector.reduction <add>, %[[V]], %[[ACC]] : vector<128xf32> into f32
// CHECK: vector.reduction <add>, {{.*}} : vector<64xf32> into f32
// CHECK: vector.reduction <add>, {{.*}} : vector<32xf32> into f32
// CHECK: vector.reduction <add>, {{.*}} : vector<8xf32> into f32
// CHECK-NOT: linalg.generic
// CHECK-NOT: vector.multi_reduction
func.func @row_sum(%x: memref<4x1000xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1000xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A softmax denominator: sum of exp(x - max) with the row's max broadcast;
// the lanes are the reduced last dim (32), the max is read once per row.
#x3 = affine_map<(b, i, j) -> (b, i, j)>
#r3 = affine_map<(b, i, j) -> (b, i)>
// CHECK-LABEL: func.func @softmax_sum
// CHECK: %[[V:.*]] = vector.transfer_read {{.*}} : memref<32xf32, {{.*}}>, vector<32xf32>
// CHECK: %[[M:.*]] = vector.transfer_read {{.*}} : memref<f32, {{.*}}>, vector<32xf32>
// CHECK: arith.subf %[[V]], %[[M]] : vector<32xf32>
// CHECK: math.exp {{.*}} : vector<32xf32>
// CHECK: vector.reduction <add>, {{.*}} : vector<32xf32> into f32
func.func @softmax_sum(%x: memref<8x32x32xf32>, %m: memref<8x32xf32>, %y: memref<8x32xf32>) {
  linalg.generic {indexing_maps = [#x3, #r3, #r3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %m : memref<8x32x32xf32>, memref<8x32xf32>) outs(%y : memref<8x32xf32>) {
  ^bb0(%a: f32, %max: f32, %acc: f32):
    %0 = arith.subf %a, %max : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %acc : f32
    linalg.yield %2 : f32
  }
  return
}

// -----

// A max over the leading axis of 6x40 (ReduceMax over axis 0): the lanes
// are the output's columns, 32 (two vectors of 16) and 8; each row of x is
// one vector maximum with the accumulators, no horizontal reduction.
#x = affine_map<(i, j) -> (i, j)>
#c = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @column_max
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:     arith.maximumf {{.*}} : vector<16xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK-NOT: vector.reduction
func.func @column_max(%x: memref<6x40xf32>, %y: memref<40xf32>) {
  linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel"]} ins(%x : memref<6x40xf32>) outs(%y : memref<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A dot product per output over a transposed weight (GEMV, y = W x with W
// stored [N, K]): both inputs read k contiguously, so each output is one
// multiply and one vector reduction of 64 lanes.
#w = affine_map<(n, k) -> (n, k)>
#v = affine_map<(n, k) -> (k)>
#o = affine_map<(n, k) -> (n)>
// CHECK-LABEL: func.func @gemv
// CHECK: arith.mulf {{.*}} : vector<64xf32>
// CHECK: vector.reduction <add>, {{.*}} : vector<64xf32> into f32
func.func @gemv(%w: memref<10x64xf32>, %x: memref<64xf32>, %y: memref<10xf32>) {
  linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = ["parallel", "reduction"]} ins(%w, %x : memref<10x64xf32>, memref<64xf32>) outs(%y : memref<10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Left to loops: an argmax (the index-carrying body is no reduction the
// vectorizer recognizes), a reduction whose reduced dim is read transposed,
// and one whose contiguous dim is shorter than a vector.
#x = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
#r = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @argmax
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @argmax(%x: memref<4x64xf32>, %v: memref<4xf32>, %y: memref<4xi64>) {
  linalg.generic {indexing_maps = [#x, #r, #r], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%v, %y : memref<4xf32>, memref<4xi64>) {
  ^bb0(%a: f32, %best: f32, %at: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %0 = arith.select %gt, %a, %best : f32
    %1 = arith.select %gt, %ji, %at : i64
    linalg.yield %0, %1 : f32, i64
  }
  return
}
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @transposed(%x: memref<64x4xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#t, #r], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  return
}
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @short_rows(%x: memref<64x7xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x7xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A global average pool's sum over a 7x7 image (after a SiLU): rows of 7
// are too short, so the two reduction loops collapse into rows of 49,
// read as vectors of 32, 16 and 1.
#x4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#r4 = affine_map<(n, c, h, w) -> (n, c)>
// CHECK-LABEL: func.func @pool_7x7
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<1x64x7x7xf32> into memref<1x64x49xf32>
// CHECK: math.exp {{.*}} : vector<32xf32>
// CHECK: vector.reduction <add>, {{.*}} : vector<32xf32> into f32
// CHECK: vector.reduction <add>, {{.*}} : vector<16xf32> into f32
// CHECK-NOT: linalg.generic
func.func @pool_7x7(%x: memref<1x64x7x7xf32>, %y: memref<1x64xf32>) {
  linalg.generic {indexing_maps = [#x4, #r4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : memref<1x64x7x7xf32>) outs(%y : memref<1x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %a, %d : f32
    %0 = arith.addf %s, %acc : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A squeeze-excitation block's 1x1 convolution on a 1x1 image, as
// --convert-tc-to-linalg writes it: loops (n, f, p, c), the input [1, C, 1]
// read with the image's unit dim after the reduced channels. Without its
// unit loops it is a row reduction over each weight row (48 lanes).
#in = affine_map<(n, f, p, c) -> (n, c, p)>
#w = affine_map<(n, f, p, c) -> (f, c)>
#out = affine_map<(n, f, p, c) -> (n, f, p)>
// CHECK-LABEL: func.func @squeeze_fc
// CHECK: scf.for %{{.*}} = %c0 to %c1152 step %c1
// CHECK: vector.transfer_read {{.*}} vector<32xf32>
// CHECK: vector.reduction <add>, {{.*}} : vector<32xf32> into f32
// CHECK: vector.reduction <add>, {{.*}} : vector<16xf32> into f32
// CHECK-NOT: linalg.generic
func.func @squeeze_fc(%x: memref<1x48x1xf32>, %w: memref<1152x48xf32>, %y: memref<1x1152x1xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : memref<1x48x1xf32>, memref<1152x48xf32>) outs(%y : memref<1x1152x1xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}
