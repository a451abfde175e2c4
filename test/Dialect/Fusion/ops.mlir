// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// CHECK-LABEL: func @matmul_epilogue
func.func @matmul_epilogue(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %bias: tensor<32xf32>) -> tensor<8x32xf32> {
  // CHECK: %[[R:.*]] = fusion.group "mm0" matmul (%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}} : tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32> reason("matmul with bias+relu epilogue") {
  // CHECK-NEXT: tc.matmul %[[A]], %[[B]]
  // CHECK-NEXT: tc.add
  // CHECK-NEXT: tc.relu
  // CHECK-NEXT: fusion.yield %{{.*}} : tensor<8x32xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[R]]
  %r = fusion.group "mm0" matmul (%a = %x, %b = %w, %c = %bias
      : tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>)
      -> tensor<8x32xf32> reason("matmul with bias+relu epilogue") {
    %0 = tc.matmul %a, %b : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
    %1 = tc.add %0, %c : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
    %2 = tc.relu %1 : tensor<8x32xf32>
    fusion.yield %2 : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

// Several results, extra attributes, and a group with no inputs.
// CHECK-LABEL: func @multi
func.func @multi(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<2xi64>) {
  // CHECK: fusion.group "ew" elementwise (%{{.*}} = %{{.*}} : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) reason("exp chain") attributes {note = "kept"}
  %r:2 = fusion.group "ew" elementwise (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>)
      reason("exp chain") attributes {note = "kept"} {
    %0 = tc.exp %a : tensor<4xf32>
    %1 = tc.compare gt, %0, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    fusion.yield %0, %1 : tensor<4xf32>, tensor<4xi1>
  }
  // CHECK: fusion.group "const" opaque () -> tensor<2xi64> reason("constant")
  %c = fusion.group "const" opaque () -> tensor<2xi64> reason("constant") {
    %0 = tc.constant dense<[1, 2]> : tensor<2xi64>
    fusion.yield %0 : tensor<2xi64>
  }
  return %r#0, %r#1, %c : tensor<4xf32>, tensor<4xi1>, tensor<2xi64>
}

// Every kind round-trips.
// CHECK-LABEL: func @kinds
// CHECK: fusion.group "k0" elementwise
// CHECK: fusion.group "k1" conv
// CHECK: fusion.group "k2" reduction
// CHECK: fusion.group "k3" softmax
// CHECK: fusion.group "k4" normalization
// CHECK: fusion.group "k5" pooling
// CHECK: fusion.group "k6" view
// CHECK: fusion.group "k7" gather
func.func @kinds(%x: tensor<4xf32>) {
  fusion.group "k0" elementwise (%a = %x : tensor<4xf32>) reason("") { fusion.yield }
  fusion.group "k1" conv (%a = %x : tensor<4xf32>) reason("") { fusion.yield }
  fusion.group "k2" reduction (%a = %x : tensor<4xf32>) reason("") { fusion.yield }
  fusion.group "k3" softmax (%a = %x : tensor<4xf32>) reason("") { fusion.yield }
  fusion.group "k4" normalization (%a = %x : tensor<4xf32>) reason("") { fusion.yield }
  fusion.group "k5" pooling (%a = %x : tensor<4xf32>) reason("") { fusion.yield }
  fusion.group "k6" view (%a = %x : tensor<4xf32>) reason("") { fusion.yield }
  fusion.group "k7" gather (%a = %x : tensor<4xf32>) reason("") { }
  return
}
