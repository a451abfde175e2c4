// RUN: tc-opt %s --convert-tc-to-linalg --tc-cpu-winograd-conv="min-tiles=4 flops-per-byte=0" --canonicalize | FileCheck %s
// (flops-per-byte=0: the multiplies alone decide; the weight traffic's part
// is in tc-cpu-winograd-conv-cost.mlir.)

// A 3x3 convolution on an 8x8 image (2x2 tiles of 4x4), 32 channels to 64,
// padding 1 and a bias: the image is padded to whole tiles (10x10) and
// packed into [N, C / 32, H, W, 32] (viewed as [N, C / 32, 32, H, W] first,
// then padded); B^T d B is one generic over the tiles
// (x = 4 tw + j, y = 4 th + i) reading the 6x6 B^T twice; the 36
// transformed positions are matmuls [36, tiles, C] x [36, F / 32, C, 32]
// with the filter transformed at compile time; A^T m A reads the 4x6 A^T
// twice; the result is unpacked to [N, F, H, W] with the bias added.
// CHECK-DAG: #[[PACK:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3)>
// CHECK-DAG: #[[C1:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d4, d7)>
// CHECK-DAG: #[[C2:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d5, d8)>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d3, d1 * 4 + d7, d2 * 4 + d8, d6)>
// CHECK-DAG: #[[XT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d4, d5, d0, d1, d2, d3, d6)>
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
// CHECK-DAG: #[[U:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4, d3)>
// CHECK-DAG: #[[M:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d7, d8, d0, d1, d2, d3, d6)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d3, d1, d4, d2, d5, d6)>
// CHECK-LABEL: func.func @resnet
// CHECK-DAG: %[[BT:.*]] = arith.constant dense<{{\[\[}}4.000000e+00, 0.000000e+00, -5.000000e+00, {{.*}} : tensor<6x6xf32>
// CHECK-DAG: %[[AT:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, {{.*}} : tensor<4x6xf32>
// CHECK-DAG: %[[W:.*]] = arith.constant dense_resource<winograd> : tensor<36x2x32x32xf32>
// CHECK: %[[BLOCKS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] {{.*}} into tensor<1x1x32x8x8xf32>
// CHECK: %[[SPLIT:.*]] = tensor.pad %[[BLOCKS]] low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1]
// CHECK: %[[XB:.*]] = linalg.generic {indexing_maps = [#[[PACK]], #{{.*}}], {{.*}} ins(%[[SPLIT]] : {{.*}}) outs(%{{.*}} : tensor<1x1x10x10x32xf32>)
// CHECK: %[[D:.*]] = linalg.generic {indexing_maps = [#[[C1]], #[[C2]], #[[X]], #[[XT]]], iterator_types = [{{.*}}"parallel", "reduction", "reduction"]} ins(%[[BT]], %[[BT]], %[[XB]] : {{.*}}) outs(%{{.*}} : tensor<6x6x1x2x2x1x32xf32>)
// CHECK: %[[WEIGHT:.*]] = arith.mulf
// CHECK: %[[TERM:.*]] = arith.mulf %[[WEIGHT]]
// CHECK: arith.addf %{{.*}}, %[[TERM]]
// CHECK: %[[DV:.*]] = tensor.collapse_shape %[[D]] {{\[\[}}0, 1], [2, 3, 4], [5, 6]] {{.*}} into tensor<36x4x32xf32>
// CHECK: %[[MM:.*]] = linalg.generic {indexing_maps = [#[[V]], #[[U]], #{{.*}}], {{.*}} ins(%[[DV]], %[[W]] : {{.*}}) outs(%{{.*}} : tensor<36x4x2x32xf32>)
// CHECK: %[[MV:.*]] = tensor.expand_shape %[[MM]] {{.*}} into tensor<6x6x1x2x2x2x32xf32>
// CHECK: %[[YT:.*]] = linalg.generic {indexing_maps = [#[[C1]], #[[C2]], #[[M]], #[[Y]]], {{.*}} ins(%[[AT]], %[[AT]], %[[MV]] : {{.*}}) outs(%{{.*}} : tensor<1x2x2x4x2x4x32xf32>)
// CHECK: %[[YV:.*]] = tensor.collapse_shape %[[YT]] {{.*}} into tensor<1x2x8x8x32xf32>
// CHECK: %[[UNPACKED:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[PACK]], #[[PACK]]], {{.*}} ins(%[[YV]], %{{.*}} : tensor<1x2x8x8x32xf32>, tensor<1x2x32x8x8xf32>) outs(%{{.*}} : tensor<1x2x32x8x8xf32>)
// CHECK: arith.addf
// CHECK: %[[OUT:.*]] = tensor.collapse_shape %[[UNPACKED]] {{.*}} into tensor<1x64x8x8xf32>
// CHECK: return %[[OUT]]
func.func @resnet(%x: tensor<1x32x8x8xf32>, %b: tensor<64xf32>) -> tensor<1x64x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<64x32x3x3xf32>
  %y = tc.conv %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x8x8xf32>, tensor<64x32x3x3xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
  return %y : tensor<1x64x8x8xf32>
}

