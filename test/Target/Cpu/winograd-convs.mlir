// 3x3 convolutions computed with Winograd's F(4x4, 3x3) or F(2x2, 3x3)
// (--tc-cpu-winograd-conv) give numpy's float64 results within their
// rounding: ResNet's block with bias and ReLU; tails in both image
// dimensions at batch 2 with 3 input lane blocks; no padding; asymmetric
// padding with a residual Add and ReLU; 7x7 images at batch 2 in F(2x2, 3x3); one
// with too few tiles, kept direct; and two with a dynamic batch axis.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache --dump-ir=%t/dump
// RUN: tc-run %t/model.so --rtol=1e-4 --atol=2e-4 \
// RUN:   --input=x_block=%t/x_block.npy --input=x_tails=%t/x_tails.npy \
// RUN:   --input=x_valid=%t/x_valid.npy --input=x_skewed=%t/x_skewed.npy \
// RUN:   --input=r_skewed=%t/r_skewed.npy --input=x_small=%t/x_small.npy \
// RUN:   --input=x_few=%t/x_few.npy --compare=y_small=%t/y_small.npy \
// RUN:   --input=x_dynamic=%t/x_dynamic.npy --compare=y_dynamic=%t/y_dynamic.npy \
// RUN:   --input=x_dynfew=%t/x_dynfew.npy --compare=y_dynfew=%t/y_dynfew.npy \
// RUN:   --compare=y_block=%t/y_block.npy --compare=y_tails=%t/y_tails.npy \
// RUN:   --compare=y_valid=%t/y_valid.npy --compare=y_skewed=%t/y_skewed.npy \
// RUN:   --compare=y_few=%t/y_few.npy | FileCheck %s
// CHECK-DAG: output 'y_block': OK: f32[1, 64, 16, 16]
// CHECK-DAG: output 'y_tails': OK: f32[2, 32, 13, 11]
// CHECK-DAG: output 'y_valid': OK: f32[1, 64, 16, 16]
// CHECK-DAG: output 'y_skewed': OK: f32[1, 32, 16, 16]
// CHECK-DAG: output 'y_small': OK: f32[2, 64, 7, 7]
// CHECK-DAG: output 'y_few': OK: f32[1, 32, 5, 5]
// CHECK-DAG: output 'y_dynamic': OK: f32[2, 64, 14, 14]
// CHECK-DAG: output 'y_dynfew': OK: f32[2, 32, 5, 5]
// Four are rewritten in F(4x4, 3x3), with their filters transformed to
// [36, F / 32, C, 32], the 7x7 one in F(2x2, 3x3) with [16, F / 32, C, 32]
// (its 4x4 B^T), the 5x5 one not at all.
// RUN: cat %t/dump/passes/*/*tc-cpu-winograd-conv.mlir | FileCheck %s --check-prefix=IR
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x2x64x32xf32>
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x1x96x32xf32>
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x2x32x32xf32>
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<36x1x32x32xf32>
// IR-DAG: tensor.pad %{{.*}} low[0, 0, 0, 2, 0] high[0, 0, 0, 1, 1]
// IR-DAG: dense_resource<winograd{{.*}}> : tensor<16x2x32x32xf32>
// The dynamic batch: the tiles are n x 16.
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3, 4], [5, 6]] : tensor<6x6x?x4x4x1x32xf32> into tensor<36x?x32xf32>
// IR-DAG: arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00], {{.*}} : tensor<4x4xf32>
// The skewed one has the only [36, 1, 32, 32] filter, and no
// [16, 1, 32, 32] one is made: the 5x5 one with the same channels stays
// direct.
// RUN: cat %t/dump/passes/*/*tc-cpu-winograd-conv.mlir | grep -c "arith.constant dense_resource<winograd.*> : tensor<36x1x32x32xf32>" | FileCheck %s --check-prefix=FEW
// FEW: {{^1$}}
// RUN: cat %t/dump/passes/*/*tc-cpu-winograd-conv.mlir | not grep "arith.constant dense_resource<winograd.*> : tensor<16x1x32x32xf32>"
// The 5x5 ones are computed in channel blocks, the dynamic batch's too.
// RUN: cat %t/dump/passes/*/*tc-cpu-block-conv-channels.mlir | FileCheck %s --check-prefix=BLOCKED
// BLOCKED-DAG: outs(%{{.*}} : tensor<1x1x5x5x32xf32>)
// BLOCKED-DAG: outs(%{{.*}} : tensor<?x1x5x5x32xf32>)
