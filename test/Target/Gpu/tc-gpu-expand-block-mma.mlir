// A block matrix product of a 64 x 64 x 16 bf16 tile by 256 threads, for
// each target's matrix instruction.
//
// NVIDIA (mma.sync m16n8k16, 32 lanes): 8 warps, each 4 instructions per
// k-step (a 2 x 2 grid of 16 x 8 tiles: the grid that loads the fewest
// fragments), its accumulator 4 tiles of 4 elements. Its fragments are
// ldmatrix's: each A fragment four 8 x 8 matrices of the K-major A tile
// (k, m offsets 0/8), each B fragment two (k offsets 0 and 8), loaded
// transposed at the warp's rows and columns; the warp's two neighbouring
// B fragments (columns 8 apart) in one load of four, split. No lane loads
// an element.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=cuda:sm_90}))' | FileCheck %s --check-prefix=CUDA
// CUDA-NOT: memref.load
// CUDA-COUNT-2: tc_gpu.subgroup_load_matrices %{{.*}}[%{{.*}}, %{{.*}}] {offsets = array<i64: 0, 0, 0, 8, 8, 0, 8, 8>, transpose} : memref<16x72xbf16, #gpu.address_space<workgroup>> -> vector<8xbf16>
// CUDA: %[[B:.*]] = tc_gpu.subgroup_load_matrices %{{.*}}[%{{.*}}, %{{.*}}] {offsets = array<i64: 0, 0, 8, 0, 0, 8, 8, 8>, transpose} : memref<16x64xbf16, #gpu.address_space<workgroup>> -> vector<8xbf16>
// CUDA: vector.extract_strided_slice %[[B]] {offsets = [0], sizes = [4], strides = [1]}
// CUDA: vector.extract_strided_slice %[[B]] {offsets = [4], sizes = [4], strides = [1]}
// CUDA-NOT: memref.load
// CUDA-NOT: tc_gpu.subgroup_load_matrices
// CUDA-COUNT-4: tc_gpu.subgroup_mma {{.*}}shape = array<i64: 16, 8, 16>, subgroup_size = 32 : i64} : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
// CUDA-NOT: tc_gpu.subgroup_mma
// CUDA-COUNT-16: memref.store
// CUDA-NOT: tc_gpu.block_mma
//
// AMD CDNA (MFMA 16x16x16, 64 lanes): 4 waves, each 4 instructions, their
// fragments loaded element by element.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=rocm:gfx942}))' | FileCheck %s --check-prefix=CDNA
// CDNA-NOT: tc_gpu.subgroup_load_matrices
// CDNA: memref.load
// CDNA-COUNT-4: tc_gpu.subgroup_mma {{.*}}shape = array<i64: 16, 16, 16>, subgroup_size = 64 : i64} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// CDNA-NOT: tc_gpu.subgroup_mma
//
// AMD RDNA 3 (WMMA 16x16x16, 32 lanes, A and B held by both half-waves):
// 8 waves, each 2 instructions whose operands have 16 elements per lane.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=rocm:gfx1100}))' | FileCheck %s --check-prefix=RDNA
// RDNA-COUNT-2: tc_gpu.subgroup_mma {{.*}}shape = array<i64: 16, 16, 16>, subgroup_size = 32 : i64} : vector<16xbf16>, vector<16xbf16>, vector<8xf32>
// RDNA-NOT: tc_gpu.subgroup_mma
// RDNA-COUNT-16: memref.store
//
// Without a target: scalar code, each thread a 4 x 4 block of the tile
// over 16 steps of K.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma))' | FileCheck %s --check-prefix=SCALAR
// SCALAR-NOT: tc_gpu.subgroup_mma
// SCALAR: scf.for {{.*}} -> (vector<16xf32>)
// SCALAR-COUNT-16: arith.mulf
// SCALAR: scf.yield
// SCALAR-COUNT-16: memref.store
//
// Then the vendors' intrinsics: nvvm.mma.sync on bf16 pairs packed in i32,
// amdgpu.mfma, amdgpu.wmma.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=cuda:sm_80},tc-gpu-lower-subgroup-mma{target=cuda:sm_80}))' | FileCheck %s --check-prefix=NVVM
// NVVM-COUNT-2: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<16x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// NVVM: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<16x64xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// NVVM-COUNT-4: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=rocm:gfx90a},tc-gpu-lower-subgroup-mma{target=rocm:gfx90a}))' | FileCheck %s --check-prefix=MFMA
// MFMA-COUNT-4: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=rocm:gfx1100},tc-gpu-lower-subgroup-mma{target=rocm:gfx1100}))' | FileCheck %s --check-prefix=WMMA
// WMMA-COUNT-2: amdgpu.wmma 16x16x16 {{.*}} : vector<16xbf16>, vector<16xbf16>, vector<8xf32>
//
// An instruction of another target is refused, as is an unknown target.
// RUN: not tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=cuda:sm_90},tc-gpu-lower-subgroup-mma{target=rocm:gfx942}))' 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: 'tc_gpu.subgroup_mma' op is not a matrix instruction of rocm:gfx942
// RUN: not tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=cuda:sm_70}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tc-gpu-expand-block-mma: unsupported cuda architecture 'sm_70'

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @product(%out: memref<64x64xf32>)
        workgroup(%a : memref<16x72xbf16, #gpu.address_space<workgroup>>,
                  %b : memref<16x64xbf16, #gpu.address_space<workgroup>>,
                  %c : memref<64x64xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %zero = arith.constant dense<0.0> : vector<16xf32>
      %p = tc_gpu.block_mma %a, %b, %zero {tile = array<i64: 64, 64, 16>}
          : memref<16x72xbf16, #gpu.address_space<workgroup>>, memref<16x64xbf16, #gpu.address_space<workgroup>>, vector<16xf32>
      tc_gpu.block_mma_store %p, %c {tile = array<i64: 64, 64, 16>, operand_type = bf16}
          : vector<16xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
