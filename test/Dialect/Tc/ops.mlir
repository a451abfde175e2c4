// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<4x?xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) -> tensor<4x?xf32> {
  // CHECK: tc.abs %{{.*}} : tensor<4xi32>
  %0 = tc.abs %i : tensor<4xi32>
  // CHECK: tc.neg %{{.*}} : tensor<4xi32>
  %1 = tc.neg %0 : tensor<4xi32>
  // CHECK: tc.sign
  %2 = tc.sign %1 : tensor<4xi32>
  // CHECK: tc.relu
  %3 = tc.relu %x : tensor<4x?xf32>
  // CHECK: tc.exp
  %4 = tc.exp %3 : tensor<4x?xf32>
  // CHECK: tc.log
  %5 = tc.log %4 : tensor<4x?xf32>
  // CHECK: tc.sqrt
  %6 = tc.sqrt %5 : tensor<4x?xf32>
  // CHECK: tc.rsqrt
  %7 = tc.rsqrt %6 : tensor<4x?xf32>
  // CHECK: tc.reciprocal
  %8 = tc.reciprocal %7 : tensor<4x?xf32>
  // CHECK: tc.tanh
  %9 = tc.tanh %8 : tensor<4x?xf32>
  // CHECK: tc.sigmoid
  %10 = tc.sigmoid %9 : tensor<4x?xf32>
  // CHECK: tc.erf
  %11 = tc.erf %10 : tensor<4x?xf32>
  // CHECK: tc.sin
  %12 = tc.sin %11 : tensor<4x?xf32>
  // CHECK: tc.cos
  %13 = tc.cos %12 : tensor<4x?xf32>
  // CHECK: tc.tan
  %14 = tc.tan %13 : tensor<4x?xf32>
  // CHECK: tc.asin
  %15 = tc.asin %14 : tensor<4x?xf32>
  // CHECK: tc.acos
  %16 = tc.acos %15 : tensor<4x?xf32>
  // CHECK: tc.atan
  %17 = tc.atan %16 : tensor<4x?xf32>
  // CHECK: tc.sinh
  %18 = tc.sinh %17 : tensor<4x?xf32>
  // CHECK: tc.cosh
  %19 = tc.cosh %18 : tensor<4x?xf32>
  // CHECK: tc.asinh
  %20 = tc.asinh %19 : tensor<4x?xf32>
  // CHECK: tc.acosh
  %21 = tc.acosh %20 : tensor<4x?xf32>
  // CHECK: tc.atanh
  %22 = tc.atanh %21 : tensor<4x?xf32>
  // CHECK: tc.floor
  %23 = tc.floor %22 : tensor<4x?xf32>
  // CHECK: tc.ceil
  %24 = tc.ceil %23 : tensor<4x?xf32>
  // CHECK: tc.round
  %25 = tc.round %24 : tensor<4x?xf32>
  // CHECK: tc.softplus
  %26 = tc.softplus %25 : tensor<4x?xf32>
  // CHECK: tc.softsign
  %27 = tc.softsign %26 : tensor<4x?xf32>
  // CHECK: tc.not %{{.*}} : tensor<4xi1>
  %28 = tc.not %b : tensor<4xi1>
  // CHECK: tc.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f32} : tensor<4x?xf32>
  %29 = tc.leaky_relu %27 {alpha = 0.2 : f32} : tensor<4x?xf32>
  // CHECK: tc.elu %{{.*}} : tensor<4x?xf32>
  %30 = tc.elu %29 : tensor<4x?xf32>
  // CHECK: tc.hard_sigmoid %{{.*}} {beta = 6.000000e-01 : f32}
  %31 = tc.hard_sigmoid %30 {beta = 0.6 : f32} : tensor<4x?xf32>
  // CHECK: tc.gelu %{{.*}} {approximate_tanh} : tensor<4x?xf32>
  %32 = tc.gelu %31 {approximate_tanh} : tensor<4x?xf32>
  return %32 : tensor<4x?xf32>
}

