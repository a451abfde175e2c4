// RUN: %pyonnx %models indexing %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// CHECK: %[[V:.*]], %[[I:.*]] = tc.top_k %arg0 {axis = 1 : i64, k = 2 : i64, smallest} : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
// CHECK: %[[C:.*]] = tc.cumsum %arg0 {axis = 1 : i64, exclusive} : tensor<2x5xf32>
// CHECK: %[[S:.*]] = tc.scatter_nd %arg1, %arg2, %arg3 {reduction = "add"} : (tensor<8xf32>, tensor<3x1xi64>, tensor<3xf32>) -> tensor<8xf32>
// CHECK: return %[[V]], %[[I]], %[[C]], %[[S]]
