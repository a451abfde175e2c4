// Shape arithmetic on static shapes and constants folds while importing:
// Shape -> Max/Min/Sub/Div -> Concat becomes constant pads, so the Pad of an
// expanded CenterCropPad is static.
// RUN: %pyonnx %models shape_folding %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// CHECK: func.func @main(%arg0: tensor<2x3xf32> {tc.name = "x"})
// Min([2, 3], [4, 2]) = [2, 2].
// CHECK-NEXT: %[[MIN:.*]] = tc.constant dense<2> : tensor<2xi64>
// Max([2, 3], [4, 2]) - [2, 3] = [2, 0]: pads [1, 0] before, [1, 0] after.
// CHECK-NEXT: %[[PAD:.*]] = tc.pad %arg0 {padding = array<i64: 1, 0, 1, 0>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %[[PAD]], %[[MIN]]

// Scan at opset 8 (batch axis first, batch 1, no sequence_lens) imports as
// the Scan-9 form on the inputs without their batch axis. A Loop scan
// output without a declared shape takes the body's type.
// RUN: %pyonnx %models scan8_and_loop_scan %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=SCAN
// SCAN: %[[S0:.*]] = tc.reshape %arg0 : (tensor<1x2xf32>) -> tensor<2xf32>
// SCAN: %[[XS:.*]] = tc.reshape %arg1 : (tensor<1x3x2xf32>) -> tensor<3x2xf32>
// SCAN: %[[FOR:.*]]:2 = scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[S0]], %{{.*}} = %{{.*}}) -> (tensor<2xf32>, tensor<3x2xf32>)
// SCAN:   tensor.extract_slice %[[XS]][%[[IV]], 0] [1, 2] [1, 1] : tensor<3x2xf32> to tensor<2xf32>
// SCAN: %[[Y:.*]] = tc.reshape %[[FOR]]#0 : (tensor<2xf32>) -> tensor<1x2xf32>
// SCAN: %[[Z:.*]] = tc.reshape %[[FOR]]#1 : (tensor<3x2xf32>) -> tensor<1x3x2xf32>
// SCAN: %[[EMPTY:.*]] = tc.constant dense<> : tensor<0xf32>
// SCAN: %[[START:.*]] = tensor.cast %[[EMPTY]] : tensor<0xf32> to tensor<?xf32>
// SCAN: %[[W:.*]]:4 = scf.while ({{.*}}, %{{.*}} = %arg3, %{{.*}} = %[[START]]) : (i64, i1, tensor<f32>, tensor<?xf32>)
// SCAN: ^bb0(%{{.*}}: i64, %{{.*}}: i1, %[[PREV:.*]]: tensor<f32>, %[[GROWN:.*]]: tensor<?xf32>):
// SCAN:   %[[ROW:.*]] = tc.reshape %[[PREV]] : (tensor<f32>) -> tensor<1xf32>
// SCAN:   tc.concat %[[GROWN]], %[[ROW]] {axis = 0 : i64} : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
// SCAN: return %[[Y]], %[[Z]], %[[W]]#2, %[[W]]#3
