// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// Elementwise ops whose rows are contiguous: each thread moves 16 bytes.
// 4 x 300 f32 with a row bias and a column scale: the innermost loop steps
// by 4 (75 vectors a row, 300 threads in all), the operands read along it
// are vector loads aligned to 16 bytes, the column scale (constant along
// the row) is one element broadcast, the body runs on vector<4xf32>.
// CHECK-LABEL: func.func @bias_scale
// CHECK-DAG: %[[C75:.*]] = arith.constant 75 : index
// CHECK:     scf.parallel
// CHECK:       scf.parallel
// CHECK:         %[[COL:.*]] = arith.remsi %{{.*}}, %[[C75]] : index
// CHECK:         %[[ROW:.*]] = arith.divsi %{{.*}}, %[[C75]] : index
// CHECK:         %[[J:.*]] = affine.apply #{{.*}}(%[[COL]])
// CHECK:         %[[X:.*]] = vector.load %arg0[%[[ROW]], %[[J]]] {alignment = 16 : i64} : memref<4x300xf32>, vector<4xf32>
// CHECK:         %[[B:.*]] = vector.load %arg1[%[[J]]] {alignment = 16 : i64} : memref<300xf32>, vector<4xf32>
// CHECK:         %[[S:.*]] = vector.load %arg2[%[[ROW]]] : memref<4xf32>, vector<f32>
// CHECK:         %[[SCALE:.*]] = vector.broadcast %[[S]] : vector<f32> to vector<4xf32>
// CHECK:         %[[RELU:.*]] = arith.maximumf %[[X]], %{{.*}} : vector<4xf32>
// CHECK:         %[[SUM:.*]] = arith.addf %[[RELU]], %[[B]] : vector<4xf32>
// CHECK:         %[[Y:.*]] = arith.mulf %[[SUM]], %[[SCALE]] : vector<4xf32>
// CHECK:         vector.store %[[Y]], %arg3[%[[ROW]], %[[J]]] {alignment = 16 : i64} : memref<4x300xf32>, vector<4xf32>
// CHECK-NOT: linalg.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#col = affine_map<(i, j) -> (i)>
func.func @bias_scale(%x: memref<4x300xf32>, %b: memref<300xf32>, %c: memref<4xf32>, %y: memref<4x300xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b, %c : memref<4x300xf32>, memref<300xf32>, memref<4xf32>) outs(%y : memref<4x300xf32>) {
  ^bb0(%a: f32, %bb: f32, %cc: f32, %o: f32):
    %0 = arith.maximumf %a, %zero : f32
    %1 = arith.addf %0, %bb : f32
    %2 = arith.mulf %1, %cc : f32
    linalg.yield %2 : f32
  }
  return
}

// -----

// Mixed widths: the widest element (f32) sets 4 lanes, so the f16 input
// is read 8 bytes at a time. A dynamic outer extent is fine: the identity
// layout's outer stride is a multiple of the static row (64).
// CHECK-LABEL: func.func @half_to_float
// CHECK: vector.load %arg0[{{.*}}] {alignment = 8 : i64} : memref<?x64xf16>, vector<4xf16>
// CHECK: arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK: vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 16 : i64} : memref<?x64xf32>, vector<4xf32>
#id = affine_map<(i, j) -> (i, j)>
func.func @half_to_float(%x: memref<?x64xf16>, %y: memref<?x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<?x64xf16>) outs(%y : memref<?x64xf32>) {
  ^bb0(%a: f16, %o: f32):
    %0 = arith.extf %a : f16 to f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// i64 (2 lanes) and linalg.index: the innermost index is the vector's start
// plus the lanes (vector.step), the outer one the row, broadcast.
// CHECK-LABEL: func.func @iota
// CHECK: %[[START:.*]] = affine.apply
// CHECK: %[[STEP:.*]] = vector.step : vector<2xindex>
// CHECK: %[[BASE:.*]] = vector.broadcast %[[START]] : index to vector<2xindex>
// CHECK: %[[J:.*]] = arith.addi %[[STEP]], %[[BASE]] : vector<2xindex>
// CHECK: %[[I:.*]] = vector.broadcast %{{.*}} : index to vector<2xindex>
// CHECK: arith.muli %[[I]], %[[J]] : vector<2xindex>
// CHECK: vector.store %{{.*}}, %arg0[%{{.*}}, %[[START]]] {alignment = 16 : i64} : memref<3x14xi64>, vector<2xi64>
#id = affine_map<(i, j) -> (i, j)>
func.func @iota(%y: memref<3x14xi64>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%y : memref<3x14xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %0 = arith.index_cast %k : index to i64
    linalg.yield %0 : i64
  }
  return
}

