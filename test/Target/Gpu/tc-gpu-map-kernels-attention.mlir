// RUN: tc-opt %s --tc-gpu-map-kernels | FileCheck %s
// RUN: tc-opt %s --tc-gpu-map-kernels=async-copies=true | FileCheck %s --check-prefix=ASYNC

// tc_gpu.attention on buffers becomes one kernel: blocks of 128 threads
// over (70 queries / 32 rows, 2 x 3 batches); shared Q^T (head 40 padded
// to 48), K^T and V tiles of 32 keys, the scores (rows padded by one), P^T,
// the output, a factor per row and a partial per thread.
// CHECK-LABEL: func.func @attention
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c3, {{.*}} = %c6, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c128, {{.*}} = %c1, {{.*}} = %c1)
// CHECK-SAME: workgroup({{.*}} : memref<48x32xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<48x32xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<32x48xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<32x32xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<32x48xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<32xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<128xf32, #gpu.address_space<workgroup>>)
// Two blocks a multiprocessor at least (the back end's occupancy hint).
// CHECK: tc_gpu.min_blocks_hint {blocks = 2 : i64}
// A head of 40 padded to 48 is 6 vectors a row, 192 a tile: not an even
// share of the 128 threads, so Q, K and V are read element by element.
// CHECK-NOT: vector.load
//
// One whole step of 32 keys in a loop carrying the output's accumulator
// and the row's maximum and sum, without key guards...
// CHECK: scf.for {{.*}} = %{{.*}} to %c1{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (vector<12xf32>, f32, f32)
// CHECK: gpu.barrier
// CHECK: %[[S:.*]] = tc_gpu.block_mma %{{.*}} {tile = array<i64: 32, 32, 48>} {{.*}} vector<8xf32>
// CHECK: tc_gpu.block_mma_store %[[S]], {{.*}} tile = array<i64: 32, 32, 48>
// CHECK: gpu.barrier
// The mask [70, 45] read at (query, key), queries past 70 at its last row.
// CHECK: arith.minui %{{.*}}, %c69
// CHECK: memref.load %arg3[{{.*}}] : memref<70x45xf16>
// CHECK: math.exp
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: gpu.barrier
// CHECK: %[[A:.*]] = tc_gpu.block_mma_scale_rows %{{.*}} {operand_type = f16, tile = array<i64: 32, 48, 32>}
// CHECK: tc_gpu.block_mma %{{.*}}, %{{.*}}, %[[A]] {tile = array<i64: 32, 48, 32>} {{.*}} vector<12xf32>
// CHECK: gpu.barrier
// CHECK: scf.yield
// ... then the last 13 keys, those past 45 left out of the softmax.
// CHECK: tc_gpu.block_mma %{{.*}} {tile = array<i64: 32, 32, 48>}
// CHECK: arith.cmpi ult, %{{.*}}, %c45
// CHECK: arith.select %{{.*}}, %{{.*}}, %cst{{.*}} : f32
// CHECK: tc_gpu.block_mma_scale_rows
// CHECK: tc_gpu.block_mma
// At the end, the accumulator divided by the row's sum, written in f16.
// CHECK: arith.divf
// CHECK: tc_gpu.block_mma_scale_rows
// CHECK: tc_gpu.block_mma_store {{.*}} tile = array<i64: 32, 48, 32>
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: memref.store {{.*}}, %arg4[{{.*}}] : memref<2x3x70x40xf16>
// CHECK-NOT: tc_gpu.attention
func.func @attention(%q: memref<2x3x70x40xf16>, %kt: memref<2x3x40x45xf16>, %v: memref<2x3x45x40xf16>,
                     %m: memref<70x45xf16>, %o: memref<2x3x70x40xf16>) {
  tc_gpu.attention %q, %kt, %v mask(%m : memref<70x45xf16>) into %o {scale = 0.125 : f32, key_transposed}
      : memref<2x3x70x40xf16>, memref<2x3x40x45xf16>, memref<2x3x45x40xf16>, memref<2x3x70x40xf16>
  return
}

