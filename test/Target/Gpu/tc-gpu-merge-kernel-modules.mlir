// RUN: tc-opt %s --tc-gpu-merge-kernel-modules | FileCheck %s

// Outlining's one module per kernel (each kernel named after its function)
// becomes one module `kernels`, each kernel named after its old module.
// CHECK: gpu.module @kernels
// CHECK:   gpu.func @main_kernel(
// CHECK:   gpu.func @main_kernel_0(
// CHECK-NOT: gpu.module
// CHECK: gpu.launch_func @kernels::@main_kernel blocks
// CHECK: gpu.launch_func @kernels::@main_kernel_0 blocks
module attributes {gpu.container_module} {
  gpu.module @main_kernel {
    gpu.func @main_kernel(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @main_kernel_0 {
    gpu.func @main_kernel(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @main_kernel_0::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}
