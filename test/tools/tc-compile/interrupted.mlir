// A compile killed at any moment leaves the previous model.so whole and
// nothing in TMPDIR (Inputs/interrupt_compile.py says how this is checked).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pyonnx %models dense_relu %t/m.onnx
// RUN: %pyonnx %S/Inputs/interrupt_compile.py tc-compile tc-run %t/m.onnx %t | FileCheck %s
// CHECK: SIGKILL: {{[0-9]+}} compiles interrupted, model.so intact each time
// CHECK: SIGTERM: {{[0-9]+}} compiles interrupted, model.so intact each time
// CHECK: ok
