// A shape parameter given as a graph input can be specialized to a value.
// RUN: %pyonnx %models bind_axes %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s --check-prefix=UNBOUND
// RUN: tc-translate --import-onnx %t.onnx --onnx-bind=axes=%t.onnx.axes.pb | FileCheck %s
// RUN: tc-compile %t.onnx --check --bind=axes=%t.onnx.axes.pb | FileCheck %s --check-prefix=CHECKED
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=nope=%t.onnx.axes.pb 2>&1 | FileCheck %s --check-prefix=NOINPUT
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=axes=%t.onnx.bad.pb 2>&1 | FileCheck %s --check-prefix=BADTYPE
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=axes=%t.missing.pb 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not tc-translate --import-onnx %t.onnx --onnx-bind=axes 2>&1 | FileCheck %s --check-prefix=SYNTAX

// Unbound, the axes are an argument read at run time: one single-axis
// reduction per dimension, each under an scf.if on whether it is named.
// UNBOUND: func.func @main(%arg0: tensor<2x3x4xf32> {tc.name = "x"}, %arg1: tensor<1xi64> {tc.name = "axes"})
// UNBOUND: cf.assert %{{.*}}, "node 'sum' (ReduceSum): the axes computed at run time must be in [-3, 3) and distinct"
// UNBOUND-COUNT-3: scf.if

// The bound input is no longer an argument; the axes are an attribute.
// CHECK: func.func @main(%arg0: tensor<2x3x4xf32> {tc.name = "x"}) -> (tensor<2x1x4xf32> {tc.name = "y"})
// CHECK: tc.reduce_sum %arg0 {axes = array<i64: 1>, keepdims}

// CHECKED: ok, the whole model is supported
// NOINPUT: error: cannot bind 'nope': the graph has no input of that name
// BADTYPE: error: cannot bind 'axes': the value has type tensor<1x1xf32> but the input is declared as tensor<1xi64>
// NOFILE: error: cannot bind 'axes': '{{.*}}missing.pb' is not a readable TensorProto file
// SYNTAX: error: --onnx-bind expects NAME=FILE, got 'axes'
