// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// f16 operands accumulated in f32: the block multiplies its shared tiles
// (two pairs of A and B tiles, used by the steps in turn) by
// tc_gpu.block_mma (matrix cores where the target has them), carrying one
// accumulator vector through the K loop; then each thread runs the
// epilogue on its accumulator elements (tc_gpu.block_mma_for_each, at the
// element's row and column of the block's tile): guarded by the extents,
// it adds the output's start value and stores. No shared tile of results.
// 128 x 96 gives 32 x 32 tiles: 4 accumulators per thread. A, copied in
// vectors along K (its rows are contiguous), keeps K along its tile's
// columns (32 x (16 + 8)); B, copied along N, along its rows.
// CHECK-LABEL: func.func @f16_matmul
// CHECK: gpu.launch blocks(%[[BX:[a-z0-9]+]], %[[BY:[a-z0-9]+]], %{{[a-z0-9]+}}) in {{.*}} workgroup(%[[A0:.*]] : memref<32x24xf16, #gpu.address_space<workgroup>>, %[[B0:.*]] : memref<16x40xf16, #gpu.address_space<workgroup>>, %[[A1:.*]] : memref<32x24xf16, #gpu.address_space<workgroup>>, %[[B1:.*]] : memref<16x40xf16, #gpu.address_space<workgroup>>)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: gpu.barrier
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<4xf32>)
// CHECK:   %[[A:.*]] = arith.select %{{.*}}, %[[A1]], %[[A0]]
// CHECK:   %[[B:.*]] = arith.select %{{.*}}, %[[B1]], %[[B0]]
// CHECK-NOT: gpu.barrier
// CHECK:   %[[P:.*]] = tc_gpu.block_mma %[[A]], %[[B]], %[[ACC]] {lhs_k_inner, tile = array<i64: 32, 32, 16>}
// CHECK:   gpu.barrier
// CHECK:   scf.yield %[[P]]
// CHECK-NOT: gpu.barrier
// CHECK: tc_gpu.block_mma_for_each %[[SUM]] {operand_type = f16, tile = array<i64: 32, 32, 16>} : vector<4xf32> {
// CHECK: ^bb0(%[[ROW:.*]]: index, %[[COLUMN:.*]]: index, %[[VALUE:.*]]: f32):
// CHECK:   arith.addi %{{.*}}, %[[ROW]]
// CHECK:   arith.muli %[[BX]], %c32{{.*}} : index
// CHECK:   arith.addi %{{.*}}, %[[COLUMN]]
// CHECK:   scf.if
// CHECK:     %[[START:.*]] = memref.load %arg2
// CHECK:     %[[OUT:.*]] = arith.addf %[[START]], %[[VALUE]]
// CHECK:     memref.store %[[OUT]], %arg2
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
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

// 256 blocks of 64 x 64: the wide tile, 16 accumulators per thread.
// CHECK-LABEL: func.func @bf16_wide
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<64x24xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x72xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x24xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x72xbf16, #gpu.address_space<workgroup>>)
// CHECK: tc_gpu.block_mma {{.*}} {lhs_k_inner, tile = array<i64: 64, 64, 16>} : {{.*}} vector<16xf32>
#a2 = affine_map<(i, j, k) -> (i, k)>
#b2 = affine_map<(i, j, k) -> (k, j)>
#c2 = affine_map<(i, j, k) -> (i, j)>
func.func @bf16_wide(%x: memref<1024x24xbf16>, %w: memref<24x1024xbf16>, %y: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<1024x24xbf16>, memref<24x1024xbf16>) outs(%y : memref<1024x1024xf32>) {
  ^bb0(%p: bf16, %q: bf16, %o: f32):
    %0 = arith.extf %p : bf16 to f32
    %1 = arith.extf %q : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// One f32 operand (attention's probabilities times a 16-bit V): no matrix
// instruction multiplies f32 by f16, so the CUDA-core kernel.
// CHECK-LABEL: func.func @mixed_operands
// CHECK-NOT: tc_gpu.block_mma
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK-NOT: tc_gpu.block_mma
#a3 = affine_map<(i, j, k) -> (i, k)>
#b3 = affine_map<(i, j, k) -> (k, j)>
#c3 = affine_map<(i, j, k) -> (i, j)>
func.func @mixed_operands(%x: memref<128x40xf32>, %w: memref<40x96xf16>, %y: memref<128x96xf32>) {
  linalg.generic {indexing_maps = [#a3, #b3, #c3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<128x40xf32>, memref<40x96xf16>) outs(%y : memref<128x96xf32>) {
  ^bb0(%p: f32, %q: f16, %o: f32):
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %p, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// f32 factors marked as TF32 values (--precision=tf32 rounded them): the
// matrix-core kernel on f32 tiles. The same product unmarked is an f32
// product and keeps the CUDA-core kernel.
// CHECK-LABEL: func.func @tf32_factors
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<32x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>)
// CHECK: tc_gpu.block_mma {{.*}} {lhs_k_inner, tile = array<i64: 32, 32, 16>} : memref<32x20xf32, #gpu.address_space<workgroup>>, memref<16x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: tc_gpu.block_mma_for_each {{.*}} {operand_type = f32, tile = array<i64: 32, 32, 16>}
// CHECK-LABEL: func.func @f32_factors
// CHECK-NOT: tc_gpu.block_mma
#a4 = affine_map<(i, j, k) -> (i, k)>
#b4 = affine_map<(i, j, k) -> (k, j)>
#c4 = affine_map<(i, j, k) -> (i, j)>
func.func @tf32_factors(%x: memref<128x40xf32>, %w: memref<40x96xf32>, %y: memref<128x96xf32>) {
  linalg.generic {indexing_maps = [#a4, #b4, #c4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<128x40xf32>, memref<40x96xf32>) outs(%y : memref<128x96xf32>) attrs = {tc.tf32_factors} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %2 = arith.mulf %p, %q : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
func.func @f32_factors(%x: memref<128x40xf32>, %w: memref<40x96xf32>, %y: memref<128x96xf32>) {
  linalg.generic {indexing_maps = [#a4, #b4, #c4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<128x40xf32>, memref<40x96xf32>) outs(%y : memref<128x96xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %2 = arith.mulf %p, %q : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
