// RUN: %pyonnx %models layout %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: %pyonnx %models legacy_broadcast %t1.onnx
// RUN: tc-translate --import-onnx %t1.onnx | FileCheck %s --check-prefix=LEGACY

// Split with sizes [1, 3] along axis 1: two slices.
// CHECK-DAG: tc.slice %arg0 {ends = array<i64: 2, 1>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x1xf32>
// CHECK-DAG: tc.slice %arg0 {ends = array<i64: 2, 4>, starts = array<i64: 0, 1>, steps = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x3xf32>
// Constant padding with the given value.
// CHECK-DAG: tc.pad %arg0, %{{.*}} {padding = array<i64: 0, 1, 0, 2>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x7xf32>
// A negative pad crops first: slice, then edge padding.
// CHECK-DAG: %[[CROP:.*]] = tc.slice %arg0 {ends = array<i64: 2, 4>, starts = array<i64: 0, 1>, steps = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x3xf32>
// CHECK-DAG: tc.pad %[[CROP]] mode(edge) {padding = array<i64: 0, 0, 1, 0>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
// Tile [2, 1]: unit dims, broadcast, fold.
// CHECK-DAG: %[[T1:.*]] = tc.reshape %arg0 : (tensor<2x4xf32>) -> tensor<1x2x1x4xf32>
// CHECK-DAG: %[[T2:.*]] = tc.broadcast %[[T1]] : (tensor<1x2x1x4xf32>) -> tensor<2x2x1x4xf32>
// CHECK-DAG: tc.reshape %[[T2]] : (tensor<2x2x1x4xf32>) -> tensor<4x4xf32>
// DepthToSpace (CRD): reshape, transpose, reshape.
// CHECK-DAG: %[[D1:.*]] = tc.reshape %arg1 : (tensor<1x8x2x3xf32>) -> tensor<1x2x2x2x2x3xf32>
// CHECK-DAG: %[[D2:.*]] = tc.transpose %[[D1]] {permutation = array<i64: 0, 1, 4, 2, 5, 3>}
// CHECK-DAG: tc.reshape %[[D2]] : (tensor<1x2x2x2x3x2xf32>) -> tensor<1x2x4x6xf32>
// Inference Dropout is the identity; its mask is all true.
// CHECK-DAG: %[[MASK:.*]] = tc.constant dense<true> : tensor<2x4xi1>
// CHECK: return {{.*}}, %arg0, %[[MASK]]

// Opset 1: B aligns with A at axis 1, the reshape shape is an attribute and
// Cast names its type with a string.
// LEGACY: %[[B:.*]] = tc.reshape %arg1 : (tensor<3xf32>) -> tensor<1x3x1xf32>
// LEGACY: tc.add %arg0, %[[B]] : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
// LEGACY: tc.reshape %{{.*}} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// LEGACY: tc.cast %{{.*}} : (tensor<2x12xf32>) -> tensor<2x12xf64>
