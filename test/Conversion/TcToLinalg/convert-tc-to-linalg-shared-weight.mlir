// RUN: tc-opt %s --convert-tc-to-linalg=collapse-shared-weight-batch --split-input-file | FileCheck %s
// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s --check-prefix=DEFAULT

// With collapse-shared-weight-batch (the CPU pipeline's setting), a batch
// matmul of a dynamic batch and sequence by one weight ([1, K, N]) is a 2-D
// linalg.matmul over the lhs with its batch collapsed into the rows, and the
// result expanded back to [B, S, N]: views, no copies. By default (the GPU
// pipeline) it stays the batched generic.
// CHECK-LABEL: func.func @shared_weight
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<?x?x16xf32> into tensor<?x16xf32>
// CHECK: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : tensor<1x16x8xf32> into tensor<16x8xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[ROWS]], %[[W]] : tensor<?x16xf32>, tensor<16x8xf32>)
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK: tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [%[[B]], %[[S]], 8] : tensor<?x8xf32> into tensor<?x?x8xf32>
// DEFAULT-LABEL: func.func @shared_weight
// DEFAULT-NOT: linalg.matmul
// DEFAULT: linalg.generic
func.func @shared_weight(%x: tensor<?x?x16xf32>, %w: tensor<1x16x8xf32>) -> tensor<?x?x8xf32> {
  %0 = tc.batch_matmul %x, %w : (tensor<?x?x16xf32>, tensor<1x16x8xf32>) -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}

// -----

// A static batch of 1 is left to the generic (its unit loop is dropped
// later), and so is a weight that differs per batch entry.
// CHECK-LABEL: func.func @unit_batch
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic
func.func @unit_batch(%x: tensor<1x4x16xf32>, %w: tensor<1x16x8xf32>) -> tensor<1x4x8xf32> {
  %0 = tc.batch_matmul %x, %w : (tensor<1x4x16xf32>, tensor<1x16x8xf32>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @per_batch_weight
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic
func.func @per_batch_weight(%x: tensor<?x4x16xf32>, %w: tensor<?x16x8xf32>) -> tensor<?x4x8xf32> {
  %0 = tc.batch_matmul %x, %w : (tensor<?x4x16xf32>, tensor<?x16x8xf32>) -> tensor<?x4x8xf32>
  return %0 : tensor<?x4x8xf32>
}
