// Tile whose repeats are a graph input, of an input with a dynamic
// dimension, compiles once: the reshape, broadcast and reshape of a static
// Tile with each shape built from per-dimension scalars at run time. A
// negative repeat is a run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'tile' (Tile): a repeat count is negative"
// IR: tc.reshape %arg0, %{{.*}} : (tensor<2x?xf32>, tensor<4xi64>) -> tensor<1x2x1x?xf32>
// IR: tc.broadcast %{{.*}}, %{{.*}} : (tensor<1x2x1x?xf32>, tensor<4xi64>) -> tensor<?x2x?x?xf32>
// IR: tc.reshape %{{.*}}, %{{.*}} : (tensor<?x2x?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x=%t/a.x.npy --input=repeats=%t/a.repeats.npy --compare=y=%t/a.y.npy | FileCheck %s --check-prefix=A
// A: OK: f32[4, 9]
// RUN: tc-run %t/model.so --input=x=%t/b.x.npy --input=repeats=%t/b.repeats.npy --compare=y=%t/b.y.npy | FileCheck %s --check-prefix=B
// B: OK: f32[2, 0]
// RUN: not tc-run %t/model.so --input=x=%t/bad.x.npy --input=repeats=%t/bad.repeats.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'tile' (Tile): a repeat count is negative
