// Windows whose size is a graph input compile once: computed in f64 over
// tc.range(0, size) and cast to output_datatype. A negative size is a
// run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'blackman' (BlackmanWindow): the window size computed at run time is negative"
// IR: tc.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// IR: tc.cos %{{.*}} : tensor<?xf64>
// IR: tc.cast %{{.*}} : (tensor<?xf64>) -> tensor<?xi32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=size=%t/a.size.npy --compare=blackman=%t/a.blackman.npy --compare=hann=%t/a.hann.npy --atol=1e-6 | FileCheck %s --check-prefix=A
// A: output 'blackman': OK: f32[5]
// A: output 'hann': OK: i32[5]
// RUN: tc-run %t/model.so --input=size=%t/b.size.npy --compare=blackman=%t/b.blackman.npy --compare=hann=%t/b.hann.npy | FileCheck %s --check-prefix=B
// B: output 'blackman': OK: f32[1]
// RUN: not tc-run %t/model.so --input=size=%t/bad.size.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'blackman' (BlackmanWindow): the window size computed at run time is negative
