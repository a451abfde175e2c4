// RUN: tc-opt %s -split-input-file -verify-diagnostics

func.func @main(%env: !llvm.ptr, %n: index) {
  // expected-error @+1 {{expects @missing to name a workgroup function}}
  tc_cpu.dispatch @missing[%n : index] %env {kernel = "k0", ops = "", nodes = ""}
  return
}

// -----

// The workgroup function's last argument is the workgroup's number.
func.func private @wg(%a: memref<64xf32>) {
  return
}
func.func @main(%env: !llvm.ptr, %a: memref<64xf32>, %n: index) {
  // expected-error @+1 {{expects workgroup function @wg to take the captures' types and an index, and return nothing}}
  tc_cpu.dispatch @wg[%n : index] %env captures(%a : memref<64xf32>) {kernel = "k0", ops = "", nodes = ""}
  return
}

// -----

// A memref capture of a lowered workgroup function counts as its fields.
llvm.func @wg(%p: !llvm.ptr, %w: i64) {
  llvm.return
}
func.func @main(%env: !llvm.ptr, %a: memref<64xf32>, %n: index) {
  // expected-error @+1 {{expects workgroup function @wg to take 6 arguments (the captures' and the workgroup's number), not 2}}
  tc_cpu.dispatch @wg[%n : index] %env captures(%a : memref<64xf32>) {kernel = "k0", ops = "", nodes = ""}
  return
}

// -----

func.func private @wg(%w: index) {
  return
}
func.func @main(%env: !llvm.ptr, %n: i32) {
  // expected-error @+1 {{'tc_cpu.dispatch' op operand #1 must be index or 64-bit signless integer, but got 'i32'}}
  tc_cpu.dispatch @wg[%n : i32] %env {kernel = "k0", ops = "", nodes = ""}
  return
}
