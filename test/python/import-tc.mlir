// The Python package: compile, load, run on numpy arrays, and errors as
// exceptions that say what is wrong.
// RUN: %pyonnx %models weights %t.onnx
// RUN: %pyonnx %s.py %t.onnx %t.so | FileCheck %s
// CHECK: inputs [('x', dtype('float32'), (2, 8))]
// CHECK: outputs [('z', dtype('float32'), (2, 8))]
// CHECK: max error 0.0
// CHECK: by name ok
// CHECK: error: missing input 'x'
// CHECK: error: input 'x' has dtype f64 but the module expects f32
// CHECK: error: {{.*}}nothing.so
