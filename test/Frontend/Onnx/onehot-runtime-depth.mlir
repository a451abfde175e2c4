// OneHot whose depth is a graph input compiles once: the depth becomes an
// i64 scalar (a float one truncated), the iota along the new axis a
// tc.range of that length, and indices compare against it at run time. A
// depth that is not positive is a run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: tc.cast %{{.*}} : (tensor<f32>) -> tensor<i64>
// IR: cf.assert %{{.*}}, "node 'onehot' (OneHot): the depth computed at run time must be positive"
// IR: tc.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// IR: -> tensor<2x?x3xf32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=indices=%t/a.indices.npy --input=depth=%t/a.depth.npy --input=values=%t/a.values.npy --compare=y=%t/a.y.npy | FileCheck %s --check-prefix=A
// A: OK: f32[2, 4, 3]
// RUN: tc-run %t/model.so --input=indices=%t/b.indices.npy --input=depth=%t/b.depth.npy --input=values=%t/b.values.npy --compare=y=%t/b.y.npy | FileCheck %s --check-prefix=B
// B: OK: f32[2, 7, 3]
// RUN: not tc-run %t/model.so --input=indices=%t/bad.indices.npy --input=depth=%t/bad.depth.npy --input=values=%t/bad.values.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'onehot' (OneHot): the depth computed at run time must be positive
