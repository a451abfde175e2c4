// RUN: tc-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

func.func @binary_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tc.add' op operands are not broadcast-compatible: dimension 1 of lhs (3) does not match dimension 0 of rhs (4) and neither is 1}}
  %0 = tc.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @select_not_broadcastable(%c: tensor<5xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'tc.select' op operands are not broadcast-compatible: dimension 0 of condition (5) does not match dimension 0 of on_true (4) and neither is 1}}
  %0 = tc.select %c, %a, %a : (tensor<5xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @binary_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'tc.mul' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = tc.mul %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @binary_result_shape(%a: tensor<4x1xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'tc.sub' op result type 'tensor<4x9xf32>' does not match the type inferred from the operands, 'tensor<4x8xf32>'}}
  %0 = tc.sub %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @float_only(%a: tensor<4xi32>) {
  // expected-error @+1 {{'tc.exp' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = tc.exp %a : tensor<4xi32>
  return
}

// -----

func.func @unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{'tc.abs' op operand #0 must be ranked tensor of float or integer values, but got 'tensor<*xf32>'}}
  %0 = "tc.abs"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @integer_only(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tc.not' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %0 = tc.not %a : tensor<4xf32>
  return
}

// -----

func.func @float_mod_needs_fmod(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tc.mod' op needs the 'fmod' attribute for floating-point operands (ONNX Mod with fmod=0 is integer-only)}}
  %0 = tc.mod %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @compare_result_bool(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tc.compare' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tc.compare eq, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_bounds_scalar(%a: tensor<4xf32>, %lo: tensor<1xf32>) {
  // expected-error @+1 {{'tc.clamp' op operand #1 must be 0D tensor of float or integer values, but got 'tensor<1xf32>'}}
  %0 = tc.clamp %a, %lo, %lo : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

func.func @matmul_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'tc.matmul' op expects 2-D lhs and rhs, got ranks 3 and 2 (tc.batch_matmul takes batches)}}
  %0 = tc.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @matmul_contraction(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error @+1 {{'tc.matmul' op contraction size mismatch: lhs dimension 1 is 4 but rhs dimension 0 is 5}}
  %0 = tc.matmul %a, %b : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @batch_matmul_rank(%a: tensor<3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'tc.batch_matmul' op expects lhs and rhs of one rank >= 3, got ranks 2 and 3}}
  %0 = tc.batch_matmul %a, %b : (tensor<3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @batch_matmul_contraction(%a: tensor<2x3x4xf32>, %b: tensor<2x6x5xf32>) {
  // expected-error @+1 {{'tc.batch_matmul' op contraction size mismatch: lhs dimension 2 is 4 but rhs dimension 1 is 6}}
  %0 = tc.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x6x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @batch_matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error @+1 {{'tc.batch_matmul' op batch dimensions do not broadcast: dimension 0 of lhs (2) does not match dimension 0 of rhs (3) and neither is 1}}
  %0 = tc.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @conv_input_rank(%x: tensor<3x8xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.conv' op expects input of rank >= 3 ([N, C, spatial...]), got rank 2}}
  %0 = tc.conv %x, %w : (tensor<3x8xf32>, tensor<4x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @conv_filter_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op expects filter of rank 4 like the input, got rank 3}}
  %0 = tc.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_strides_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op expects 2 strides values, got 1}}
  %0 = tc.conv %x, %w {strides = array<i64: 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  return
}

// -----

func.func @conv_dilations_positive(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op strides and dilations must be >= 1}}
  %0 = tc.conv %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_padding_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op padding must be >= 0}}
  %0 = tc.conv %x, %w {padding = array<i64: 0, -1, 0, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x5xf32>
  return
}

// -----

func.func @conv_groups_positive(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op groups must be >= 1, got 0}}
  %0 = tc.conv %x, %w {groups = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_channels_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op input channels (3) are not divisible by groups (2)}}
  %0 = tc.conv %x, %w {groups = 2 : i64} : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_filters_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op filter count (3) is not divisible by groups (2)}}
  %0 = tc.conv %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @conv_filter_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op filter dimension 1 is 2 but input channels / groups is 3}}
  %0 = tc.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'tc.conv' op expects bias of shape [4], got [5]}}
  %0 = tc.conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'tc.conv' op bias element type 'f16' differs from the input's 'f32'}}
  %0 = tc.conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_kernel_fits(%x: tensor<1x3x2x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'tc.conv' op kernel of size 3 (dilation 1) does not fit spatial dimension 0 of size 2 with its padding}}
  %0 = tc.conv %x, %w : (tensor<1x3x2x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x6xf32>
  return
}

