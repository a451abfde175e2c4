// RUN: tc-opt %s --tc-gpu-map-kernels=async-copies=true --split-input-file | FileCheck %s

// Where every target copies asynchronously (cp.async), a contraction's
// vector-staged operands go straight into shared memory by
// tc_gpu.async_copy, three sets of A and B tiles in turn: the copies of
// steps 0 and 1 are issued (each step one group) before the loop; step s
// waits for its own group (one newer pending), then a barrier, then issues
// step s + 2's copies into the set step s - 1 read, and multiplies. The
// kernel waits for all copies before its epilogue. A (rows contiguous
// along K) keeps K along its tile's columns, B along its rows: each copy
// is 8 consecutive f16 in both. The tiles' 64 vectors each go to threads
// 0-63 (the guard of each copy).
// CHECK-LABEL: func.func @f16_matmul
// CHECK: gpu.launch {{.*}} workgroup(%[[A0:.*]] : memref<32x24xf16, #gpu.address_space<workgroup>>, %[[B0:.*]] : memref<16x40xf16, #gpu.address_space<workgroup>>, %[[A1:.*]] : memref<32x24xf16, #gpu.address_space<workgroup>>, %[[B1:.*]] : memref<16x40xf16, #gpu.address_space<workgroup>>, %[[A2:.*]] : memref<32x24xf16, #gpu.address_space<workgroup>>, %[[B2:.*]] : memref<16x40xf16, #gpu.address_space<workgroup>>)
// CHECK: tc_gpu.async_copy %arg0[{{.*}}], %[[A0]][{{.*}}], %{{.*}} {elements = 8 : i64} : memref<128x40xf16>, memref<32x24xf16, #gpu.address_space<workgroup>>
// CHECK: tc_gpu.async_copy %arg1[{{.*}}], %[[B0]][{{.*}}], %{{.*}} {elements = 8 : i64} : memref<40x96xf16>, memref<16x40xf16, #gpu.address_space<workgroup>>
// CHECK: tc_gpu.async_commit
// CHECK: tc_gpu.async_copy %arg0[{{.*}}], %[[A1]]
// CHECK: tc_gpu.async_copy %arg1[{{.*}}], %[[B1]]
// CHECK: tc_gpu.async_commit
// CHECK-NOT: gpu.barrier
// CHECK: %[[SUM:.*]] = scf.for
// CHECK:   tc_gpu.async_wait {pending = 1 : i64}
// CHECK-NEXT:   gpu.barrier
// CHECK:   arith.select %{{.*}}, %[[A2]], %{{.*}}
// CHECK:   tc_gpu.async_copy %arg0
// CHECK:   tc_gpu.async_copy %arg1
// CHECK:   tc_gpu.async_commit
// CHECK-NOT: gpu.barrier
// CHECK:   %[[P:.*]] = tc_gpu.block_mma {{.*}} {lhs_k_inner, tile = array<i64: 32, 32, 16>}
// CHECK-NOT: gpu.barrier
// CHECK:   scf.yield %[[P]]
// CHECK: tc_gpu.async_wait {pending = 0 : i64}
// CHECK: tc_gpu.block_mma_for_each %[[SUM]]
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @f16_matmul(%x: memref<128x40xf16>, %w: memref<40x96xf16>, %y: memref<128x96xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<128x40xf16>, memref<40x96xf16>) outs(%y : memref<128x96xf32>) {
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

// On CUDA cores A's tile keeps K along its rows (a thread reads its rows
// of a step as one vector), so A's vectors along K are scattered into it
// through registers as before, one step ahead: loaded before the products,
// stored after them into the next step's set. B's vectors along N lie in
// its tile as in memory: copied asynchronously.
// CHECK-LABEL: func.func @f32_matmul
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: tc_gpu.async_copy %arg0
// CHECK: tc_gpu.async_copy %arg1{{.*}} {elements = 4 : i64}
// CHECK: tc_gpu.async_commit
// CHECK: tc_gpu.async_copy %arg1
// CHECK: tc_gpu.async_commit
// CHECK: vector.load %arg0
// CHECK: memref.store
// CHECK: scf.for
// CHECK:   tc_gpu.async_wait {pending = 1 : i64}
// CHECK:   gpu.barrier
// CHECK:   tc_gpu.async_copy %arg1
// CHECK:   tc_gpu.async_commit
// CHECK:   vector.load %arg0
// CHECK:   scf.for
// CHECK:   memref.store
// CHECK:   scf.yield
// CHECK: tc_gpu.async_wait {pending = 0 : i64}
#a2 = affine_map<(i, j, k) -> (i, k)>
#b2 = affine_map<(i, j, k) -> (k, j)>
#c2 = affine_map<(i, j, k) -> (i, j)>
func.func @f32_matmul(%x: memref<128x40xf32>, %w: memref<40x96xf32>, %y: memref<128x96xf32>) {
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<128x40xf32>, memref<40x96xf32>) outs(%y : memref<128x96xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %2 = arith.mulf %p, %q : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// A configuration's stages override the build's default: two (the
// register-staged pipeline, two pairs of tiles) even where the targets
// copy asynchronously; three as the default gives.
// CHECK-LABEL: func.func @two_stages
// CHECK: gpu.launch {{.*}} workgroup(%{{[a-z0-9]+}} : memref<64x24xf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<16x72xf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<64x24xf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<16x72xf16, #gpu.address_space<workgroup>>)
// CHECK-NOT: tc_gpu.async
// CHECK: tc_gpu.block_mma {{.*}}tile = array<i64: 64, 64, 16>
// CHECK-NOT: tc_gpu.async
// CHECK-LABEL: func.func @three_stages
// CHECK: tc_gpu.async_copy
// CHECK: tc_gpu.async_wait {pending = 1 : i64}
// CHECK: tc_gpu.block_mma {{.*}}tile = array<i64: 64, 64, 16>
#a3 = affine_map<(i, j, k) -> (i, k)>
#b3 = affine_map<(i, j, k) -> (k, j)>
#c3 = affine_map<(i, j, k) -> (i, j)>
func.func @two_stages(%x: memref<256x64xf16>, %w: memref<64x256xf16>, %y: memref<256x256xf32>) {
  linalg.generic {indexing_maps = [#a3, #b3, #c3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<256x64xf16>, memref<64x256xf16>) outs(%y : memref<256x256xf32>)
      attrs = {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 2>} {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
func.func @three_stages(%x: memref<256x64xf16>, %w: memref<64x256xf16>, %y: memref<256x256xf32>) {
  linalg.generic {indexing_maps = [#a3, #b3, #c3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<256x64xf16>, memref<64x256xf16>) outs(%y : memref<256x256xf32>)
      attrs = {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>} {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
