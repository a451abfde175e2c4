// RUN: tc-opt %s --tc-cpu-dense-outputs --split-input-file | FileCheck %s

// A strided view of dynamic shape returned through a cast to the identity
// layout is copied into a dense buffer of its shape.
// CHECK-LABEL: func.func @main
// CHECK: %[[VIEW:.*]] = memref.subview
// CHECK: %[[CAST:.*]] = memref.cast %[[VIEW]]
// CHECK: %[[N:.*]] = memref.dim %[[CAST]], %c1
// CHECK: %[[DENSE:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<3x?xf32>
// CHECK: memref.copy %[[CAST]], %[[DENSE]]
// CHECK: return %[[DENSE]], %arg0
func.func @main(%arg0: memref<3x4xf32>, %n: index) -> (memref<3x?xf32>, memref<3x4xf32>) {
  %view = memref.subview %arg0[0, 0] [3, %n] [1, 1] : memref<3x4xf32> to memref<3x?xf32, strided<[4, 1]>>
  %cast = memref.cast %view : memref<3x?xf32, strided<[4, 1]>> to memref<3x?xf32>
  return %cast, %arg0 : memref<3x?xf32>, memref<3x4xf32>
}
