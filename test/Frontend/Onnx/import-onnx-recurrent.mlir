// RNN, GRU and LSTM with a static sequence length are unrolled: one matmul
// projects the input of every step, then each step multiplies the hidden
// state by the transposed recurrent weights and applies the gate math.
// RUN: %pyonnx %models recurrent %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// RNN: X W^T for both steps at once, plus Wb and Rb.
// CHECK: %[[WT:.*]] = tc.transpose %{{.*}} {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: %[[X2:.*]] = tc.reshape %arg0 : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[XW:.*]] = tc.matmul %[[X2]], %[[WT]] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[XW3:.*]] = tc.reshape %[[XW]] : (tensor<2x2xf32>) -> tensor<2x1x2xf32>
// CHECK: %[[XWB:.*]] = tc.add %[[XW3]], %{{.*}} : (tensor<2x1x2xf32>, tensor<2xf32>)
// CHECK: %[[PROJ:.*]] = tc.add %[[XWB]], %{{.*}} : (tensor<2x1x2xf32>, tensor<2xf32>)
// CHECK: %[[RT:.*]] = tc.transpose %{{.*}} {permutation = array<i64: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
// Step 0 starts from a zero state; step 1 reads step 0's state.
// CHECK: %[[H0:.*]] = tc.constant dense<0.000000e+00> : tensor<1x2xf32>
// CHECK: tc.slice %[[PROJ]] {ends = array<i64: 1, 1, 2>, starts = array<i64: 0, 0, 0>
// CHECK: tc.matmul %[[H0]], %[[RT]]
// CHECK: %[[H1:.*]] = tc.tanh
// CHECK: tc.slice %[[PROJ]] {ends = array<i64: 2, 1, 2>, starts = array<i64: 1, 0, 0>
// CHECK: tc.matmul %[[H1]], %[[RT]]
// CHECK: %[[H2:.*]] = tc.tanh
// Y stacks the steps as [T, directions, B, H]; Y_h is the last state.
// CHECK: %[[Y1:.*]] = tc.reshape %[[H1]] : (tensor<1x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK: %[[Y2:.*]] = tc.reshape %[[H2]] : (tensor<1x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK: %[[Y:.*]] = tc.concat %[[Y1]], %[[Y2]] {axis = 0 : i64} : {{.*}} -> tensor<2x1x1x2xf32>
// CHECK: %[[YH:.*]] = tc.reshape %[[H2]] : (tensor<1x2xf32>) -> tensor<1x1x2xf32>

// GRU with linear_before_reset: the reset gate scales h Rh^T + Rbh, and
// the new state is (1 - z) * candidate + z * h.
// CHECK: %[[ZR:.*]] = tc.add %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
// CHECK: %[[ZPRE:.*]] = tc.slice %[[ZR]] {ends = array<i64: 1, 2>, starts = array<i64: 0, 0>
// CHECK: %[[Z:.*]] = tc.sigmoid %[[ZPRE]]
// CHECK: %[[RPRE:.*]] = tc.slice %[[ZR]] {ends = array<i64: 1, 4>, starts = array<i64: 0, 2>
// CHECK: %[[R:.*]] = tc.sigmoid %[[RPRE]]
// CHECK: %[[XH:.*]] = tc.slice %{{.*}} {ends = array<i64: 1, 6>, starts = array<i64: 0, 4>
// CHECK: %[[HRH:.*]] = tc.matmul %{{.*}}, %{{.*}} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK: %[[HRB:.*]] = tc.add %[[HRH]], %{{.*}} : (tensor<1x2xf32>, tensor<2xf32>)
// CHECK: %[[GATED:.*]] = tc.mul %[[R]], %[[HRB]]
// CHECK: %[[CPRE:.*]] = tc.add %[[XH]], %[[GATED]]
// CHECK: %[[CAND:.*]] = tc.tanh %[[CPRE]]
// CHECK: %[[ONE:.*]] = tc.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[KEEP:.*]] = tc.sub %[[ONE]], %[[Z]]
// CHECK: %[[A:.*]] = tc.mul %[[KEEP]], %[[CAND]]
// CHECK: %[[B:.*]] = tc.mul %[[Z]], %{{.*}}
// CHECK: tc.add %[[A]], %[[B]]
// Bidirectional: Y_h holds the forward then the reverse final state.
// CHECK: %[[GH:.*]] = tc.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<2x1x2xf32>

// LSTM with peepholes and run-time sequence_lens: c = f * c_prev + i * g,
// o sees the new c; an entry whose sequence has ended keeps its states.
// CHECK: tc.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x8xf32>) -> tensor<2x8xf32>
// CHECK: %[[I:.*]] = tc.sigmoid
// CHECK-NEXT: %[[F:.*]] = tc.sigmoid
// CHECK-NEXT: %[[G:.*]] = tc.tanh
// CHECK-NEXT: %[[FC:.*]] = tc.mul %[[F]], %{{.*}}
// CHECK-NEXT: %[[IG:.*]] = tc.mul %[[I]], %[[G]]
// CHECK-NEXT: %[[CNEW:.*]] = tc.add %[[FC]], %[[IG]]
// CHECK: %[[PO:.*]] = tc.mul %[[CNEW]], %{{.*}} : (tensor<1x2xf32>, tensor<2xf32>)
// CHECK: %[[OPRE:.*]] = tc.add %{{.*}}, %[[PO]]
// CHECK: %[[O:.*]] = tc.sigmoid %[[OPRE]]
// CHECK: %[[TC:.*]] = tc.tanh %[[CNEW]]
// CHECK: %[[HNEW:.*]] = tc.mul %[[O]], %[[TC]]
// CHECK: %[[STEP0:.*]] = tc.constant dense<0> : tensor<i32>
// CHECK: %[[LIVE:.*]] = tc.compare lt, %[[STEP0]], %arg1 : (tensor<i32>, tensor<1xi32>) -> tensor<1xi1>
// CHECK: %[[MASK:.*]] = tc.reshape %[[LIVE]] : (tensor<1xi1>) -> tensor<1x1xi1>
// CHECK: tc.select %[[MASK]], %[[HNEW]], %{{.*}} : (tensor<1x1xi1>, tensor<1x2xf32>, tensor<1x2xf32>)
// CHECK: tc.select %[[MASK]], %[[CNEW]], %{{.*}} : (tensor<1x1xi1>, tensor<1x2xf32>, tensor<1x2xf32>)
// CHECK: tc.constant dense<1> : tensor<i32>
// CHECK: return %[[Y]], %[[YH]], %[[GH]], %{{.*}}, %{{.*}} : tensor<2x1x1x2xf32>, tensor<1x1x2xf32>, tensor<2x1x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>

// Unrolling is capped: a longer sequence is reported, not unrolled.
// RUN: %pyonnx %models recurrent_long %t2.onnx
// RUN: not tc-translate --import-onnx %t2.onnx 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: rnn (RNN): a sequence of 1000 steps (unrolled up to 512)
