// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-hoist-checks))" | FileCheck %s

// The check that the residual's batch matches the convolution's (its
// extent computed from the output's allocation) moves above the
// convolution, so that the add follows the convolution directly; it stays
// below the earlier check, which must still be the first to report.
// CHECK-LABEL: func.func @residual
// CHECK: cf.assert %{{.*}}, "first"
// CHECK: %[[OUT:.*]] = memref.alloc
// CHECK: %[[DIM:.*]] = memref.dim %[[OUT]], %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[DIM]]
// CHECK: cf.assert %[[SAME]], "batch"
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0
// CHECK-NEXT: ^bb0
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[OUT]], %arg1
#id = affine_map<(n, c) -> (n, c)>
func.func @residual(%x: memref<?x8xf32>, %r: memref<?x8xf32>, %y: memref<?x8xf32>, %ok: i1) {
  %c0 = arith.constant 0 : index
  cf.assert %ok, "first"
  %n = memref.dim %x, %c0 : memref<?x8xf32>
  %out = memref.alloc(%n) : memref<?x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<?x8xf32>) outs(%out : memref<?x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.mulf %a, %a : f32
    linalg.yield %0 : f32
  }
  %m = memref.dim %out, %c0 : memref<?x8xf32>
  %k = memref.dim %r, %c0 : memref<?x8xf32>
  %same = arith.cmpi eq, %m, %k : index
  cf.assert %same, "batch"
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%out, %r : memref<?x8xf32>, memref<?x8xf32>) outs(%y : memref<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %out : memref<?x8xf32>
  return
}
