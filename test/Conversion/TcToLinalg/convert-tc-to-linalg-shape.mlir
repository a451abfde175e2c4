// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Reshape is a collapse to 1-D and an expand: views, no copy.
// CHECK-LABEL: func.func @reshape
// CHECK-DAG: %[[N:.*]] = arith.divui
// CHECK-DAG: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : tensor<?x32x1x1xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [%[[N]], 32] : tensor<?xf32> into tensor<?x32xf32>
func.func @reshape(%x: tensor<?x32x1x1xf32>) -> tensor<?x32xf32> {
  %0 = tc.reshape %x : (tensor<?x32x1x1xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// A shape operand with several dynamic sizes may rearrange them under the
// same type ([1, 2, 4] -> [1, 1, 8]): no identity, a collapse and an expand
// to the operand's extents.
// CHECK-LABEL: func.func @reshape_same_type_shape_operand
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2]] : tensor<1x?x?xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[}}[0, 1, 2]] output_shape [1, %{{.*}}, %{{.*}}] : tensor<?xf32> into tensor<1x?x?xf32>
func.func @reshape_same_type_shape_operand(%x: tensor<1x?x?xf32>, %shape: tensor<3xi64>) -> tensor<1x?x?xf32> {
  %0 = tc.reshape %x, %shape : (tensor<1x?x?xf32>, tensor<3xi64>) -> tensor<1x?x?xf32>
  return %0 : tensor<1x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK: linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = tc.transpose %x {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x7xf32>
// CHECK: %[[FIRST:.*]] = tensor.insert_slice %arg0 into %[[EMPTY]][0, 0] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %arg1 into %[[FIRST]][0, 3] [2, 4] [1, 1]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x7xf32> {
  %0 = tc.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// -----

// Positive steps: a strided extract_slice.
// CHECK-LABEL: func.func @slice
// CHECK: tensor.extract_slice %arg0[0, 1] [4, 3] [1, 2]
func.func @slice(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %0 = tc.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 4, 7>, steps = array<i64: 1, 2>} : (tensor<4x8xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// A negative step reads input[start + i * step].
// CHECK-DAG: #[[REV:.*]] = affine_map<(d0) -> (-d0 + 7)>
// CHECK-LABEL: func.func @reverse
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #{{.*}}]
func.func @reverse(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tc.slice %x {starts = array<i64: 7>, ends = array<i64: -1>, steps = array<i64: -1>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A dynamic size clamps ONNX's bounds at run time.
// CHECK-LABEL: func.func @slice_dynamic
// CHECK: arith.minsi
// CHECK: arith.ceildivsi
// CHECK: tensor.extract_slice %arg0[%{{.*}}] [%{{.*}}] [1]
func.func @slice_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tc.slice %x {starts = array<i64: 1>, ends = array<i64: -1>, steps = array<i64: 1>} : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-LABEL: func.func @broadcast
// CHECK: linalg.generic {indexing_maps = [#[[BCAST]], #{{.*}}]
func.func @broadcast(%x: tensor<1x8xf32>) -> tensor<4x3x8xf32> {
  %0 = tc.broadcast %x : (tensor<1x8xf32>) -> tensor<4x3x8xf32>
  return %0 : tensor<4x3x8xf32>
}

// -----

// CHECK-LABEL: func.func @pad_constant
// CHECK: %[[V:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: tensor.pad %arg0 low[0, 1] high[2, 0]
// CHECK: tensor.yield %[[V]]
func.func @pad_constant(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<4x4xf32> {
  %0 = tc.pad %x, %v {padding = array<i64: 0, 1, 2, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Edge padding clamps the source index.
// CHECK-LABEL: func.func @pad_edge
// CHECK: linalg.index 0
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract %arg0
func.func @pad_edge(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = tc.pad %x mode(edge) {padding = array<i64: 2, 2>} : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// dynamic_slice: bounds read at run time, made non-negative and clamped
// (ONNX's rules), then a strided view for positive steps.
// CHECK-LABEL: func.func @dynamic_slice
// CHECK: %[[S:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<1xi64>
// CHECK: arith.index_cast %[[S]] : i64 to index
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.ceildivsi
// CHECK: tensor.extract_slice %arg0[0, %{{.*}}] [4, %{{.*}}] [1, 2] : tensor<4x?xf32> to tensor<4x?xf32>
func.func @dynamic_slice(%x: tensor<4x?xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<4x?xf32> {
  %0 = tc.dynamic_slice %x, %s, %e {axes = array<i64: 1>, steps = array<i64: 2>} : (tensor<4x?xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// A negative step reads input[start + i * step] in a generic.
// CHECK-LABEL: func.func @dynamic_slice_reversed
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?xf32>)
// CHECK:   arith.muli %{{.*}}, %c-1
// CHECK:   tensor.extract %arg0
func.func @dynamic_slice_reversed(%x: tensor<?xf32>, %s: tensor<1xi32>) -> tensor<?xf32> {
  %0 = tc.dynamic_slice %x, %s, %s {axes = array<i64: 0>, steps = array<i64: -1>} : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A static target shape for a run-time input (a batch baked in at export):
// the element counts are checked at run time, naming the node.
// CHECK-LABEL: func.func @reshape_static_target
// CHECK: %[[N:.*]] = tensor.dim %arg0
// CHECK: %[[TOTAL:.*]] = arith.muli %{{.*}}, %c32
// CHECK: %[[COUNT:.*]] = arith.constant 2048 : index
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[TOTAL]], %[[COUNT]]
// CHECK: cf.assert %[[SAME]], "tc.reshape: the input's element count does not match the target shape's
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<2048xf32>
func.func @reshape_static_target(%x: tensor<?x32xf32>) -> tensor<64x32xf32> {
  %0 = tc.reshape %x : (tensor<?x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Pads read at run time, constant mode: tensor.pad by the positive amounts,
// then an extract_slice that crops the negative ones.
// CHECK-LABEL: func.func @dynamic_pad_constant
// CHECK-COUNT-4: tensor.extract %arg1
// CHECK: tensor.pad %arg0 low[%{{.*}}, %{{.*}}] high[%{{.*}}, %{{.*}}]
// CHECK: tensor.extract_slice
func.func @dynamic_pad_constant(%x: tensor<2x5xf32>, %pads: tensor<4xi64>, %v: tensor<f32>) -> tensor<?x?xf32> {
  %0 = tc.dynamic_pad %x, %pads, %v : (tensor<2x5xf32>, tensor<4xi64>, tensor<f32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Other modes map each output index into the input, after a check that no
// padded dimension is empty.
// CHECK-LABEL: func.func @dynamic_pad_reflect
// CHECK: cf.assert
// CHECK: linalg.generic
// CHECK: arith.remsi
// CHECK: tensor.extract %arg0
func.func @dynamic_pad_reflect(%x: tensor<2x?xf32>, %pads: tensor<4xi64>) -> tensor<2x?xf32> {
  %0 = tc.dynamic_pad %x, %pads mode(reflect) : (tensor<2x?xf32>, tensor<4xi64>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
