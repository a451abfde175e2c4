// tc_gpu.block_mma_for_each runs its body once per accumulator element,
// at the positions of the target's layout: mma.sync m16n8k16's C (lane l,
// element i at row l / 4 (+8 for i >= 2) and column 2 (l % 4) + i % 2 of
// the warp's 16 x 8 tile), or without matrix cores the scalar fallback's
// (each thread a 2 x 2 block: rows 2 (t / 16) + i, columns t % 16 + 16 j).
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=cuda:sm_90}))' | FileCheck %s --check-prefix=CUDA
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma))' | FileCheck %s --check-prefix=SCALAR

// CUDA-LABEL: gpu.func @epilogue
// CUDA-NOT: tc_gpu.block_mma_for_each
// CUDA: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CUDA: %[[V0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// CUDA: %[[S0:.*]] = arith.addf %[[V0]], %{{.*}} : f32
// CUDA: memref.store %[[S0]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x32xf32>
// CUDA: vector.extract %{{.*}}[1]
// CUDA: vector.extract %{{.*}}[2]
// CUDA: vector.extract %{{.*}}[3]
// CUDA-COUNT-1: memref.store
// CUDA-NOT: memref.store
// CUDA: gpu.return

// SCALAR-LABEL: gpu.func @epilogue
// SCALAR-NOT: tc_gpu.block_mma_for_each
// SCALAR-COUNT-4: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x32xf32>
// SCALAR-NOT: memref.store
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @epilogue(%out: memref<32x32xf32>, %bias: f32)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %acc = arith.constant dense<1.0> : vector<4xf32>
      tc_gpu.block_mma_for_each %acc {tile = array<i64: 32, 32, 16>, operand_type = f16} : vector<4xf32> {
      ^bb0(%row: index, %column: index, %value: f32):
        %sum = arith.addf %value, %bias : f32
        memref.store %sum, %out[%row, %column] : memref<32x32xf32>
      }
      gpu.return
    }
  }
}
