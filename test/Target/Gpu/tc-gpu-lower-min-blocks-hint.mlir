// tc_gpu.min_blocks_hint becomes NVIDIA's .minnctapersm (nvvm.minctasm on
// the kernel); AMD's back end and the emulation drop it.
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-lower-subgroup-mma{target=cuda:sm_90}))' | FileCheck %s --check-prefix=CUDA
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-lower-subgroup-mma{target=rocm:gfx942}))' | FileCheck %s --check-prefix=ROCM
// RUN: tc-opt %s --tc-gpu-emulate-kernels | FileCheck %s --check-prefix=EMULATED
// CUDA: gpu.func @hinted(%{{.*}}: memref<4xf32>) kernel attributes {nvvm.minctasm = 2 : i32}
// CUDA-NOT: tc_gpu.min_blocks_hint
// ROCM: gpu.func @hinted(%{{.*}}: memref<4xf32>) kernel {
// ROCM-NOT: tc_gpu.min_blocks_hint
// EMULATED-NOT: tc_gpu.min_blocks_hint
// EMULATED: func.func private @__tc_emulated_hinted
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hinted(%x: memref<4xf32>) kernel {
      tc_gpu.min_blocks_hint {blocks = 2}
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %x[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@hinted blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}
