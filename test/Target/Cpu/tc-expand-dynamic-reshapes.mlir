// RUN: tc-opt %s -tc-expand-dynamic-reshapes -split-input-file | FileCheck %s
// RUN: tc-opt %s -tc-expand-dynamic-reshapes -expand-strided-metadata -split-input-file | FileCheck %s --check-prefix=EXPANDED

// Three dynamic sizes in one group (a reshape to a shape computed at run
// time): a reinterpret_cast with the running product as strides. Upstream
// --expand-strided-metadata alone crashes on this expand_shape.
// CHECK-LABEL: func @one_group
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %arg0
// CHECK: %[[S0:.*]] = arith.muli %arg3, %arg2 : index
// CHECK-NOT: arith.muli
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%arg1, %arg2, %arg3], strides: [%[[S0]], %arg3, 1] : memref<f32> to memref<?x?x?xf32>
// CHECK-NOT: memref.expand_shape
// EXPANDED-LABEL: func @one_group
// EXPANDED: memref.reinterpret_cast
func.func @one_group(%m: memref<?xf32>, %a: index, %b: index, %c: index) -> memref<?x?x?xf32> {
  %e = memref.expand_shape %m [[0, 1, 2]] output_shape [%a, %b, %c] : memref<?xf32> into memref<?x?x?xf32>
  return %e : memref<?x?x?xf32>
}

// -----

// A strided source (a column slice): the innermost expanded dim steps like
// the source's, static sizes stay static.
// CHECK-LABEL: func @strided_source
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[S0:.*]] = arith.muli %[[ST]]#0, %arg2 : index
// CHECK-NOT: arith.muli
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%arg1, %arg2, 4], strides: [%[[S0]], %[[ST]]#0, 1]
func.func @strided_source(%m: memref<?x4xf32, strided<[?, 1], offset: ?>>, %a: index, %b: index) -> memref<?x?x4xf32, strided<[?, ?, 1], offset: ?>> {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, %b, 4] : memref<?x4xf32, strided<[?, 1], offset: ?>> into memref<?x?x4xf32, strided<[?, ?, 1], offset: ?>>
  return %e : memref<?x?x4xf32, strided<[?, ?, 1], offset: ?>>
}

// -----

// One dynamic size per group is upstream's case: left alone.
// CHECK-LABEL: func @one_dynamic
// CHECK: memref.expand_shape
func.func @one_dynamic(%m: memref<?xf32>, %a: index) -> memref<?x8xf32> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [%a, 8] : memref<?xf32> into memref<?x8xf32>
  return %e : memref<?x8xf32>
}
