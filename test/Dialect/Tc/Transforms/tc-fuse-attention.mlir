// RUN: tc-opt %s -tc-fuse-attention -split-input-file | FileCheck %s

// BERT as PyTorch exports it: Q divided by sqrt(d) first, K^T a transpose
// of the [L, heads, d] projection, an additive mask of [heads, 1, L]. The
// key stays K^T [heads, d, L] (key_transposed), that transpose's result.
// CHECK-LABEL: func @bert
// CHECK: %[[K:.*]] = tc.transpose %arg1 {permutation = array<i64: 1, 2, 0>} : (tensor<32x8x16xf32>) -> tensor<8x16x32xf32>
// CHECK: %[[A:.*]] = tc.attention %arg0, %[[K]], %arg2, %arg3 {key_transposed, scale = 2.500000e-01 : f32}
// CHECK-SAME: (tensor<8x32x16xf32>, tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<8x1x32xf32>) -> tensor<8x32x16xf32>
// CHECK-NOT: tc.softmax
// CHECK-NOT: tc.batch_matmul
// CHECK: return %[[A]]
func.func @bert(%q: tensor<8x32x16xf32>, %kp: tensor<32x8x16xf32>, %v: tensor<8x32x16xf32>, %mask: tensor<8x1x32xf32>) -> tensor<8x32x16xf32> {
  %c = tc.constant dense<4.000000e+00> : tensor<f32>
  %kt = tc.transpose %kp {permutation = array<i64: 1, 2, 0>} : (tensor<32x8x16xf32>) -> tensor<8x16x32xf32>
  %0 = tc.div %q, %c : (tensor<8x32x16xf32>, tensor<f32>) -> tensor<8x32x16xf32>
  %1 = tc.batch_matmul %0, %kt : (tensor<8x32x16xf32>, tensor<8x16x32xf32>) -> tensor<8x32x32xf32>
  %2 = tc.add %1, %mask : (tensor<8x32x32xf32>, tensor<8x1x32xf32>) -> tensor<8x32x32xf32>
  %3 = tc.softmax %2 {axis = 2 : i64} : tensor<8x32x32xf32>
  %4 = tc.batch_matmul %3, %v : (tensor<8x32x32xf32>, tensor<8x32x16xf32>) -> tensor<8x32x16xf32>
  return %4 : tensor<8x32x16xf32>
}

// -----

// 4-D heads, K^T = transpose(K) of the last two axes (kept: the scores
// read the keys contiguous), the scores multiplied by the scale, no mask;
// V broadcasts over the batch.
// CHECK-LABEL: func @scaled_scores
// CHECK: %[[KT:.*]] = tc.transpose %arg1 {permutation = array<i64: 0, 1, 3, 2>}
// CHECK: tc.attention %arg0, %[[KT]], %arg2 {key_transposed, scale = 1.250000e-01 : f32}
// CHECK-SAME: (tensor<2x4x16x8xf32>, tensor<2x4x8x24xf32>, tensor<1x4x24x32xf32>) -> tensor<2x4x16x32xf32>
func.func @scaled_scores(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<1x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
  %s = tc.constant dense<1.250000e-01> : tensor<1xf32>
  %kt = tc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<2x4x24x8xf32>) -> tensor<2x4x8x24xf32>
  %0 = tc.batch_matmul %q, %kt : (tensor<2x4x16x8xf32>, tensor<2x4x8x24xf32>) -> tensor<2x4x16x24xf32>
  %1 = tc.mul %s, %0 : (tensor<1xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %2 = tc.softmax %1 {axis = 3 : i64} : tensor<2x4x16x24xf32>
  %3 = tc.batch_matmul %2, %v : (tensor<2x4x16x24xf32>, tensor<1x4x24x32xf32>) -> tensor<2x4x16x32xf32>
  return %3 : tensor<2x4x16x32xf32>
}

// -----

