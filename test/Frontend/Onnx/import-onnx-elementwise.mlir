// RUN: %pyonnx %models elementwise %t.onnx
// RUN: tc-translate --import-onnx %t.onnx --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: %pyonnx %models clip_opset6 %t6.onnx
// RUN: tc-translate --import-onnx %t6.onnx | FileCheck %s --check-prefix=CLIP6

// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4x1xf32> {tc.name = "a"}
// CHECK-SAME: %[[B:[a-z0-9]+]]: tensor<8xf32> {tc.name = "b"}
// CHECK-SAME: -> (tensor<4x8xf32> {tc.name = "gelu"})
// Every op is located at its ONNX node: name, then op type.
// CHECK: %[[ADD:.*]] = tc.add %[[A]], %[[B]] : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32> loc("add"("Add"))
// CHECK: tc.sub {{.*}} -> tensor<4x8xf32>
// CHECK: tc.mul {{.*}} -> tensor<4x8xf32>
// CHECK: tc.div {{.*}} -> tensor<4x8xf32>
// CHECK: tc.pow {{.*}} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK: tc.relu
// CHECK: tc.sigmoid
// CHECK: tc.leaky_relu %{{.*}} {alpha = 1.000000e-01 : f32}
// Max is variadic: one tc.max per extra input.
// CHECK: tc.max
// CHECK: tc.max
// Mean: a sum divided by the input count.
// CHECK: tc.add
// CHECK: %[[TWO:.*]] = tc.constant dense<2.000000e+00> : tensor<f32>
// CHECK: tc.div %{{.*}}, %[[TWO]]
// CHECK: tc.compare eq, {{.*}} -> tensor<4x8xi1>
// CHECK: tc.select
// A missing Clip bound is the type's extreme.
// CHECK: %[[INF:.*]] = tc.constant dense<0x7F800000> : tensor<f32>
// CHECK: tc.clamp %{{.*}}, %{{.*}}, %[[INF]]
// CHECK: tc.gelu %{{.*}} {approximate_tanh}

// Clip-6 takes its bounds as attributes.
// CLIP6: %[[LO:.*]] = tc.constant dense<0.000000e+00> : tensor<f32>
// CLIP6: %[[HI:.*]] = tc.constant dense<6.000000e+00> : tensor<f32>
// CLIP6: tc.clamp %{{.*}}, %[[LO]], %[[HI]] : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
