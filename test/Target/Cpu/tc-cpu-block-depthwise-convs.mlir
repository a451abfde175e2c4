// RUN: tc-opt %s --convert-tc-to-linalg --tc-cpu-block-depthwise-convs | FileCheck %s

// A 3x3 depthwise convolution with bias on a 14x14 image, 48 channels (in
// blocks of 16, as 48 is no multiple of 32): the input is packed to
// [N, C / 16, H, W, 16] and then padded, the bias is broadcast straight
// into the blocked init, the filter is stored as [C / 16, KH, KW, 16], the
// convolution's loops are (n, cb, oh, ow, l, kh, kw) with the lanes (l)
// last, and the result is unpacked through [N, C / 16, 16, OH, OW].
// CHECK-DAG: #[[SPLIT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[BIAS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 + d5, d3 + d6, d4)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d6, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[PACKED:.*]] = linalg.generic {indexing_maps = [#[[SPLIT]], #[[ID]]], {{.*}} ins(%{{.*}} : tensor<1x3x16x14x14xf32>) outs(%{{.*}} : tensor<1x3x14x14x16xf32>)
// CHECK: %[[PADDED:.*]] = tensor.pad %[[PACKED]] low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0]
// CHECK: %[[B:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 16] : tensor<48xf32> into tensor<3x16xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[BIAS]], #[[ID]]], {{.*}} ins(%[[B]] : tensor<3x16xf32>) outs(%{{.*}} : tensor<1x3x14x14x16xf32>)
// CHECK: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<3x3x3x16xf32>
// CHECK: %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PADDED]], %[[W]] : tensor<1x3x16x16x16xf32>, tensor<3x3x3x16xf32>) outs(%[[INIT]] : tensor<1x3x14x14x16xf32>)
// CHECK: %[[UNPACKED:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[SPLIT]]], {{.*}} ins(%[[CONV]] : tensor<1x3x14x14x16xf32>) outs(%{{.*}} : tensor<1x3x16x14x14xf32>)
// CHECK: tensor.collapse_shape %[[UNPACKED]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x3x16x14x14xf32> into tensor<1x48x14x14xf32>
func.func @depthwise(%x: tensor<1x48x14x14xf32>, %b: tensor<48xf32>) -> tensor<1x48x14x14xf32> {
  %w = arith.constant dense<0.5> : tensor<48x1x3x3xf32>
  %y = tc.conv %x, %w, %b {groups = 48 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x48x14x14xf32>, tensor<48x1x3x3xf32>, tensor<48xf32>) -> tensor<1x48x14x14xf32>
  return %y : tensor<1x48x14x14xf32>
}

// A 3x3 with stride 2 to 28 columns and a 5x5 on 28 columns are blocked
// (each packs, then pads, its input).
// CHECK-LABEL: func.func @wide28
// CHECK-COUNT-2: tensor.pad %{{.*}} low[0, 0, {{.*}}, 0]
// CHECK: return
func.func @wide28(%x: tensor<1x32x56x56xf32>, %z: tensor<1x32x28x28xf32>)
    -> (tensor<1x32x28x28xf32>, tensor<1x32x28x28xf32>) {
  %w = arith.constant dense<0.5> : tensor<32x1x3x3xf32>
  %u = arith.constant dense<0.5> : tensor<32x1x5x5xf32>
  %a = tc.conv %x, %w {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x32x56x56xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x28x28xf32>
  %b = tc.conv %z, %u {groups = 32 : i64, padding = array<i64: 2, 2, 2, 2>} : (tensor<1x32x28x28xf32>, tensor<32x1x5x5xf32>) -> tensor<1x32x28x28xf32>
  return %a, %b : tensor<1x32x28x28xf32>, tensor<1x32x28x28xf32>
}

// Kept in rows: 16 columns (whole vectors), 56 columns (too wide: packing
// the large input costs more than the rows' partial vectors), 24 channels
// (no whole blocks of 16), and a 3x3 with unit strides on 28 columns (too
// little work per packed element).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: low[0, 0, 1, 1, 0]
// CHECK-NOT: 3x3x32xf32>
// CHECK-NOT: 3x3x16xf32>
// CHECK: return
func.func @kept(%x: tensor<1x32x16x16xf32>, %z: tensor<1x32x56x56xf32>, %v: tensor<1x24x14x14xf32>, %t: tensor<1x32x28x28xf32>)
    -> (tensor<1x32x16x16xf32>, tensor<1x32x56x56xf32>, tensor<1x24x14x14xf32>, tensor<1x32x28x28xf32>) {
  %w = arith.constant dense<0.5> : tensor<32x1x3x3xf32>
  %u = arith.constant dense<0.5> : tensor<24x1x3x3xf32>
  %a = tc.conv %x, %w {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x16x16xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x16x16xf32>
  %c = tc.conv %z, %w {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x56x56xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x56x56xf32>
  %d = tc.conv %v, %u {groups = 24 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x24x14x14xf32>, tensor<24x1x3x3xf32>) -> tensor<1x24x14x14xf32>
  %e = tc.conv %t, %w {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x28x28xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x28x28xf32>
  return %a, %c, %d, %e : tensor<1x32x16x16xf32>, tensor<1x32x56x56xf32>, tensor<1x24x14x14xf32>, tensor<1x32x28x28xf32>
}
