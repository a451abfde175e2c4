// RUN: %pyonnx %models matmul %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: %pyonnx %models conv_pool %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=CONV

// CHECK-LABEL: func.func @main
// 2-D x 2-D is a plain matmul.
// CHECK: tc.matmul %arg0, %{{.*}} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// 3-D x 2-D: the 2-D side gains a unit batch and batch_matmul broadcasts.
// CHECK: tc.reshape %{{.*}} : (tensor<16x8xf32>) -> tensor<1x16x8xf32>
// CHECK: tc.batch_matmul %arg1, %{{.*}} : (tensor<2x4x16xf32>, tensor<1x16x8xf32>) -> tensor<2x4x8xf32>
// 1-D x 2-D: the vector becomes a row and the row is dropped again.
// CHECK: tc.reshape %arg4 : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK: tc.matmul {{.*}} -> tensor<1x8xf32>
// CHECK: tc.reshape %{{.*}} : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK: tc.batch_matmul %arg2, %arg3 : (tensor<2x3x5x16xf32>, tensor<2x3x16x5xf32>) -> tensor<2x3x5x5xf32>
// Gemm: transB, alpha and beta (beta * C folds, C being constant).
// CHECK: tc.transpose %{{.*}} {permutation = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK: tc.matmul
// CHECK: tc.constant dense<5.000000e-01> : tensor<f32>
// CHECK: tc.mul
// CHECK: %[[C:.*]] = tc.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK: tc.add %{{.*}}, %[[C]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>

// CONV: tc.conv %arg0, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
// SAME_UPPER padding is made explicit.
// CONV: tc.conv {{.*}} {dilations = array<i64: 1, 1>, groups = 8 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x16x16xf32>
// CONV: tc.max_pool {{.*}}ceil_mode{{.*}} -> tensor<1x8x8x8xf32>
// CONV: tc.avg_pool {{.*}}count_include_pad{{.*}}padding = array<i64: 0, 0, 1, 1>{{.*}} -> tensor<1x8x8x8xf32>
// CONV: tc.reduce_mean %{{.*}} {axes = array<i64: 2, 3>, keepdims} : (tensor<1x8x8x8xf32>) -> tensor<1x8x1x1xf32>
