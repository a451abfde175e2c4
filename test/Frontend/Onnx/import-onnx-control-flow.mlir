// If imports into an scf.if whose branches read the enclosing graph.
// RUN: %pyonnx %models if_else %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: tc-compile %t.onnx --emit=tc | FileCheck %s --check-prefix=OPT

// CHECK: func.func @main(%arg0: tensor<i1> {tc.name = "c"}, %arg1: tensor<2x3xf32> {tc.name = "x"}) -> (tensor<?x3xf32> {tc.name = "y"})
// CHECK: %[[C:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: %[[R:.*]] = scf.if %[[C]] -> (tensor<?x3xf32>) {
// CHECK:   %[[T:.*]] = tc.add %arg1, %{{.*}} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// Branch results of different shapes meet in tensor<?x3xf32>.
// CHECK:   %[[TC:.*]] = tensor.cast %[[T]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK:   scf.yield %[[TC]]
// CHECK: } else {
// CHECK:   %[[E:.*]] = tc.reduce_sum %arg1 {axes = array<i64: 0>, keepdims} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK:   tensor.cast %[[E]] : tensor<1x3xf32> to tensor<?x3xf32>
// CHECK: return %[[R]]

// The graph passes keep the control flow valid.
// OPT: scf.if

// Loop -> scf.while: the trip count and the condition decide each trip; the
// scan output grows by one slice per trip. Scan -> scf.for over the scanned
// axis (moved to the front), here in reverse.
// RUN: %pyonnx %models loop_scan %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=LOOP
// LOOP: %[[M:.*]] = tensor.extract %arg0[] : tensor<i64>
// LOOP: %[[EMPTY:.*]] = tc.constant dense<> : tensor<0x2xf32>
// LOOP: %[[ACC:.*]] = tensor.cast %[[EMPTY]] : tensor<0x2xf32> to tensor<?x2xf32>
// LOOP: %[[W:.*]]:4 = scf.while (%[[I:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}, %[[Y:.*]] = %arg2, %[[S:.*]] = %[[ACC]])
// LOOP:   %[[MORE:.*]] = arith.cmpi slt, %{{.*}}, %[[M]] : i64
// LOOP:   %[[GO:.*]] = arith.andi %{{.*}}, %[[MORE]] : i1
// LOOP:   scf.condition(%[[GO]])
// LOOP: } do {
// LOOP:   %[[NEXT:.*]] = tc.add %{{.*}}, %arg3
// LOOP:   %[[ROW:.*]] = tc.reshape %[[NEXT]] : (tensor<2xf32>) -> tensor<1x2xf32>
// LOOP:   %[[GROWN:.*]] = tc.concat %{{.*}}, %[[ROW]] {axis = 0 : i64} : (tensor<?x2xf32>, tensor<1x2xf32>) -> tensor<?x2xf32>
// LOOP:   scf.yield %{{.*}}, %{{.*}}, %[[NEXT]], %[[GROWN]]
// LOOP: %[[T:.*]] = tc.transpose %arg5 {permutation = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// LOOP: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ST:.*]] = %arg4, %[[OUT:.*]] = %{{.*}}) -> (tensor<3xf32>, tensor<4x3xf32>)
// LOOP:   %[[REV:.*]] = arith.subi %{{.*}}, %[[IV]] : index
// LOOP:   tensor.extract_slice %[[T]][%[[REV]], 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
// LOOP:   tensor.insert_slice %{{.*}} into %[[OUT]][%[[IV]], 0] [1, 3] [1, 1]
// LOOP: return %[[W]]#2, %[[W]]#3
