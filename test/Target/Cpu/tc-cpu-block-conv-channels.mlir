// RUN: tc-opt %s --convert-tc-to-linalg --tc-cpu-block-conv-channels | FileCheck %s

// A 3x3 convolution on a 7x7 image with 64 output channels: the filter is
// stored as [F / 32, C, KH, KW, 32], the init is read into [N, F / 32, OH,
// OW, 32], the convolution's loops are (n, fb, oh, ow, fl, c, kh, kw) with
// the lanes (fl) last in its output, and the result is unpacked through
// [N, F / 32, 32, OH, OW].
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d5, d2 + d6, d3 + d7)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d6, d7, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[SPLIT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3)>
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
