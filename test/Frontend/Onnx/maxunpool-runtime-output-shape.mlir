// MaxUnpool whose output_shape is a graph input compiles once: the
// unpooling into the inferred shape, then tc.dynamic_pad at the end of each
// dimension up to the shape read at run time. A shape smaller than the
// inferred one is a run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'unpool' (MaxUnpool): the output_shape computed at run time is smaller than the inferred shape"
// IR: tc.dynamic_pad %{{.*}}, %{{.*}} : (tensor<1x1x4x4xf32>, tensor<8xi64>) -> tensor<?x?x?x?xf32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x=%t/a.x.npy --input=i=%t/a.i.npy --input=shape=%t/a.shape.npy --compare=y=%t/a.y.npy | FileCheck %s --check-prefix=A
// A: OK: f32[1, 1, 5, 5]
// RUN: tc-run %t/model.so --input=x=%t/b.x.npy --input=i=%t/b.i.npy --input=shape=%t/b.shape.npy --compare=y=%t/b.y.npy | FileCheck %s --check-prefix=B
// B: OK: f32[1, 1, 4, 6]
// RUN: not tc-run %t/model.so --input=x=%t/bad.x.npy --input=i=%t/bad.i.npy --input=shape=%t/bad.shape.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'unpool' (MaxUnpool): the output_shape computed at run time is smaller than the inferred shape
