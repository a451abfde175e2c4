// The 128 x 128 matrix-core tile (kMatmulLargeRegisterTile): a batched
// product with 288 blocks of it, tails in M, N and K, and a fused Relu,
// against a numpy reference that rounds as the policy does.
// RUN: %pyonnx %s.py %t
//
// The CPU (the numerics reference), then the GPU kernels in emulation:
// mma.sync's layouts (the default) and its transposed 8 x 8 loads, in both
// orders; MFMA; RDNA 3's WMMA in reverse order.
// RUN: tc-compile %t/model.onnx --precision=fp16 -o %t/cpu.so --no-cache
// RUN: tc-run %t/cpu.so --input=a=%t/a.npy --compare=y=%t/y.fp16.npy --rtol=2e-3 --atol=1e-4 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=gpu-emulation -o %t/sm90.so --no-cache --dump-ir=%t/dump
// RUN: tc-run %t/sm90.so --input=a=%t/a.npy --compare=y=%t/y.bf16.npy --rtol=1e-2 --atol=1e-3 | FileCheck %s
// RUN: cat %t/dump/passes/*/*/*tc-gpu-map-kernel-loops.mlir | FileCheck %s --check-prefix=TILE
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation:reverse -o %t/reverse.so --no-cache
// RUN: tc-run %t/reverse.so --input=a=%t/a.npy --compare=y=%t/y.fp16.npy --rtol=2e-3 --atol=1e-4 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation --emulate-matrix-cores=rocm:gfx942 -o %t/gfx942.so --no-cache
// RUN: tc-run %t/gfx942.so --input=a=%t/a.npy --compare=y=%t/y.fp16.npy --rtol=2e-3 --atol=1e-4 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation:reverse --emulate-matrix-cores=rocm:gfx1100 -o %t/gfx1100.so --no-cache
// RUN: tc-run %t/gfx1100.so --input=a=%t/a.npy --compare=y=%t/y.fp16.npy --rtol=2e-3 --atol=1e-4 | FileCheck %s
// CHECK: output 'y': OK: f32[16, 300, 700]
//
// The block's 256 threads hold 64 accumulators each; its shared memory is
// three sets of tiles (sm_90 copies asynchronously): A's (copied in vectors
// along K) 128 x 24, K along its columns, B's 16 x 136, K along its rows
// (31.5 KB in 16-bit types).
// TILE: workgroup(%{{[a-z0-9]+}} : memref<128x24xbf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<16x136xbf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<128x24xbf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<16x136xbf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<128x24xbf16, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<16x136xbf16, #gpu.address_space<workgroup>>)
// TILE: tc_gpu.async_copy
// TILE: tc_gpu.async_wait {pending = 1 : i64}
// TILE: tc_gpu.block_mma {{.*}}lhs_k_inner{{.*}}tile = array<i64: 128, 128, 16>{{.*}}vector<64xf32>
// TILE: tc_gpu.block_mma_for_each {{.*}}tile = array<i64: 128, 128, 16>{{.*}}vector<64xf32>
//
// Compiled for the GPUs: cp.async, ldmatrix (A's tile as stored, B's
// transposed) and mma.sync on NVIDIA without spills, MFMA and WMMA on AMD
// (two pairs of tiles there, staged through registers: a build copies
// asynchronously only where every one of its targets can).
// RUN: rm -rf %t/kernels
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=cuda:sm_80,cuda:sm_90 --emit=gpu-kernels -o %t/kernels | FileCheck %s --check-prefix=GPU
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=rocm:gfx942,rocm:gfx1100 --emit=gpu-kernels -o %t/kernels | FileCheck %s --check-prefix=GPU
// GPU-COUNT-2: ok, {{[0-9]+}} kernels
// RUN: FileCheck %s --check-prefix=PTX < %t/kernels/cuda-sm_90.ptx
// PTX: cp.async.cg.shared.global
// PTX: cp.async.commit_group
// PTX: cp.async.wait_group 1
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/kernels/cuda-sm_90.ptx -o %t/sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// RUN: llvm-objdump -d --mcpu=gfx942 %t/kernels/rocm-gfx942.hsaco | FileCheck %s --check-prefix=MFMA
// MFMA: v_mfma_f32_16x16x16_f16
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/kernels/rocm-gfx1100.hsaco | FileCheck %s --check-prefix=WMMA
// WMMA: v_wmma_f32_16x16x16_f16
