// The race check of gpu-emulation:reverse. This kernel shifts an array
// left in place without a barrier: thread t reads element t + 1, which
// thread t + 1 writes. On a GPU its result depends on which thread runs
// first. Emulated in the usual order, each read comes before the write it
// races with; in reverse order, after it. The two results differ, which
// is how a race in a generated kernel shows up without a GPU.
// REQUIRES: mlir-runner
// RUN: tc-opt %s --tc-gpu-emulate-kernels | mlir-opt --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s --check-prefix=FORWARD
// RUN: tc-opt %s --tc-gpu-emulate-kernels=reverse-order | mlir-opt --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s --check-prefix=REVERSE

// FORWARD: [1,  2,  3,  4,  5,  6,  7,  7]
// REVERSE: [7,  7,  7,  7,  7,  7,  7,  7]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shift(%x: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %n = arith.addi %t, %c1 : index
      %m = arith.minui %n, %c7 : index
      %v = memref.load %x[%m] : memref<8xf32>
      memref.store %v, %x[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %x = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@shift blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%x : memref<8xf32>)
    %u = memref.cast %x : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %x : memref<8xf32>
    return
  }
}
