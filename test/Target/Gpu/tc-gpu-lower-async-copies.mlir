// tc_gpu.async_copy and its groups become NVIDIA's cp.async: the copy an
// nvgpu.device_async_copy whose source size is 0 where it is not valid
// (zeros, nothing read), bypassing L1 for 16 bytes; the commit and the wait
// cp.async.commit_group and cp.async.wait_group. AMD's back end has no
// asynchronous copies: an error. The emulation copies in place: a guarded
// vector load and a vector store; commits and waits vanish.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-lower-subgroup-mma{target=cuda:sm_90}))' | FileCheck %s --check-prefix=CUDA
// RUN: not tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-lower-subgroup-mma{target=rocm:gfx942}))' 2>&1 | FileCheck %s --check-prefix=ROCM
// RUN: tc-opt %s --tc-gpu-emulate-kernels | FileCheck %s --check-prefix=EMULATED
// CUDA-LABEL: gpu.func @copies
// CUDA: %[[N:.*]] = arith.select %arg1, %c8{{.*}}, %c0{{.*}} : index
// CUDA: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8, %[[N]] {bypassL1} : memref<64x64xf16> to memref<16x24xf16, #gpu.address_space<workgroup>>
// CUDA: %[[M:.*]] = arith.select %arg1, %c4{{.*}}, %c0{{.*}} : index
// CUDA: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 4, %[[M]] : memref<64x64xf16> to memref<16x24xf16, #gpu.address_space<workgroup>>
// CUDA: nvvm.cp.async.commit.group
// CUDA: nvvm.cp.async.wait.group 1
// CUDA-NOT: tc_gpu.async
// ROCM: error: 'tc_gpu.async_copy' op is not a copy of rocm:gfx942
// EMULATED-LABEL: func.func private @__tc_emulated_copies
// EMULATED-NOT: tc_gpu.async
// EMULATED: scf.if %{{.*}} -> (vector<8xf16>)
// EMULATED:   vector.load %{{.*}} : memref<64x64xf16>, vector<8xf16>
// EMULATED: vector.store %{{.*}} : memref<16x24xf16>, vector<8xf16>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copies(%x: memref<64x64xf16>, %valid: i1)
        workgroup(%t : memref<16x24xf16, #gpu.address_space<workgroup>>)
        kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      tc_gpu.async_copy %x[%i, %c0], %t[%i, %c0], %valid {elements = 8}
          : memref<64x64xf16>, memref<16x24xf16, #gpu.address_space<workgroup>>
      tc_gpu.async_copy %x[%i, %c8], %t[%i, %c8], %valid {elements = 4}
          : memref<64x64xf16>, memref<16x24xf16, #gpu.address_space<workgroup>>
      tc_gpu.async_commit
      tc_gpu.async_wait {pending = 1}
      gpu.barrier
      gpu.return
    }
  }
  func.func @main(%x: memref<64x64xf16>, %valid: i1) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@copies blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64x64xf16>, %valid : i1)
    return
  }
}
