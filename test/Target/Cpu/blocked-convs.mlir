// Convolutions over images narrower than 8 columns, computed in blocks of
// 32 output channels (--tc-cpu-block-conv-channels), give numpy's results:
// 3x3 with padding, bias and ReLU on 7x7; 1x1 with stride 2 from 13x13;
// dilated with asymmetric padding at batch 2 on 5x6 (5x3 out); a 1-D one of width 5.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache
// RUN: tc-run %t/model.so --rtol=1e-4 --atol=1e-4 \
// RUN:   --input=x_c3x3=%t/x_c3x3.npy --input=x_down=%t/x_down.npy \
// RUN:   --input=x_dilated=%t/x_dilated.npy --input=x_line=%t/x_line.npy \
// RUN:   --compare=y_c3x3=%t/y_c3x3.npy --compare=y_down=%t/y_down.npy \
// RUN:   --compare=y_dilated=%t/y_dilated.npy --compare=y_line=%t/y_line.npy | FileCheck %s
// CHECK-DAG: output 'y_c3x3': OK: f32[1, 64, 7, 7]
// CHECK-DAG: output 'y_down': OK: f32[1, 32, 7, 7]
// CHECK-DAG: output 'y_dilated': OK: f32[2, 96, 5, 3]
// CHECK-DAG: output 'y_line': OK: f32[1, 32, 3]
// RUN: tc-compile %t/model.onnx --no-cache --dump-ir=%t/dump -o %t/model2.so
// RUN: cat %t/dump/passes/*/*tc-cpu-block-conv-channels.mlir | FileCheck %s --check-prefix=IR
// The filters [F, C, K...] become [F / 32, C, K..., 32]; each convolution
// writes [N, F / 32, O..., 32], unpacked through [N, F / 32, 32, O...].
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<2x24x3x3x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<1x40x1x1x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<3x8x3x3x32xf32>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<1x16x3x32xf32>
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x32x7x7xf32> into tensor<1x64x7x7xf32>
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<2x3x32x5x3xf32> into tensor<2x96x5x3xf32>
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] : tensor<1x1x32x3xf32> into tensor<1x32x3xf32>
