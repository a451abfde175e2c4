// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// Large enough for 64 x 64 tiles on both sides and 256 blocks of them
// (1024 x 1024): the wide kernel, 4 x 4 outputs per thread, chosen at
// compile time. Shared memory holds two pairs of A and B tiles only (used
// by the steps of K in turn): the K loop carries the 16 accumulators.
// CHECK-LABEL: func.func @large
// CHECK-NOT: scf.if
// CHECK: gpu.launch {{.*}} workgroup(%[[A0:[a-z0-9]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>, %[[B0:[a-z0-9]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>, %[[A1:[a-z0-9]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>, %[[B1:[a-z0-9]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-NOT: gpu.launch
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @large(%x: memref<1024x8xf32>, %w: memref<8x1024xf32>, %y: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<1024x8xf32>, memref<8x1024xf32>) outs(%y : memref<1024x1024xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// 1024 x 960 gives 240 wide blocks, too few to cover a GPU twice: the
// 32 x 32 tile.
// CHECK-LABEL: func.func @not_enough_blocks
// CHECK-NOT: scf.if
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>
#a2 = affine_map<(i, j, k) -> (i, k)>
#b2 = affine_map<(i, j, k) -> (k, j)>
#c2 = affine_map<(i, j, k) -> (i, j)>
func.func @not_enough_blocks(%x: memref<1024x8xf32>, %w: memref<8x960xf32>, %y: memref<1024x960xf32>) {
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<1024x8xf32>, memref<8x960xf32>) outs(%y : memref<1024x960xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A dynamic number of rows: both kernels, the host picking one at run
// time from the number of 64 x 64 blocks.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[WIDE:.*]] = arith.andi
// CHECK: scf.if %[[WIDE]] {
// CHECK:   gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x68xf32, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK:   gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>
// CHECK: }
#a3 = affine_map<(i, j, k) -> (i, k)>
#b3 = affine_map<(i, j, k) -> (k, j)>
#c3 = affine_map<(i, j, k) -> (i, j)>
func.func @dynamic_rows(%x: memref<?x8xf32>, %w: memref<8x1024xf32>, %y: memref<?x1024xf32>) {
  linalg.generic {indexing_maps = [#a3, #b3, #c3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<?x8xf32>, memref<8x1024xf32>) outs(%y : memref<?x1024xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// f64 takes the wide tile too: its two pairs of A and B tiles are 33 KB.
// CHECK-LABEL: func.func @large_f64
// CHECK-NOT: scf.if
// CHECK: gpu.launch {{.*}} workgroup(%[[A0:[a-z0-9]+]] : memref<16x66xf64, #gpu.address_space<workgroup>>, %[[B0:[a-z0-9]+]] : memref<16x66xf64, #gpu.address_space<workgroup>>, %[[A1:[a-z0-9]+]] : memref<16x66xf64, #gpu.address_space<workgroup>>, %[[B1:[a-z0-9]+]] : memref<16x66xf64, #gpu.address_space<workgroup>>)
#a4 = affine_map<(i, j, k) -> (i, k)>
#b4 = affine_map<(i, j, k) -> (k, j)>
#c4 = affine_map<(i, j, k) -> (i, j)>
func.func @large_f64(%x: memref<1024x8xf64>, %w: memref<8x1024xf64>, %y: memref<1024x1024xf64>) {
  linalg.generic {indexing_maps = [#a4, #b4, #c4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<1024x8xf64>, memref<8x1024xf64>) outs(%y : memref<1024x1024xf64>) {
  ^bb0(%p: f64, %q: f64, %o: f64):
    %0 = arith.mulf %p, %q : f64
    %1 = arith.addf %o, %0 : f64
    linalg.yield %1 : f64
  }
  return
}

// -----

// On matrix cores (f16 factors, f32 sums) with 256 blocks of 128 x 128
// (2048 x 2048): the large tile, 8 x 8 outputs per thread, its 64
// accumulators in one vector.
// CHECK-LABEL: func.func @large_f16
// CHECK-NOT: scf.if
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<128x24xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x136xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<128x24xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x136xf16, #gpu.address_space<workgroup>>)
// CHECK: tc_gpu.block_mma {{.*}}tile = array<i64: 128, 128, 16>{{.*}}vector<64xf32>
// CHECK-NOT: gpu.launch
#a5 = affine_map<(i, j, k) -> (i, k)>
#b5 = affine_map<(i, j, k) -> (k, j)>
#c5 = affine_map<(i, j, k) -> (i, j)>
func.func @large_f16(%x: memref<2048x40xf16>, %w: memref<40x2048xf16>, %y: memref<2048x2048xf32>) {
  linalg.generic {indexing_maps = [#a5, #b5, #c5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<2048x40xf16>, memref<40x2048xf16>) outs(%y : memref<2048x2048xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// The same with a dynamic number of rows: three kernels, the host taking
// the largest tile that the rows fill with enough blocks.
// CHECK-LABEL: func.func @dynamic_rows_f16
// CHECK: scf.if %{{.*}} {
// CHECK:   gpu.launch {{.*}} workgroup(%{{.*}} : memref<128x24xf16, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK:   scf.if %{{.*}} {
// CHECK:     gpu.launch {{.*}} workgroup(%{{.*}} : memref<64x24xf16, #gpu.address_space<workgroup>>
// CHECK:   } else {
// CHECK:     gpu.launch {{.*}} workgroup(%{{.*}} : memref<32x24xf16, #gpu.address_space<workgroup>>
#a6 = affine_map<(i, j, k) -> (i, k)>
#b6 = affine_map<(i, j, k) -> (k, j)>
#c6 = affine_map<(i, j, k) -> (i, j)>
func.func @dynamic_rows_f16(%x: memref<?x40xf16>, %w: memref<40x2048xf16>, %y: memref<?x2048xf32>) {
  linalg.generic {indexing_maps = [#a6, #b6, #c6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<?x40xf16>, memref<40x2048xf16>) outs(%y : memref<?x2048xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
