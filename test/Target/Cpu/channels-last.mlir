// Depthwise-separable blocks computed channels-last (--tc-channels-last,
// tc-compile's default for a model with depthwise convolutions) give
// numpy's results: MobileNetV2's inverted residual on 20 -> 120 channels,
// its strided form (144 channels, stride 2, asymmetric padding), an
// EfficientNet block with squeeze-excitation at batch 2, a stem on the
// image's 3 channels, and a dilated depthwise convolution before a
// classifier; and (dyn/) a block exported with a dynamic batch axis, run
// at batch 3.
// RUN: %pyonnx %s.py %t
// RUN: rm -rf %t/dump
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache --dump-ir=%t/dump
// RUN: tc-run %t/model.so --rtol=1e-4 --atol=1e-4 \
// RUN:   --input=x_mbv2=%t/x_mbv2.npy --compare=y_mbv2=%t/y_mbv2.npy \
// RUN:   --input=x_stride=%t/x_stride.npy --compare=y_stride=%t/y_stride.npy \
// RUN:   --input=x_se=%t/x_se.npy --compare=y_se=%t/y_se.npy \
// RUN:   --input=x_stem=%t/x_stem.npy --compare=y_stem=%t/y_stem.npy \
// RUN:   --input=x_head=%t/x_head.npy --compare=y_head=%t/y_head.npy | FileCheck %s
// CHECK-DAG: output 'y_mbv2': OK: f32[1, 20, 17, 15]
// CHECK-DAG: output 'y_stride': OK: f32[1, 40, 16, 15]
// CHECK-DAG: output 'y_se': OK: f32[2, 24, 13, 11]
// CHECK-DAG: output 'y_stem': OK: f32[1, 24, 10, 11]
// CHECK-DAG: output 'y_head': OK: f32[1, 10]

// All fifteen convolutions are channels-last (the stem's too); the only
// transposes left are the five inputs' and the four image outputs' (the
// classifier's mean reaches the Gemm through a reshape).
// RUN: FileCheck %s --check-prefix=LAYOUT < %t/dump/passes/builtin_module_no-symbol-name/func_func_main/0_0_tc-channels-last.mlir
// LAYOUT-COUNT-15: channels_last
// LAYOUT-NOT: channels_last
// RUN: grep -c "tc.transpose" %t/dump/passes/builtin_module_no-symbol-name/func_func_main/0_0_tc-channels-last.mlir | FileCheck %s --check-prefix=TRANSPOSES
// TRANSPOSES: 9

// Pointwise filters [F, C] are packed whatever their size, in panels that
// divide F (one of 20, nine of 16, five of 8); depthwise filters are
// stored [K, K, C], channels innermost.
// RUN: FileCheck %s --check-prefix=PACKED < %t/dump/passes/builtin_module_no-symbol-name/3_tc-cpu-pack-weights.mlir
// PACKED-DAG: tensor<1x120x20xf32>
// PACKED-DAG: tensor<9x24x16xf32>
// PACKED-DAG: tensor<5x144x8xf32>
// PACKED-DAG: tensor<3x3x144xf32>
// PACKED-DAG: tensor<5x5x16xf32>

// With --channels-last=false the same model computes NCHW, with the same
// results.
// RUN: tc-compile %t/model.onnx -o %t/nchw.so --no-cache --channels-last=false
// RUN: tc-run %t/nchw.so --rtol=1e-4 --atol=1e-4 \
// RUN:   --input=x_mbv2=%t/x_mbv2.npy --compare=y_mbv2=%t/y_mbv2.npy \
// RUN:   --input=x_stride=%t/x_stride.npy --compare=y_stride=%t/y_stride.npy \
// RUN:   --input=x_se=%t/x_se.npy --compare=y_se=%t/y_se.npy \
// RUN:   --input=x_stem=%t/x_stem.npy --compare=y_stem=%t/y_stem.npy \
// RUN:   --input=x_head=%t/x_head.npy --compare=y_head=%t/y_head.npy | FileCheck %s

// The dynamic batch: its three convolutions channels-last, batch 3 right.
// RUN: tc-compile %t/dyn/model.onnx -o %t/dyn.so --no-cache --dump-ir=%t/dyn/dump
// RUN: tc-run %t/dyn.so --rtol=1e-4 --atol=1e-4 \
// RUN:   --input=x_dyn=%t/dyn/x_dyn.npy --compare=y_dyn=%t/dyn/y_dyn.npy | FileCheck %s --check-prefix=DYN
// DYN: output 'y_dyn': OK: f32[3, 24, 9, 10]
// RUN: FileCheck %s --check-prefix=DYNLAYOUT < %t/dyn/dump/passes/builtin_module_no-symbol-name/func_func_main/0_0_tc-channels-last.mlir
// DYNLAYOUT-COUNT-3: channels_last{{.*}} -> tensor<?x
