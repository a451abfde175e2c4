// A shape parameter given as a graph input can be specialized to a value.
// RUN: %pyonnx %models bind_axes %t.onnx
// RUN: not tc-translate --import-onnx %t.onnx 2>&1 | FileCheck %s --check-prefix=UNBOUND
// RUN: tc-translate --import-onnx %t.onnx --onnx-bind=axes=%t.onnx.axes.pb | FileCheck %s
// RUN: tc-compile %t.onnx --check --bind=axes=%t.onnx.axes.pb | FileCheck %s --check-prefix=CHECKED
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=nope=%t.onnx.axes.pb 2>&1 | FileCheck %s --check-prefix=NOINPUT
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=axes=%t.onnx.bad.pb 2>&1 | FileCheck %s --check-prefix=BADTYPE
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=axes=%t.missing.pb 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=axes 2>&1 | FileCheck %s --check-prefix=SYNTAX

// UNBOUND: sum (ReduceSum): axes computed at run time

// The bound input is no longer an argument; the axes are an attribute.
// CHECK: func.func @main(%arg0: tensor<2x3x4xf32> {tc.name = "x"}) -> (tensor<2x1x4xf32> {tc.name = "y"})
// CHECK: tc.reduce_sum %arg0 {axes = array<i64: 1>, keepdims}

// CHECKED: ok, the whole model is supported
// NOINPUT: error: cannot bind 'nope': the graph has no input of that name
// BADTYPE: error: cannot bind 'axes': the value has type tensor<1x1xf32> but the input is declared as tensor<1xi64>
// NOFILE: error: cannot bind 'axes': '{{.*}}missing.pb' is not a readable TensorProto file
// SYNTAX: error: --onnx-bind expects NAME=FILE, got 'axes'
