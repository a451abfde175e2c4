// RUN: tc-opt %s --pass-pipeline='builtin.module(gpu.module(tc-gpu-contract-float-ops))' | FileCheck %s
// A Gemm's kernels, with and without --gpu-fp-contract: fused multiply-adds
// in the PTX, or the separately rounded multiplies and adds NVPTX emits
// without the flag (`.rn`: ptxas may not fuse them either).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pyonnx %models dense_relu %t/dense.onnx
// RUN: tc-compile %t/dense.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/fused
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/cuda-sm_90.ptx
// RUN: tc-compile %t/dense.onnx --target=cuda:sm_90 --gpu-fp-contract=false --emit=gpu-kernels -o %t/separate
// RUN: FileCheck %s --check-prefix=SEPARATE < %t/separate/cuda-sm_90.ptx

// Every float arith op may contract; flags it had stay.
// CHECK-LABEL: gpu.func @k
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32

// FUSED-NOT: mul.rn.f32
// FUSED: fma.rn.f32
// FUSED-NOT: mul.rn.f32
// SEPARATE-NOT: fma.rn.f32
// SEPARATE: mul.rn.f32
// SEPARATE-NOT: fma.rn.f32
gpu.module @kernels {
  gpu.func @k(%a: f32, %b: f32, %c: f32, %i: i32) -> f32 {
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %c fastmath<nnan> : f32
    %d = arith.subf %s, %a : f32
    %j = arith.addi %i, %i : i32
    gpu.return %d : f32
  }
}
