// 3x3 convolutions computed with Winograd's F(4x4, 3x3) or F(2x2, 3x3)
// (--tc-cpu-winograd-conv) give numpy's float64 results within their
// rounding: ResNet's block with bias and ReLU; tails in both image
// dimensions at batch 2 with 3 input lane blocks; no padding; asymmetric
// padding with a residual Add and ReLU; a 7x7 image in F(2x2, 3x3); and
// one with too few tiles, kept direct.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache --dump-ir=%t/dump
// RUN: tc-run %t/model.so --rtol=1e-4 --atol=2e-4 \
// RUN:   --input=x_block=%t/x_block.npy --input=x_tails=%t/x_tails.npy \
// RUN:   --input=x_valid=%t/x_valid.npy --input=x_skewed=%t/x_skewed.npy \
// RUN:   --input=r_skewed=%t/r_skewed.npy --input=x_small=%t/x_small.npy \
// RUN:   --input=x_few=%t/x_few.npy --compare=y_small=%t/y_small.npy \
// RUN:   --compare=y_block=%t/y_block.npy --compare=y_tails=%t/y_tails.npy \
// RUN:   --compare=y_valid=%t/y_valid.npy --compare=y_skewed=%t/y_skewed.npy \
// RUN:   --compare=y_few=%t/y_few.npy | FileCheck %s
// CHECK-DAG: output 'y_block': OK: f32[1, 64, 16, 16]
// CHECK-DAG: output 'y_tails': OK: f32[2, 32, 13, 11]
// CHECK-DAG: output 'y_valid': OK: f32[1, 64, 16, 16]
// CHECK-DAG: output 'y_skewed': OK: f32[1, 32, 16, 16]
// CHECK-DAG: output 'y_small': OK: f32[1, 64, 7, 7]
// CHECK-DAG: output 'y_few': OK: f32[1, 32, 5, 5]
// Four are rewritten in F(4x4, 3x3), with their filters transformed to
// [36, F / 32, C, 32], the 7x7 one in F(2x2, 3x3) with [16, F / 32, C, 32]
// (its 4x4 B^T), the 5x5 one not at all.
// RUN: cat %t/dump/passes/*/*tc-cpu-winograd-conv.mlir | FileCheck %s --check-prefix=IR
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x2x64x32xf32>
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x1x96x32xf32>
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x2x32x32xf32>
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x1x32x32xf32>
// IR-DAG: tensor.pad %{{.*}} low[0, 0, 2, 0] high[0, 0, 1, 1]
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<16x2x32x32xf32>
// IR-DAG: arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00], {{.*}} : tensor<4x4xf32>
// The skewed one has the only [36, 1, 32, 32] filter, and no
// [16, 1, 32, 32] one is made: the 5x5 one with the same channels stays
// direct.
// RUN: cat %t/dump/passes/*/*tc-cpu-winograd-conv.mlir | grep -c "arith.constant dense_resource<winograd.*> : tensor<36x1x32x32xf32>" | FileCheck %s --check-prefix=FEW
// FEW: {{^1$}}
// RUN: cat %t/dump/passes/*/*tc-cpu-winograd-conv.mlir | not grep "arith.constant dense_resource<winograd.*> : tensor<16x1x32x32xf32>"
