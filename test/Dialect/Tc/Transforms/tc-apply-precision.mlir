// RUN: tc-opt %s --pass-pipeline='builtin.module(func.func(tc-apply-precision{precision=bf16}))' --split-input-file | FileCheck %s
// RUN: tc-opt %s --pass-pipeline='builtin.module(func.func(tc-apply-precision{precision=fp16}))' --split-input-file 2>&1 | FileCheck %s --check-prefix=F16
// RUN: tc-opt %s --pass-pipeline='builtin.module(func.func(tc-apply-precision{precision=fp16}))' --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tc-opt %s --pass-pipeline='builtin.module(func.func(tc-apply-precision{precision=fp32}))' --split-input-file | FileCheck %s --check-prefix=F32
// RUN: tc-opt %s --pass-pipeline='builtin.module(func.func(tc-apply-precision{precision=tf32}))' --split-input-file | FileCheck %s --check-prefix=TF32
// RUN: not tc-opt %s --pass-pipeline='builtin.module(func.func(tc-apply-precision{precision=fp8}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: unknown precision 'fp8' (expected fp32, tf32, fp16 or bf16)

// A matmul reads both operands cast to bf16 and its bf16 result is cast back
// for its f32 user. A weight reshaped for it is cast at the constant, below
// the reshape, where tc-fold-constants narrows it.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[X:.*]] = tc.cast %arg0 : (tensor<1x8x64xf32>) -> tensor<1x8x64xbf16>
// CHECK-DAG: %[[W:.*]] = tc.constant dense<5.000000e-01> : tensor<64x32xf32>
// CHECK-DAG: %[[WL:.*]] = tc.cast %[[W]] : (tensor<64x32xf32>) -> tensor<64x32xbf16>
// CHECK-DAG: %[[R:.*]] = tc.reshape %[[WL]] : (tensor<64x32xbf16>) -> tensor<1x64x32xbf16>
// CHECK-NOT: tensor<1x64x32xf32>
// CHECK: %[[M:.*]] = tc.batch_matmul %[[X]], %[[R]] : (tensor<1x8x64xbf16>, tensor<1x64x32xbf16>) -> tensor<1x8x32xbf16>
// CHECK: %[[B:.*]] = tc.cast %[[M]] : (tensor<1x8x32xbf16>) -> tensor<1x8x32xf32>
// CHECK: tc.relu %[[B]] : tensor<1x8x32xf32>
// F32-LABEL: func.func @matmul
// F32-NOT: tc.cast
// TF32 rounds the factors, at the constant too, keeps every type, and marks
// the op (tc.tf32_factors) for GPU kernels that multiply TF32 values.
// TF32-LABEL: func.func @matmul
// TF32-DAG: %[[X:.*]] = tc.round_to_tf32 %arg0 : tensor<1x8x64xf32>
// TF32-DAG: %[[W:.*]] = tc.constant dense<5.000000e-01> : tensor<64x32xf32>
// TF32-DAG: %[[WR:.*]] = tc.round_to_tf32 %[[W]] : tensor<64x32xf32>
// TF32: %[[R:.*]] = tc.reshape %[[WR]] : (tensor<64x32xf32>) -> tensor<1x64x32xf32>
// TF32: %[[M:.*]] = tc.batch_matmul %[[X]], %[[R]] {tc.tf32_factors} : (tensor<1x8x64xf32>, tensor<1x64x32xf32>) -> tensor<1x8x32xf32>
// TF32: tc.relu %[[M]] : tensor<1x8x32xf32>
// TF32-NOT: tc.cast
func.func @matmul(%x: tensor<1x8x64xf32>) -> tensor<1x8x32xf32> {
  %w = tc.constant dense<0.5> : tensor<64x32xf32>
  %r = tc.reshape %w : (tensor<64x32xf32>) -> tensor<1x64x32xf32>
  %m = tc.batch_matmul %x, %r : (tensor<1x8x64xf32>, tensor<1x64x32xf32>) -> tensor<1x8x32xf32>
  %y = tc.relu %m : tensor<1x8x32xf32>
  return %y : tensor<1x8x32xf32>
}

// -----

// A convolution's bias and attention's mask are cast with the other
// operands; the elementwise op between them stays f32.
// CHECK-LABEL: func.func @conv_attention
// CHECK: tc.conv {{.*}} : (tensor<1x4x8x8xbf16>, tensor<4x4x3x3xbf16>, tensor<4xbf16>) -> tensor<1x4x6x6xbf16>
// CHECK: tc.add {{.*}} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
// CHECK: tc.attention {{.*}} : (tensor<1x4x6x6xbf16>, tensor<1x4x6x6xbf16>, tensor<1x4x6x6xbf16>, tensor<1x1x1x6xbf16>) -> tensor<1x4x6x6xbf16>
// CHECK: %[[OUT:.*]] = tc.cast {{.*}} : (tensor<1x4x6x6xbf16>) -> tensor<1x4x6x6xf32>
// CHECK: return %[[OUT]]
// With TF32 the bias and the mask are not factors: they stay as they are.
// TF32-LABEL: func.func @conv_attention
// TF32-DAG: %[[W:.*]] = tc.round_to_tf32 %arg1
// TF32-DAG: %[[X:.*]] = tc.round_to_tf32 %arg0
// TF32: %[[C:.*]] = tc.conv %[[X]], %[[W]], %arg2 {{{.*}}tc.tf32_factors{{.*}}} :
// TF32: %[[S:.*]] = tc.add %[[C]], %[[C]]
// TF32: %[[SR:.*]] = tc.round_to_tf32 %[[S]]
// TF32: tc.attention %[[SR]], %[[SR]], %[[SR]], %arg3 {scale = 5.000000e-01 : f32} :
// TF32-NEXT: return
func.func @conv_attention(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>, %mask: tensor<1x1x1x6xf32>) -> tensor<1x4x6x6xf32> {
  %c = tc.conv %x, %w, %b : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %s = tc.add %c, %c : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %a = tc.attention %s, %s, %s, %mask {scale = 0.5 : f32} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x1x1x6xf32>) -> tensor<1x4x6x6xf32>
  return %a : tensor<1x4x6x6xf32>
}

