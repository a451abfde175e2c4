// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-cpu-plan-memory))" --split-input-file | FileCheck %s
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-cpu-plan-memory),cse)" --split-input-file | FileCheck %s --check-prefix=CSE

// %a dies when %c is born, so %c reuses its bytes; %b overlaps both and
// sits after the larger of them. The returned buffer stays an allocation.
// Each buffer's view is numbered, so that CSE keeps the views of %a and %c
// apart: a view stands where its buffer's live range starts.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: tc.arena_bytes = 8192
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8192xi8>
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][] {tc.arena_buffer = {{[0-9]+}} : i64} : memref<8192xi8> to memref<1024xf32>
// CHECK: memref.view %[[ARENA]][%c4096{{.*}}][] {tc.arena_buffer = {{[0-9]+}} : i64} : memref<8192xi8> to memref<1024xf32>
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][] {tc.arena_buffer = {{[0-9]+}} : i64} : memref<8192xi8> to memref<1024xf32>
// CSE-LABEL: func.func @chain
// CSE: %[[A:.*]] = memref.view %{{.*}}[%c0{{.*}}][]
// CSE: linalg.copy ins(%{{.*}} : memref<1024xf32>) outs(%[[A]] : memref<1024xf32>)
// CSE: %[[B:.*]] = memref.view
// CSE: linalg.copy ins(%[[A]] : memref<1024xf32>) outs(%[[B]] : memref<1024xf32>)
// CSE: %[[C:.*]] = memref.view %{{.*}}[%c0{{.*}}][]
// CSE: linalg.copy ins(%[[B]] : memref<1024xf32>) outs(%[[C]] : memref<1024xf32>)
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1024xf32>
// CHECK: return %[[OUT]]
func.func @chain(%x: memref<1024xf32>) -> memref<1024xf32> {
  %a = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%x : memref<1024xf32>) outs(%a : memref<1024xf32>)
  %b = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%a : memref<1024xf32>) outs(%b : memref<1024xf32>)
  %c = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%b : memref<1024xf32>) outs(%c : memref<1024xf32>)
  %out = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%c : memref<1024xf32>) outs(%out : memref<1024xf32>)
  return %out : memref<1024xf32>
}

// -----

// A view's uses extend its buffer's life.
// CHECK-LABEL: func.func @through_views
// CHECK-SAME: tc.arena_bytes = 8192
func.func @through_views(%x: memref<2x512xf32>, %y: memref<1024xf32>) {
  %a = memref.alloc() : memref<2x512xf32>
  linalg.copy ins(%x : memref<2x512xf32>) outs(%a : memref<2x512xf32>)
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x512xf32> into memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%flat : memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.copy ins(%b : memref<1024xf32>) outs(%flat : memref<1024xf32>)
  linalg.copy ins(%flat : memref<1024xf32>) outs(%y : memref<1024xf32>)
  return
}
