// RUN: tc-opt %s -fusion-inline-groups -split-input-file | FileCheck %s

// CHECK-LABEL: func @inline
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf32>, %[[W:.*]]: tensor<64x32xf32>)
// CHECK-NOT: fusion.
// CHECK: %[[M:.*]] = tc.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[R:.*]] = tc.relu %[[M]]
// CHECK-NEXT: %[[E:.*]] = tc.exp %[[R]]
// CHECK-NEXT: return %[[E]], %[[M]]
func.func @inline(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %r:2 = fusion.group "mm" matmul (%a = %x, %b = %w : tensor<8x64xf32>, tensor<64x32xf32>)
      -> (tensor<8x32xf32>, tensor<8x32xf32>) reason("r") {
    %0 = tc.matmul %a, %b : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
    %1 = tc.relu %0 : tensor<8x32xf32>
    fusion.yield %1, %0 : tensor<8x32xf32>, tensor<8x32xf32>
  }
  %e = fusion.group "ew" elementwise (%a = %r#0 : tensor<8x32xf32>) -> tensor<8x32xf32> reason("r") {
    %0 = tc.exp %a : tensor<8x32xf32>
    fusion.yield %0 : tensor<8x32xf32>
  }
  return %e, %r#1 : tensor<8x32xf32>, tensor<8x32xf32>
}
