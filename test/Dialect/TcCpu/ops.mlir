// RUN: tc-opt %s | tc-opt | FileCheck %s

// A dispatch prints and parses back, before the LLVM lowering (index count,
// memref captures) and after it (i64 count, the descriptors' fields), with
// a configured kernel's key and configuration.
// CHECK-LABEL: func.func @main
// CHECK: tc_cpu.dispatch @wg[%{{.*}} : index] %{{.*}} captures(%{{.*}}, %{{.*}} : memref<64xf32>, index)
// CHECK-SAME: {fusion.kernel_key = "cpu-0123456789abcdef", kernel = "k0", nodes = "relu_1", ops = "Relu"}
// CHECK: tc_cpu.dispatch @wg_none[%{{.*}} : index] %{{.*}} {kernel = "k1", nodes = "", ops = ""}
func.func private @wg(%a: memref<64xf32>, %n: index, %w: index) {
  return
}
func.func private @wg_none(%w: index) {
  return
}
func.func @main(%env: !llvm.ptr, %a: memref<64xf32>, %n: index) {
  tc_cpu.dispatch @wg[%n : index] %env captures(%a, %n : memref<64xf32>, index) {kernel = "k0", ops = "Relu", nodes = "relu_1", fusion.kernel_key = "cpu-0123456789abcdef"}
  tc_cpu.dispatch @wg_none[%n : index] %env {kernel = "k1", ops = "", nodes = ""}
  return
}

// CHECK-LABEL: llvm.func @lowered
// CHECK: tc_cpu.dispatch @lowered_wg[%{{.*}} : i64] %{{.*}} captures(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr, i64, i64, i64)
llvm.func @lowered_wg(%p: !llvm.ptr, %q: !llvm.ptr, %o: i64, %s: i64, %t: i64, %w: i64) {
  llvm.return
}
llvm.func @lowered(%env: !llvm.ptr, %p: !llvm.ptr, %n: i64) {
  tc_cpu.dispatch @lowered_wg[%n : i64] %env captures(%p, %p, %n, %n, %n : !llvm.ptr, !llvm.ptr, i64, i64, i64) {kernel = "k0", ops = "Relu", nodes = "relu_1"}
  llvm.return
}
