// GridSample, AffineGrid, RoiAlign and DeformConv.
// RUN: %pyonnx %models sampling %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// CHECK: tc.grid_sample %arg0, %arg1 {align_corners, mode = "cubic", padding_mode = "border"} : (tensor<1x2x4x4xf32>, tensor<1x3x5x2xf32>) -> tensor<1x2x3x5xf32>
// CHECK: tc.grid_sample %arg2, %arg3 {mode = "nearest", padding_mode = "reflection"} : (tensor<1x2x3x4x5xf32>, tensor<1x2x2x2x3xf32>) -> tensor<1x2x2x2x2xf32>
// AffineGrid: the homogeneous base grid (x, y, 1) of the 4 x 5 output, as
// element centers without align_corners, times theta transposed.
// CHECK: %[[BASE:.*]] = tc.constant dense<{{\[\[\[}}-8.000000e-01, -7.500000e-01, 1.000000e+00], [-4.000000e-01, -7.500000e-01, 1.000000e+00], {{.*}}, [8.000000e-01, 7.500000e-01, 1.000000e+00]]]> : tensor<1x20x3xf32>
// CHECK: %[[THETA:.*]] = tc.transpose %arg4 {permutation = array<i64: 0, 2, 1>} : (tensor<2x2x3xf32>) -> tensor<2x3x2xf32>
// CHECK: %[[GRID:.*]] = tc.batch_matmul %[[BASE]], %[[THETA]] : (tensor<1x20x3xf32>, tensor<2x3x2xf32>) -> tensor<2x20x2xf32>
// CHECK: tc.reshape %[[GRID]] : (tensor<2x20x2xf32>) -> tensor<2x4x5x2xf32>
// RoiAlign-16 defaults to half_pixel.
// CHECK: tc.roi_align %arg0, %arg5, %arg6 {half_pixel, mode = "max", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x2x3xf32>
// DeformConv: kernel tap positions plus offsets, flipped to (x, y), sampled
// bilinearly in pixel coordinates, masked, then one batch_matmul with W.
// CHECK: %[[OFF:.*]] = tc.reshape %arg8 : (tensor<1x8x3x3xf32>) -> tensor<1x1x4x2x3x3xf32>
// CHECK: %[[POS:.*]] = tc.add %[[OFF]], %{{.*}} : (tensor<1x1x4x2x3x3xf32>, tensor<1x1x4x2x3x3xf32>)
// CHECK: %[[XY:.*]] = tc.slice %[[POS]] {ends = array<i64: 1, 1, 4, -1, 3, 3>, starts = array<i64: 0, 0, 0, 1, 0, 0>, steps = array<i64: 1, 1, 1, -1, 1, 1>}
// CHECK: %[[T:.*]] = tc.transpose %[[XY]] {permutation = array<i64: 0, 1, 2, 4, 5, 3>}
// CHECK: %[[G:.*]] = tc.reshape %[[T]] : (tensor<1x1x4x3x3x2xf32>) -> tensor<1x12x3x2xf32>
// CHECK: %[[S:.*]] = tc.grid_sample %arg0, %[[G]] {align_corners, unnormalized} : (tensor<1x2x4x4xf32>, tensor<1x12x3x2xf32>) -> tensor<1x2x12x3xf32>
// CHECK: %[[M:.*]] = tc.reshape %arg10 : (tensor<1x4x3x3xf32>) -> tensor<1x1x1x4x3x3xf32>
// CHECK: tc.mul %{{.*}}, %[[M]]
// CHECK: %[[W:.*]] = tc.reshape %arg7 : (tensor<3x2x2x2xf32>) -> tensor<1x1x3x8xf32>
// CHECK: tc.batch_matmul %[[W]], %{{.*}} : (tensor<1x1x3x8xf32>, tensor<1x1x8x9xf32>) -> tensor<1x1x3x9xf32>
// CHECK: tc.add %{{.*}}, %{{.*}} : (tensor<1x3x3x3xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x3x3xf32>

// GridSample-16 names its default mode bilinear: tc's linear (the default,
// not printed).
// RUN: %pyonnx %models sampling_opset16 %t16.onnx
// RUN: tc-translate --import-onnx %t16.onnx | FileCheck %s --check-prefix=V16
// V16: tc.grid_sample %arg0, %arg1 : (tensor<1x2x4x4xf32>, tensor<1x3x5x2xf32>) -> tensor<1x2x3x5xf32>

// RUN: %pyonnx %models sampling_errors %t.err.onnx
// RUN: not tc-translate --import-onnx %t.err.onnx 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: affine_rank (AffineGrid): invalid node: size must be [N, C, H, W] or [N, C, D, H, W]
// ERR: bad_mode (GridSample): invalid node: unknown mode 'area'
// ERR: nearest_antialias (Resize): invalid node: antialias does not apply to nearest
