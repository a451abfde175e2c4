// Ops without a tc op of their own are composed from tc ops.
// RUN: %pyonnx %models composites %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// IsNaN: x != x.
// CHECK-DAG: tc.compare ne, %arg0, %arg0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
// IsInf with detect_negative=0: only +inf.
// CHECK-DAG: %[[INF:.*]] = tc.constant dense<0x7F800000> : tensor<f32>
// CHECK-DAG: tc.compare eq, %arg0, %[[INF]]
// HardSwish: x * hard_sigmoid(x) with alpha 1/6.
// CHECK-DAG: %[[HS:.*]] = tc.hard_sigmoid %arg0 {alpha = 0.166666672 : f32} : tensor<2x4xf32>
// CHECK-DAG: tc.mul %arg0, %[[HS]]
// InstanceNormalization reduces over the spatial dims.
// CHECK-DAG: tc.reduce_mean %arg1 {axes = array<i64: 2, 3>, keepdims} : (tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32>
// The per-channel scale lines up with dimension 1 (folded: it is constant).
// CHECK-DAG: tc.constant dense<1.000000e+00> : tensor<3x1x1xf32>
// RMSNormalization: x * rsqrt(mean(x^2) + eps) * scale.
// CHECK-DAG: %[[SQ:.*]] = tc.mul %arg0, %arg0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-DAG: tc.reduce_mean %[[SQ]] {axes = array<i64: 1>, keepdims}
// CHECK-DAG: tc.rsqrt
// LayerNormalization with its Mean and InvStdDev outputs is composed too.
// CHECK: return {{.*}} : tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xf32>, tensor<1x3x2x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>

// RUN: %pyonnx %models more_composites %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=MORE
// Hardmax: 1 where the position along the axis is the argmax.
// MORE-DAG: %[[ARG:.*]] = tc.argmax %arg0 {axis = 1 : i64, keepdims} : (tensor<2x3xf32>) -> tensor<2x1xi64>
// MORE-DAG: tc.compare eq, %{{.*}}, %[[ARG]] : (tensor<1x3xi64>, tensor<2x1xi64>) -> tensor<2x3xi1>
// OneHot: wrapped indices against positions 0..depth-1.
// MORE-DAG: tc.compare eq, %{{.*}}, %{{.*}} : (tensor<2x1xi64>, tensor<1x4xi64>) -> tensor<2x4xi1>
// EyeLike with k = 1 is a constant.
// MORE-DAG: tc.constant dense<{{\[\[}}0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<2x3xf32>
// LpPool (p = 2): sum of squares over the window, then the square root.
// MORE-DAG: tc.avg_pool %{{.*}} {count_include_pad{{.*}}kernel_shape = array<i64: 2, 2>{{.*}} -> tensor<1x4x3x3xf32>
// GroupNormalization: statistics over [N, groups, C/groups * spatial].
// MORE-DAG: tc.reshape %arg2 : (tensor<1x4x4x4xf32>) -> tensor<1x2x32xf32>
// LRN: sum of squares over a channel window by pooling over [N, 1, C, rest].
// MORE-DAG: tc.avg_pool %{{.*}} {count_include_pad, kernel_shape = array<i64: 3, 1>, padding = array<i64: 1, 0, 1, 0>} : (tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>

// An empty batch (N = 0) imports: the group and window sizes come from C
// and the spatial sizes, not from the element count divided by N.
// RUN: %pyonnx %models empty_batch_norms %t3.onnx
// RUN: tc-translate --import-onnx %t3.onnx | FileCheck %s --check-prefix=EMPTY
// EMPTY: tc.reshape %arg0 : (tensor<0x4x2x2xf32>) -> tensor<0x2x8xf32>
// EMPTY: tc.avg_pool %{{.*}} : (tensor<0x1x4x4xf32>) -> tensor<0x1x4x4xf32>
