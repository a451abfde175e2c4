// RUN: tc-opt %s -tc-channels-last -split-input-file | FileCheck %s
// RUN: tc-opt %s -tc-channels-last=force -split-input-file | FileCheck %s --check-prefix=FORCE

// An inverted residual: the three convolutions become channels_last, the
// transposes between them and through the clamps and the residual add
// compose away; the input's transpose and the output's remain.
// CHECK-LABEL: func @inverted_residual
// CHECK: %[[X:.*]] = tc.transpose %arg0 {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x8x5x6xf32>) -> tensor<1x5x6x8xf32>
// CHECK: %[[E:.*]] = tc.conv %[[X]], %{{.*}}, %{{.*}} {channels_last} : (tensor<1x5x6x8xf32>, tensor<16x8x1x1xf32>, tensor<16xf32>) -> tensor<1x5x6x16xf32>
// CHECK: %[[EC:.*]] = tc.clamp %[[E]], %{{.*}}, %{{.*}} : (tensor<1x5x6x16xf32>, tensor<f32>, tensor<f32>) -> tensor<1x5x6x16xf32>
// CHECK: %[[D:.*]] = tc.conv %[[EC]], %{{.*}} {channels_last, groups = 16 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x5x6x16xf32>, tensor<16x1x3x3xf32>) -> tensor<1x5x6x16xf32>
// CHECK: %[[DC:.*]] = tc.clamp %[[D]]
// CHECK: %[[P:.*]] = tc.conv %[[DC]], %{{.*}} {channels_last} : (tensor<1x5x6x16xf32>, tensor<8x16x1x1xf32>) -> tensor<1x5x6x8xf32>
// CHECK: %[[R:.*]] = tc.add %[[P]], %[[X]] : (tensor<1x5x6x8xf32>, tensor<1x5x6x8xf32>) -> tensor<1x5x6x8xf32>
// CHECK: %[[Y:.*]] = tc.transpose %[[R]] {permutation = array<i64: 0, 3, 1, 2>} : (tensor<1x5x6x8xf32>) -> tensor<1x8x5x6xf32>
// CHECK-NOT: tc.transpose
// CHECK: return %[[Y]]
func.func @inverted_residual(%x: tensor<1x8x5x6xf32>) -> tensor<1x8x5x6xf32> {
  %we = tc.constant dense<1.0> : tensor<16x8x1x1xf32>
  %be = tc.constant dense<0.5> : tensor<16xf32>
  %wd = tc.constant dense<2.0> : tensor<16x1x3x3xf32>
  %wp = tc.constant dense<3.0> : tensor<8x16x1x1xf32>
  %lo = tc.constant dense<0.0> : tensor<f32>
  %hi = tc.constant dense<6.0> : tensor<f32>
  %0 = tc.conv %x, %we, %be : (tensor<1x8x5x6xf32>, tensor<16x8x1x1xf32>, tensor<16xf32>) -> tensor<1x16x5x6xf32>
  %1 = tc.clamp %0, %lo, %hi : (tensor<1x16x5x6xf32>, tensor<f32>, tensor<f32>) -> tensor<1x16x5x6xf32>
  %2 = tc.conv %1, %wd {groups = 16 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x5x6xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x5x6xf32>
  %3 = tc.clamp %2, %lo, %hi : (tensor<1x16x5x6xf32>, tensor<f32>, tensor<f32>) -> tensor<1x16x5x6xf32>
  %4 = tc.conv %3, %wp : (tensor<1x16x5x6xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x5x6xf32>
  %5 = tc.add %4, %x : (tensor<1x8x5x6xf32>, tensor<1x8x5x6xf32>) -> tensor<1x8x5x6xf32>
  return %5 : tensor<1x8x5x6xf32>
}

// -----

// Squeeze-excitation at batch 2: the spatial mean runs over NHWC's axes,
// the scale [2, C, 1, 1] (small beside the image) is transposed to
// [2, 1, 1, C] (a reshape) for the multiplication; the classifier's
// flatten takes the mean's [2, 1, 1, C] through reshapes alone.
// CHECK-LABEL: func @squeeze_excitation
// CHECK: %[[D:.*]] = tc.conv %{{.*}} {channels_last, groups = 4 : i64
// CHECK: %[[M:.*]] = tc.reduce_mean %[[D]] {axes = array<i64: 1, 2>, keepdims} : (tensor<2x3x3x4xf32>) -> tensor<2x1x1x4xf32>
// CHECK: %[[S:.*]] = tc.sigmoid %{{.*}} : tensor<2x1x1x4xf32>
// CHECK: %[[Y:.*]] = tc.mul %[[D]], %[[S]] : (tensor<2x3x3x4xf32>, tensor<2x1x1x4xf32>) -> tensor<2x3x3x4xf32>
// CHECK: %[[G:.*]] = tc.reduce_mean %[[Y]] {axes = array<i64: 1, 2>, keepdims}
// CHECK: tc.reshape %[[G]] : (tensor<2x1x1x4xf32>) -> tensor<2x4xf32>
// CHECK-NOT: tc.transpose
func.func @squeeze_excitation(%x: tensor<2x4x3x3xf32>) -> tensor<2x4xf32> {
  %wd = tc.constant dense<1.0> : tensor<4x1x3x3xf32>
  %ws = tc.constant dense<0.5> : tensor<4x4x1x1xf32>
  %0 = tc.conv %x, %wd {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x3x3xf32>
  %1 = tc.reduce_mean %0 {axes = array<i64: 2, 3>, keepdims} : (tensor<2x4x3x3xf32>) -> tensor<2x4x1x1xf32>
  %2 = tc.conv %1, %ws : (tensor<2x4x1x1xf32>, tensor<4x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %3 = tc.sigmoid %2 : tensor<2x4x1x1xf32>
  %4 = tc.mul %0, %3 : (tensor<2x4x3x3xf32>, tensor<2x4x1x1xf32>) -> tensor<2x4x3x3xf32>
  %5 = tc.reduce_mean %4 {axes = array<i64: 2, 3>, keepdims} : (tensor<2x4x3x3xf32>) -> tensor<2x4x1x1xf32>
  %6 = tc.reshape %5 : (tensor<2x4x1x1xf32>) -> tensor<2x4xf32>
  return %6 : tensor<2x4xf32>
}

// -----

// Without a depthwise convolution, and with 10 % of the multiply-adds in
// pointwise convolutions (ResNet-18's few), nothing changes, unless forced;
// a dense 3x3 convolution over 8 channels keeps NCHW even then, and a
// transpose stays before an operand that is not cheap to transpose (a
// full-size input).
// CHECK-LABEL: func @no_depthwise
// CHECK-NOT: channels_last
// CHECK-NOT: tc.transpose
// FORCE-LABEL: func @no_depthwise
// FORCE: tc.conv %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
// FORCE: %[[P:.*]] = tc.conv %{{.*}} {channels_last} : (tensor<1x6x6x8xf32>, tensor<8x8x1x1xf32>) -> tensor<1x6x6x8xf32>
// FORCE: %[[T:.*]] = tc.transpose %[[P]] {permutation = array<i64: 0, 3, 1, 2>}
// FORCE: tc.add %[[T]], %arg1 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>)
func.func @no_depthwise(%x: tensor<1x8x6x6xf32>, %r: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w3 = tc.constant dense<1.0> : tensor<8x8x3x3xf32>
  %w1 = tc.constant dense<1.0> : tensor<8x8x1x1xf32>
  %0 = tc.conv %x, %w3 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = tc.conv %0, %w1 : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %2 = tc.add %1, %r : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %2 : tensor<1x8x6x6xf32>
}

// -----

// A bottleneck without depthwise convolutions whose 1x1 convolutions have
// 47 % of its multiply-adds (ResNet-50's): they convert, the 3x3 one keeps
// NCHW between transposes.
// CHECK-LABEL: func @bottleneck
// CHECK: %[[X:.*]] = tc.transpose %arg0 {permutation = array<i64: 0, 2, 3, 1>}
// CHECK: %[[A:.*]] = tc.conv %[[X]], %{{.*}} {channels_last} : (tensor<1x6x6x32xf32>, tensor<8x32x1x1xf32>) -> tensor<1x6x6x8xf32>
// CHECK: %[[B:.*]] = tc.transpose %{{.*}} {permutation = array<i64: 0, 3, 1, 2>}
// CHECK: %[[C:.*]] = tc.conv %[[B]], %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
// CHECK: tc.conv %{{.*}}, %{{.*}} {channels_last} : (tensor<1x6x6x8xf32>, tensor<32x8x1x1xf32>) -> tensor<1x6x6x32xf32>
func.func @bottleneck(%x: tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32> {
  %wa = tc.constant dense<1.0> : tensor<8x32x1x1xf32>
  %wb = tc.constant dense<1.0> : tensor<8x8x3x3xf32>
  %wc = tc.constant dense<1.0> : tensor<32x8x1x1xf32>
  %0 = tc.conv %x, %wa : (tensor<1x32x6x6xf32>, tensor<8x32x1x1xf32>) -> tensor<1x8x6x6xf32>
  %1 = tc.relu %0 : tensor<1x8x6x6xf32>
  %2 = tc.conv %1, %wb {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %3 = tc.relu %2 : tensor<1x8x6x6xf32>
  %4 = tc.conv %3, %wc : (tensor<1x8x6x6xf32>, tensor<32x8x1x1xf32>) -> tensor<1x32x6x6xf32>
  %5 = tc.add %4, %x : (tensor<1x32x6x6xf32>, tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32>
  return %5 : tensor<1x32x6x6xf32>
}

// -----

// The stem (a dense convolution of the image's 3 channels) converts too:
// the image is transposed instead of the stem's 16-channel output.
// CHECK-LABEL: func @stem
// CHECK: %[[X:.*]] = tc.transpose %arg0 {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
// CHECK: %[[S:.*]] = tc.conv %[[X]], %{{.*}} {channels_last, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<16x3x3x3xf32>) -> tensor<1x4x4x16xf32>
// CHECK: tc.conv %[[S]], %{{.*}} {channels_last, groups = 16 : i64
// CHECK-NOT: tc.transpose %{{.*}} {permutation = array<i64: 0, 2, 3, 1>}
func.func @stem(%x: tensor<1x3x8x8xf32>) -> tensor<1x16x4x4xf32> {
  %ws = tc.constant dense<1.0> : tensor<16x3x3x3xf32>
  %wd = tc.constant dense<1.0> : tensor<16x1x3x3xf32>
  %0 = tc.conv %x, %ws {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x4x4xf32>
  %1 = tc.conv %0, %wd {groups = 16 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x4x4xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x4x4xf32>
  return %1 : tensor<1x16x4x4xf32>
}

// -----

// A channel multiplier of 2 and a dynamic image keep NCHW.
// CHECK-LABEL: func @not_converted
// CHECK-NOT: channels_last
func.func @not_converted(%x: tensor<1x4x6x6xf32>, %y: tensor<1x4x?x6xf32>) -> (tensor<1x8x6x6xf32>, tensor<1x4x?x6xf32>) {
  %w = tc.constant dense<1.0> : tensor<8x1x3x3xf32>
  %wd = tc.constant dense<1.0> : tensor<4x1x3x3xf32>
  %0 = tc.conv %x, %w {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = tc.conv %y, %wd {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x?x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x?x6xf32>
  return %0, %1 : tensor<1x8x6x6xf32>, tensor<1x4x?x6xf32>
}

// -----

// A dynamic batch (an export's batch axis) converts, and the scale of a
// squeeze-excitation [?, C, 1, 1] still counts as small beside the image.
// CHECK-LABEL: func @dynamic_batch
// CHECK: %[[D:.*]] = tc.conv %{{.*}} {channels_last, groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x6x6x4xf32>, tensor<4x1x3x3xf32>) -> tensor<?x6x6x4xf32>
// CHECK: tc.mul %[[D]], %{{.*}} : (tensor<?x6x6x4xf32>, tensor<?x1x1x4xf32>) -> tensor<?x6x6x4xf32>
func.func @dynamic_batch(%x: tensor<?x4x6x6xf32>) -> tensor<?x4x6x6xf32> {
  %wd = tc.constant dense<1.0> : tensor<4x1x3x3xf32>
  %0 = tc.conv %x, %wd {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<?x4x6x6xf32>
  %1 = tc.reduce_mean %0 {axes = array<i64: 2, 3>, keepdims} : (tensor<?x4x6x6xf32>) -> tensor<?x4x1x1xf32>
  %2 = tc.sigmoid %1 : tensor<?x4x1x1xf32>
  %3 = tc.mul %0, %2 : (tensor<?x4x6x6xf32>, tensor<?x4x1x1xf32>) -> tensor<?x4x6x6xf32>
  return %3 : tensor<?x4x6x6xf32>
}