// Fewer than min-tiles tiles of 4x4 (a 4x4 image: one) but enough of 2x2
// (four): F(2x2, 3x3), with the 4x4 B^T and the 2x4 A^T, 16 transformed
// positions, and the image padded to 6x6.
// CHECK-LABEL: func.func @small
// CHECK-DAG: arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, -1.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00, -1.000000e+00]]> : tensor<4x4xf32>
// CHECK-DAG: arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, -1.000000e+00, -1.000000e+00]]> : tensor<2x4xf32>
// CHECK-DAG: arith.constant dense_resource<winograd{{.*}}> : tensor<16x1x32x32xf32>
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x4x1x2x2x1x32xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<16x4x1x32xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x2x2x2x2x32xf32>)
// CHECK: return
func.func @small(%x: tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32> {
  %w = arith.constant dense<0.25> : tensor<32x32x3x3xf32>
  %y = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x4x4xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x4x4xf32>
  return %y : tensor<1x32x4x4xf32>
}

// Tiles past the image: a 6x5 output needs 2x2 tiles, so the image is
// padded to 10x10 (top 1, bottom 3, left 1, right 4) and the tiles' 8x8 is
// sliced to 6x5 before the unpack.
// CHECK-LABEL: func.func @tails
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 1, 1] high[0, 0, 0, 3, 4]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 1, 6, 5, 32] [1, 1, 1, 1, 1] : tensor<1x1x8x8x32xf32> to tensor<1x1x6x5x32xf32>
// CHECK: return
func.func @tails(%x: tensor<1x32x6x5xf32>) -> tensor<1x32x6x5xf32> {
  %w = arith.constant dense<0.25> : tensor<32x32x3x3xf32>
  %y = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x6x5xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x5xf32>
  return %y : tensor<1x32x6x5xf32>
}

// Not rewritten: a stride of 2, a 5x5 filter, 48 output channels (not whole
// blocks of 32), a filter that is not a constant, fewer tiles than
// min-tiles (a 2x2 image: one tile of 4x4 or of 2x2).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: winograd
// CHECK: return
func.func @kept(%x: tensor<1x32x8x8xf32>, %f: tensor<32x32x3x3xf32>, %s: tensor<1x32x2x2xf32>) -> (tensor<1x32x4x4xf32>, tensor<1x32x8x8xf32>, tensor<1x48x8x8xf32>, tensor<1x32x8x8xf32>, tensor<1x32x2x2xf32>) {
  %w = arith.constant dense<0.5> : tensor<32x32x3x3xf32>
  %w5 = arith.constant dense<0.5> : tensor<32x32x5x5xf32>
  %w48 = arith.constant dense<0.5> : tensor<48x32x3x3xf32>
  %w2 = arith.constant dense<0.5> : tensor<32x32x3x3xf32>
  %s2 = tc.conv %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x32x8x8xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x4x4xf32>
  %k5 = tc.conv %x, %w5 {padding = array<i64: 2, 2, 2, 2>} : (tensor<1x32x8x8xf32>, tensor<32x32x5x5xf32>) -> tensor<1x32x8x8xf32>
  %f48 = tc.conv %x, %w48 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x8x8xf32>, tensor<48x32x3x3xf32>) -> tensor<1x48x8x8xf32>
  %dyn = tc.conv %x, %f {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x8x8xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x8x8xf32>
  %one = tc.conv %s, %w2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x32x2x2xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x2x2xf32>
  return %s2, %k5, %f48, %dyn, %one : tensor<1x32x4x4xf32>, tensor<1x32x8x8xf32>, tensor<1x48x8x8xf32>, tensor<1x32x8x8xf32>, tensor<1x32x2x2xf32>
}
