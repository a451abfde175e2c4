// RUN: tc-opt %s --convert-tc-to-linalg --canonicalize --tc-cpu-block-conv-channels | FileCheck %s

// A 3x3 convolution on a 7x7 image with 64 output channels: the filter is
// stored as [F / 32, C, KH, KW, 32], the init is read into [N, F / 32, OH,
// OW, 32], the convolution's loops are (n, fb, oh, ow, fl, c, kh, kw) with
// the lanes (fl) last in its output, and the result is unpacked through
// [N, F / 32, 32, OH, OW].
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d5, d2 + d6, d3 + d7)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d6, d7, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[SPLIT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3)>
// The maps of @strided_wide and @pointwise, below.
// CHECK-DAG: #[[PIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>
// CHECK-DAG: #[[PFILTER:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[POUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NCHW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NHWC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG: #[[LAST:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2 * 2 + d6, d3 * 2 + d7, d5)>
// CHECK-LABEL: func.func @narrow
// CHECK: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<2x24x3x3x32xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x7x7x32xf32>)
// CHECK: %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{.*}}, %[[W]] : tensor<1x24x9x9xf32>, tensor<2x24x3x3x32xf32>) outs(%[[INIT]] : tensor<1x2x7x7x32xf32>)
// CHECK: %[[SPLITV:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[SPLIT]]], {{.*}} ins(%[[CONV]] : tensor<1x2x7x7x32xf32>) outs(%{{.*}} : tensor<1x2x32x7x7xf32>)
// CHECK: %[[Y:.*]] = tensor.collapse_shape %[[SPLITV]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x32x7x7xf32> into tensor<1x64x7x7xf32>
// CHECK: return %[[Y]]
func.func @narrow(%x: tensor<1x24x7x7xf32>) -> tensor<1x64x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<64x24x3x3xf32>
  %y = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x24x7x7xf32>, tensor<64x24x3x3xf32>) -> tensor<1x64x7x7xf32>
  return %y : tensor<1x64x7x7xf32>
}

// An image 8 columns wide keeps the image-width tile; 48 output channels
// do not fill whole blocks of 32.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: blocked
// CHECK: return
func.func @kept(%x: tensor<1x24x8x8xf32>, %z: tensor<1x24x7x7xf32>) -> (tensor<1x64x8x8xf32>, tensor<1x48x7x7xf32>) {
  %w = arith.constant dense<0.5> : tensor<64x24x3x3xf32>
  %v = arith.constant dense<0.5> : tensor<48x24x3x3xf32>
  %y = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x24x8x8xf32>, tensor<64x24x3x3xf32>) -> tensor<1x64x8x8xf32>
  %u = tc.conv %z, %v {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x24x7x7xf32>, tensor<48x24x3x3xf32>) -> tensor<1x48x7x7xf32>
  return %y, %u : tensor<1x64x8x8xf32>, tensor<1x48x7x7xf32>
}

// A stride-2 3x3 convolution from 56 to 28 columns, too wide for the rule
// above, is blocked from a channels-last copy of its (padded) input: the
// copy [N, H, W, C], then the convolution reading it (n, oh * 2 + kh,
// ow * 2 + kw, c). With 8 input channels it keeps the image-width tile.
// CHECK-LABEL: func.func @strided_wide
// CHECK: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<2x32x3x3x32xf32>
// CHECK: %[[T:.*]] = linalg.generic {indexing_maps = [#[[NCHW]], #[[NHWC]]], {{.*}} ins(%{{.*}} : tensor<1x32x58x58xf32>) outs(%{{.*}} : tensor<1x58x58x32xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[LAST]], #{{.*}}, #{{.*}}], {{.*}} ins(%[[T]], %[[W]] : tensor<1x58x58x32xf32>, tensor<2x32x3x3x32xf32>) outs(%{{.*}} : tensor<1x2x28x28x32xf32>)
// CHECK-LABEL: func.func @strided_few_channels
// CHECK-NOT: x32xf32>
// CHECK: return
func.func @strided_wide(%x: tensor<1x32x56x56xf32>) -> tensor<1x64x28x28xf32> {
  %w = arith.constant dense<0.5> : tensor<64x32x3x3xf32>
  %y = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x32x56x56xf32>, tensor<64x32x3x3xf32>) -> tensor<1x64x28x28xf32>
  return %y : tensor<1x64x28x28xf32>
}
func.func @strided_few_channels(%x: tensor<1x8x56x56xf32>) -> tensor<1x64x28x28xf32> {
  %w = arith.constant dense<0.5> : tensor<64x8x3x3xf32>
  %y = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x56x56xf32>, tensor<64x8x3x3xf32>) -> tensor<1x64x28x28xf32>
  return %y : tensor<1x64x28x28xf32>
}

// A pointwise convolution over a 7x7 image, a matmul over its 49 pixels
// after --convert-tc-to-linalg (lanes would hold 32 + 16 + 1 pixels), is
// blocked: its filter [F, C, 1, 1] (collapsed to [F, C]) as [F / 32, C, 32],
// loops (n, fb, p, fl, c) with 7-pixel rows. 64 pixels (8x8) and 1 (a
// squeeze-excitation's 1x1 image) stay matmuls.
// CHECK-LABEL: func.func @pointwise
// CHECK: %[[PW:.*]] = arith.constant dense<5.000000e-01> : tensor<4x64x32xf32>
// CHECK: linalg.generic {indexing_maps = [#[[PIN]], #[[PFILTER]], #[[POUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[PW]] : tensor<1x64x49xf32>, tensor<4x64x32xf32>) outs(%{{.*}} : tensor<1x4x49x32xf32>)
// CHECK-LABEL: func.func @pointwise_kept
// CHECK-NOT: x32xf32>
// CHECK: return
func.func @pointwise(%x: tensor<1x64x7x7xf32>) -> tensor<1x128x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<128x64x1x1xf32>
  %y = tc.conv %x, %w : (tensor<1x64x7x7xf32>, tensor<128x64x1x1xf32>) -> tensor<1x128x7x7xf32>
  return %y : tensor<1x128x7x7xf32>
}
func.func @pointwise_kept(%x: tensor<1x64x8x8xf32>, %z: tensor<1x64x1x1xf32>) -> (tensor<1x128x8x8xf32>, tensor<1x128x1x1xf32>) {
  %w = arith.constant dense<0.5> : tensor<128x64x1x1xf32>
  %v = arith.constant dense<0.25> : tensor<128x64x1x1xf32>
  %y = tc.conv %x, %w : (tensor<1x64x8x8xf32>, tensor<128x64x1x1xf32>) -> tensor<1x128x8x8xf32>
  %u = tc.conv %z, %v : (tensor<1x64x1x1xf32>, tensor<128x64x1x1xf32>) -> tensor<1x128x1x1xf32>
  return %y, %u : tensor<1x128x8x8xf32>, tensor<1x128x1x1xf32>
}
