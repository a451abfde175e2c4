// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<?x64xf32>, tensor<64x32xf32>) outs(%[[FILL]] : tensor<?x32xf32>)
func.func @matmul(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %0 = tc.matmul %a, %b : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// f16 accumulates in f32 and truncates once.
// CHECK-LABEL: func.func @matmul_f16
// CHECK: linalg.matmul {{.*}} -> tensor<4x8xf32>
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @matmul_f16(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>) -> tensor<4x8xf16> {
  %0 = tc.matmul %a, %b : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// Batch dims broadcast: the size-1 lhs batch reads index 0.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
func.func @batch_matmul(%a: tensor<1x4x8xf32>, %b: tensor<3x8x5xf32>) -> tensor<3x4x5xf32> {
  %0 = tc.batch_matmul %a, %b : (tensor<1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<3x4x5xf32>
  return %0 : tensor<3x4x5xf32>
}

// -----

// Padding is a tensor.pad; the bias initializes the accumulator; strides and
// dilations are in the input map.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-LABEL: func.func @conv
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%arg2 : tensor<16xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[FILTER]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
func.func @conv(%x: tensor<?x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<?x16x16x16xf32> {
  %0 = tc.conv %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<?x16x16x16xf32>
  return %0 : tensor<?x16x16x16xf32>
}

// -----

// Groups split the channel dims so that every output map stays a projected
// permutation; the result is collapsed back.
// CHECK-LABEL: func.func @depthwise
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] {{.*}} : tensor<1x8x10x10xf32> into tensor<1x8x1x10x10xf32>
// CHECK: tensor.expand_shape %arg1 {{.*}} into tensor<8x1x1x3x3xf32>
// CHECK: linalg.generic
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x8x8x8xf32>
func.func @depthwise(%x: tensor<1x8x10x10xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %0 = tc.conv %x, %w {groups = 8 : i64} : (tensor<1x8x10x10xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// Transposed convolution reads the input where (o + pad - k * dilation) is a
// multiple of the stride inside the input, and skips other terms.
// CHECK-LABEL: func.func @conv_transpose
// CHECK: linalg.generic
// CHECK: arith.floordivsi
// CHECK: tensor.extract %arg0
// CHECK: arith.select
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x8x16x16xf32>
func.func @conv_transpose(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x8x16x16xf32> {
  %0 = tc.conv_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x16x16xf32>
  return %0 : tensor<1x8x16x16xf32>
}

// -----

// A contraction extent known only at run time is checked against the other
// operand's, and so are batch extents that do not broadcast statically.
// CHECK-LABEL: func.func @runtime_extents
// CHECK: %[[B0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4x?xf32>
// CHECK: %[[B1:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x?x5xf32>
// CHECK: %[[SAME_B:.*]] = arith.cmpi eq, %[[B0]], %[[B1]]
// CHECK: cf.assert %[[SAME_B]], "node 'mm' (MatMul): the operands' extents on batch axis 0 (a run-time 1 does not broadcast) differ"
// CHECK: %[[K0:.*]] = tensor.dim %arg0, %c2 : tensor<?x4x?xf32>
// CHECK: %[[K1:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x?x5xf32>
// CHECK: %[[SAME_K:.*]] = arith.cmpi eq, %[[K0]], %[[K1]]
// CHECK: cf.assert %[[SAME_K]], "node 'mm' (MatMul): the lhs columns and rhs rows (the contraction extent) differ"
// CHECK: linalg.generic
func.func @runtime_extents(%a: tensor<?x4x?xf32>, %b: tensor<?x?x5xf32>) -> tensor<?x4x5xf32> {
  %0 = tc.batch_matmul %a, %b : (tensor<?x4x?xf32>, tensor<?x?x5xf32>) -> tensor<?x4x5xf32> loc(#mm)
  return %0 : tensor<?x4x5xf32>
}
#mm = loc("mm"("MatMul"))

// -----

// Spatial sizes known only at run time: the output extent is computed as
// the type inference computes static ones, and a padded input shorter than
// the kernel window fails a run-time check (and gives an empty output).
// CHECK-LABEL: func.func @conv_dynamic_spatial
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[PH:.*]] = arith.addi %[[H]], %c2
// CHECK: %[[FITS:.*]] = arith.cmpi sge, %[[PH]], %c3
// CHECK: cf.assert %[[FITS]], "node 'conv' (Conv): spatial axis 0 of the input, padded, is shorter than the kernel window (3)"
// CHECK: arith.divsi %{{.*}}, %c2
// CHECK: arith.select %[[FITS]]
// CHECK: linalg.generic
func.func @conv_dynamic_spatial(%x: tensor<1x3x?x?xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<1x16x?x?xf32> {
  %0 = tc.conv %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x?x?xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x?x?xf32> loc("conv"("Conv"))
  return %0 : tensor<1x16x?x?xf32>
}
