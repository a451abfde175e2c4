// RUN: %pyonnx %models shapes %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: %pyonnx %models shape_arith %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=ARITH
// RUN: %pyonnx %models dynamic_batch %t3.onnx
// RUN: tc-translate --import-onnx %t3.onnx | FileCheck %s --check-prefix=DYN

// CHECK-LABEL: func.func @main
// Reshape [0, -1]: 0 copies the input size, -1 takes the rest.
// CHECK-DAG: tc.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// Transpose without perm reverses the dimensions.
// CHECK-DAG: tc.transpose %{{.*}} {permutation = array<i64: 1, 0>} : (tensor<2x12xf32>) -> tensor<12x2xf32>
// Unsqueeze and Squeeze are reshapes.
// CHECK-DAG: %[[U:.*]] = tc.reshape %{{.*}} : (tensor<12x2xf32>) -> tensor<1x12x2xf32>
// CHECK-DAG: tc.reshape %[[U]] : (tensor<1x12x2xf32>) -> tensor<12x2xf32>
// Flatten at axis 2.
// CHECK-DAG: tc.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-DAG: tc.concat %arg0, %arg0 {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
// Slice bounds are clamped as the spec says: start -1 of 8 is 7, end -1000
// is -1 for a negative step.
// CHECK-DAG: tc.slice %{{.*}} {ends = array<i64: 2, -1, -1>, starts = array<i64: 0, 2, 7>, steps = array<i64: 1, -1, -2>} : (tensor<2x3x8xf32>) -> tensor<2x3x4xf32>
// CHECK-DAG: tc.gather %arg0, %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<1x2xi64>) -> tensor<2x1x2x4xf32>
// Expand broadcasts both ways: [3, 1] with [2, 1, 4] is [2, 3, 4].
// CHECK-DAG: tc.broadcast %arg1 : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-DAG: tc.cast %arg0 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>

// The exporter's shape chain folds away: the reshape gets a static shape
// and no shape op is left.
// ARITH-LABEL: func.func @main
// ARITH-NOT: tc.shape_of
// ARITH-NOT: tc.gather
// ARITH-NOT: tc.concat
// ARITH-DAG: tc.reshape %arg0 : (tensor<6x4x5xf32>) -> tensor<6x20xf32>
// ARITH-DAG: tc.constant dense<0> : tensor<4x5xi64>

// Named symbolic dims become dynamic sizes, recorded by name so that the same
// name is the same size everywhere.
// DYN: func.func @main(%arg0: tensor<?x3x4xf32> {tc.dim_params = ["batch", "", ""], tc.name = "x"}, %arg1: tensor<?x?xf32> {tc.dim_params = ["batch", "seq"], tc.name = "z"}) -> (tensor<?x12xf32> {tc.dim_params = ["batch", ""], tc.name = "y"})
// DYN: tc.relu %arg0 : tensor<?x3x4xf32>
// DYN: tc.reshape %{{.*}} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