// K^T given already transposed (a graph input) is the key as it is. The
// scores are divided by sqrt(d) and the mask is the add's left operand.
// CHECK-LABEL: func @pretransposed_key
// CHECK-NOT: tc.transpose
// CHECK: tc.attention %arg0, %arg1, %arg2, %arg3 {key_transposed, scale = 1.250000e-01 : f32}
func.func @pretransposed_key(%q: tensor<?x16x64xf16>, %kt: tensor<?x64x16xf16>, %v: tensor<?x16x64xf16>, %mask: tensor<16x16xf16>) -> tensor<?x16x64xf16> {
  %d = tc.constant dense<8.000000e+00> : tensor<f16>
  %0 = tc.batch_matmul %q, %kt : (tensor<?x16x64xf16>, tensor<?x64x16xf16>) -> tensor<?x16x16xf16>
  %1 = tc.div %0, %d : (tensor<?x16x16xf16>, tensor<f16>) -> tensor<?x16x16xf16>
  %2 = tc.add %mask, %1 : (tensor<16x16xf16>, tensor<?x16x16xf16>) -> tensor<?x16x16xf16>
  %3 = tc.softmax %2 {axis = 2 : i64} : tensor<?x16x16xf16>
  %4 = tc.batch_matmul %3, %v : (tensor<?x16x16xf16>, tensor<?x16x64xf16>) -> tensor<?x16x64xf16>
  return %4 : tensor<?x16x64xf16>
}

// -----

