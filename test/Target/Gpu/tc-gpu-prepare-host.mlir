// RUN: tc-opt %s --split-input-file --tc-gpu-prepare-host --verify-diagnostics | FileCheck %s

// @main takes the runtime's environment first; each launch becomes a
// tc_gpu.launch of its kernel's index in the table (the kernel module's
// order), each constant a tc_gpu.device_constant (one index per global,
// its bytes); the kernel module is gone.
// CHECK: module attributes {tc.gpu_kernels = ["first", "second"]}
// CHECK-NOT: gpu.module
// CHECK: func.func @main(%[[ENV:.*]]: !llvm.ptr, %[[X:.*]]: memref<16xf32>)
// CHECK: %[[G:.*]] = memref.get_global @w : memref<16xf32>
// CHECK: %[[BYTES:.*]] = arith.constant 64 : index
// CHECK: %[[W:.*]] = tc_gpu.device_constant 0 %[[ENV]], %[[BYTES]], %[[G]] : memref<16xf32>
// CHECK: tc_gpu.launch 1 %[[ENV]] grid(%{{.*}}, %{{.*}}, %{{.*}}) block(%{{.*}}, %{{.*}}, %{{.*}}) args(%[[X]], %[[W]] : memref<16xf32>, memref<16xf32>)
// CHECK: tc_gpu.launch 0 %[[ENV]] grid
// CHECK-SAME: args(%[[X]] : memref<16xf32>)
module attributes {gpu.container_module} {
  memref.global "private" constant @w : memref<16xf32> = dense<1.0>
  gpu.module @kernels {
    gpu.func @first(%x: memref<16xf32>) kernel {
      gpu.return
    }
    gpu.func @second(%x: memref<16xf32>, %w: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %w = memref.get_global @w : memref<16xf32>
    gpu.launch_func @kernels::@second blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<16xf32>, %w : memref<16xf32>)
    gpu.launch_func @kernels::@first blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<16xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() {
    call @helper() : () -> ()
    return
  }
  func.func @helper() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{kernel launches outside @main are not supported}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
