// Losses, quantization, Trilu, Range, and shapes known only at run time.
// RUN: %pyonnx %models losses_and_quant %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// SoftmaxCrossEntropyLoss: log_softmax, pick each label's entry, zero the
// ignored label, weighted mean.
// CHECK: %[[LP:.*]] = tc.log_softmax %arg0 {axis = 1 : i64} : tensor<3x5xf32>
// CHECK: %[[IGN:.*]] = tc.compare eq, %arg1, %{{.*}} : (tensor<3xi64>, tensor<i64>) -> tensor<3xi1>
// CHECK: tc.gather_elements %[[LP]], %{{.*}} {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x1xi64>) -> tensor<3x1xf32>
// CHECK: tc.reduce_sum
// CHECK: tc.reduce_sum
// CHECK: tc.div {{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// QuantizeLinear: round(x / scale) + zero point, saturated to uint8.
// CHECK: tc.round
// CHECK: %[[LO:.*]] = tc.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[HI:.*]] = tc.constant dense<2.550000e+02> : tensor<f32>
// CHECK: tc.clamp %{{.*}}, %[[LO]], %[[HI]]
// CHECK: tc.cast %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xui8>
// Trilu (lower): a constant mask selects the triangle.
// CHECK: tc.constant dense<{{\[\[}}true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// Range with run-time bounds has a dynamic length.
// CHECK: tc.range %arg4, %arg5, %arg6 : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
// Reshape to a run-time shape: 0 copies, -1 infers, computed with tc ops.
// CHECK: tc.reshape %arg2, %{{.*}} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// Expand to a run-time shape keeps the input's sizes where the target is 1.
// CHECK: tc.broadcast %arg8, %{{.*}} : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x?xf32>
// DequantizeLinear: (q - zero point) * scale.
// CHECK: tc.cast %{{.*}} : (tensor<2x3xui8>) -> tensor<2x3xf32>
// CHECK: tc.sub
// CHECK: tc.mul

// Integer matmul on centered operands in i32; dynamic quantization from the
// data's range.
// RUN: %pyonnx %models integer_quant %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=INT
// INT: %[[A:.*]] = tc.cast %arg0 : (tensor<4x3xui8>) -> tensor<4x3xi32>
// INT: %[[AC:.*]] = tc.sub %[[A]], %{{.*}} : (tensor<4x3xi32>, tensor<i32>) -> tensor<4x3xi32>
// INT: %[[B:.*]] = tc.cast %arg1 : (tensor<3x2xui8>) -> tensor<3x2xi32>
// INT: %[[BC:.*]] = tc.sub %[[B]], %{{.*}} : (tensor<3x2xi32>, tensor<1x2xi32>) -> tensor<3x2xi32>
// INT: tc.matmul %[[AC]], %[[BC]] : (tensor<4x3xi32>, tensor<3x2xi32>) -> tensor<4x2xi32>
// INT: tc.reduce_min %arg2
// INT: tc.reduce_max %arg2
// INT: tc.cast %{{.*}} : (tensor<5xf32>) -> tensor<5xui8>
