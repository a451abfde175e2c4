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
