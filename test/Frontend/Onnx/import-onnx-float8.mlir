// ONNX's `saturate` (Cast, CastLike, QuantizeLinear; default 1) becomes the
// tc.cast unit attribute, for float8 results only.
// RUN: %pyonnx %models float8_casts %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: tc.cast %arg0 {saturate} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
// CHECK: tc.cast %arg0 : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
// CHECK: tc.cast %arg0 : (tensor<4xf32>) -> tensor<4xf8E5M2>
// CHECK: tc.cast %arg0 : (tensor<4xf32>) -> tensor<4xi4>
// CHECK: tc.cast %arg0 {saturate} : (tensor<4xf32>) -> tensor<4xf8E8M0FNU>
// QuantizeLinear with saturate=0: x / scale + zero point, cast unsaturated.
// CHECK: tc.div
// CHECK: tc.add
// CHECK: tc.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>

// Only round_mode "up" (the default) is implemented for FLOAT8E8M0.
// RUN: %pyonnx %models float8_round_mode %t.round.onnx
// RUN: not tc-translate --import-onnx %t.round.onnx 2>&1 | FileCheck %s --check-prefix=ROUND
// ROUND: nearest (Cast): Cast to FLOAT8E8M0 with round_mode 'nearest'
