// RUN: %pyonnx %models normalization %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: %pyonnx %models softmax_opset11 %t11.onnx
// RUN: tc-translate --import-onnx %t11.onnx | FileCheck %s --check-prefix=OLD

// CHECK-DAG: %[[LN:.*]] = tc.layer_norm %arg0, %{{.*}}, %{{.*}} {axis = 2 : i64, epsilon = 9.99999997E-7 : f32}
// CHECK-DAG: tc.softmax %[[LN]] {axis = 2 : i64} : tensor<2x5x16xf32>
// The default epsilon (1e-5) is not printed.
// CHECK-DAG: tc.batch_norm %arg1, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : (tensor<1x3x4x4xf32>

// Softmax before opset 13 normalizes the input flattened to 2-D at `axis`.
// OLD: tc.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// OLD: tc.softmax %{{.*}} {axis = 1 : i64} : tensor<2x12xf32>
// OLD: tc.reshape %{{.*}} : (tensor<2x12xf32>) -> tensor<2x3x4xf32>
