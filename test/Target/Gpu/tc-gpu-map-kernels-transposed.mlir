// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// Attention's Q K^T over heads transposed out of [seq, head, dim] slices:
// both transposes are read by nothing but the batch matmul, so its kernel
// loads the sources at permuted indices (head and sequence swapped) and
// the transposes make no kernels. The same buffers are written again by
// the next layer's transposes (bufferization reuses them) and read by the
// next matmul: each layer's pair goes into its own matmul's kernel. The
// outputs' views are placed before the transposes. The sources'
// innermost dimension is K (16 wide): both tiles are staged in vectors of
// four.
// CHECK-LABEL: func.func @two_layers
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<32x4x16xf32>, %[[Y:[a-z0-9]+]]: memref<32x4x16xf32>
// CHECK-NOT: linalg.transpose
// CHECK: gpu.launch
// CHECK: vector.load %[[X]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<32x4x16xf32>, vector<4xf32>
// CHECK: vector.load %[[X]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<32x4x16xf32>, vector<4xf32>
// CHECK: gpu.launch
// CHECK: vector.load %[[Y]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<32x4x16xf32>, vector<4xf32>
// CHECK: vector.load %[[Y]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<32x4x16xf32>, vector<4xf32>
// CHECK-NOT: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: return
#q = affine_map<(b, i, j, k) -> (b, i, k)>
#k = affine_map<(b, i, j, k) -> (b, j, k)>
#o = affine_map<(b, i, j, k) -> (b, i, j)>
func.func @two_layers(%x: memref<32x4x16xf32>, %y: memref<32x4x16xf32>, %s1: memref<4x32x32xf32>, %s2: memref<4x32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c8192 = arith.constant 8192 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() : memref<16384xi8>
  %qt = memref.view %arena[%c0][] {tc.arena_buffer = 0 : i64} : memref<16384xi8> to memref<4x32x16xf32>
  %kt = memref.view %arena[%c8192][] {tc.arena_buffer = 1 : i64} : memref<16384xi8> to memref<4x32x16xf32>
  linalg.transpose ins(%x : memref<32x4x16xf32>) outs(%qt : memref<4x32x16xf32>) permutation = [1, 0, 2]
  linalg.transpose ins(%x : memref<32x4x16xf32>) outs(%kt : memref<4x32x16xf32>) permutation = [1, 0, 2]
  linalg.fill ins(%zero : f32) outs(%s1 : memref<4x32x32xf32>)
  linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qt, %kt : memref<4x32x16xf32>, memref<4x32x16xf32>) outs(%s1 : memref<4x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.transpose ins(%y : memref<32x4x16xf32>) outs(%qt : memref<4x32x16xf32>) permutation = [1, 0, 2]
  linalg.transpose ins(%y : memref<32x4x16xf32>) outs(%kt : memref<4x32x16xf32>) permutation = [1, 0, 2]
  linalg.fill ins(%zero : f32) outs(%s2 : memref<4x32x32xf32>)
  linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qt, %kt : memref<4x32x16xf32>, memref<4x32x16xf32>) outs(%s2 : memref<4x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %arena : memref<16384xi8>
  return
}

// -----

// The transposed buffer is also read after the matmul (nothing writes it
// whole in between): the transpose stays a kernel, the matmul reads it.
// CHECK-LABEL: func.func @read_again
// CHECK: %[[QT:.*]] = memref.view
// CHECK: scf.parallel
// CHECK: gpu.launch
// CHECK: vector.load %[[QT]]
#q = affine_map<(b, i, j, k) -> (b, i, k)>
#k = affine_map<(b, i, j, k) -> (b, j, k)>
#o = affine_map<(b, i, j, k) -> (b, i, j)>
func.func @read_again(%x: memref<32x4x16xf32>, %kt: memref<4x32x16xf32>, %s: memref<4x32x32xf32>, %copy: memref<4x32x16xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() : memref<8192xi8>
  %qt = memref.view %arena[%c0][] {tc.arena_buffer = 0 : i64} : memref<8192xi8> to memref<4x32x16xf32>
  linalg.transpose ins(%x : memref<32x4x16xf32>) outs(%qt : memref<4x32x16xf32>) permutation = [1, 0, 2]
  linalg.fill ins(%zero : f32) outs(%s : memref<4x32x32xf32>)
  linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qt, %kt : memref<4x32x16xf32>, memref<4x32x16xf32>) outs(%s : memref<4x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  memref.copy %qt, %copy : memref<4x32x16xf32> to memref<4x32x16xf32>
  memref.dealloc %arena : memref<8192xi8>
  return
}

// -----

// Attention's Q: a strided slice of the projection, copied so that it can
// be reshaped into heads ([32, 2, 128] as [32, 8, 32]), then transposed.
// The copy goes with the transpose: the matmul's kernel reads the slice
// itself, at the copy's indices of the reshaped position (its linear
// position in [32, 8, 32], split over [32, 2, 128]).
// CHECK-LABEL: func.func @copied_slice
// CHECK-SAME: (%[[QKV:[a-z0-9]+]]: memref<32x2x384xf32>
// CHECK: %[[SLICE:.*]] = memref.subview %[[QKV]][0, 0, 0] [32, 2, 128]
// CHECK-NOT: linalg.
// CHECK: gpu.launch
// CHECK: arith.divui %{{.*}}, %c128
// CHECK: memref.load %[[SLICE]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: return
#q = affine_map<(b, i, j, k) -> (b, i, k)>
#k = affine_map<(b, i, j, k) -> (b, j, k)>
#o = affine_map<(b, i, j, k) -> (b, i, j)>
func.func @copied_slice(%qkv: memref<32x2x384xf32>, %kt: memref<8x32x32xf32>, %s: memref<8x32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c32768 = arith.constant 32768 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() : memref<65536xi8>
  %slice = memref.subview %qkv[0, 0, 0] [32, 2, 128] [1, 1, 1] : memref<32x2x384xf32> to memref<32x2x128xf32, strided<[768, 384, 1]>>
  %q = memref.view %arena[%c0][] {tc.arena_buffer = 0 : i64} : memref<65536xi8> to memref<32x2x128xf32>
  %flat = memref.collapse_shape %q [[0, 1, 2]] : memref<32x2x128xf32> into memref<8192xf32>
  %heads = memref.expand_shape %flat [[0, 1, 2]] output_shape [32, 8, 32] : memref<8192xf32> into memref<32x8x32xf32>
  %qt = memref.view %arena[%c32768][] {tc.arena_buffer = 1 : i64} : memref<65536xi8> to memref<8x32x32xf32>
  memref.copy %slice, %q : memref<32x2x128xf32, strided<[768, 384, 1]>> to memref<32x2x128xf32>
  linalg.transpose ins(%heads : memref<32x8x32xf32>) outs(%qt : memref<8x32x32xf32>) permutation = [1, 0, 2]
  linalg.fill ins(%zero : f32) outs(%s : memref<8x32x32xf32>)
  linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qt, %kt : memref<8x32x32xf32>, memref<8x32x32xf32>) outs(%s : memref<8x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %arena : memref<65536xi8>
  return
}
