// 16-bit attentions with dynamic batch and sequence lengths (static heads)
// as one flash-style GPU kernel each: the kernel reads Lq, Lk and the batch
// at run time, guards every key step, and launches ceil(Lq / 32) x batch
// blocks. Two sets of extents: a whole block and key step with tails, and
// fewer queries and keys than one of each. numpy references round as the
// policy does (attention-dynamic.mlir.py).
// DEFINE: %{a} = --input=q=%t/q.a.npy --input=k=%t/k.a.npy --input=v=%t/v.a.npy --input=mask=%t/mask.a.npy --input=x=%t/x.a.npy
// DEFINE: %{b} = --input=q=%t/q.b.npy --input=k=%t/k.b.npy --input=v=%t/v.b.npy --input=mask=%t/mask.b.npy --input=x=%t/x.b.npy
// DEFINE: %{fp16a} = --compare=y1=%t/y1.a.fp16.npy --compare=y2=%t/y2.a.fp16.npy --rtol=2e-3 --atol=1e-3
// DEFINE: %{fp16b} = --compare=y1=%t/y1.b.fp16.npy --compare=y2=%t/y2.b.fp16.npy --rtol=2e-3 --atol=1e-3
// DEFINE: %{bf16a} = --compare=y1=%t/y1.a.bf16.npy --compare=y2=%t/y2.a.bf16.npy --rtol=1e-2 --atol=8e-3
// DEFINE: %{bf16b} = --compare=y1=%t/y1.b.bf16.npy --compare=y2=%t/y2.b.bf16.npy --rtol=1e-2 --atol=8e-3
// RUN: %pyonnx %s.py %t
//
// The CPU's general lowering (the numerics reference).
// RUN: tc-compile %t/model.onnx --precision=fp16 -o %t/cpu.so --no-cache
// RUN: tc-run %t/cpu.so %{a} %{fp16a} | FileCheck %s --check-prefix=A
// RUN: tc-run %t/cpu.so %{b} %{fp16b} | FileCheck %s --check-prefix=B
//
// The kernel in emulation: mma.sync's layouts (the default), in reverse
// order (a race check), MFMA and WMMA.
// RUN: rm -rf %t/dump
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation -o %t/sm90.so --no-cache --dump-ir=%t/dump
// RUN: tc-run %t/sm90.so %{a} %{fp16a} | FileCheck %s --check-prefix=A
// RUN: tc-run %t/sm90.so %{b} %{fp16b} | FileCheck %s --check-prefix=B
// RUN: cat %t/dump/passes/*/*/*tc-gpu-map-kernel-loops.mlir | FileCheck %s --check-prefix=KERNELS
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=gpu-emulation:reverse -o %t/reverse.so --no-cache
// RUN: tc-run %t/reverse.so %{a} %{bf16a} | FileCheck %s --check-prefix=A
// RUN: tc-run %t/reverse.so %{b} %{bf16b} | FileCheck %s --check-prefix=B
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=gpu-emulation:reverse --emulate-matrix-cores=rocm:gfx942 -o %t/gfx942.so --no-cache
// RUN: tc-run %t/gfx942.so %{a} %{fp16a} | FileCheck %s --check-prefix=A
// RUN: tc-run %t/gfx942.so %{b} %{fp16b} | FileCheck %s --check-prefix=B
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=gpu-emulation --emulate-matrix-cores=rocm:gfx1100 -o %t/gfx1100.so --no-cache
// RUN: tc-run %t/gfx1100.so %{a} %{bf16a} | FileCheck %s --check-prefix=A
// RUN: tc-run %t/gfx1100.so %{b} %{bf16b} | FileCheck %s --check-prefix=B
// A-DAG: output 'y1': OK: f32[2, 2, 70, 64]
// A-DAG: output 'y2': OK: f32[2, 37, 32]
// B-DAG: output 'y1': OK: f32[1, 2, 5, 64]
// B-DAG: output 'y2': OK: f32[1, 9, 32]
//
// Both attentions are one kernel each, its grid from the run's extents;
// their heads (64, 32) are read in vectors, so (sm_90 copying
// asynchronously) each step copies the next step's K and V while it
// computes.
// KERNELS-COUNT-2: tc_gpu.async_wait {pending = 1 : i64}
// KERNELS-NOT: tc_gpu.attention
// RUN: cat %t/dump/passes/*/*/*tc-gpu-map-kernel-loops.mlir | FileCheck %s --check-prefix=STORES
// STORES-COUNT-2: tc_gpu.block_mma_store {{.*}}tile = array<i64: 32, {{32|64}}, 32>
//
// Compiled for the GPUs: no spills on NVIDIA, nothing on stderr.
// RUN: rm -rf %t/kernels
// RUN: tc-compile %t/model.onnx --precision=fp16 --target=cuda:sm_90,rocm:gfx942 --emit=gpu-kernels -o %t/kernels 2>&1 | FileCheck %s --check-prefix=GPU
// GPU-NOT: error
// GPU-COUNT-2: ok, {{[0-9]+}} kernels
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/kernels/cuda-sm_90.ptx -o %t/sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