// -----

func.func @conv_input_filter_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{'tc.conv' op failed to verify that all of {input, filter} have same element type}}
  %0 = tc.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv_transpose' op filter dimension 0 is 4 but the input has 3 channels}}
  %0 = tc.conv_transpose %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv_transpose' op expects 2 output_padding values, got 1}}
  %0 = tc.conv_transpose %x, %w {output_padding = array<i64: 1>} : (tensor<1x3x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return
}

// -----

func.func @conv_transpose_size(%x: tensor<1x3x1x1xf32>, %w: tensor<3x2x1x1xf32>) {
  // expected-error @+1 {{'tc.conv_transpose' op spatial dimension 0 would have size -1}}
  %0 = tc.conv_transpose %x, %w {padding = array<i64: 1, 0, 1, 0>} : (tensor<1x3x1x1xf32>, tensor<3x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

func.func @pool_rank(%x: tensor<3x8xf32>) {
  // expected-error @+1 {{'tc.max_pool' op expects input of rank >= 3 ([N, C, spatial...]), got rank 2}}
  %0 = tc.max_pool %x {kernel_shape = array<i64: 2>} : (tensor<3x8xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @pool_kernel_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'tc.max_pool' op expects 2 kernel_shape values, got 1}}
  %0 = tc.max_pool %x {kernel_shape = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_kernel_positive(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'tc.avg_pool' op kernel_shape must be >= 1}}
  %0 = tc.avg_pool %x {kernel_shape = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_padding_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'tc.max_pool' op padding of spatial dimension 1 must be smaller than the kernel size 2}}
  %0 = tc.max_pool %x {kernel_shape = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x9xf32>
  return
}

// -----

func.func @pool_window_fits(%x: tensor<1x3x8x2xf32>) {
  // expected-error @+1 {{'tc.max_pool' op window of size 3 does not fit spatial dimension 1 of size 2 with its padding}}
  %0 = tc.max_pool %x {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x8x2xf32>) -> tensor<1x3x6x1xf32>
  return
}

// -----

func.func @avg_pool_float(%x: tensor<1x3x8x8xi32>) {
  // expected-error @+1 {{'tc.avg_pool' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<1x3x8x8xi32>'}}
  %0 = tc.avg_pool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xi32>) -> tensor<1x3x7x7xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

func.func @reduce_axis_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.reduce_sum' op axis 2 is out of range for an input of rank 2}}
  %0 = tc.reduce_sum %x {axes = array<i64: 2>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_axis_repeated(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.reduce_max' op axis 1 is repeated}}
  %0 = tc.reduce_max %x {axes = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @argmax_result_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.argmax' op result #0 must be tensor of 64-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = tc.argmax %x {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

func.func @softmax_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.softmax' op axis -1 is out of range for an input of rank 2}}
  %0 = tc.softmax %x {axis = -1 : i64} : tensor<4x8xf32>
  return
}

// -----

func.func @layer_norm_scale(%x: tensor<2x4x8xf32>, %g: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.layer_norm' op expects scale of shape [8] (the input's dimensions from axis 2), got [4x8]}}
  %0 = tc.layer_norm %x, %g {axis = 2 : i64} : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @layer_norm_bias_type(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'tc.layer_norm' op bias element type 'f16' differs from the input's 'f32'}}
  %0 = tc.layer_norm %x, %g, %b {axis = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf16>) -> tensor<2x8xf32>
  return
}

// -----

func.func @attention_rank(%q: tensor<2x16x64xf32>, %k: tensor<16x64xf32>) {
  // expected-error @+1 {{'tc.attention' op expects query, key and value of one rank >= 2, got ranks 3, 2 and 2}}
  %0 = tc.attention %q, %k, %k {scale = 1.0 : f32} : (tensor<2x16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @attention_head_size(%q: tensor<2x16x64xf32>, %k: tensor<2x16x32xf32>) {
  // expected-error @+1 {{'tc.attention' op head size mismatch: query dimension 2 is 64 but key dimension 2 is 32}}
  %0 = tc.attention %q, %k, %k {scale = 1.0 : f32} : (tensor<2x16x64xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return
}

// -----

func.func @attention_transposed_key(%q: tensor<2x16x64xf32>, %kt: tensor<2x16x64xf32>) {
  // expected-error @+1 {{'tc.attention' op head size mismatch: query dimension 2 is 64 but key dimension 1 is 16}}
  %0 = tc.attention %q, %kt, %q {key_transposed, scale = 1.0 : f32} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @attention_sequence(%q: tensor<2x16x64xf32>, %k: tensor<2x24x64xf32>, %v: tensor<2x16x64xf32>) {
  // expected-error @+1 {{'tc.attention' op sequence length mismatch: key dimension 1 is 24 but value dimension 1 is 16}}
  %0 = tc.attention %q, %k, %v {scale = 1.0 : f32} : (tensor<2x16x64xf32>, tensor<2x24x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @attention_batch_key(%q: tensor<2x16x64xf32>, %k: tensor<3x16x64xf32>) {
  // expected-error @+1 {{'tc.attention' op batch dimensions do not broadcast: dimension 0 of query (2) does not match dimension 0 of key (3)}}
  %0 = tc.attention %q, %k, %k {scale = 1.0 : f32} : (tensor<2x16x64xf32>, tensor<3x16x64xf32>, tensor<3x16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @attention_batch_value(%q: tensor<2x16x64xf32>, %v: tensor<3x16x64xf32>) {
  // expected-error @+1 {{'tc.attention' op batch dimensions do not broadcast: dimension 0 of query (2) does not match dimension 0 of value (3)}}
  %0 = tc.attention %q, %q, %v {scale = 1.0 : f32} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<3x16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @attention_mask_type(%q: tensor<2x16x64xf32>, %m: tensor<2x16x16xf16>) {
  // expected-error @+1 {{'tc.attention' op mask element type 'f16' differs from the query's 'f32'}}
  %0 = tc.attention %q, %q, %q, %m {scale = 1.0 : f32} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x16xf16>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @attention_mask_shape(%q: tensor<1x16x64xf32>, %m: tensor<4x16x16xf32>) {
  // expected-error @+1 {{'tc.attention' op mask of shape [4x16x16] does not broadcast to the scores' shape [1x16x16]}}
  %0 = tc.attention %q, %q, %q, %m {scale = 1.0 : f32} : (tensor<1x16x64xf32>, tensor<1x16x64xf32>, tensor<1x16x64xf32>, tensor<4x16x16xf32>) -> tensor<1x16x64xf32>
  return
}

// -----

func.func @batch_norm_rank(%x: tensor<8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'tc.batch_norm' op expects input of rank >= 2 ([N, C, ...]), got rank 1}}
  %0 = tc.batch_norm %x, %s, %s, %s, %s : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @batch_norm_channels(%x: tensor<1x4x2x2xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'tc.batch_norm' op expects scale, bias, mean and variance of shape [4] (the input's channels), got [8]}}
  %0 = tc.batch_norm %x, %s, %s, %s, %s : (tensor<1x4x2x2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

func.func @reshape_shape_operand(%x: tensor<?x8xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'tc.reshape' op shape operand has 3 elements but the result has rank 2}}
  %0 = tc.reshape %x, %s : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reshape' op input has 6 elements but the result type has 8}}
  %0 = tc.reshape %x : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_dynamic_needs_shape(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'tc.reshape' op result has 2 dynamic dimensions; a shape operand must supply them}}
  %0 = tc.reshape %x : (tensor<?x8xf32>) -> tensor<?x?x2xf32>
  return
}

// -----

func.func @reshape_indivisible(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reshape' op input has 6 elements, which the static result sizes (4 elements) do not divide}}
  %0 = tc.reshape %x : (tensor<2x3xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @transpose_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.transpose' op permutation has 3 entries but the input has rank 2}}
  %0 = tc.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.transpose' op permutation [1x1] is not a permutation of the input dimensions}}
  %0 = tc.transpose %x {permutation = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'tc.concat' op expects at least one input}}
  %0 = tc.concat {axis = 0 : i64} : () -> tensor<0xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.concat' op axis 2 is out of range for inputs of rank 2}}
  %0 = tc.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.concat' op input #1 has rank 1 but input #0 has rank 2}}
  %0 = tc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_sizes(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'tc.concat' op input #1 has size 4 in dimension 1 but the inputs before it have 3}}
  %0 = tc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_arity(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.slice' op expects 2 starts, ends and steps (one per dimension), got 1, 2 and 2}}
  %0 = tc.slice %x {starts = array<i64: 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_zero_step(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.slice' op step of dimension 1 is zero}}
  %0 = tc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_unclamped(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.slice' op bounds [0, 9) with step 1 of dimension 1 are not clamped to its size 8}}
  %0 = tc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 9>, steps = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<4x8xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'tc.gather' op axis 2 is out of range for an input of rank 2}}
  %0 = tc.gather %x, %i {axis = 2 : i64} : (tensor<4x8xf32>, tensor<3xi64>) -> tensor<4x8x3xf32>
  return
}

// -----

func.func @gather_indices(%x: tensor<4x8xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{'tc.gather' op operand #1 must be ranked tensor of signless integer values, but got 'tensor<3xf32>'}}
  %0 = tc.gather %x, %i {axis = 0 : i64} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @gather_elements_rank(%x: tensor<4x8xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'tc.gather_elements' op indices have rank 1 but the input has rank 2}}
  %0 = tc.gather_elements %x, %i {axis = 0 : i64} : (tensor<4x8xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_elements_axis(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{'tc.gather_elements' op axis 2 is out of range for an input of rank 2}}
  %0 = tc.gather_elements %x, %i {axis = 2 : i64} : (tensor<4x8xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_elements_size(%x: tensor<4x8xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+1 {{'tc.gather_elements' op indices dimension 0 (5) exceeds the input's (4)}}
  %0 = tc.gather_elements %x, %i {axis = 1 : i64} : (tensor<4x8xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return
}

// -----

func.func @range_types(%a: tensor<i64>, %b: tensor<i32>) {
  // expected-error @+1 {{'tc.range' op failed to verify that all of {start, limit, delta} have same type}}
  %0 = tc.range %a, %b, %a : (tensor<i64>, tensor<i32>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

func.func @top_k_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.top_k' op k = 4 does not fit dimension 1 of size 3}}
  %0:2 = tc.top_k %x {k = 4 : i64, axis = 1 : i64} : (tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xi64>)
  return
}

// -----

func.func @top_k_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.top_k' op axis 2 is out of range for an input of rank 2}}
  %0:2 = tc.top_k %x {k = 1 : i64, axis = 2 : i64} : (tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xi64>)
  return
}

// -----

func.func @cumsum_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.cumsum' op axis 2 is out of range for an input of rank 2}}
  %0 = tc.cumsum %x {axis = 2 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @gather_nd_static_q(%x: tensor<4x5xf32>, %i: tensor<3x?xi64>) {
  // expected-error @+1 {{'tc.gather_nd' op indices need a static last dimension}}
  %0 = tc.gather_nd %x, %i : (tensor<4x5xf32>, tensor<3x?xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_nd_fit(%x: tensor<4x5xf32>, %i: tensor<3x3xi64>) {
  // expected-error @+1 {{'tc.gather_nd' op index vectors of length 3 after 0 batch dimensions do not fit an input of rank 2}}
  %0 = tc.gather_nd %x, %i : (tensor<4x5xf32>, tensor<3x3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @scatter_elements_rank(%x: tensor<4x5xf32>, %i: tensor<3xi64>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'tc.scatter_elements' op indices have rank 1 but the input has rank 2}}
  %0 = tc.scatter_elements %x, %i, %u {axis = 0 : i64} : (tensor<4x5xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_elements_axis(%x: tensor<4x5xf32>, %i: tensor<3x5xi64>, %u: tensor<3x5xf32>) {
  // expected-error @+1 {{'tc.scatter_elements' op axis 2 is out of range for an input of rank 2}}
  %0 = tc.scatter_elements %x, %i, %u {axis = 2 : i64} : (tensor<4x5xf32>, tensor<3x5xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_elements_updates(%x: tensor<4x5xf32>, %i: tensor<3x5xi64>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.scatter_elements' op updates of shape [3x4] differ from the indices' [3x5]}}
  %0 = tc.scatter_elements %x, %i, %u {axis = 0 : i64} : (tensor<4x5xf32>, tensor<3x5xi64>, tensor<3x4xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_reduction(%x: tensor<4x5xf32>, %i: tensor<3x5xi64>, %u: tensor<3x5xf32>) {
  // expected-error @+1 {{'tc.scatter_elements' op unknown reduction 'mean'}}
  %0 = tc.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "mean"} : (tensor<4x5xf32>, tensor<3x5xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_nd_indices(%x: tensor<8xf32>, %i: tensor<4x2xi64>, %u: tensor<4xf32>) {
  // expected-error @+1 {{'tc.scatter_nd' op indices need a static last dimension of at most the input's rank}}
  %0 = tc.scatter_nd %x, %i, %u : (tensor<8xf32>, tensor<4x2xi64>, tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_nd_updates(%x: tensor<8x3xf32>, %i: tensor<4x1xi64>, %u: tensor<4xf32>) {
  // expected-error @+1 {{'tc.scatter_nd' op expects updates of shape [4x3], got [4]}}
  %0 = tc.scatter_nd %x, %i, %u : (tensor<8x3xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @broadcast_shapes(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'tc.broadcast' op input of shape [2x8] does not broadcast to the result shape [4x3x8]}}
  %0 = tc.broadcast %x : (tensor<2x8xf32>) -> tensor<4x3x8xf32>
  return
}

// -----

func.func @broadcast_dynamic(%x: tensor<1x8xf32>) {
  // expected-error @+1 {{'tc.broadcast' op result dimension 0 is dynamic; a shape operand must supply it}}
  %0 = tc.broadcast %x : (tensor<1x8xf32>) -> tensor<?x8xf32>
  return
}

// -----

func.func @broadcast_shape_operand(%x: tensor<1x8xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'tc.broadcast' op shape operand has 3 elements but the result has rank 2}}
  %0 = tc.broadcast %x, %s : (tensor<1x8xf32>, tensor<3xi64>) -> tensor<?x8xf32>
  return
}

// -----

func.func @pad_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.pad' op expects 4 padding values (begin and end per dimension), got 2}}
  %0 = tc.pad %x {padding = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<6x8xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.pad' op padding must be >= 0}}
  %0 = tc.pad %x {padding = array<i64: 0, -1, 0, 0>} : (tensor<4x8xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @pad_value_type(%x: tensor<4x8xf32>, %v: tensor<f16>) {
  // expected-error @+1 {{'tc.pad' op padding value element type 'f16' differs from the input's 'f32'}}
  %0 = tc.pad %x, %v {padding = array<i64: 1, 0, 1, 0>} : (tensor<4x8xf32>, tensor<f16>) -> tensor<6x8xf32>
  return
}

// -----

func.func @pad_value_mode(%x: tensor<4x8xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'tc.pad' op a padding value is only used with mode(constant)}}
  %0 = tc.pad %x, %v mode(edge) {padding = array<i64: 1, 0, 1, 0>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<6x8xf32>
  return
}

// -----

func.func @pad_reflect(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.pad' op reflect padding of dimension 0 must be smaller than its size 4}}
  %0 = tc.pad %x mode(reflect) {padding = array<i64: 4, 0, 0, 0>} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @resize_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.resize' op result rank 1 differs from the input rank 2}}
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0>} : (tensor<4x8xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @resize_scales(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.resize' op expects 2 scales, got 1}}
  %0 = tc.resize %x {scales = array<f32: 2.0>} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @resize_positive(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.resize' op scales must be positive}}
  %0 = tc.resize %x {scales = array<f32: 0.0, 1.0>} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @resize_mode(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.resize' op unknown mode 'bilinear'}}
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0>, mode = "bilinear"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @resize_roi(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.resize' op tf_crop_and_resize needs a roi of 4 values}}
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0>, coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @shape_of_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.shape_of' op result type 'tensor<3xi64>' does not match the type inferred from the operands, 'tensor<2xi64>'}}
  %0 = tc.shape_of %x : (tensor<4x8xf32>) -> tensor<3xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

func.func @cast_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.cast' op requires the same shape for all operands and results}}
  %0 = tc.cast %x : (tensor<4x8xf32>) -> tensor<8x4xf16>
  return
}

// -----

func.func @constant_vector() {
  // expected-error @+1 {{'tc.constant' op result #0 must be ranked tensor of float or integer values, but got 'vector<2xi32>'}}
  %0 = tc.constant dense<1> : vector<2xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Data-dependent and random ops
//===----------------------------------------------------------------------===//

func.func @unique_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.unique' op axis 2 is out of range for an input of rank 2}}
  %0:4 = tc.unique %x {axis = 2 : i64} : (tensor<2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi64>, tensor<3xi64>, tensor<?xi64>)
  return
}

// -----

func.func @nms_boxes(%b: tensor<1x6x5xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>) {
  // expected-error @+1 {{'tc.non_max_suppression' op expects boxes of shape [B, N, 4], got [1x6x5]}}
  %0 = tc.non_max_suppression %b, %s, %m, %i : (tensor<1x6x5xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_scores(%b: tensor<1x6x4xf32>, %s: tensor<1x2x7xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>) {
  // expected-error @+1 {{'tc.non_max_suppression' op expects scores of shape [B, C, N] matching boxes [1x6x4], got [1x2x7]}}
  %0 = tc.non_max_suppression %b, %s, %m, %i : (tensor<1x6x4xf32>, tensor<1x2x7xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @nms_limit(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<2xi64>, %i: tensor<1xf32>) {
  // expected-error @+1 {{'tc.non_max_suppression' op expects its limits to hold one value each, got [2]}}
  %0 = tc.non_max_suppression %b, %s, %m, %i : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<2xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @tensor_scatter_axis(%c: tensor<2x8x4xf32>, %u: tensor<2x8x4xf32>) {
  // expected-error @+1 {{'tc.tensor_scatter' op axis 0 is out of range [1, 3)}}
  %0 = tc.tensor_scatter %c, %u {axis = 0 : i64} : (tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return
}

// -----

func.func @tensor_scatter_long(%c: tensor<2x8x4xf32>, %u: tensor<2x9x4xf32>) {
  // expected-error @+1 {{'tc.tensor_scatter' op update [2x9x4] does not fit cache [2x8x4] at axis 1}}
  %0 = tc.tensor_scatter %c, %u {axis = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x9x4xf32>) -> tensor<2x8x4xf32>
  return
}

// -----

func.func @tensor_scatter_indices(%c: tensor<2x8x4xf32>, %u: tensor<2x1x4xf32>, %w: tensor<3xi64>) {
  // expected-error @+1 {{'tc.tensor_scatter' op expects write_indices of shape [2], got [3]}}
  %0 = tc.tensor_scatter %c, %u, %w {axis = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x1x4xf32>, tensor<3xi64>) -> tensor<2x8x4xf32>
  return
}

// -----

func.func @det_square(%x: tensor<4x3x2xf32>) {
  // expected-error @+1 {{'tc.det' op expects square matrices [..., M, M], got [4x3x2]}}
  %0 = tc.det %x : (tensor<4x3x2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @random_shape() {
  // expected-error @+1 {{'tc.random_uniform' op needs a static result shape or a tensor to take the shape of}}
  %0 = tc.random_uniform {low = 0.0 : f64, high = 1.0 : f64, seed = 1 : i64} : () -> tensor<?xf32>
  return
}

// -----

func.func @random_like(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.random_uniform' op result [4x3] does not have the shape of [3x4]}}
  %0 = tc.random_uniform %x {low = 0.0 : f64, high = 1.0 : f64, seed = 1 : i64} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @random_bounds() {
  // expected-error @+1 {{'tc.random_uniform' op expects low <= high, got 2.000000e+00 and 1.000000e+00}}
  %0 = tc.random_uniform {low = 2.0 : f64, high = 1.0 : f64, seed = 1 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @dynamic_slice_axes(%x: tensor<4x8xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'tc.dynamic_slice' op axis 1 is out of range or repeated}}
  %0 = tc.dynamic_slice %x, %s, %s {axes = array<i64: 1, 1>, steps = array<i64: 1, 1>} : (tensor<4x8xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x?xf32>
  return
}

// -----

func.func @dynamic_slice_bounds(%x: tensor<4x8xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'tc.dynamic_slice' op expects starts and ends of shape [1] (one per axis), got [2]}}
  %0 = tc.dynamic_slice %x, %s, %s {axes = array<i64: 1>, steps = array<i64: 1>} : (tensor<4x8xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x?xf32>
  return
}

// -----

func.func @image_format(%x: tensor<?xui8>) {
  // expected-error @+1 {{'tc.image_decode' op pixel_format 'CMYK' is not RGB, BGR or Grayscale}}
  %0 = tc.image_decode %x {pixel_format = "CMYK"} : (tensor<?xui8>) -> tensor<?x?x4xui8>
  return
}

// -----

func.func @image_channels(%x: tensor<?xui8>) {
  // expected-error @+1 {{'tc.image_decode' op result type 'tensor<?x?x1xui8>' does not match the type inferred from the operands, 'tensor<?x?x3xui8>'}}
  %0 = tc.image_decode %x : (tensor<?xui8>) -> tensor<?x?x1xui8>
  return
}
