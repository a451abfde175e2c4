// Contractions on matrix cores (--precision=bf16/fp16): a MatMul with
// tails in M, N and K, 256 batched 64x64 products (the wide 64 x 64 tile),
// a Gemm with a bias, a strided padded convolution and a grouped dilated
// one, against numpy references that round as the policy does.
// DEFINE: %{inputs} = --input=x1=%t/x1.npy --input=a2=%t/a2.npy --input=x3=%t/x3.npy --input=img4=%t/img4.npy --input=img5=%t/img5.npy
// DEFINE: %{bf16} = --compare=y1=%t/y1.bf16.npy --compare=y2=%t/y2.bf16.npy --compare=y3=%t/y3.bf16.npy --compare=y4=%t/y4.bf16.npy --compare=y5=%t/y5.bf16.npy
// DEFINE: %{fp16} = --compare=y1=%t/y1.fp16.npy --compare=y2=%t/y2.fp16.npy --compare=y3=%t/y3.fp16.npy --compare=y4=%t/y4.fp16.npy --compare=y5=%t/y5.fp16.npy
// DEFINE: %{tf32} = --compare=y1=%t/y1.tf32.npy --compare=y2=%t/y2.tf32.npy --compare=y3=%t/y3.tf32.npy --compare=y4=%t/y4.tf32.npy --compare=y5=%t/y5.tf32.npy
// RUN: %pyonnx %s.py %t
//
// The CPU computes them too (the numerics reference). Its bf16 copy of a
// 9-pixel image row once aborted LLVM's x86 back end
// (--tc-cpu-move-bf16-as-integers).
// RUN: tc-compile %t/model.onnx --precision=bf16 -o %t/cpu-bf16.so --no-cache
// RUN: tc-run %t/cpu-bf16.so %{inputs} %{bf16} --rtol=1e-2 --atol=1e-3 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=fp16 -o %t/cpu-fp16.so --no-cache
// RUN: tc-run %t/cpu-fp16.so %{inputs} %{fp16} --rtol=2e-3 --atol=1e-4 | FileCheck %s
//
// --precision=tf32 rounds the factors to TF32 and keeps f32: the products
// are exact and only the order of the f32 sums differs from the reference,
// so the tolerance is 1e-5 (an f32 compile misses it by 2e-3).
// RUN: tc-compile %t/model.onnx --precision=tf32 -o %t/cpu-tf32.so --no-cache
// RUN: tc-run %t/cpu-tf32.so %{inputs} %{tf32} --rtol=1e-5 --atol=1e-5 | FileCheck %s
// The emulated GPU multiplies them with mma.sync m16n8k8's TF32 layouts
// (the default, cuda:sm_90), in reverse order, and with gfx942's XF32 MFMA
// 16x16x8 layouts.
// RUN: tc-compile %t/model.onnx --precision=tf32 --target=gpu-emulation:reverse -o %t/tf32.so --no-cache
// RUN: tc-run %t/tf32.so %{inputs} %{tf32} --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=tf32 --target=gpu-emulation --emulate-matrix-cores=rocm:gfx942 -o %t/tf32-gfx942.so --no-cache
// RUN: tc-run %t/tf32-gfx942.so %{inputs} %{tf32} --rtol=1e-5 --atol=1e-5 | FileCheck %s
//
// The GPU kernels in emulation, executing the lanes' fragment layouts of
// NVIDIA's mma.sync (the default), AMD's MFMA, and with no matrix cores;
// fp16 also in reverse order, a race check of the block's accumulator
// stores and the epilogue.
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=gpu-emulation -o %t/sm90.so --no-cache --dump-ir=%t/dump
// RUN: tc-run %t/sm90.so %{inputs} %{bf16} --rtol=1e-2 --atol=1e-3 | FileCheck %s
// RUN: cat %t/dump/passes/*/*/*tc-gpu-map-kernel-loops.mlir | FileCheck %s --check-prefix=KERNELS
// RUN: cat %t/dump/passes/*/*/*tc-gpu-map-kernel-loops.mlir | FileCheck %s --check-prefix=WIDE
// RUN: cat %t/dump/passes/*/*tc-gpu-emulate-kernels.mlir | FileCheck %s --check-prefix=EMULATED
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=gpu-emulation --emulate-matrix-cores=rocm:gfx942 -o %t/gfx942.so --no-cache
// RUN: tc-run %t/gfx942.so %{inputs} %{bf16} --rtol=1e-2 --atol=1e-3 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=gpu-emulation --emulate-matrix-cores=none -o %t/none.so --no-cache
// RUN: tc-run %t/none.so %{inputs} %{bf16} --rtol=1e-2 --atol=1e-3 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation:reverse -o %t/reverse.so --no-cache
// RUN: tc-run %t/reverse.so %{inputs} %{fp16} --rtol=2e-3 --atol=1e-4 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation --emulate-matrix-cores=rocm:gfx90a -o %t/gfx90a.so --no-cache
// RUN: tc-run %t/gfx90a.so %{inputs} %{fp16} --rtol=2e-3 --atol=1e-4 | FileCheck %s
// RDNA 3's WMMA, whose half-waves hold copies of A and B, in reverse order.
// Its lanes hold 8 accumulators, the 32 x 32 tile's threads 4: for this
// target --tc-gpu-configure-kernels gives the 64 x 64 tile to every
// contraction but the small 20 x 50 one, so that WMMA computes them.
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation:reverse --emulate-matrix-cores=rocm:gfx1100 -o %t/gfx1100.so --no-cache --dump-ir=%t/dump-gfx1100
// RUN: tc-run %t/gfx1100.so %{inputs} %{fp16} --rtol=2e-3 --atol=1e-4 | FileCheck %s
// RUN: cat %t/dump-gfx1100/passes/*/*/*tc-gpu-map-kernel-loops.mlir | FileCheck %s --check-prefix=RDNA-TILES
// RDNA-TILES-COUNT-5: tc_gpu.block_mma %{{.*}}tile = array<i64: {{64, 64|32, 32}}, 16>
// RDNA-TILES-NOT: tc_gpu.block_mma %
// RUN: grep -c "tc_gpu.block_mma %.*tile = array<i64: 64, 64, 16>" %t/dump-gfx1100/passes/*/*/*tc-gpu-map-kernel-loops.mlir | FileCheck %s --check-prefix=RDNA-WIDE
// RDNA-WIDE: 4
// CHECK-DAG: output 'y1': OK: f32[37, 90]
// CHECK-DAG: output 'y2': OK: f32[256, 64, 64]
// CHECK-DAG: output 'y3': OK: f32[20, 50]
// CHECK-DAG: output 'y4': OK: f32[1, 40, 8, 8]
// CHECK-DAG: output 'y5': OK: f32[1, 36, 9, 9]
//
// All five contractions are block matrix products; the batched one takes
// the 64 x 64 tile.
// KERNELS-COUNT-5: tc_gpu.block_mma %{{.*}}tile = array<i64: {{32, 32|64, 64}}, 16>
// KERNELS-NOT: tc_gpu.block_mma %
// WIDE: tc_gpu.block_mma %{{.*}}tile = array<i64: 64, 64, 16>{{.*}}vector<16xf32>
// EMULATED-NOT: tc_gpu.
//
// Compiled for the GPUs: mma.sync on NVIDIA, MFMA on AMD CDNA, in each type;
// WMMA on RDNA 3 where the tile gives a wave a whole 16 x 16 product (the
// 64 x 64 tile of 256 threads, which a build with RDNA 3 among its targets
// gives the contractions; the 32 x 32 one holds 4 results per thread, WMMA
// 8, so the small contraction stays scalar there).
// RUN: rm -rf %t/fp16 %t/bf16
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=cuda:sm_80,cuda:sm_90,rocm:gfx90a,rocm:gfx942,rocm:gfx1100 --emit=gpu-kernels -o %t/fp16 | FileCheck %s --check-prefix=GPU
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=cuda:sm_80,cuda:sm_90,rocm:gfx90a,rocm:gfx942,rocm:gfx1100 --emit=gpu-kernels -o %t/bf16 | FileCheck %s --check-prefix=GPU
// GPU-COUNT-5: ok, {{[0-9]+}} kernels
// RUN: FileCheck %s --check-prefix=PTX-F16 < %t/fp16/cuda-sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX-F16 < %t/fp16/cuda-sm_80.ptx
// RUN: FileCheck %s --check-prefix=PTX-BF16 < %t/bf16/cuda-sm_90.ptx
// Their 16-bit fragments come from shared memory by ldmatrix, transposed
// (TF32's f32 ones below by element loads).
// PTX-F16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-F16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-BF16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// RUN: llvm-objdump -d --mcpu=gfx942 %t/fp16/rocm-gfx942.hsaco | FileCheck %s --check-prefix=MFMA-F16
// RUN: llvm-objdump -d --mcpu=gfx90a %t/bf16/rocm-gfx90a.hsaco | FileCheck %s --check-prefix=MFMA-BF16-90A
// RUN: llvm-objdump -d --mcpu=gfx942 %t/bf16/rocm-gfx942.hsaco | FileCheck %s --check-prefix=MFMA-BF16-942
// MFMA-F16: v_mfma_f32_16x16x16_f16
// MFMA-BF16-90A: v_mfma_f32_16x16x16bf16_1k
// MFMA-BF16-942: v_mfma_f32_16x16x16_bf16
// TF32 on sm_80 and sm_90: mma.sync m16n8k8 on f32 registers.
// RUN: rm -rf %t/tf32
// RUN: tc-compile %t/model.onnx --precision=tf32 --target=cuda:sm_80,cuda:sm_90 --emit=gpu-kernels -o %t/tf32 | FileCheck %s --check-prefix=GPU-TF32
// GPU-TF32-COUNT-2: ok, {{[0-9]+}} kernels
// RUN: FileCheck %s --check-prefix=PTX-TF32 < %t/tf32/cuda-sm_80.ptx
// RUN: FileCheck %s --check-prefix=PTX-TF32 < %t/tf32/cuda-sm_90.ptx
// PTX-TF32-NOT: ldmatrix
// PTX-TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// TF32 on gfx942: MFMA on XF32; gfx90a has no such instruction (scalar
// f32 code).
// RUN: tc-compile %t/model.onnx --precision=tf32 --target=rocm:gfx90a,rocm:gfx942 --emit=gpu-kernels -o %t/tf32 | FileCheck %s --check-prefix=GPU-TF32
// RUN: llvm-objdump -d --mcpu=gfx942 %t/tf32/rocm-gfx942.hsaco | FileCheck %s --check-prefix=MFMA-XF32
// RUN: llvm-objdump -d --mcpu=gfx90a %t/tf32/rocm-gfx90a.hsaco | FileCheck %s --check-prefix=NO-MFMA
// MFMA-XF32: v_mfma_f32_16x16x8_xf32
// NO-MFMA-NOT: v_mfma
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/fp16/rocm-gfx1100.hsaco | FileCheck %s --check-prefix=WMMA-F16
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/bf16/rocm-gfx1100.hsaco | FileCheck %s --check-prefix=WMMA-BF16
// WMMA-F16: v_wmma_f32_16x16x16_f16
// WMMA-BF16: v_wmma_f32_16x16x16_bf16
