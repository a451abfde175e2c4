// The kernels of a small CNN (conv, depthwise conv, pooling) for both GPU
// vendors, each binary checked offline by tc-compile: ptxas assembled the
// PTX (the cubin defines every kernel); the HSACO is an AMDGPU code object
// v5 for the chip with a kernel descriptor per kernel.
// RUN: %pyonnx %models conv_pool %t.onnx
// RUN: rm -rf %t.out
// RUN: tc-compile %t.onnx --target=cuda:sm_80,cuda:sm_90,rocm:gfx90a,rocm:gfx942 --emit=gpu-kernels -o %t.out | FileCheck %s
// RUN: ls %t.out | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=PTX < %t.out/cuda-sm_90.ptx
// RUN: llvm-readelf -h %t.out/rocm-gfx942.hsaco | FileCheck %s --check-prefix=HSACO
// RUN: llvm-readelf -s %t.out/rocm-gfx942.hsaco | FileCheck %s --check-prefix=SYMBOLS
// Bad targets are rejected before anything is compiled, with the list.
// RUN: not tc-compile %t.onnx --target=cuda:sm_75 --emit=gpu-kernels -o %t.out 2>&1 | FileCheck %s --check-prefix=ARCH
// A model.so for the CPU and two GPUs: the CPU code is always there (the
// reference path), the GPU entry point and kernel images beside it.
// RUN: tc-compile %t.onnx --target=cuda:sm_90,rocm:gfx942 -o %t.so
// RUN: tc-run %t.so --print-signature | FileCheck %s --check-prefix=SO
// RUN: llvm-nm -D %t.so | FileCheck %s --check-prefix=SYMS
// RUN: not tc-compile %t.onnx --emit=gpu-kernels -o %t.out 2>&1 | FileCheck %s --check-prefix=NOGPU

// CHECK: cuda:sm_80: ok, [[N:[0-9]+]] kernels, cubin checked offline
// CHECK: cuda:sm_90: ok, [[N]] kernels, cubin checked offline
// CHECK: rocm:gfx90a: ok, [[N]] kernels, hsaco checked offline
// CHECK: rocm:gfx942: ok, [[N]] kernels, hsaco checked offline
// FILES: cuda-sm_80.cubin
// FILES: cuda-sm_80.kernels
// FILES: cuda-sm_80.ptx
// FILES: rocm-gfx942.hsaco
// PTX: .version 8.1
// PTX: .target sm_90
// PTX: .entry main_kernel(
// HSACO: OS/ABI: AMDGPU - HSA
// HSACO: ABI Version: 3
// HSACO: Machine: EM_AMDGPU
// HSACO: Flags: {{.*}}gfx942
// SYMBOLS: main_kernel.kd
// ARCH: error: --target: unsupported cuda architecture 'sm_75'; supported targets: cpu, cuda:sm_80, cuda:sm_86, cuda:sm_89, cuda:sm_90, cuda:sm_100, rocm:gfx90a, rocm:gfx942, rocm:gfx1100
// SO: target cpu
// SO: target cuda:sm_90
// SO: target rocm:gfx942
// SYMS-DAG: tc_module_gpu_image_count_v1
// SYMS-DAG: tc_module_gpu_images_v1
// SYMS-DAG: tc_module_gpu_kernel_count_v1
// SYMS-DAG: tc_module_gpu_kernels_v1
// SYMS-DAG: T tc_module_gpu_run_v3
// SYMS-DAG: T tc_module_run_v1
// NOGPU: error: --emit=gpu-kernels needs a GPU --target

// The GPU path with its kernels run on the CPU (--target=gpu-emulation)
// gives the CPU target's results on random input.
// RUN: tc-compile %t.onnx --target=gpu-emulation -o %t.emu.so
// RUN: tc-compile %t.onnx -o %t.cpu.so
// RUN: %pyonnx -c "import numpy as np; np.save('%t.x.npy', np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32))"
// RUN: tc-run %t.cpu.so --input=%t.x.npy --output=%t.cpu.out
// RUN: tc-run %t.emu.so --input=%t.x.npy --compare=%t.cpu.out/gap.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s --check-prefix=EMU
// RUN: not tc-compile %t.onnx --target=gpu-emulation,cuda:sm_90 -o %t.bad.so 2>&1 | FileCheck %s --check-prefix=EMUONLY
// EMU: output 'gap': OK
// EMUONLY: error: --target=gpu-emulation cannot be combined with other targets
