// A Gemm with a dynamic number of rows through the GPU code generation,
// kernels emulated on the CPU: the host picks the 32 x 32 tile for 1 and
// 300 rows (5 x 16 blocks of 64 x 64 would not cover a GPU twice) and the
// 64 x 64 tile for 1100 rows (18 x 16 blocks); the bias and Relu run in
// the matmul's kernel. Each against the CPU build's results.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pyonnx %models dense_relu %t/dense.onnx
// RUN: tc-compile %t/dense.onnx -o %t/cpu.so
// RUN: tc-compile %t/dense.onnx --target=gpu-emulation -o %t/gpu.so
// RUN: %pyonnx -c "import numpy as np; rng = np.random.default_rng(1); [np.save('%t/x%%d.npy' %% n, rng.standard_normal((n, 64)).astype(np.float32)) for n in (1, 300, 1100)]"
// RUN: tc-run %t/cpu.so --input=%t/x1.npy --output=%t/y1
// RUN: tc-run %t/cpu.so --input=%t/x300.npy --output=%t/y300
// RUN: tc-run %t/cpu.so --input=%t/x1100.npy --output=%t/y1100
// RUN: tc-run %t/gpu.so --input=%t/x1.npy --compare=%t/y1/y.npy --rtol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: tc-run %t/gpu.so --input=%t/x300.npy --compare=%t/y300/y.npy --rtol=1e-5 | FileCheck %s --check-prefix=SMALL
// RUN: tc-run %t/gpu.so --input=%t/x1100.npy --compare=%t/y1100/y.npy --rtol=1e-5 | FileCheck %s --check-prefix=WIDE
// RUN: tc-compile %t/dense.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/kernels | FileCheck %s --check-prefix=KERNELS
//
// In fp16 both tiles multiply on matrix cores, the layouts of NVIDIA's
// mma.sync and AMD's MFMA executed in emulation: against the CPU's fp16
// build, to within a rounding of the fp16 result (the sums run in another
// order).
// RUN: tc-compile %t/dense.onnx --precision=fp16 -o %t/cpu16.so
// RUN: tc-compile %t/dense.onnx --precision=fp16 --target=gpu-emulation -o %t/mma.so
// RUN: tc-compile %t/dense.onnx --precision=fp16 --target=gpu-emulation --emulate-matrix-cores=rocm:gfx942 -o %t/mfma.so
// RUN: tc-run %t/cpu16.so --input=%t/x1.npy --output=%t/h1
// RUN: tc-run %t/cpu16.so --input=%t/x300.npy --output=%t/h300
// RUN: tc-run %t/cpu16.so --input=%t/x1100.npy --output=%t/h1100
// RUN: tc-run %t/mma.so --input=%t/x1.npy --compare=%t/h1/y.npy --rtol=2e-3 --atol=1e-3 | FileCheck %s --check-prefix=ONE
// RUN: tc-run %t/mma.so --input=%t/x300.npy --compare=%t/h300/y.npy --rtol=2e-3 --atol=1e-3 | FileCheck %s --check-prefix=SMALL
// RUN: tc-run %t/mma.so --input=%t/x1100.npy --compare=%t/h1100/y.npy --rtol=2e-3 --atol=1e-3 | FileCheck %s --check-prefix=WIDE
// RUN: tc-run %t/mfma.so --input=%t/x300.npy --compare=%t/h300/y.npy --rtol=2e-3 --atol=1e-3 | FileCheck %s --check-prefix=SMALL
// RUN: tc-run %t/mfma.so --input=%t/x1100.npy --compare=%t/h1100/y.npy --rtol=2e-3 --atol=1e-3 | FileCheck %s --check-prefix=WIDE

// ONE: output 'y': OK: f32[1, 1024]
// SMALL: output 'y': OK: f32[300, 1024]
// WIDE: output 'y': OK: f32[1100, 1024]
// Both tiles, and nothing else: the bias and Relu are in them.
// KERNELS: cuda:sm_90: ok, 2 kernels
