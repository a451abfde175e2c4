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

// A padded input copied per workgroup (a bufferized tensor.pad): the fill of
// the new buffer with the padding value writes only the border the copy of
// the interior leaves, one disjoint slab per padded side: rows 0 and 113 of
// every plane, then columns 0 and 113 of rows 1..112 (dim 0 has no padding).
// CHECK-LABEL: func.func @padded
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2x114x114xf32>
// CHECK: %[[IN:.*]] = memref.subview %[[BUF]][0, 1, 1] [2, 112, 112] [1, 1, 1]
// CHECK: %[[TOP:.*]] = memref.subview %[[BUF]][0, 0, 0] [2, 1, 114] [1, 1, 1]
// CHECK: linalg.map outs(%[[TOP]]
// CHECK: %[[BOTTOM:.*]] = memref.subview %[[BUF]][0, 113, 0] [2, 1, 114] [1, 1, 1]
// CHECK: linalg.map outs(%[[BOTTOM]]
// CHECK: %[[LEFT:.*]] = memref.subview %[[BUF]][0, 1, 0] [2, 112, 1] [1, 1, 1]
// CHECK: linalg.map outs(%[[LEFT]]
// CHECK: %[[RIGHT:.*]] = memref.subview %[[BUF]][0, 1, 113] [2, 112, 1] [1, 1, 1]
// CHECK: linalg.map outs(%[[RIGHT]]
// CHECK-NOT: linalg.map
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<2x112x112xf32>) outs(%[[IN]]
func.func @padded(%x: memref<2x112x112xf32>) -> memref<2x114x114xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %buf = memref.alloc() : memref<2x114x114xf32>
  linalg.map outs(%buf : memref<2x114x114xf32>)
    (%init: f32) {
      linalg.yield %cst : f32
    }
  %in = memref.subview %buf[0, 1, 1] [2, 112, 112] [1, 1, 1] : memref<2x114x114xf32> to memref<2x112x112xf32, strided<[12996, 114, 1], offset: 115>>
  memref.copy %x, %in : memref<2x112x112xf32> to memref<2x112x112xf32, strided<[12996, 114, 1], offset: 115>>
  return %buf : memref<2x114x114xf32>
}

// A channels-last workgroup's rows: the interior's row offset and count
// are dynamic (at the image's top and bottom the rows start inside the
// padding). The border is still filled alone: rows before and after the
// interior (their extents computed), then its columns 0 and 9.
// CHECK-LABEL: func.func @dynamic_interior
// CHECK-SAME: (%{{.*}}: memref<?x8x4xf32>, %[[OFF:.*]]: index, %[[ROWS:.*]]: index)
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<10x10x4xf32>
// CHECK: %[[TOP:.*]] = memref.subview %[[BUF]][0, 0, 0] [%[[OFF]], 10, 4] [1, 1, 1]
// CHECK: linalg.map outs(%[[TOP]]
// CHECK: %[[END:.*]] = arith.addi %[[OFF]], %[[ROWS]]
// CHECK: %[[AFTER:.*]] = arith.subi %{{.*}}, %[[END]]
// CHECK: %[[BOTTOM:.*]] = memref.subview %[[BUF]][%[[END]], 0, 0] [%[[AFTER]], 10, 4] [1, 1, 1]
// CHECK: linalg.map outs(%[[BOTTOM]]
// CHECK: memref.subview %[[BUF]][%[[OFF]], 0, 0] [%[[ROWS]], 1, 4] [1, 1, 1]
// CHECK: linalg.map
// CHECK: memref.subview %[[BUF]][%[[OFF]], 9, 0] [%[[ROWS]], 1, 4] [1, 1, 1]
// CHECK: linalg.map
// CHECK-NOT: linalg.map
func.func @dynamic_interior(%x: memref<?x8x4xf32>, %off: index, %rows: index) -> memref<10x10x4xf32> {
  %cst = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<10x10x4xf32>
  linalg.map outs(%buf : memref<10x10x4xf32>)
    (%init: f32) {
      linalg.yield %cst : f32
    }
  %in = memref.subview %buf[%off, 1, 0] [%rows, 8, 4] [1, 1, 1] : memref<10x10x4xf32> to memref<?x8x4xf32, strided<[40, 4, 1], offset: ?>>
  memref.copy %x, %in : memref<?x8x4xf32> to memref<?x8x4xf32, strided<[40, 4, 1], offset: ?>>
  return %buf : memref<10x10x4xf32>
}

// A fill that something reads before the copy stays whole.
// CHECK-LABEL: func.func @read_between
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4x6xf32>)
func.func @read_between(%x: memref<4x4xf32>, %y: memref<4x6xf32>) -> memref<4x6xf32> {
  %cst = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%cst : f32) outs(%buf : memref<4x6xf32>)
  memref.copy %buf, %y : memref<4x6xf32> to memref<4x6xf32>
  %in = memref.subview %buf[0, 1] [4, 4] [1, 1] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 1>>
  memref.copy %x, %in : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 1>>
  return %buf : memref<4x6xf32>
}

// A copy that reads the filled buffer itself keeps the whole fill.
// CHECK-LABEL: func.func @reads_itself
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4x6xf32>)
func.func @reads_itself() -> memref<4x6xf32> {
  %cst = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%cst : f32) outs(%buf : memref<4x6xf32>)
  %src = memref.subview %buf[0, 0] [4, 4] [1, 1] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1]>>
  %in = memref.subview %buf[0, 1] [4, 4] [1, 1] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 1>>
  memref.copy %src, %in : memref<4x4xf32, strided<[6, 1]>> to memref<4x4xf32, strided<[6, 1], offset: 1>>
  return %buf : memref<4x6xf32>
}
