// The Python package: compile, load, run on numpy arrays, and errors as
// exceptions that say what is wrong.
// RUN: %pyonnx %models weights %t.onnx
// RUN: %pyonnx %s.py %t.onnx %t.so | FileCheck %s
// CHECK: inputs [('x', dtype('float32'), (2, 8))]
// CHECK: outputs [('z', dtype('float32'), (2, 8))]
// CHECK: version 0.1.0
// CHECK: max error 0.0
// CHECK: by name ok
// CHECK: error: missing input 'x'
// CHECK: error: input 'x' has dtype f64 but the module expects f32
// CHECK: error: {{.*}}nothing.so
// CHECK: error: input 'x' given both by position and by name
// CHECK: error: unknown input 'bogus' (the model's inputs: x)
// CHECK: error: unknown input 'input_ids' (the model's inputs: x)
// CHECK: error: 2 inputs given by position but the model has 1 (x)
// CHECK: error: threads=100000: expected an integer from 0 (all cores) to 4096
// CHECK: error: threads=2147483648: expected an integer from 0 (all cores) to 4096
// CHECK: error: threads=-1: expected an integer from 0 (all cores) to 4096
// CHECK: error: input 'x' is not contiguous (shape (2, 8), strides (1, 2) in elements): pass numpy.ascontiguousarray(x) or x.contiguous()
// CHECK: error: input 'x' has dtype complex64, which tc has no type for (the module expects f32)
// CHECK: error: out[0] ('z') has shape (2, 7) but the output has shape (2, 8)
// CHECK: error: out[0] ('z') has dtype int32 but the output is f32
// CHECK: error: output_type='pandas': expected one of auto, numpy, torch, dlpack
