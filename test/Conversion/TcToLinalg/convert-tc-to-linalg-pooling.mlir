// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Max pooling pads with -inf and reduces over a window tensor.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME: ins(%{{.*}}, %[[WINDOW]] : tensor<?x16x34x34xf32>, tensor<3x3xf32>)
// CHECK: arith.maximumf
func.func @max_pool(%x: tensor<?x16x32x32xf32>) -> tensor<?x16x16x16xf32> {
  %0 = tc.max_pool %x {kernel_shape = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x16x32x32xf32>) -> tensor<?x16x16x16xf32>
  return %0 : tensor<?x16x16x16xf32>
}

// -----

// Average pooling that excludes padding divides by a per-position count.
// CHECK-LABEL: func.func @avg_pool_exclude_pad
// CHECK: arith.addf
// CHECK: linalg.index
// CHECK: arith.ceildivsi
// CHECK: arith.divf
func.func @avg_pool_exclude_pad(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %0 = tc.avg_pool %x {kernel_shape = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

// With padding counted the divisor is the window size.
// CHECK-LABEL: func.func @avg_pool_include_pad
// CHECK-NOT: linalg.index
// CHECK: arith.constant 9.000000e+00 : f32
func.func @avg_pool_include_pad(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %0 = tc.avg_pool %x {kernel_shape = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

// Dynamic spatial sizes with ceil_mode: the output extent gets one more
// window where the division leaves a remainder and that window starts
// inside the input; the input is padded by stride - 1 more at the end, which
// the window may reach and which never counts (-inf).
// CHECK-LABEL: func.func @max_pool_dynamic_ceil
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: cf.assert %{{.*}}, "node 'pool' (MaxPool): spatial axis 0 of the input, padded, is shorter than the window (3)"
// CHECK: arith.remsi
// CHECK: linalg.generic
func.func @max_pool_dynamic_ceil(%x: tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32> {
  %0 = tc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode} : (tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32> loc("pool"("MaxPool"))
  return %0 : tensor<1x4x?x?xf32>
}

// -----

// Average pooling without the padding in the divisor, dynamic sizes: the
// window count reads the input's run-time extent.
// CHECK-LABEL: func.func @avg_pool_dynamic
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: arith.floordivsi
// CHECK: arith.divf
func.func @avg_pool_dynamic(%x: tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32> {
  %0 = tc.avg_pool %x {kernel_shape = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32> loc("pool"("AveragePool"))
  return %0 : tensor<1x4x?x?xf32>
}
