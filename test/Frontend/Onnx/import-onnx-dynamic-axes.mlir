// Ops of dynamic-axis exports (torch.onnx.export's dynamic_axes) whose
// results keep several dynamic sizes.
// RUN: %pyonnx %models dynamic_axes_ops %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// CHECK-LABEL: func.func @main
// Split takes the dynamic dimensions whole (the end is the largest bound,
// which the slice clamps when it runs; kDynamic would take nothing).
// CHECK: tc.slice %arg0 {ends = array<i64: 9223372036854775807, 9223372036854775807, 4>, starts = array<i64: 0, 0, 0>, {{.*}} -> tensor<?x?x4xf32>
// CHECK: tc.slice %arg0 {ends = array<i64: 9223372036854775807, 9223372036854775807, 8>, starts = array<i64: 0, 0, 4>, {{.*}} -> tensor<?x?x4xf32>
// Unsqueeze with two dynamic sizes: the reshape's shape operand carries
// them from shape_of.
// CHECK: %[[SHAPE:.*]] = tc.shape_of %arg1
// CHECK: %[[B:.*]] = tc.slice %[[SHAPE]] {ends = array<i64: 1>, starts = array<i64: 0>
// CHECK: %[[S:.*]] = tc.slice %[[SHAPE]] {ends = array<i64: 2>, starts = array<i64: 1>
// CHECK: %[[TARGET:.*]] = tc.concat %[[B]], %{{.*}}, %{{.*}}, %[[S]] {axis = 0 : i64}
// CHECK: tc.reshape %arg1, %[[TARGET]] : (tensor<?x?xi64>, tensor<4xi64>) -> tensor<?x1x1x?xi64>
// Trilu of a run-time-sized matrix: row and column indices are ranges up
// to its extents.
// CHECK: tc.range {{.*}} -> tensor<?xi64>
// CHECK: tc.range {{.*}} -> tensor<?xi64>
// CHECK: %[[KEEP:.*]] = tc.compare ge
// CHECK: tc.select %[[KEEP]], %arg2, %{{.*}} : (tensor<?x?xi1>, tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