// A head of 96 and a value head of 80, padded to 96. Q, K and V store
// their heads innermost, contiguous and in whole 16-byte vectors: they are
// read 8 elements at a time (12 vectors a row of 96, 384 a tile of 32
// rows: three a thread), guarded as wholes (V's rows past its 80, keys
// past 37); their lanes go to the tiles one by one (K's and V's along a
// row of their tiles, which LLVM merges into one store: K's tile keeps the
// head along its rows, [32][96 + 8]; Q's down a column of its transposed
// tile).
// CHECK-LABEL: func.func @wide_head
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c4{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c128
// CHECK-SAME: workgroup({{.*}} : memref<96x32xbf16, #gpu.address_space<workgroup>>, {{.*}} : memref<32x104xbf16, #gpu.address_space<workgroup>>
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<4x19x96xbf16>, vector<8xbf16>
// CHECK: vector.extract
// CHECK: tc_gpu.block_mma {{.*}} {rhs_k_inner, tile = array<i64: 32, 32, 96>}
// CHECK: tc_gpu.block_mma {{.*}} {tile = array<i64: 32, 96, 32>}
// CHECK: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<1x37x96xbf16>, vector<8xbf16>
// CHECK: vector.load %arg2[{{.*}}] {alignment = 16 : i64} : memref<4x37x80xbf16>, vector<8xbf16>
// CHECK: vector.extract
// CHECK: memref.store %{{.*}}, %{{.*}}[{{.*}}] : memref<32x96xbf16, #gpu.address_space<workgroup>>
func.func @wide_head(%q: memref<4x19x96xbf16>, %k: memref<1x37x96xbf16>, %v: memref<4x37x80xbf16>,
                     %o: memref<4x19x80xbf16>) {
  tc_gpu.attention %q, %k, %v into %o {scale = 0.1 : f32}
      : memref<4x19x96xbf16>, memref<1x37x96xbf16>, memref<4x37x80xbf16>, memref<4x19x80xbf16>
  return
}

// Where every target copies asynchronously and two sets of K's and V's
// tiles fit (a head of 64: 8.5 KB more, 36 KB in all; not a head of 96,
// whose second set would pass 48 KB), the kernel copies step 0's K and V
// before its loop, and each step starts the copies of the next one into
// the other set, then waits for its own (one group pending) before the
// barrier. The kernels above keep their loads.
// ASYNC-LABEL: func.func @attention
// ASYNC-NOT: tc_gpu.async_copy
// ASYNC-LABEL: func.func @wide_head
// ASYNC-NOT: tc_gpu.async_copy
// ASYNC-LABEL: func.func @head_64
// ASYNC: gpu.launch {{.*}} workgroup({{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>>, %[[K0:[a-z0-9]+]] : memref<32x72xf16, #gpu.address_space<workgroup>>, %[[V0:[a-z0-9]+]] : memref<32x64xf16, #gpu.address_space<workgroup>>, {{.*}}, %[[K1:[a-z0-9]+]] : memref<32x72xf16, #gpu.address_space<workgroup>>, %[[V1:[a-z0-9]+]] : memref<32x64xf16, #gpu.address_space<workgroup>>)
// ASYNC: tc_gpu.async_copy %arg1[{{.*}}], %[[K0]][{{.*}}], %{{.*}} {elements = 8 : i64} : memref<2x50x64xf16>, memref<32x72xf16, #gpu.address_space<workgroup>>
// ASYNC: tc_gpu.async_copy %arg2[{{.*}}], %[[V0]][{{.*}}], %{{.*}} {elements = 8 : i64} : memref<2x50x64xf16>, memref<32x64xf16, #gpu.address_space<workgroup>>
// ASYNC: tc_gpu.async_commit
// ASYNC: scf.for
// ASYNC: %[[K:.*]] = arith.select %{{.*}}, %[[K1]], %[[K0]]
// ASYNC: tc_gpu.async_copy %arg1
// ASYNC: tc_gpu.async_copy %arg2
// ASYNC: tc_gpu.async_commit
// ASYNC-NEXT: tc_gpu.async_wait {pending = 1 : i64}
// ASYNC-NEXT: gpu.barrier
// ASYNC: tc_gpu.block_mma %{{.*}}, %[[K]], %{{.*}} {rhs_k_inner, tile = array<i64: 32, 32, 64>}
// ASYNC: tc_gpu.async_wait {pending = 0 : i64}
func.func @head_64(%q: memref<2x50x64xf16>, %k: memref<2x50x64xf16>, %v: memref<2x50x64xf16>,
                   %o: memref<2x50x64xf16>) {
  tc_gpu.attention %q, %k, %v into %o {scale = 0.125 : f32}
      : memref<2x50x64xf16>, memref<2x50x64xf16>, memref<2x50x64xf16>, memref<2x50x64xf16>
  return
}