// -----

// A view whose outer stride (10) is no multiple of 4 but of 2: vectors of
// 2, aligned to 8 bytes.
// CHECK-LABEL: func.func @padded_rows
// CHECK: vector.load %arg0[{{.*}}] {alignment = 8 : i64} : memref<8x8xf32>, vector<2xf32>
// CHECK: vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 8 : i64} : memref<8x8xf32, strided<[10, 1], offset: 4>>, vector<2xf32>
func.func @padded_rows(%x: memref<8x8xf32>, %y: memref<8x8xf32, strided<[10, 1], offset: 4>>) {
  linalg.copy ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32, strided<[10, 1], offset: 4>>)
  return
}

// -----

// What stays one element per thread: a view at an offset only known at run
// time (its vectors might not be aligned), booleans (vectors of i1 are
// bit-packed, the buffers a byte per element), an input read across its
// rows (transposed), rows of odd length, a dynamic innermost extent.
// CHECK-LABEL: func.func @scalar
// CHECK-NOT: vector.
// CHECK-COUNT-5: memref.store
// CHECK-NOT: vector.
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
func.func @scalar(%x: memref<8x8xf32, strided<[8, 1], offset: ?>>, %y: memref<8x8xf32>,
                  %m: memref<8x8xi1>, %n: memref<8x8xi1>,
                  %t: memref<8x8xf32>, %u: memref<8x8xf32>,
                  %o: memref<3x5xf32>, %p: memref<3x5xf32>,
                  %d: memref<4x?xf32>, %e: memref<4x?xf32>) {
  linalg.copy ins(%x : memref<8x8xf32, strided<[8, 1], offset: ?>>) outs(%y : memref<8x8xf32>)
  linalg.copy ins(%m : memref<8x8xi1>) outs(%n : memref<8x8xi1>)
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<8x8xf32>) outs(%u : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.copy ins(%o : memref<3x5xf32>) outs(%p : memref<3x5xf32>)
  linalg.copy ins(%d : memref<4x?xf32>) outs(%e : memref<4x?xf32>)
  return
}

// -----

// Rows of 7 floats allow no vectors, but every operand reads the loops over
// channels and pixels contiguously: they fold into one of 47040 (the
// buffers collapsed, not delinearized per access), in vectors of 4. With a
// per-channel bias only the pixels (49) could fold: still odd, so that op
// stays one element per thread.
// CHECK-LABEL: func.func @clip
// CHECK-DAG: %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : memref<1x960x7x7xf32> into memref<1x47040xf32>
// CHECK-DAG: %[[Y:.*]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<1x960x7x7xf32> into memref<1x47040xf32>
// CHECK:     vector.load %[[X]][{{.*}}] {alignment = 16 : i64} : memref<1x47040xf32>, vector<4xf32>
// CHECK:     vector.store %{{.*}}, %[[Y]][{{.*}}] {alignment = 16 : i64} : memref<1x47040xf32>, vector<4xf32>
// CHECK-LABEL: func.func @bias
// CHECK-NOT: vector.
// CHECK:     memref.store
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @clip(%x: memref<1x960x7x7xf32>, %y: memref<1x960x7x7xf32>) {
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 6.0 : f32
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x960x7x7xf32>) outs(%y : memref<1x960x7x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.maximumf %a, %lo : f32
    %1 = arith.minimumf %0, %hi : f32
    linalg.yield %1 : f32
  }
  return
}
func.func @bias(%x: memref<2x3x7x7xf32>, %b: memref<3xf32>, %y: memref<2x3x7x7xf32>) {
  linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : memref<2x3x7x7xf32>, memref<3xf32>) outs(%y : memref<2x3x7x7xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  }
  return
}
