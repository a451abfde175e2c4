// RUN: tc-opt %s --tc-fold-constants --split-input-file | FileCheck %s

// A transposed weight blob (Gemm's transB) becomes a blob in the transposed
// layout: [[1, 2, 3], [4, 5, 6]] is stored as [[1, 4], [2, 5], [3, 6]].
// CHECK-LABEL: func.func @transpose_blob
// CHECK: %[[W:.*]] = tc.constant dense_resource<[[BLOB:transposed.*]]> : tensor<3x2xf32>
// CHECK-NOT: tc.transpose
// CHECK: return %[[W]]
// CHECK: [[BLOB]]: "0x040000000000803F00008040000000400000A040000040400000C040"
func.func @transpose_blob() -> tensor<3x2xf32> {
  %w = tc.constant dense_resource<weight> : tensor<2x3xf32>
  %t = tc.transpose %w {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// A weight that is also read untransposed stays one blob.
// CHECK-LABEL: func.func @shared_weight
// CHECK: tc.transpose
func.func @shared_weight() -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %w = tc.constant dense_resource<weight> : tensor<2x3xf32>
  %t = tc.transpose %w {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %w, %t : tensor<2x3xf32>, tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// Rank 3 with a rotation: out[i, j, k] = in[k, i, j] for in of shape
// 2x1x2 holding bytes 1..4 (i8): out (1x2x2) holds 1, 3, 2, 4.
// CHECK-LABEL: func.func @rotate_i8
// CHECK: tc.constant dense_resource<[[BLOB:transposed.*]]> : tensor<1x2x2xi8>
// CHECK: [[BLOB]]: "0x0100000001030204"
func.func @rotate_i8() -> tensor<1x2x2xi8> {
  %w = tc.constant dense_resource<bytes> : tensor<2x1x2xi8>
  %t = tc.transpose %w {permutation = array<i64: 1, 2, 0>} : (tensor<2x1x2xi8>) -> tensor<1x2x2xi8>
  return %t : tensor<1x2x2xi8>
}

{-#
  dialect_resources: {
    builtin: {
      bytes: "0x0100000001020304"
    }
  }
#-}

// -----

// --precision's cast of a weight becomes a bf16 blob, rounded to nearest
// even: 1.0, 1 + 2^-8 (a tie: down to the even 1.0), 1 + 3 * 2^-8 (a tie: up
// to the even 1 + 2^-6), -2.5.
// CHECK-LABEL: func.func @narrow_bf16
// CHECK: %[[W:.*]] = tc.constant dense_resource<[[BLOB:narrowed.*]]> : tensor<4xbf16>
// CHECK-NOT: tc.cast
// CHECK: return %[[W]]
// CHECK: [[BLOB]]: "0x02000000803F803F823F20C0"
func.func @narrow_bf16() -> tensor<4xbf16> {
  %w = tc.constant dense_resource<weight> : tensor<4xf32>
  %c = tc.cast %w : (tensor<4xf32>) -> tensor<4xbf16>
  return %c : tensor<4xbf16>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F0080803F0080813F000020C0"
    }
  }
#-}

// -----

// The same to f16: 1.0, 65504 (the largest finite), 1e5 (infinity), 2^-24
// (the smallest subnormal). A weight with another reader keeps its f32 blob
// beside the narrowed one; a splat narrows to a splat.
// CHECK-LABEL: func.func @narrow_f16
// CHECK-DAG: %[[W:.*]] = tc.constant dense_resource<weight> : tensor<4xf32>
// CHECK-DAG: %[[N:.*]] = tc.constant dense_resource<[[BLOB:narrowed.*]]> : tensor<4xf16>
// CHECK-DAG: %[[S:.*]] = tc.constant dense<1.500000e+00> : tensor<2xf16>
// CHECK: return %[[N]], %[[W]], %[[S]]
// CHECK: [[BLOB]]: "0x02000000003CFF7B007C0100"
func.func @narrow_f16() -> (tensor<4xf16>, tensor<4xf32>, tensor<2xf16>) {
  %w = tc.constant dense_resource<weight> : tensor<4xf32>
  %c = tc.cast %w : (tensor<4xf32>) -> tensor<4xf16>
  %s = tc.constant dense<1.5> : tensor<2xf32>
  %sc = tc.cast %s : (tensor<2xf32>) -> tensor<2xf16>
  return %c, %w, %sc : tensor<4xf16>, tensor<4xf32>, tensor<2xf16>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F00E07F470050C34700008033"
    }
  }
#-}

// -----

// --precision=tf32's rounding of a weight becomes an f32 blob of rounded
// values, to nearest even at TF32's 10 mantissa bits: 1.0, 1 + 2^-11 (a tie:
// down to the even 1.0), 1 + 3 * 2^-11 (a tie: up to the even 1 + 2^-9), f32's
// largest finite value (beyond TF32's: infinity), a NaN (kept with its
// payload). A splat rounds to a splat.
// CHECK-LABEL: func.func @round_tf32
// CHECK-DAG: %[[W:.*]] = tc.constant dense_resource<[[BLOB:tf32.*]]> : tensor<5xf32>
// CHECK-DAG: %[[S:.*]] = tc.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NOT: tc.round_to_tf32
// CHECK: return %[[W]], %[[S]]
// CHECK: [[BLOB]]: "0x040000000000803F0000803F0040803F0000807F0100807F"
func.func @round_tf32() -> (tensor<5xf32>, tensor<2xf32>) {
  %w = tc.constant dense_resource<weight> : tensor<5xf32>
  %r = tc.round_to_tf32 %w : tensor<5xf32>
  %s = tc.constant dense<1.0001> : tensor<2xf32>
  %sr = tc.round_to_tf32 %s : tensor<2xf32>
  return %r, %sr : tensor<5xf32>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F0010803F0030803FFFFF7F7F0100807F"
    }
  }
#-}
