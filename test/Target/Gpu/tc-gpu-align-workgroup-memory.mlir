// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-align-workgroup-memory))' | FileCheck %s
// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-align-workgroup-memory,convert-gpu-to-nvvm))' | FileCheck %s --check-prefix=GLOBAL
// A Gemm's contraction kernels: the shared tiles aligned, and a thread's
// four rows of A's tile read in one vector per step of K in the 64 x 64
// tile (the rows are adjacent and start at multiples of 16 bytes).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pyonnx %models dense_relu %t/dense.onnx
// RUN: tc-compile %t/dense.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/k
// RUN: FileCheck %s --check-prefix=PTX < %t/k/cuda-sm_90.ptx
// PTX: .shared .align 16
// PTX: ld.shared.v4.b32
// PTX-COUNT-16: fma.rn.f32

// Every shared buffer is 16-byte aligned; a larger alignment stays.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: workgroup(%{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<8xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<4xf64, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
// The lowering puts it on the globals.
// GLOBAL: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64}
// GLOBAL: llvm.mlir.global internal @__wg_k_1() {addr_space = 3 : i32, alignment = 16 : i64}
// GLOBAL: llvm.mlir.global internal @__wg_k_2() {addr_space = 3 : i32, alignment = 32 : i64}
gpu.module @kernels {
  gpu.func @k() workgroup(%a: memref<16x36xf32, #gpu.address_space<workgroup>>, %b: memref<8xi8, #gpu.address_space<workgroup>>, %c: memref<4xf64, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}) kernel {
    gpu.return
  }
}
