// The host side of a GPU target, run without a GPU: tc_module_gpu_run_v1 of
// a compiled model is called through ctypes with an environment whose
// alloc is malloc and whose launch records the kernels (host-entry.mlir.py).
// What this checks is the compiler's host code: every kernel of the table
// launched with a non-empty grid and its parameter array, the outputs
// allocated through the environment with their extents, every temporary
// released.
// RUN: %pyonnx %models conv_pool %t.onnx
// RUN: tc-compile %t.onnx --target=cuda:sm_90 -o %t.so
// RUN: %pyonnx %s.py %t.so | FileCheck %s

// CHECK: kernels in the table: [[N:[0-9]+]]
// CHECK: launches: [[N]], distinct kernels: [[N]], empty grids: 0
// CHECK: output 0 dims: [1, 8, 1, 1]
// CHECK: output allocated through env: True
// CHECK: blocks still allocated after the run: 1
// CHECK: status: 0