// The scale split between Q and K^T (d^-1/4 on each, as some exporters
// do) multiplies into one.
// CHECK-LABEL: func @split_scale
// CHECK: %[[KT:.*]] = tc.transpose %arg1 {permutation = array<i64: 0, 2, 1>}
// CHECK: tc.attention %arg0, %[[KT]], %arg2 {key_transposed, scale = 2.500000e-01 : f32}
func.func @split_scale(%q: tensor<1x8x64xf32>, %k: tensor<1x8x64xf32>, %v: tensor<1x8x64xf32>) -> tensor<1x8x64xf32> {
  %s = tc.constant dense<5.000000e-01> : tensor<f32>
  %kt = tc.transpose %k {permutation = array<i64: 0, 2, 1>} : (tensor<1x8x64xf32>) -> tensor<1x64x8xf32>
  %0 = tc.mul %q, %s : (tensor<1x8x64xf32>, tensor<f32>) -> tensor<1x8x64xf32>
  %1 = tc.mul %kt, %s : (tensor<1x64x8xf32>, tensor<f32>) -> tensor<1x64x8xf32>
  %2 = tc.batch_matmul %0, %1 : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
  %3 = tc.softmax %2 {axis = 2 : i64} : tensor<1x8x8xf32>
  %4 = tc.batch_matmul %3, %v : (tensor<1x8x8xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %4 : tensor<1x8x64xf32>
}

// -----

// K scaled before it is transposed: the factor is folded through the
// transpose; a K^T with another reader is the second attention's key.
// CHECK-LABEL: func @key_scaled_before_transpose
// CHECK-NOT: tc.mul
// CHECK: %[[K1:.*]] = tc.transpose %arg1 {permutation = array<i64: 0, 2, 1>}
// CHECK: tc.attention %arg0, %[[K1]], %arg2 {key_transposed, scale = 2.500000e-01 : f32}
// CHECK: %[[KT:.*]] = tc.transpose %arg1 {permutation = array<i64: 0, 2, 1>}
// CHECK: tc.attention %arg0, %[[KT]], %arg2 {key_transposed, scale = 1.000000e+00 : f32}
// CHECK: return %{{.*}}, %{{.*}}, %[[KT]]
func.func @key_scaled_before_transpose(%q: tensor<1x8x64xf32>, %k: tensor<1x8x64xf32>, %v: tensor<1x8x64xf32>)
    -> (tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x64x8xf32>) {
  %s = tc.constant dense<2.500000e-01> : tensor<f32>
  %ks = tc.mul %k, %s : (tensor<1x8x64xf32>, tensor<f32>) -> tensor<1x8x64xf32>
  %kt = tc.transpose %ks {permutation = array<i64: 0, 2, 1>} : (tensor<1x8x64xf32>) -> tensor<1x64x8xf32>
  %0 = tc.batch_matmul %q, %kt : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
  %1 = tc.softmax %0 {axis = 2 : i64} : tensor<1x8x8xf32>
  %2 = tc.batch_matmul %1, %v : (tensor<1x8x8xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  %kt2 = tc.transpose %k {permutation = array<i64: 0, 2, 1>} : (tensor<1x8x64xf32>) -> tensor<1x64x8xf32>
  %3 = tc.batch_matmul %q, %kt2 : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
  %4 = tc.softmax %3 {axis = 2 : i64} : tensor<1x8x8xf32>
  %5 = tc.batch_matmul %4, %v : (tensor<1x8x8xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %2, %5, %kt2 : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x64x8xf32>
}

// -----

// Not attention: the softmax is over another axis.
// CHECK-LABEL: func @softmax_axis
// CHECK-NOT: tc.attention
func.func @softmax_axis(%q: tensor<1x8x64xf32>, %kt: tensor<1x64x8xf32>, %v: tensor<1x8x64xf32>) -> tensor<1x8x64xf32> {
  %0 = tc.batch_matmul %q, %kt : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
  %1 = tc.softmax %0 {axis = 1 : i64} : tensor<1x8x8xf32>
  %2 = tc.batch_matmul %1, %v : (tensor<1x8x8xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %2 : tensor<1x8x64xf32>
}

// -----

// Not fused: the probabilities are also returned (attention weights).
// CHECK-LABEL: func @probs_used
// CHECK-NOT: tc.attention
func.func @probs_used(%q: tensor<1x8x64xf32>, %kt: tensor<1x64x8xf32>, %v: tensor<1x8x64xf32>) -> (tensor<1x8x64xf32>, tensor<1x8x8xf32>) {
  %0 = tc.batch_matmul %q, %kt : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
  %1 = tc.softmax %0 {axis = 2 : i64} : tensor<1x8x8xf32>
  %2 = tc.batch_matmul %1, %v : (tensor<1x8x8xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %2, %1 : tensor<1x8x64xf32>, tensor<1x8x8xf32>
}

// -----

// Not fused: the raw scores have another reader.
// CHECK-LABEL: func @scores_used
// CHECK-NOT: tc.attention
func.func @scores_used(%q: tensor<1x8x64xf32>, %kt: tensor<1x64x8xf32>, %v: tensor<1x8x64xf32>) -> (tensor<1x8x64xf32>, tensor<1x8x8xf32>) {
  %s = tc.constant dense<1.250000e-01> : tensor<f32>
  %0 = tc.batch_matmul %q, %kt : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
  %1 = tc.mul %0, %s : (tensor<1x8x8xf32>, tensor<f32>) -> tensor<1x8x8xf32>
  %2 = tc.softmax %1 {axis = 2 : i64} : tensor<1x8x8xf32>
  %3 = tc.batch_matmul %2, %v : (tensor<1x8x8xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %3, %0 : tensor<1x8x64xf32>, tensor<1x8x8xf32>
}

// -----

// Not fused: the mask broadcasts the scores to more batches.
// CHECK-LABEL: func @mask_enlarges
// CHECK-NOT: tc.attention
func.func @mask_enlarges(%q: tensor<1x8x64xf32>, %kt: tensor<1x64x8xf32>, %v: tensor<1x8x64xf32>, %mask: tensor<4x8x8xf32>) -> tensor<4x8x64xf32> {
  %0 = tc.batch_matmul %q, %kt : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
  %1 = tc.add %0, %mask : (tensor<1x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %2 = tc.softmax %1 {axis = 2 : i64} : tensor<4x8x8xf32>
  %3 = tc.batch_matmul %2, %v : (tensor<4x8x8xf32>, tensor<1x8x64xf32>) -> tensor<4x8x64xf32>
  return %3 : tensor<4x8x64xf32>
}