// CHECK-LABEL: func @binary
func.func @binary(%a: tensor<4x1xf32>, %b: tensor<8xf32>, %i: tensor<2x3xi32>, %j: tensor<3xi32>,
                  %p: tensor<2x3xi1>, %e: tensor<i64>) {
  // CHECK: tc.add %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %0 = tc.add %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: tc.sub
  %1 = tc.sub %0, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: tc.mul
  %2 = tc.mul %1, %a : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  // CHECK: tc.div
  %3 = tc.div %2, %a : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  // CHECK: tc.max
  %4 = tc.max %3, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: tc.min
  %5 = tc.min %4, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: tc.mod %{{.*}}, %{{.*}} {fmod}
  %6 = tc.mod %5, %b {fmod} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: tc.mod %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %7 = tc.mod %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: tc.prelu
  %8 = tc.prelu %6, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: tc.and
  %9 = tc.and %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: tc.or
  %10 = tc.or %p, %p : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: tc.xor
  %11 = tc.xor %10, %p : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: tc.shift_left
  %12 = tc.shift_left %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: tc.shift_right
  %13 = tc.shift_right %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: tc.pow %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<i64>) -> tensor<4x8xf32>
  %14 = tc.pow %8, %e : (tensor<4x8xf32>, tensor<i64>) -> tensor<4x8xf32>
  // CHECK: tc.compare ge, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  %15 = tc.compare ge, %14, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  // CHECK: tc.select
  %16 = tc.select %15, %14, %a : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func @dynamic_broadcast
