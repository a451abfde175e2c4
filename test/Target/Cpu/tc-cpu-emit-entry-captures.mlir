// RUN: tc-opt %s --tc-cpu-emit-entry | FileCheck %s

// A workgroup function rebuilds its memref descriptors from its arguments
// and reads a few fields. The fields it reads through the insertvalue
// chains fold to the arguments, the chains go, and only the arguments
// still used are captures: the run function stores those and the
// trampoline passes poison for the others.

// CHECK-LABEL: llvm.func internal @main_wg0(
// CHECK-NOT: llvm.insertvalue
// CHECK-NOT: llvm.extractvalue
// CHECK: llvm.load %arg1
// CHECK: llvm.store %{{.*}}, %arg6
// CHECK: llvm.return

// The sizes of @main_wg1's descriptor are read as an array: that argument
// and the ones it holds stay captured.
// CHECK-LABEL: llvm.func internal @main_wg1(
// CHECK: llvm.insertvalue
// CHECK: llvm.extractvalue %{{.*}}[3] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>

// CHECK-LABEL: llvm.func internal @main(
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(ptr)>
// CHECK: %[[ARGS1:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, i64, i64)>
// CHECK: %[[ARGS0:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr)>
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[ARGS0]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr)>
// CHECK: llvm.store %arg1, %[[F0]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[ARGS0]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr)>
// CHECK: llvm.store %arg2, %[[F1]]
// CHECK-NOT: llvm.store
// CHECK: llvm.mlir.addressof @k0_trampoline
// CHECK: llvm.getelementptr %[[ARGS1]][0, 4] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64, i64, i64)>
// CHECK: llvm.mlir.addressof @k1_trampoline

// CHECK-LABEL: llvm.func internal @k0_trampoline(
// CHECK: %[[G0:.*]] = llvm.getelementptr %arg0[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr)>
// CHECK: %[[L0:.*]] = llvm.load %[[G0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[G1:.*]] = llvm.getelementptr %arg0[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr)>
// CHECK: %[[L1:.*]] = llvm.load %[[G1]] : !llvm.ptr -> !llvm.ptr
// CHECK-DAG: %[[PTR:.*]] = llvm.mlir.poison : !llvm.ptr
// CHECK-DAG: %[[I64:.*]] = llvm.mlir.poison : i64
// CHECK: llvm.call @main_wg0(%[[PTR]], %[[L0]], %[[I64]], %[[I64]], %[[I64]], %[[PTR]], %[[L1]], %[[I64]], %[[I64]], %[[I64]], %{{.*}})
// CHECK-LABEL: llvm.func internal @k1_trampoline(
// CHECK-NOT: llvm.mlir.poison
// CHECK: llvm.call @main_wg1(
// An unused noundef argument stays a capture: poison would be undefined.
// CHECK-LABEL: llvm.func internal @k2_trampoline(
// CHECK: %[[P:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[Q:.*]] = llvm.mlir.poison : !llvm.ptr
// CHECK: llvm.call @main_wg2(%[[P]], %[[Q]], %{{.*}})

module attributes {tc.signature = #tc.signature<name = "m", inputs = [#tc.slot<"x" : tensor<4xf32>>],
    outputs = [#tc.slot<"y" : tensor<4xf32>>], targets = ["cpu"]>} {
  // Reads x[i] and writes y[i]: only the aligned pointers are used.
  llvm.func @main_wg0(%xa: !llvm.ptr, %xp: !llvm.ptr, %xo: i64, %xs: i64, %xt: i64,
                      %ya: !llvm.ptr, %yp: !llvm.ptr, %yo: i64, %ys: i64, %yt: i64,
                      %i: i64) {
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %1 = llvm.insertvalue %xa, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %2 = llvm.insertvalue %xp, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %3 = llvm.insertvalue %xo, %2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %4 = llvm.insertvalue %xs, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %5 = llvm.insertvalue %xt, %4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %6 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %7 = llvm.insertvalue %ya, %6[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %8 = llvm.insertvalue %yp, %7[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %9 = llvm.insertvalue %yo, %8[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %10 = llvm.insertvalue %ys, %9[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %11 = llvm.insertvalue %yt, %10[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %x = llvm.extractvalue %5[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %y = llvm.extractvalue %11[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %v = llvm.load %x : !llvm.ptr -> f32
    llvm.store %v, %y : f32, !llvm.ptr
    llvm.return
  }
  // Reads the aligned pointer and the sizes array of one descriptor.
  llvm.func @main_wg1(%xa: !llvm.ptr, %xp: !llvm.ptr, %xo: i64, %xs: i64, %xt: i64,
                      %i: i64) {
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %1 = llvm.insertvalue %xa, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %2 = llvm.insertvalue %xp, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %3 = llvm.insertvalue %xo, %2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %4 = llvm.insertvalue %xs, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %5 = llvm.insertvalue %xt, %4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %x = llvm.extractvalue %5[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %sizes = llvm.extractvalue %5[3] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %n = llvm.extractvalue %sizes[0] : !llvm.array<1 x i64>
    %f = llvm.sitofp %n : i64 to f32
    llvm.store %f, %x : f32, !llvm.ptr
    llvm.return
  }
  llvm.func @main_wg2(%p: !llvm.ptr {llvm.noundef}, %q: !llvm.ptr, %i: i64) {
    llvm.return
  }
  llvm.func @main(%env: !llvm.ptr, %a: !llvm.ptr, %b: !llvm.ptr, %o: i64, %s: i64, %t: i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c4 = llvm.mlir.constant(4 : i64) : i64
    tc_cpu.dispatch @main_wg0[%c1 : i64] %env captures(%a, %a, %c0, %c4, %c1, %b, %b, %c0, %c4, %c1 : !llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64) {kernel = "k0", ops = "Relu", nodes = "relu_1"}
    tc_cpu.dispatch @main_wg1[%c1 : i64] %env captures(%b, %b, %c0, %c4, %c1 : !llvm.ptr, !llvm.ptr, i64, i64, i64) {kernel = "k1", ops = "Shape", nodes = "shape_1"}
    tc_cpu.dispatch @main_wg2[%c1 : i64] %env captures(%a, %b : !llvm.ptr, !llvm.ptr) {kernel = "k2", ops = "Identity", nodes = "identity_1"}
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %1 = llvm.insertvalue %a, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %2 = llvm.insertvalue %b, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    llvm.return %2 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  }
}