// -----

// The casts of Q, K and V move above the views that split them from one
// projection and merge into one cast of it; the attention's result, widened
// for its views, is read by the next matmul as it was, without narrowing it
// again (widening and narrowing back is the identity).
// CHECK-LABEL: func.func @views
// CHECK: %[[QKV:.*]] = tc.cast %arg0 : (tensor<1x8x96xf32>) -> tensor<1x8x96xbf16>
// CHECK-COUNT-3: tc.slice %[[QKV]] {{.*}} -> tensor<1x8x32xbf16>
// CHECK-NOT: tc.cast
// CHECK: %[[A:.*]] = tc.attention {{.*}} -> tensor<1x8x32xbf16>
// CHECK-NOT: tc.cast
// CHECK: %[[T:.*]] = tc.transpose %[[A]] {{.*}} -> tensor<1x32x8xbf16>
// CHECK: %[[R:.*]] = tc.reshape %[[T]] {{.*}} -> tensor<32x8xbf16>
// CHECK-NOT: tc.cast
// CHECK: tc.matmul %[[R]]
func.func @views(%qkv: tensor<1x8x96xf32>, %w: tensor<8x4xf32>) -> tensor<32x4xf32> {
  %q = tc.slice %qkv {starts = array<i64: 0, 0, 0>, ends = array<i64: 1, 8, 32>, steps = array<i64: 1, 1, 1>} : (tensor<1x8x96xf32>) -> tensor<1x8x32xf32>
  %k = tc.slice %qkv {starts = array<i64: 0, 0, 32>, ends = array<i64: 1, 8, 64>, steps = array<i64: 1, 1, 1>} : (tensor<1x8x96xf32>) -> tensor<1x8x32xf32>
  %v = tc.slice %qkv {starts = array<i64: 0, 0, 64>, ends = array<i64: 1, 8, 96>, steps = array<i64: 1, 1, 1>} : (tensor<1x8x96xf32>) -> tensor<1x8x32xf32>
  %a = tc.attention %q, %k, %v {scale = 0.5 : f32} : (tensor<1x8x32xf32>, tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %t = tc.transpose %a {permutation = array<i64: 0, 2, 1>} : (tensor<1x8x32xf32>) -> tensor<1x32x8xf32>
  %r = tc.reshape %t : (tensor<1x32x8xf32>) -> tensor<32x8xf32>
  %m = tc.matmul %r, %w : (tensor<32x8xf32>, tensor<8x4xf32>) -> tensor<32x4xf32>
  return %m : tensor<32x4xf32>
}

// -----

// Only f32 contractions change: integer and f64 ones keep their types.
// CHECK-LABEL: func.func @other_types
// CHECK-NOT: tc.cast
func.func @other_types(%a: tensor<4x4xi32>, %b: tensor<4x4xf64>) -> (tensor<4x4xi32>, tensor<4x4xf64>) {
  %i = tc.matmul %a, %a : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
  %f = tc.matmul %b, %b : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  return %i, %f : tensor<4x4xi32>, tensor<4x4xf64>
}

// -----

// fp16 ends at 65504: a matmul whose weight (through a transpose) holds
// 1e5 keeps f32 and is reported; bf16, with f32's range, converts it.
// F16: remark: {{.*}}: --precision=fp16 keeps node 'big' (MatMul) in f32: a constant operand holds 1.000e+05, beyond fp16's range
// F16-LABEL: func.func @beyond_fp16
// F16: tc.matmul %arg0, %{{.*}} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK-LABEL: func.func @beyond_fp16
// CHECK: tc.matmul {{.*}} -> tensor<2x4xbf16>
func.func @beyond_fp16(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = tc.constant dense<1.0e5> : tensor<4x4xf32>
  %t = tc.transpose %w {permutation = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = tc.matmul %x, %t : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32> loc("big"("MatMul"))
  return %m : tensor<2x4xf32>
}

// -----

// A calibration run's magnitudes (tc-compile --calibrate): the matmul that
// saw 3e5 keeps f32 under fp16 and is reported; the one that saw 100 is
// narrowed, as both are under bf16.
// REMARK: remark: {{.*}}: --precision=fp16 keeps node 'hot' (MatMul) in f32: the calibration run saw 3.000e+05, beyond fp16's range
// REMARK-NOT: keeps node 'cool'
// F16-LABEL: func.func @calibrated
// F16: tc.matmul %arg0, %arg1 {tc.calibrated_max = 3.000000e+05 : f32} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// F16: tc.matmul {{.*}} -> tensor<2x4xf16>
// CHECK-LABEL: func.func @calibrated
// CHECK-COUNT-2: tc.matmul {{.*}} -> tensor<2x4xbf16>
func.func @calibrated(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %hot = tc.matmul %x, %w {tc.calibrated_max = 3.0e5 : f32} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32> loc("hot"("MatMul"))
  %cool = tc.matmul %x, %w {tc.calibrated_max = 100.0 : f32} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32> loc("cool"("MatMul"))
  return %hot, %cool : tensor<2x4xf32>, tensor<2x4xf32>
}