func.func @dynamic_broadcast(%a: tensor<?x1xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  // CHECK: tc.add %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %0 = tc.add %a, %b : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// A declared result may be more static than inference proves.
// CHECK-LABEL: func @refined_result
func.func @refined_result(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  // CHECK: -> tensor<2x8xf32>
  %0 = tc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: func @clamp
func.func @clamp(%x: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xf32> {
  // CHECK: tc.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %0 = tc.clamp %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @contractions
func.func @contractions(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>,
                        %q: tensor<2x1x16x64xf32>, %k: tensor<8x64x16xf32>) {
  // CHECK: tc.matmul %{{.*}}, %{{.*}} : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %0 = tc.matmul %a, %b : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %k4 = tc.reshape %k : (tensor<8x64x16xf32>) -> tensor<1x8x64x16xf32>
  // CHECK: tc.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x1x16x64xf32>, tensor<1x8x64x16xf32>) -> tensor<2x8x16x16xf32>
  %1 = tc.batch_matmul %q, %k4 : (tensor<2x1x16x64xf32>, tensor<1x8x64x16xf32>) -> tensor<2x8x16x16xf32>
  return
}

// CHECK-LABEL: func @convs
func.func @convs(%x: tensor<1x3x224x224xf32>, %w: tensor<32x3x3x3xf32>, %b: tensor<32xf32>,
                 %dw: tensor<32x1x3x3xf32>, %x1: tensor<?x4x10xf32>, %w1: tensor<8x2x3xf32>) {
  // CHECK: tc.conv %{{.*}}, %{{.*}}, %{{.*}} {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  // CHECK-SAME: -> tensor<1x32x112x112xf32>
  %0 = tc.conv %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x224x224xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>) -> tensor<1x32x112x112xf32>
  // Depthwise.
  // CHECK: tc.conv %{{.*}}, %{{.*}} {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>}
  %1 = tc.conv %0, %dw {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32>
  // 1-D, grouped, dilated, dynamic batch.
  // CHECK: tc.conv {{.*}} -> tensor<?x8x6xf32>
  %2 = tc.conv %x1, %w1 {groups = 2 : i64, dilations = array<i64: 2>}
      : (tensor<?x4x10xf32>, tensor<8x2x3xf32>) -> tensor<?x8x6xf32>
  return
}

// CHECK-LABEL: func @conv_transpose
func.func @conv_transpose(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<8xf32>) {
  // CHECK: tc.conv_transpose %{{.*}}, %{{.*}}, %{{.*}} {output_padding = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  // CHECK-SAME: -> tensor<1x8x16x16xf32>
  %0 = tc.conv_transpose %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>,
                                     output_padding = array<i64: 1, 1>}
      : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  return
}

// CHECK-LABEL: func @pooling
func.func @pooling(%x: tensor<1x64x112x112xf32>, %y: tensor<1x8x5x5xf32>) {
  // CHECK: tc.max_pool {{.*}} -> tensor<1x64x56x56xf32>
  %0 = tc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                       padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: tc.avg_pool {{.*}}ceil_mode{{.*}} -> tensor<1x8x3x3xf32>
  %1 = tc.avg_pool %y {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode,
                       count_include_pad} : (tensor<1x8x5x5xf32>) -> tensor<1x8x3x3xf32>
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<4x?x8xf32>) {
  // CHECK: tc.reduce_sum %{{.*}} {axes = array<i64: 1>, keepdims} : (tensor<4x?x8xf32>) -> tensor<4x1x8xf32>
  %0 = tc.reduce_sum %x {axes = array<i64: 1>, keepdims} : (tensor<4x?x8xf32>) -> tensor<4x1x8xf32>
  // CHECK: tc.reduce_mean {{.*}} -> tensor<?xf32>
  %1 = tc.reduce_mean %x {axes = array<i64: 0, 2>} : (tensor<4x?x8xf32>) -> tensor<?xf32>
  // CHECK: tc.reduce_max
  %2 = tc.reduce_max %x {axes = array<i64: 2>} : (tensor<4x?x8xf32>) -> tensor<4x?xf32>
  // CHECK: tc.reduce_min
  %3 = tc.reduce_min %x {axes = array<i64: 2>} : (tensor<4x?x8xf32>) -> tensor<4x?xf32>
  // CHECK: tc.reduce_prod
  %4 = tc.reduce_prod %x {axes = array<i64: 0, 1, 2>} : (tensor<4x?x8xf32>) -> tensor<f32>
  // CHECK: tc.argmax %{{.*}} {axis = 2 : i64} : (tensor<4x?x8xf32>) -> tensor<4x?xi64>
  %5 = tc.argmax %x {axis = 2 : i64} : (tensor<4x?x8xf32>) -> tensor<4x?xi64>
  // CHECK: tc.argmin %{{.*}} {axis = 0 : i64, keepdims, select_last_index}
  %6 = tc.argmin %x {axis = 0 : i64, keepdims, select_last_index} : (tensor<4x?x8xf32>) -> tensor<1x?x8xi64>
  return
}

// CHECK-LABEL: func @normalization
func.func @normalization(%x: tensor<1x128x768xf32>, %g: tensor<768xf32>, %c: tensor<1x32x56x56xf32>,
                         %s: tensor<32xf32>) {
  // CHECK: tc.softmax %{{.*}} {axis = 2 : i64} : tensor<1x128x768xf32>
  %0 = tc.softmax %x {axis = 2 : i64} : tensor<1x128x768xf32>
  // CHECK: tc.log_softmax
  %1 = tc.log_softmax %x {axis = 0 : i64} : tensor<1x128x768xf32>
  // CHECK: tc.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64, epsilon = 9.99999996E-13 : f32}
  %2 = tc.layer_norm %x, %g, %g {axis = 2 : i64, epsilon = 1.0e-12 : f32}
      : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  // CHECK: tc.layer_norm %{{.*}}, %{{.*}} {axis = 2 : i64}
  %3 = tc.layer_norm %x, %g {axis = 2 : i64} : (tensor<1x128x768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  // CHECK: tc.batch_norm
  %4 = tc.batch_norm %c, %s, %s, %s, %s {epsilon = 1.0e-3 : f32}
      : (tensor<1x32x56x56xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x32x56x56xf32>
  return
}

// CHECK-LABEL: func @attention
func.func @attention(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x24x64xf32>, %v: tensor<1x8x24x32xf32>,
                     %m: tensor<2x1x1x24xf32>, %dq: tensor<?x16x64xf16>, %dk: tensor<?x?x64xf16>) {
  // CHECK: tc.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f32}
  // CHECK-SAME: -> tensor<2x8x16x32xf32>
  %0 = tc.attention %q, %k, %v, %m {scale = 0.125 : f32}
      : (tensor<2x8x16x64xf32>, tensor<2x8x24x64xf32>, tensor<1x8x24x32xf32>, tensor<2x1x1x24xf32>) -> tensor<2x8x16x32xf32>
  // CHECK: tc.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32} : (tensor<?x16x64xf16>, tensor<?x?x64xf16>, tensor<?x?x64xf16>) -> tensor<?x16x64xf16>
  %1 = tc.attention %dq, %dk, %dk {scale = 1.0 : f32}
      : (tensor<?x16x64xf16>, tensor<?x?x64xf16>, tensor<?x?x64xf16>) -> tensor<?x16x64xf16>
  // The key as key^T [..., D, Lk].
  // CHECK: tc.attention %{{.*}}, %{{.*}}, %{{.*}} {key_transposed, scale = 1.250000e-01 : f32} : (tensor<2x8x16x64xf32>, tensor<2x8x64x24xf32>, tensor<1x8x24x32xf32>) -> tensor<2x8x16x32xf32>
  %kt = tc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<2x8x24x64xf32>) -> tensor<2x8x64x24xf32>
  %2 = tc.attention %q, %kt, %v {key_transposed, scale = 0.125 : f32}
      : (tensor<2x8x16x64xf32>, tensor<2x8x64x24xf32>, tensor<1x8x24x32xf32>) -> tensor<2x8x16x32xf32>
  return
}

// CHECK-LABEL: func @shapes
func.func @shapes(%x: tensor<?x4x8xf32>, %y: tensor<?x?x64xf32>, %s: tensor<4xi64>,
                  %t: tensor<30522x768xf32>, %ids: tensor<1x128xi64>, %img: tensor<1x8x32x32xf32>,
                  %zero: tensor<f32>) {
  // CHECK: tc.reshape %{{.*}} : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
  %0 = tc.reshape %x : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
  // CHECK: tc.reshape %{{.*}}, %{{.*}} : (tensor<?x?x64xf32>, tensor<4xi64>) -> tensor<?x?x4x16xf32>
  %1 = tc.reshape %y, %s : (tensor<?x?x64xf32>, tensor<4xi64>) -> tensor<?x?x4x16xf32>
  // CHECK: tc.transpose %{{.*}} {permutation = array<i64: 0, 2, 1>} : (tensor<?x4x8xf32>) -> tensor<?x8x4xf32>
  %2 = tc.transpose %x {permutation = array<i64: 0, 2, 1>} : (tensor<?x4x8xf32>) -> tensor<?x8x4xf32>
  // CHECK: tc.concat %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<?x4x8xf32>, tensor<?x4x8xf32>) -> tensor<?x4x16xf32>
  %3 = tc.concat %x, %x {axis = 2 : i64} : (tensor<?x4x8xf32>, tensor<?x4x8xf32>) -> tensor<?x4x16xf32>
  // CHECK: tc.slice %{{.*}} {ends = array<i64: 9223372036854775807, 4, -1>, starts = array<i64: 0, 1, 7>, steps = array<i64: 1, 2, -3>}
  // CHECK-SAME: -> tensor<?x2x3xf32>
  %4 = tc.slice %x {starts = array<i64: 0, 1, 7>, ends = array<i64: 9223372036854775807, 4, -1>,
                    steps = array<i64: 1, 2, -3>} : (tensor<?x4x8xf32>) -> tensor<?x2x3xf32>
  // CHECK: tc.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
  %5 = tc.gather %t, %ids {axis = 0 : i64} : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
  // CHECK: tc.broadcast %{{.*}} : (tensor<1x8x32x32xf32>) -> tensor<4x8x32x32xf32>
  %6 = tc.broadcast %img : (tensor<1x8x32x32xf32>) -> tensor<4x8x32x32xf32>
  // CHECK: tc.broadcast %{{.*}}, %{{.*}} : (tensor<?x4x8xf32>, tensor<4xi64>) -> tensor<?x?x4x8xf32>
  %7 = tc.broadcast %x, %s : (tensor<?x4x8xf32>, tensor<4xi64>) -> tensor<?x?x4x8xf32>
  // CHECK: tc.pad %{{.*}}, %{{.*}} {padding = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>}
  %8 = tc.pad %img, %zero {padding = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>}
      : (tensor<1x8x32x32xf32>, tensor<f32>) -> tensor<1x8x34x34xf32>
  // CHECK: tc.pad %{{.*}} mode(reflect) {padding = array<i64: 0, 0, 2, 2, 0, 0, 2, 2>}
  %9 = tc.pad %img mode(reflect) {padding = array<i64: 0, 0, 2, 2, 0, 0, 2, 2>}
      : (tensor<1x8x32x32xf32>) -> tensor<1x8x36x36xf32>
  // CHECK: tc.shape_of %{{.*}} : (tensor<?x4x8xf32>) -> tensor<3xi64>
  %10 = tc.shape_of %x : (tensor<?x4x8xf32>) -> tensor<3xi64>
  return
}

// CHECK-LABEL: func @gather_elements_range
func.func @gather_elements_range(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %a: tensor<i64>, %b: tensor<f32>) {
  // CHECK: tc.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  %0 = tc.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // CHECK: tc.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %1 = tc.range %a, %a, %a : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  // CHECK: tc.range {{.*}} -> tensor<7xf32>
  %2 = tc.range %b, %b, %b : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<7xf32>
  return
}

// CHECK-LABEL: func @resize
func.func @resize(%x: tensor<1x3x16x16xf32>) {
  // CHECK: tc.resize %{{.*}} {mode = "linear", scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>} : (tensor<1x3x16x16xf32>) -> tensor<1x3x32x32xf32>
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 2.0>, mode = "linear"} : (tensor<1x3x16x16xf32>) -> tensor<1x3x32x32xf32>
  // CHECK: tc.resize {{.*}}coordinate_transformation_mode = "tf_crop_and_resize"{{.*}}roi = array<f32
  %1 = tc.resize %x {scales = array<f32: 1.0, 1.0, 0.5, 0.5>, coordinate_transformation_mode = "tf_crop_and_resize",
                     roi = array<f32: 0.0, 0.0, 0.2, 0.2, 1.0, 1.0, 0.8, 0.8>, extrapolation_value = 1.0 : f32}
      : (tensor<1x3x16x16xf32>) -> tensor<1x3x8x8xf32>
  return
}

// CHECK-LABEL: func @indexing
func.func @indexing(%x: tensor<2x10xf32>, %v: tensor<4x5x6xf32>, %i2: tensor<3x2xi64>,
                    %e: tensor<3x5xf32>, %ei: tensor<3x2xi64>, %eu: tensor<3x2xf32>,
                    %d: tensor<8xf32>, %ni: tensor<4x1xi64>, %nu: tensor<4xf32>) {
  // CHECK: tc.top_k %{{.*}} {axis = 1 : i64, k = 3 : i64, smallest} : (tensor<2x10xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %0:2 = tc.top_k %x {k = 3 : i64, axis = 1 : i64, smallest} : (tensor<2x10xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
  // CHECK: tc.cumsum %{{.*}} {axis = 1 : i64, exclusive, reverse} : tensor<2x10xf32>
  %1 = tc.cumsum %x {axis = 1 : i64, exclusive, reverse} : tensor<2x10xf32>
  // CHECK: tc.non_zero %{{.*}} : (tensor<2x10xf32>) -> tensor<2x?xi64>
  %nz = tc.non_zero %x : (tensor<2x10xf32>) -> tensor<2x?xi64>
  // CHECK: tc.gather_nd %{{.*}}, %{{.*}} : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  %2 = tc.gather_nd %v, %i2 : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  // CHECK: tc.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, reduction = "add"}
  %3 = tc.scatter_elements %e, %ei, %eu {axis = 1 : i64, reduction = "add"} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  // CHECK: tc.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
  %4 = tc.scatter_nd %d, %ni, %nu : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
  return
}

// CHECK-LABEL: func @data_dependent
func.func @data_dependent(%x: tensor<6xf32>, %m: tensor<2x4x3xi32>, %boxes: tensor<1x6x4xf32>,
                          %scores: tensor<1x2x6xf32>, %max: tensor<1xi64>, %iou: tensor<1xf32>,
                          %cache: tensor<2x4x8x16xf32>, %u: tensor<2x4x3x16xf32>, %w: tensor<2xi64>,
                          %sq: tensor<5x3x3xf64>) {
  // CHECK: tc.unique %{{.*}} : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
  %0:4 = tc.unique %x : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
  // CHECK: tc.unique %{{.*}} {axis = 1 : i64, unsorted} : (tensor<2x4x3xi32>) -> (tensor<2x?x3xi32>, tensor<?xi64>, tensor<4xi64>, tensor<?xi64>)
  %1:4 = tc.unique %m {axis = 1 : i64, unsorted} : (tensor<2x4x3xi32>) -> (tensor<2x?x3xi32>, tensor<?xi64>, tensor<4xi64>, tensor<?xi64>)
  // CHECK: tc.non_max_suppression %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {center_point_box} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  %2 = tc.non_max_suppression %boxes, %scores, %max, %iou, %iou {center_point_box} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  // CHECK: tc.tensor_scatter %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64, circular} : (tensor<2x4x8x16xf32>, tensor<2x4x3x16xf32>, tensor<2xi64>) -> tensor<2x4x8x16xf32>
  %3 = tc.tensor_scatter %cache, %u, %w {axis = 2 : i64, circular} : (tensor<2x4x8x16xf32>, tensor<2x4x3x16xf32>, tensor<2xi64>) -> tensor<2x4x8x16xf32>
  // CHECK: tc.tensor_scatter %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<2x4x8x16xf32>, tensor<2x4x3x16xf32>) -> tensor<2x4x8x16xf32>
  %4 = tc.tensor_scatter %cache, %u {axis = 2 : i64} : (tensor<2x4x8x16xf32>, tensor<2x4x3x16xf32>) -> tensor<2x4x8x16xf32>
  // CHECK: tc.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: 0>, steps = array<i64: -1>} : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  %ds = tc.dynamic_slice %x, %max, %max {axes = array<i64: 0>, steps = array<i64: -1>} : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  // CHECK: tc.det %{{.*}} : (tensor<5x3x3xf64>) -> tensor<5xf64>
  %5 = tc.det %sq : (tensor<5x3x3xf64>) -> tensor<5xf64>
  // CHECK: tc.random_uniform {high = 2.000000e+00 : f64, low = -1.000000e+00 : f64, seed = 7 : i64} : () -> tensor<4x4xf32>
  %6 = tc.random_uniform {low = -1.0 : f64, high = 2.0 : f64, seed = 7 : i64} : () -> tensor<4x4xf32>
  // CHECK: tc.random_uniform %{{.*}} {high = 1.000000e+00 : f64, low = 0.000000e+00 : f64, seed = 3 : i64} : (tensor<6xf32>) -> tensor<6xf16>
  %7 = tc.random_uniform %x {low = 0.0 : f64, high = 1.0 : f64, seed = 3 : i64} : (tensor<6xf32>) -> tensor<6xf16>
  return
}

// The pixel format defaults to RGB (and is then not printed).
// CHECK-LABEL: func @images
func.func @images(%bytes: tensor<?xui8>, %fixed: tensor<312xui8>) {
  // CHECK: tc.image_decode %{{.*}} : (tensor<?xui8>) -> tensor<?x?x3xui8>
  %0 = tc.image_decode %bytes : (tensor<?xui8>) -> tensor<?x?x3xui8>
  // CHECK: tc.image_decode %{{.*}} {pixel_format = "BGR"} : (tensor<312xui8>) -> tensor<?x?x3xui8>
  %1 = tc.image_decode %fixed {pixel_format = "BGR"} : (tensor<312xui8>) -> tensor<?x?x3xui8>
  // CHECK: tc.image_decode %{{.*}} {pixel_format = "Grayscale"} : (tensor<?xui8>) -> tensor<?x?x1xui8>
  %2 = tc.image_decode %bytes {pixel_format = "Grayscale"} : (tensor<?xui8>) -> tensor<?x?x1xui8>
  return
}

// CHECK-LABEL: func @tensors
func.func @tensors(%x: tensor<4x?xf32>) {
  // CHECK: tc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %0 = tc.constant dense<[1, 2, 3]> : tensor<3xi64>
  // CHECK: tc.constant dense_resource<weights> : tensor<2xf32>
  %1 = tc.constant dense_resource<weights> : tensor<2xf32>
  // CHECK: tc.cast %{{.*}} : (tensor<4x?xf32>) -> tensor<4x?xbf16>
  %2 = tc.cast %x : (tensor<4x?xf32>) -> tensor<4x?xbf16>
  // CHECK: tc.cast %{{.*}} : (tensor<3xi64>) -> tensor<3xui8>
  %3 = tc.cast %0 : (tensor<3xi64>) -> tensor<3xui8>
  return
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
