// RUN: tc-opt %s --tc-gpu-transfer-host-values --split-input-file | FileCheck %s

// A shape read from a device buffer: the element is downloaded into a host
// cell allocated at the function's entry (not in the loop), and the load
// reads the cell. The store of a device element goes through a cell and an
// upload. A host cell's own accesses stay as they are.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[SHAPE:.*]]: memref<2x3xi64>, %[[OUT:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK-DAG: %[[UP:.*]] = memref.alloca() : memref<f32>
// CHECK-DAG: %[[DOWN:.*]] = memref.alloca() : memref<i64>
// CHECK: scf.for %[[I:[a-z0-9_]+]] =
// CHECK:   %[[ELEMENT:.*]] = memref.subview %[[SHAPE]][%{{.*}}, %[[I]]] [1, 1] [1, 1] : memref<2x3xi64> to memref<i64, strided<[], offset: ?>>
// CHECK:   %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK:   tc_gpu.download %[[ELEMENT]] to %[[DOWN]], %[[EIGHT]] : memref<i64, strided<[], offset: ?>>, memref<i64>
// CHECK:   %[[V:.*]] = memref.load %[[DOWN]][] : memref<i64>
// CHECK:   arith.addi %{{.*}}, %[[V]]
// CHECK: %[[SLOT:.*]] = memref.subview %[[OUT]][%[[N]]] [1] [1] : memref<?xf32> to memref<f32, strided<[], offset: ?>>
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: memref.store %{{.*}}, %[[UP]][] : memref<f32>
// CHECK: tc_gpu.upload %[[UP]] to %[[SLOT]], %[[FOUR]] : memref<f32>, memref<f32, strided<[], offset: ?>>
// CHECK: %[[KEEP:.*]] = memref.alloca() : memref<index>
// CHECK: memref.store %[[N]], %[[KEEP]][]
// CHECK: memref.load %[[KEEP]][]
// CHECK-NOT: func.func private
func.func @main(%shape: memref<2x3xi64>, %out: memref<?xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c0_i64 = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %c0_i64) -> i64 {
    %v = memref.load %shape[%c1, %i] : memref<2x3xi64>
    %next = arith.addi %acc, %v : i64
    scf.yield %next : i64
  }
  %f = arith.sitofp %sum : i64 to f32
  memref.store %f, %out[%n] : memref<?xf32>
  %keep = memref.alloca() : memref<index>
  memref.store %n, %keep[] : memref<index>
  %r = memref.load %keep[] : memref<index>
  return %r : index
}

// -----

// A 0-d buffer needs no view; an index element is 8 bytes; booleans take
// a byte. Kernels (in the gpu.module) are not touched.
// CHECK-LABEL: func.func @flags
// CHECK: %[[VIEW:.*]] = memref.cast %{{.*}} : memref<i1> to memref<i1, strided<[], offset: ?>>
// CHECK: tc_gpu.download %[[VIEW]] to %{{.*}}, %{{.*}} : memref<i1, strided<[], offset: ?>>, memref<i1>
// CHECK: arith.constant 8 : index
// CHECK: tc_gpu.download %{{.*}} : memref<index, strided<[], offset: ?>>, memref<index>
// CHECK: gpu.func @k
// CHECK-NEXT: memref.load %{{.*}}[] : memref<i1>
module attributes {gpu.container_module} {
  func.func @flags(%c: memref<i1>, %shape: memref<4xindex>) -> index {
    %b = memref.load %c[] : memref<i1>
    %c2 = arith.constant 2 : index
    %s = memref.load %shape[%c2] : memref<4xindex>
    %r = arith.select %b, %s, %c2 : index
    return %r : index
  }
  gpu.module @kernels {
    gpu.func @k(%c: memref<i1>) kernel {
      %b = memref.load %c[] : memref<i1>
      gpu.return
    }
  }
}
