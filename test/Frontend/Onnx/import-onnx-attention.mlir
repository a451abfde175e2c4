// ONNX Attention (opset 23) is composed from tc ops.
// RUN: %pyonnx %models attention %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// The KV cache goes in front of the new keys and values (present_k/v).
// CHECK: %[[K:.*]] = tc.concat %arg4, %arg1 {axis = 2 : i64} : (tensor<1x2x2x8xf32>, tensor<1x2x3x8xf32>) -> tensor<1x2x5x8xf32>
// CHECK: %[[V:.*]] = tc.concat %arg5, %arg2 {axis = 2 : i64}
// A boolean mask becomes 0 / -inf; the causal part lets query i see keys up
// to past + i (2 cached keys here).
// CHECK: %[[MASK:.*]] = tc.select %arg3
// CHECK: %[[CAUSAL:.*]] = tc.constant dense<{{\[\[}}0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<3x5xf32>
// CHECK: %[[BIAS:.*]] = tc.add %[[MASK]], %[[CAUSAL]]
// Grouped-query attention: each of the 2 KV heads serves 2 query heads.
// CHECK: tc.broadcast {{.*}} : (tensor<1x2x1x5x8xf32>) -> tensor<1x2x2x5x8xf32>
// CHECK: tc.reshape {{.*}} -> tensor<1x4x5x8xf32>
// Default scale 1 / sqrt(8).
// CHECK: tc.constant dense<0.353553385> : tensor<f32>
// CHECK: %[[QK:.*]] = tc.batch_matmul {{.*}} : (tensor<1x4x3x8xf32>, tensor<1x4x8x5xf32>) -> tensor<1x4x3x5xf32>
// CHECK: %[[LOGITS:.*]] = tc.add %[[QK]], %[[BIAS]]
// CHECK: %[[P:.*]] = tc.softmax %[[LOGITS]] {axis = 3 : i64}
// CHECK: %[[Y:.*]] = tc.batch_matmul %[[P]], {{.*}} -> tensor<1x4x3x8xf32>
// CHECK: return %[[Y]], %[[K]], %[[V]]
