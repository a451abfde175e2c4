// QLinearMatMul and QLinearConv: i32 accumulation of the centered operands,
// requantized in double; blocked DequantizeLinear.
// RUN: %pyonnx %models qlinear %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// QLinearMatMul: (a - 3) x (b - 1) in i32.
// CHECK-DAG: %[[A:.*]] = tc.cast %arg0 : (tensor<2x4xui8>) -> tensor<2x4xi32>
// CHECK-DAG: %[[AC:.*]] = tc.sub %[[A]], %{{.*}} : (tensor<2x4xi32>, tensor<i32>) -> tensor<2x4xi32>
// CHECK-DAG: %[[B:.*]] = tc.cast %arg1 : (tensor<4x3xi8>) -> tensor<4x3xi32>
// CHECK-DAG: %[[BC:.*]] = tc.sub %[[B]], %{{.*}} : (tensor<4x3xi32>, tensor<i32>) -> tensor<4x3xi32>
// CHECK-DAG: %[[ACC:.*]] = tc.matmul %[[AC]], %[[BC]] : (tensor<2x4xi32>, tensor<4x3xi32>) -> tensor<2x3xi32>
// The multiplier 0.5 * 0.5 / 0.5 folds; acc * 0.5 + (-2), rounded half to
// even and saturated to i8 in double.
// CHECK-DAG: %[[M:.*]] = tc.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[ACCD:.*]] = tc.cast %[[ACC]] : (tensor<2x3xi32>) -> tensor<2x3xf64>
// CHECK-DAG: %[[MD:.*]] = tc.cast %[[M]] : (tensor<f32>) -> tensor<f64>
// CHECK-DAG: %[[SC:.*]] = tc.mul %[[ACCD]], %[[MD]]
// CHECK-DAG: %[[ZPD:.*]] = tc.cast %{{.*}} : (tensor<i8>) -> tensor<f64>
// CHECK-DAG: %[[SH:.*]] = tc.add %[[SC]], %[[ZPD]]
// CHECK-DAG: %[[R:.*]] = tc.round %[[SH]] : tensor<2x3xf64>
// CHECK-DAG: %[[LO:.*]] = tc.constant dense<-1.280000e+02> : tensor<f64>
// CHECK-DAG: %[[HI:.*]] = tc.constant dense<1.270000e+02> : tensor<f64>
// CHECK-DAG: %[[CL:.*]] = tc.clamp %[[R]], %[[LO]], %[[HI]]
// CHECK-DAG: tc.cast %[[CL]] : (tensor<2x3xf64>) -> tensor<2x3xi8>
// QLinearConv: per-channel weight zero points along the output channels,
// per-channel multipliers along the result's channel dimension.
// CHECK-DAG: %[[WZP:.*]] = tc.constant dense<{{\[\[\[\[}}1]]], {{\[\[\[}}2]]]]> : tensor<2x1x1x1xi32>
// CHECK-DAG: %[[W:.*]] = tc.sub %{{.*}}, %[[WZP]] : (tensor<2x1x1x1xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x1xi32>
// CHECK-DAG: %[[CONV:.*]] = tc.conv %{{.*}}, %[[W]] {{.*}} : (tensor<1x1x3x3xi32>, tensor<2x1x1x1xi32>) -> tensor<1x2x3x3xi32>
// CHECK-DAG: tc.constant dense<{{\[\[\[\[}}2.500000e-01]], {{\[\[}}5.000000e-01]]]]> : tensor<1x2x1x1xf32>
// CHECK-DAG: tc.cast %[[CONV]] : (tensor<1x2x3x3xi32>) -> tensor<1x2x3x3xf64>
// CHECK-DAG: %[[U8HI:.*]] = tc.constant dense<2.550000e+02> : tensor<f64>
// CHECK-DAG: tc.cast %{{.*}} : (tensor<1x2x3x3xf64>) -> tensor<1x2x3x3xui8>
// Blocked DequantizeLinear (block 2 along axis 1 of a 2x3 input): each
// scale and zero point repeated twice, the last block cut to one column.
// CHECK-DAG: %[[S3:.*]] = tc.reshape %arg5 : (tensor<2x2xf32>) -> tensor<2x2x1xf32>
// CHECK-DAG: %[[SB:.*]] = tc.broadcast %[[S3]] : (tensor<2x2x1xf32>) -> tensor<2x2x2xf32>
// CHECK-DAG: %[[SR:.*]] = tc.reshape %[[SB]] : (tensor<2x2x2xf32>) -> tensor<2x4xf32>
// CHECK-DAG: %[[S:.*]] = tc.slice %[[SR]] {ends = array<i64: 2, 3>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x3xf32>
// CHECK-DAG: %[[Z3:.*]] = tc.reshape %arg6 : (tensor<2x2xui8>) -> tensor<2x2x1xui8>
// CHECK-DAG: %[[DIFF:.*]] = tc.sub %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-DAG: tc.mul %[[DIFF]], %[[S]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return {{.*}} : tensor<2x3xi8>, tensor<1x2x3x3xui8>, tensor<2x3xf32>
