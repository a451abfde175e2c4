// tc_gpu.block_mma_scale_rows multiplies each element of a thread's
// accumulator by the factor of the element's row in the tile: the rows of
// the layout the block product gave the accumulator, per target.
//
// NVIDIA (mma.sync m16n8k16, 4 warps over a 64 x 64 tile): each lane's 32
// elements are 8 instruction tiles of 4 (rows lane / 4 and lane / 4 + 8 of
// each tile; 16 instructions over two k-steps), so each element reads its
// row's factor and is multiplied.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=cuda:sm_90}))' | FileCheck %s --check-prefix=CUDA
// CUDA-LABEL: gpu.func @rescale
// CUDA-COUNT-16: tc_gpu.subgroup_mma
// CUDA-COUNT-32: memref.load %arg1[%{{.*}}] : memref<64xf32, #gpu.address_space<workgroup>>
// CUDA: %[[E:.*]] = vector.extract %{{.*}}[31] : f32 from vector<32xf32>
// CUDA: %[[S:.*]] = arith.mulf %[[E]], %{{.*}} : f32
// CUDA: vector.insert %[[S]], %{{.*}} [31] : f32 into vector<32xf32>
// CUDA-NOT: tc_gpu.block_mma_scale_rows
//
// AMD CDNA (MFMA 16x16x16, 2 waves): the same count, the rows of its C
// layout.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=rocm:gfx942}))' | FileCheck %s --check-prefix=CDNA
// CDNA-COUNT-32: arith.mulf %{{.*}}, %{{.*}} : f32
// CDNA-NOT: tc_gpu.block_mma_scale_rows
//
// Without matrix cores, thread t owns rows (t / 16) 8 + i, i < 8, and 4
// columns of each: element 4 i + j takes row i's factor.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma))' | FileCheck %s --check-prefix=SCALAR
// SCALAR: scf.for
// SCALAR: scf.yield
// SCALAR: %[[FIRST:.*]] = arith.muli %{{.*}}, %c8{{.*}} : index
// SCALAR: memref.load %arg1[%[[FIRST]]]
// SCALAR-COUNT-31: memref.load %arg1
// SCALAR-NOT: tc_gpu.block_mma_scale_rows

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rescale(%out: memref<64x64xf32>,
                      %factors: memref<64xf32, #gpu.address_space<workgroup>>)
        workgroup(%a : memref<32x64xf16, #gpu.address_space<workgroup>>,
                  %b : memref<32x64xf16, #gpu.address_space<workgroup>>,
                  %c : memref<64x64xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %zero = arith.constant dense<0.0> : vector<32xf32>
      %p = tc_gpu.block_mma %a, %b, %zero {tile = array<i64: 64, 64, 32>}
          : memref<32x64xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, vector<32xf32>
      %s = tc_gpu.block_mma_scale_rows %p, %factors {tile = array<i64: 64, 64, 32>, operand_type = f16}
          : vector<32xf32>, memref<64xf32, #gpu.address_space<workgroup>>
      tc_gpu.block_mma_store %s, %c {tile = array<i64: 64, 64, 32>, operand_type = f16}
          : vector<32xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
