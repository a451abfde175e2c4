// Compress, Unique, NonMaxSuppression, Det, TensorScatter, and the random
// ops.
// RUN: %pyonnx %models data_dependent %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: %pyonnx %models random_ops %t-random.onnx
// RUN: tc-translate --import-onnx %t-random.onnx | FileCheck %s --check-prefix=RANDOM

// Compress is a gather at the condition's non-zero positions, of the
// flattened input when there is no axis.
// CHECK: %[[NZ:.*]] = tc.non_zero %arg1 : (tensor<3xi1>) -> tensor<1x?xi64>
// CHECK: %[[POS:.*]] = tc.reshape %[[NZ]] : (tensor<1x?xi64>) -> tensor<?xi64>
// CHECK: tc.gather %arg0, %[[POS]] {axis = 1 : i64} : (tensor<4x6xf32>, tensor<?xi64>) -> tensor<4x?xf32>
// CHECK: %[[FLAT:.*]] = tc.reshape %arg0 : (tensor<4x6xf32>) -> tensor<24xf32>
// CHECK: tc.gather %[[FLAT]], %{{.*}} {axis = 0 : i64} : (tensor<24xf32>, tensor<?xi64>) -> tensor<?xf32>
// CHECK: tc.unique %arg0 {unsorted} : (tensor<4x6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<24xi64>, tensor<?xi64>)
// CHECK: tc.unique %arg0 {axis = 1 : i64} : (tensor<4x6xf32>) -> (tensor<4x?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
// Scalar limits become 1-element tensors; absent ones the spec's defaults.
// CHECK: %[[MAX:.*]] = tc.constant dense<3> : tensor<1xi64>
// CHECK: %[[IOU:.*]] = tc.constant dense<5.000000e-01> : tensor<1xf32>
// CHECK: tc.non_max_suppression %arg2, %arg3, %[[MAX]], %[[IOU]] {center_point_box} : (tensor<1x8x4xf32>, tensor<1x2x8xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
// CHECK: %[[NONE:.*]] = tc.constant dense<0> : tensor<1xi64>
// CHECK: %[[ZERO:.*]] = tc.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK: tc.non_max_suppression %arg2, %arg3, %[[NONE]], %[[ZERO]] : (
// CHECK: tc.det %arg4 : (tensor<2x3x3xf32>) -> tensor<2xf32>
// CHECK: tc.tensor_scatter %arg5, %arg6, %arg7 {axis = 2 : i64, circular} : (tensor<2x4x16x8xf32>, tensor<2x4x1x8xf32>, tensor<2xi64>) -> tensor<2x4x16x8xf32>

// A node's seed keys its generator; without one, the seed is hashed from
// the node, and its second stream (Box-Muller's angle) gets another key.
// RANDOM: tc.random_uniform {high = 1.000000e+00 : f64, low = -1.000000e+00 : f64, seed = 4 : i64} : () -> tensor<2x3xf32>
// RANDOM: %[[U1:.*]] = tc.random_uniform %arg0 {high = 1.000000e+00 : f64, low = 0.000000e+00 : f64, seed = [[SEED:[0-9]+]] : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
// RANDOM: %[[U2:.*]] = tc.random_uniform %arg0 {high = 1.000000e+00 : f64, low = 0.000000e+00 : f64, seed = {{[0-9]+}} : i64}
// RANDOM: tc.sub %{{.*}}, %[[U1]]
// RANDOM: tc.log
// RANDOM: tc.sqrt
// RANDOM: tc.mul %[[U2]]
// RANDOM: tc.cos
// Bernoulli: 1 where a draw falls below the probability, cast to dtype.
// RANDOM: %[[U:.*]] = tc.random_uniform %arg0 {{{.*}}seed = 9 : i64}
// RANDOM: %[[HIT:.*]] = tc.compare lt, %[[U]], %arg0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
// RANDOM: tc.cast %[[HIT]] : (tensor<?x4xi1>) -> tensor<?x4xi32>
