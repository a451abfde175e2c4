// Outputs that are the same value, an input, or a constant each come back
// as their own buffer (no double free, no view of the caller's input).
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x=%t/x.npy --compare=a=%t/x.npy --compare=b=%t/x.npy --compare=c=%t/c.npy --compare=d=%t/x.npy | FileCheck %s
// CHECK: output 'a': OK: f32[2, 3]
// CHECK: output 'b': OK: f32[2, 3]
// CHECK: output 'c': OK: f32[3]
// CHECK: output 'd': OK: f32[2, 3]
