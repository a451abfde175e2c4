// RUN: tc-opt %s --tc-gpu-keep-host-arrays --split-input-file | FileCheck %s

// The deallocation's alias check: arrays of addresses and flags handed to
// a scalar helper are host memory (allocas at the entry, even when
// allocated in a loop, and no longer freed); the helper is marked as host
// code. The tensor buffer stays a device allocation.
// CHECK-LABEL: func.func @main
// CHECK-DAG: memref.alloca() : memref<2xi1>
// CHECK-DAG: memref.alloca() : memref<2xindex>
// CHECK: %[[DATA:.*]] = memref.alloc() : memref<4xf32>
// CHECK: scf.for
// CHECK-NOT: memref.alloc()
// CHECK: call @helper
// CHECK-NOT: memref.dealloc %{{.*}} : memref<2x
// CHECK: memref.dealloc %[[DATA]]
// CHECK: func.func private @helper(%{{.*}}: memref<?xindex>, %{{.*}}: memref<?xi1>) attributes {tc.host_function}
func.func @main(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %data = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %addresses = memref.alloc() : memref<2xindex>
    %flags = memref.alloc() : memref<2xi1>
    %p = memref.extract_aligned_pointer_as_index %data : memref<4xf32> -> index
    memref.store %p, %addresses[%c0] : memref<2xindex>
    %a = memref.cast %addresses : memref<2xindex> to memref<?xindex>
    %f = memref.cast %flags : memref<2xi1> to memref<?xi1>
    func.call @helper(%a, %f) : (memref<?xindex>, memref<?xi1>) -> ()
    %keep = memref.load %flags[%c0] : memref<2xi1>
    memref.dealloc %addresses : memref<2xindex>
    memref.dealloc %flags : memref<2xi1>
  }
  memref.dealloc %data : memref<4xf32>
  return
}
func.func private @helper(%a: memref<?xindex>, %f: memref<?xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %a[%c0] : memref<?xindex>
  %z = arith.cmpi eq, %v, %c0 : index
  memref.store %z, %f[%c1] : memref<?xi1>
  return
}

// -----

// A helper that is also given a tensor buffer (used by a linalg op) is not
// host bookkeeping: nothing changes.
// CHECK-LABEL: func.func @shared
// CHECK: memref.alloc() : memref<2xf32>
// CHECK-NOT: memref.alloca
// CHECK: func.func private @scale(
// CHECK-NOT: tc.host_function
func.func @shared(%x: memref<2xf32>) {
  %buffer = memref.alloc() : memref<2xf32>
  linalg.copy ins(%x : memref<2xf32>) outs(%buffer : memref<2xf32>)
  func.call @scale(%buffer) : (memref<2xf32>) -> ()
  memref.dealloc %buffer : memref<2xf32>
  return
}
func.func private @scale(%b: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0] : memref<2xf32>
  memref.store %v, %b[%c0] : memref<2xf32>
  return
}
