// If imports into an scf.if whose branches read the enclosing graph.
// RUN: %pyonnx %models if_else %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: tc-compile %t.onnx --emit=tc | FileCheck %s --check-prefix=OPT

// CHECK: func.func @main(%arg0: tensor<i1> {tc.name = "c"}, %arg1: tensor<2x3xf32> {tc.name = "x"}) -> (tensor<?x3xf32> {tc.name = "y"})
// CHECK: %[[C:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: %[[R:.*]] = scf.if %[[C]] -> (tensor<?x3xf32>) {
// CHECK:   %[[T:.*]] = tc.add %arg1, %{{.*}} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// Branch results of different shapes meet in tensor<?x3xf32>.
// CHECK:   %[[TC:.*]] = tensor.cast %[[T]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK:   scf.yield %[[TC]]
// CHECK: } else {
// CHECK:   %[[E:.*]] = tc.reduce_sum %arg1 {axes = array<i64: 0>, keepdims} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK:   tensor.cast %[[E]] : tensor<1x3xf32> to tensor<?x3xf32>
// CHECK: return %[[R]]

// The graph passes keep the control flow valid.
// OPT: scf.if
