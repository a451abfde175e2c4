// Convolutions over images narrower than 8 columns, computed in blocks of
// 32 output channels (--tc-cpu-block-conv-channels), give numpy's results:
// 3x3 with padding, bias and ReLU on 7x7; 1x1 with stride 2 from 13x13
// (its strided positions copied dense, then blocked as a pointwise one);
// dilated with asymmetric padding at batch 2 on 5x6 (5x3 out); a 1-D one of width 5;
// stride-2 3x3 ones 14 and 12 columns wide out (with ReLU, batch 2), and
// one 11 wide that keeps the image-width tile; wider stride-2 ones (16 and
// 24 columns out, one dilated at batch 2) from channels-last copies;
// pointwise ones over 7x7 and 6x6 images.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache
// RUN: tc-run %t/model.so --rtol=1e-4 --atol=1e-4 \
// RUN:   --input=x_c3x3=%t/x_c3x3.npy --input=x_down=%t/x_down.npy \
// RUN:   --input=x_dilated=%t/x_dilated.npy --input=x_line=%t/x_line.npy \
// RUN:   --input=x_s2=%t/x_s2.npy --input=x_s2odd=%t/x_s2odd.npy --input=x_s2kept=%t/x_s2kept.npy \
// RUN:   --input=x_s2wide=%t/x_s2wide.npy --input=x_s2widedil=%t/x_s2widedil.npy \
// RUN:   --input=x_pw7=%t/x_pw7.npy --input=x_pw6=%t/x_pw6.npy \
// RUN:   --compare=y_c3x3=%t/y_c3x3.npy --compare=y_down=%t/y_down.npy \
// RUN:   --compare=y_dilated=%t/y_dilated.npy --compare=y_line=%t/y_line.npy \
// RUN:   --compare=y_s2=%t/y_s2.npy --compare=y_s2odd=%t/y_s2odd.npy \
// RUN:   --compare=y_s2kept=%t/y_s2kept.npy --compare=y_s2wide=%t/y_s2wide.npy \
// RUN:   --compare=y_s2widedil=%t/y_s2widedil.npy --compare=y_pw7=%t/y_pw7.npy \
// RUN:   --compare=y_pw6=%t/y_pw6.npy | FileCheck %s
// CHECK-DAG: output 'y_c3x3': OK: f32[1, 64, 7, 7]
// CHECK-DAG: output 'y_down': OK: f32[1, 32, 7, 7]
// CHECK-DAG: output 'y_dilated': OK: f32[2, 96, 5, 3]
// CHECK-DAG: output 'y_line': OK: f32[1, 32, 3]
// CHECK-DAG: output 'y_s2': OK: f32[1, 64, 14, 14]
// CHECK-DAG: output 'y_s2odd': OK: f32[2, 32, 12, 12]
// CHECK-DAG: output 'y_s2kept': OK: f32[1, 32, 11, 11]
// CHECK-DAG: output 'y_s2wide': OK: f32[1, 32, 16, 16]
// CHECK-DAG: output 'y_s2widedil': OK: f32[2, 64, 20, 24]
// CHECK-DAG: output 'y_pw7': OK: f32[1, 64, 7, 7]
// CHECK-DAG: output 'y_pw6': OK: f32[2, 32, 6, 6]
// RUN: tc-compile %t/model.onnx --no-cache --dump-ir=%t/dump -o %t/model2.so
// RUN: cat %t/dump/passes/*/*tc-cpu-block-conv-channels.mlir | FileCheck %s --check-prefix=IR
// The filters [F, C, K...] become [F / 32, C, K..., 32]; each convolution
// writes [N, F / 32, O..., 32], unpacked through [N, F / 32, 32, O...].
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<2x24x3x3x32xf32>
// Pointwise ones over fewer than 64 pixels: filters [F / 32, C, 32].
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<2x48x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<1x24x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<1x40x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<3x8x3x3x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<1x16x3x32xf32>
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x32x7x7xf32> into tensor<1x64x7x7xf32>
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<2x3x32x5x3xf32> into tensor<2x96x5x3xf32>
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] : tensor<1x1x32x3xf32> into tensor<1x32x3xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<2x20x3x3x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<1x12x3x3x32xf32>
// The wider strided ones read channels-last copies of their padded inputs.
// IR-DAG: outs(%{{.*}} : tensor<1x33x33x16xf32>)
// IR-DAG: outs(%{{.*}} : tensor<2x42x52x24xf32>)
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<2x24x3x3x32xf32>
// RUN: cat %t/dump/passes/*/*tc-cpu-block-conv-channels.mlir | FileCheck %s --check-prefix=KEPT
// KEPT-NOT: tensor<1x8x3x3x32xf32>
// The 1x1 with stride 2 reads its input through a dense copy of every other
// row and column, then a matmul over the 7x7 positions.
// RUN: cat %t/dump/passes/*/*convert-tc-to-linalg.mlir | FileCheck %s --check-prefix=DENSE
// DENSE: #[[EVERY_OTHER:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2, d3 * 2)>
// DENSE: linalg.generic {indexing_maps = [#[[EVERY_OTHER]], #{{.*}}], {{.*}} ins(%{{.*}} : tensor<1x40x13x13xf32>) outs(%{{.*}} : tensor<1x40x7x7xf32>)
// DENSE: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x40x7x7xf32> into tensor<1x40x49xf32>
// After --tc-cpu-fuse-elementwise the ReLU reads the unpacking copy in its
// [N, F / 32, 32, O...] shape, fused into it, and the collapse follows.
// RUN: cat %t/dump/passes/*/*tc-cpu-fuse-elementwise.mlir | FileCheck %s --check-prefix=FUSED
// FUSED: %[[U:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x14x14x32xf32>) outs(%{{.*}} : tensor<1x2x32x14x14xf32>)
// FUSED: arith.maximumf
// FUSED: tensor.collapse_shape %[[U]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x32x14x14xf32> into tensor<1x64x14x14xf32>
// The stride-2 one split by output-channel blocks pads its image once,
// before the workgroups, each of which reads a view of it (not a copy).
// RUN: cat %t/dump/passes/*/*/*tc-cpu-distribute.mlir | FileCheck %s --check-prefix=DIST
// DIST: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// DIST: } : tensor<1x20x27x27xf32> to tensor<1x20x29x29xf32>
// DIST: scf.forall
// DIST-NOT: tensor.pad
// DIST: tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 20, 29, 29]
