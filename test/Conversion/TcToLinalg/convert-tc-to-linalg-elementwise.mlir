// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Binary ops broadcast like numpy: a static size 1 reads index 0.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[INIT:.*]] = tensor.empty(%[[DIM]]) : tensor<?x8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<?x1xf32>, tensor<8xf32>) outs(%[[INIT]] : tensor<?x8xf32>)
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<?x1xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tc.add %a, %b : (tensor<?x1xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Unsigned types become signless and use the unsigned arith ops.
// CHECK-LABEL: func.func @unsigned(%arg0: tensor<4xi8>, %arg1: tensor<4xi8>) -> tensor<4xi1>
// CHECK: arith.cmpi ult
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xi1> {
  %0 = tc.compare lt, %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Integer division guards a zero divisor instead of trapping.
// CHECK-LABEL: func.func @div_int
// CHECK: arith.cmpi eq
// CHECK: arith.divsi
// CHECK: arith.select
func.func @div_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tc.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @unary_chain
// CHECK: math.erf
// CHECK: math.tanh
// CHECK: arith.maximumf
func.func @unary_chain(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tc.gelu %x : tensor<2x3xf32>
  %1 = tc.tanh %0 : tensor<2x3xf32>
  %2 = tc.relu %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// Clamp reads its scalar bounds through a map with no results.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @clamp
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR]], #[[SCALAR]], #{{.*}}]
// CHECK: arith.maximumf
// CHECK: arith.minimumf
func.func @clamp(%x: tensor<5xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<5xf32> {
  %0 = tc.clamp %x, %lo, %hi : (tensor<5xf32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Casts follow ONNX: float to bool is "!= 0", float to signed truncates.
// CHECK-LABEL: func.func @casts
// CHECK: arith.cmpf une
// CHECK: arith.fptosi
// CHECK: arith.uitofp
func.func @casts(%x: tensor<3xf32>, %u: tensor<3xui16>) -> (tensor<3xi1>, tensor<3xi64>, tensor<3xf16>) {
  %0 = tc.cast %x : (tensor<3xf32>) -> tensor<3xi1>
  %1 = tc.cast %x : (tensor<3xf32>) -> tensor<3xi64>
  %2 = tc.cast %u : (tensor<3xui16>) -> tensor<3xf16>
  return %0, %1, %2 : tensor<3xi1>, tensor<3xi64>, tensor<3xf16>
}

// -----

// Extents known only at run time must agree on their axis: the result takes
// the first dynamic operand's, the others are checked against it (a run-time
// 1 would otherwise be read past its end). A static result extent is
// checked the same way; an operand's own extent is not checked against
// itself.
// CHECK-LABEL: func.func @add_runtime_extents
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}}
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: %[[M:.*]] = tensor.dim %arg1, %{{.*}}
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[M]], %[[N]]
// CHECK: cf.assert %[[SAME]], "node 'add_7' (Add): operand 1 axis 0 does not match the result's extent
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[K:.*]] = tensor.dim %arg1, %{{.*}}
// CHECK: %[[FOUR:.*]] = arith.cmpi eq, %[[K]], %[[C4]]
// CHECK: cf.assert %[[FOUR]], "node 'add_7' (Add): operand 1 axis 1
// CHECK-NOT: cf.assert
// CHECK: linalg.generic
func.func @add_runtime_extents(%a: tensor<?x4xf32>, %b: tensor<?x?xf32>) -> tensor<?x4xf32> {
  %0 = tc.add %a, %b : (tensor<?x4xf32>, tensor<?x?xf32>) -> tensor<?x4xf32> loc(#add)
  return %0 : tensor<?x4xf32>
}
#add = loc("add_7"("Add"))
