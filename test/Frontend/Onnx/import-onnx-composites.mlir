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
