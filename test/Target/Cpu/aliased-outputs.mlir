// Outputs that are the same value, an input, or a constant each come back
// with the right contents from a compiled model (the compiler gives each its
// own buffer; the runtime's own guard against a shared buffer is tested by
// RunTest.OutputsSharingABufferGetTheirOwn).
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x=%t/x.npy --compare=a=%t/x.npy --compare=b=%t/x.npy --compare=c=%t/c.npy --compare=d=%t/x.npy | FileCheck %s
// CHECK: output 'a': OK: f32[2, 3]
// CHECK: output 'b': OK: f32[2, 3]
// CHECK: output 'c': OK: f32[3]
// CHECK: output 'd': OK: f32[2, 3]
