// Slices whose bounds are graph inputs, a reversed slice of a dynamic
// dimension, part of a dynamic dimension, and Dropout with its
// training_mode as an input.
// RUN: %pyonnx %models runtime_slices %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// CHECK: tc.dynamic_slice %arg0, %arg1, %arg2 {axes = array<i64: 0, 1>, steps = array<i64: 1, 1>} : (tensor<2x?xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK: tc.dynamic_slice %arg0, %{{.*}}, %{{.*}} {axes = array<i64: 1>, steps = array<i64: -1>} : (tensor<2x?xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x?xf32>
// A positive step keeps the constant bounds; tc.slice clamps them to the
// dimension's size when it runs.
// CHECK: tc.slice %arg0 {ends = array<i64: 2, -1>, starts = array<i64: 0, 1>, steps = array<i64: 1, 1>} : (tensor<2x?xf32>) -> tensor<2x?xf32>
// Dropout: keep where a draw is >= ratio, or everywhere in inference.
// CHECK: %[[U:.*]] = tc.random_uniform %arg0 {{{.*}}seed = 2 : i64}
// CHECK: %[[DRAW:.*]] = tc.compare ge, %[[U]], %{{.*}} : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xi1>
// CHECK: %[[INFER:.*]] = tc.not %arg3 : tensor<i1>
// CHECK: %[[KEEP:.*]] = tc.or %[[DRAW]], %[[INFER]]
// CHECK: %[[SCALE:.*]] = tc.select %arg3, %{{.*}}, %{{.*}} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[SCALED:.*]] = tc.mul %arg0, %[[SCALE]]
// CHECK: %[[Y:.*]] = tc.select %[[KEEP]], %[[SCALED]], %{{.*}}
// CHECK: return {{.*}}, %[[Y]], %[[KEEP]]
