// Values a thread keeps across barriers, registers on a GPU: a loop
// around barriers carries each thread's running sum, and the element it
// loaded before the loop is used after it. The emulation keeps both in a
// slot per thread (--tc-gpu-emulate-kernels), so either order of the
// threads gives the GPU's result. x = 0, 1, ..., 7; each of the three
// steps adds the right neighbour's sum (the last thread its own), then
// the loaded element is added once more.
// REQUIRES: mlir-runner
// RUN: tc-opt %s --tc-gpu-emulate-kernels | mlir-opt --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s
// RUN: tc-opt %s --tc-gpu-emulate-kernels=reverse-order | mlir-opt --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// CHECK: [12,  21,  30,  39,  48,  56,  61,  63]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @neighbour_sums(%x: memref<8xf32>) workgroup(%s: memref<8xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c7 = arith.constant 7 : index
      %v = memref.load %x[%t] : memref<8xf32>
      %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %v) -> (f32) {
        memref.store %acc, %s[%t] : memref<8xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %n = arith.addi %t, %c1 : index
        %m = arith.minui %n, %c7 : index
        %w = memref.load %s[%m] : memref<8xf32, #gpu.address_space<workgroup>>
        %next = arith.addf %acc, %w : f32
        gpu.barrier
        scf.yield %next : f32
      }
      %total = arith.addf %sum, %v : f32
      memref.store %total, %x[%t] : memref<8xf32>
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
    gpu.launch_func @kernels::@neighbour_sums blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%x : memref<8xf32>)
    %u = memref.cast %x : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %x : memref<8xf32>
    return
  }
}
