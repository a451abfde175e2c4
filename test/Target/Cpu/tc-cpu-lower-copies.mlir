// RUN: tc-opt %s --tc-cpu-lower-copies | FileCheck %s

// CHECK-LABEL: func.func @copies
// A contiguous copy stays (it becomes memcpy) ...
// CHECK: memref.copy %arg0, %arg1 : memref<4x8xf32> to memref<4x8xf32>
// ... a strided one becomes a copy generic (a loop nest that
// --tc-cpu-vectorize-elementwise vectorizes).
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<4x4xf32, strided<[8, 1], offset: 2>>) outs(%{{.*}} : memref<4x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @copies(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %c: memref<4x4xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  %s = memref.subview %a[0, 2] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
  memref.copy %s, %c : memref<4x4xf32, strided<[8, 1], offset: 2>> to memref<4x4xf32>
  return
}
