// RUN: tc-opt %s --tc-cpu-outline-workgroups | FileCheck %s

// Two kernels that differ only in their weights (globals of more than 256
// bytes, passed as captures) are one workgroup function dispatched twice; a
// small global (a 4-element table) is re-materialized inside instead, so a
// kernel reading another small table is a function of its own.
// CHECK-LABEL: func.func private @main_wg0(
// CHECK-SAME: memref<128xf32>, %{{.*}}: memref<128xf32>, %{{.*}}: memref<128xf32>, %{{.*}}: index)
// CHECK: memref.get_global @small_a
// CHECK-NOT: memref.get_global @weights
// CHECK-NOT: func.func private @main_wg1(
// CHECK: func.func private @main_wg2(
// CHECK: memref.get_global @small_b
// CHECK: func.func @main(%[[ENV:.*]]: !llvm.ptr,
// CHECK-DAG: %[[A:.*]] = memref.get_global @weights_a
// CHECK-DAG: %[[B:.*]] = memref.get_global @weights_b
// CHECK: tc_cpu.dispatch @main_wg0[%{{.*}} : index] %[[ENV]] captures(%{{.*}}, %[[A]], %{{.*}} : {{.*}}) {kernel = "k0"
// CHECK: tc_cpu.dispatch @main_wg0[%{{.*}} : index] %[[ENV]] captures(%{{.*}}, %[[B]], %{{.*}} : {{.*}}) {kernel = "k1"
// CHECK: tc_cpu.dispatch @main_wg2[{{.*}} {kernel = "k2"
memref.global "private" constant @weights_a : memref<128xf32> = dense<1.0>
memref.global "private" constant @weights_b : memref<128xf32> = dense<2.0>
memref.global "private" constant @small_a : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global "private" constant @small_b : memref<4xf32> = dense<[5.0, 6.0, 7.0, 8.0]>
func.func @main(%in: memref<128xf32>) -> (memref<128xf32>, memref<128xf32>, memref<128xf32>) {
  %a = memref.get_global @weights_a : memref<128xf32>
  %b = memref.get_global @weights_b : memref<128xf32>
  %sa = memref.get_global @small_a : memref<4xf32>
  %sb = memref.get_global @small_b : memref<4xf32>
  %out0 = memref.alloc() : memref<128xf32>
  %out1 = memref.alloc() : memref<128xf32>
  %out2 = memref.alloc() : memref<128xf32>
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (128) {
    %x = memref.load %in[%i] : memref<128xf32>
    %w = memref.load %a[%i] : memref<128xf32>
    %t = memref.load %sa[%c0] : memref<4xf32>
    %y = arith.addf %x, %w : f32
    %z = arith.mulf %y, %t : f32
    memref.store %z, %out0[%i] : memref<128xf32>
  }
  scf.forall (%i) in (128) {
    %x = memref.load %in[%i] : memref<128xf32>
    %w = memref.load %b[%i] : memref<128xf32>
    %t = memref.load %sa[%c0] : memref<4xf32>
    %y = arith.addf %x, %w : f32
    %z = arith.mulf %y, %t : f32
    memref.store %z, %out1[%i] : memref<128xf32>
  }
  scf.forall (%i) in (128) {
    %x = memref.load %in[%i] : memref<128xf32>
    %w = memref.load %b[%i] : memref<128xf32>
    %t = memref.load %sb[%c0] : memref<4xf32>
    %y = arith.addf %x, %w : f32
    %z = arith.mulf %y, %t : f32
    memref.store %z, %out2[%i] : memref<128xf32>
  }
  return %out0, %out1, %out2 : memref<128xf32>, memref<128xf32>, memref<128xf32>
}
