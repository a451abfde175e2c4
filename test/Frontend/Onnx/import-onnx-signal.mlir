// Signal ops with constant sizes become constants and matmuls.
// RUN: %pyonnx %models signal %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// HannWindow (periodic): sin^2(pi n / 4).
// CHECK-DAG: tc.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 5.000000e-01]> : tensor<4xf32>
// BlackmanWindow (symmetric, N - 1 = 3): zero (to rounding) at both ends.
// CHECK-DAG: tc.constant dense<[{{.*}}E-17, 6.300000e-01, 6.300000e-01, {{.*}}E-17]> : tensor<4xf32>
// One-sided DFT of a real signal of 4 points: [re, im] of 3 bins per row;
// point 1 contributes e^(-i pi k / 2) = (1, 0), (0, -1), (-1, 0).
// CHECK-DAG: %[[X:.*]] = tc.reshape %arg0 : (tensor<3x4x1xf32>) -> tensor<3x4xf32>
// CHECK-DAG: %[[W:.*]] = tc.constant dense<{{\[\[}}1.000000e+00, -0.000000e+00, 1.000000e+00, -0.000000e+00, 1.000000e+00, -0.000000e+00], [1.000000e+00, -0.000000e+00, {{[0-9.]+}}E-17, -1.000000e+00, -1.000000e+00, {{.*}}E-16], {{.*}} : tensor<4x6xf32>
// CHECK-DAG: %[[Y:.*]] = tc.matmul %[[X]], %[[W]] : (tensor<3x4xf32>, tensor<4x6xf32>) -> tensor<3x6xf32>
// CHECK-DAG: tc.reshape %[[Y]] : (tensor<3x6xf32>) -> tensor<3x3x2xf32>
// Inverse DFT of a complex signal: (re, im) pairs in, scaled by 1 / 4; the
// imaginary part of point 0 feeds (-0, 1/4) of every bin.
// CHECK-DAG: tc.constant dense<{{\[\[}}2.500000e-01, 0.000000e+00, 2.500000e-01, 0.000000e+00, 2.500000e-01, 0.000000e+00, 2.500000e-01, 0.000000e+00], [-0.000000e+00, 2.500000e-01, -0.000000e+00, 2.500000e-01, {{.*}} : tensor<8x8xf32>
// STFT: frames of 4 every 2 samples, gathered, then the one-sided DFT.
// CHECK-DAG: %[[IDX:.*]] = tc.constant dense<{{\[\[}}0, 1, 2, 3], [2, 3, 4, 5], [4, 5, 6, 7]]> : tensor<3x4xi64>
// CHECK-DAG: tc.gather %arg2, %[[IDX]] {axis = 1 : i64} : (tensor<1x8x1xf32>, tensor<3x4xi64>) -> tensor<1x3x4x1xf32>
// MelWeightMatrix: triangular filters over 9 spectrogram bins.
// CHECK-DAG: tc.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e-01, 5.000000e-01], [0.000000e+00, 0.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 5.000000e-01], [0.000000e+00, 0.000000e+00, 0.000000e+00], {{.*}} : tensor<9x3xf32>
// CHECK: return {{.*}} : tensor<4xf32>, tensor<4xf32>, tensor<3x3x2xf32>, tensor<3x4x2xf32>, tensor<1x3x3x2xf32>, tensor<9x3xf32>

// RUN: %pyonnx %models einsum_rotary %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=EIN
// Einsum bij,bjk->bik is one batch matmul.
// EIN-DAG: tc.batch_matmul %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// ...ii->...i: the diagonal is every 4th element of the flattened 3x3.
// EIN-DAG: %[[SQ:.*]] = tc.reshape %arg2 : (tensor<2x3x3xf32>) -> tensor<2x9xf32>
// EIN-DAG: tc.slice %[[SQ]] {ends = array<i64: 2, 9>, starts = array<i64: 0, 0>, steps = array<i64: 1, 4>} : (tensor<2x9xf32>) -> tensor<2x3xf32>
// Implicit output of "ji" is "ij": a transpose.
// EIN-DAG: tc.transpose %arg3 {permutation = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// i,i: a dot product, elementwise then summed.
// EIN-DAG: %[[PROD:.*]] = tc.mul %arg8, %arg8 : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// EIN-DAG: tc.reduce_sum %[[PROD]] {axes = array<i64: 0>} : (tensor<5xf32>) -> tensor<f32>
// RotaryEmbedding (interleaved): caches gathered by position as [B, 1, S, H/2],
// even/odd features rotated, then re-interleaved.
// EIN-DAG: %[[COS:.*]] = tc.gather %arg5, %arg7 {axis = 0 : i64} : (tensor<8x2xf32>, tensor<1x3xi64>) -> tensor<1x3x2xf32>
// EIN-DAG: %[[C4:.*]] = tc.reshape %[[COS]] : (tensor<1x3x2xf32>) -> tensor<1x1x3x2xf32>
// EIN-DAG: %[[SIN:.*]] = tc.gather %arg6, %arg7 {axis = 0 : i64}
// EIN-DAG: %[[S4:.*]] = tc.reshape %[[SIN]]
// EIN-DAG: %[[X1:.*]] = tc.slice %arg4 {ends = array<i64: 1, 2, 3, 4>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 2>}
// EIN-DAG: %[[X2:.*]] = tc.slice %arg4 {ends = array<i64: 1, 2, 3, 4>, starts = array<i64: 0, 0, 0, 1>, steps = array<i64: 1, 1, 1, 2>}
// EIN-DAG: %[[CX1:.*]] = tc.mul %[[C4]], %[[X1]]
// EIN-DAG: %[[SX2:.*]] = tc.mul %[[S4]], %[[X2]]
// EIN-DAG: %[[SX1:.*]] = tc.mul %[[S4]], %[[X1]]
// EIN-DAG: %[[CX2:.*]] = tc.mul %[[C4]], %[[X2]]
// EIN-DAG: %[[RE:.*]] = tc.sub %[[CX1]], %[[SX2]]
// EIN-DAG: %[[IM:.*]] = tc.add %[[SX1]], %[[CX2]]
// EIN-DAG: %[[RE5:.*]] = tc.reshape %[[RE]] : (tensor<1x2x3x2xf32>) -> tensor<1x2x3x2x1xf32>
// EIN-DAG: %[[IM5:.*]] = tc.reshape %[[IM]] : (tensor<1x2x3x2xf32>) -> tensor<1x2x3x2x1xf32>
// EIN-DAG: %[[PAIRS:.*]] = tc.concat %[[RE5]], %[[IM5]] {axis = 4 : i64}
// EIN-DAG: tc.reshape %[[PAIRS]] : (tensor<1x2x3x2x2xf32>) -> tensor<1x2x3x4xf32>
// EIN: return {{.*}} : tensor<2x3x5xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<1x2x3x4xf32>
