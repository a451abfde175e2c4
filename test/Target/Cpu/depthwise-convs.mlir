// Depthwise convolutions and pooling windows give numpy's results with odd
// sizes in every dimension: 3x3 with bias and ReLU6 on 37 channels of
// 23x29, stride 2 with asymmetric padding, 5x5 at batch 2, dilation 2 with
// two outputs per channel, a max pool with stride 2 and an average pool
// that does not count the padding. These are the NCHW kernels
// (--channels-last=false); channels-last.mlir runs the same cases
// channels-last, tc-compile's default for a model with depthwise
// convolutions.
// RUN: %pyonnx %s.py %t
// RUN: rm -rf %t/dump
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache --channels-last=false --dump-ir=%t/dump
// RUN: tc-run %t/model.so --rtol=1e-4 --atol=1e-4 \
// RUN:   --input=x_dw3=%t/x_dw3.npy --compare=y_dw3=%t/y_dw3.npy \
// RUN:   --input=x_dw3s2=%t/x_dw3s2.npy --compare=y_dw3s2=%t/y_dw3s2.npy \
// RUN:   --input=x_dw5=%t/x_dw5.npy --compare=y_dw5=%t/y_dw5.npy \
// RUN:   --input=x_dwdil=%t/x_dwdil.npy --compare=y_dwdil=%t/y_dwdil.npy \
// RUN:   --input=x_maxpool=%t/x_maxpool.npy --compare=y_maxpool=%t/y_maxpool.npy \
// RUN:   --input=x_blk5=%t/x_blk5.npy --compare=y_blk5=%t/y_blk5.npy \
// RUN:   --input=x_blks2=%t/x_blks2.npy --compare=y_blks2=%t/y_blks2.npy \
// RUN:   --input=x_blkdil=%t/x_blkdil.npy --compare=y_blkdil=%t/y_blkdil.npy \
// RUN:   --input=x_avgpool=%t/x_avgpool.npy --compare=y_avgpool=%t/y_avgpool.npy | FileCheck %s
// CHECK-DAG: output 'y_dw3': OK: f32[1, 37, 23, 29]
// CHECK-DAG: output 'y_dw3s2': OK: f32[1, 24, 16, 15]
// CHECK-DAG: output 'y_dw5': OK: f32[2, 12, 14, 13]
// CHECK-DAG: output 'y_dwdil': OK: f32[1, 16, 19, 21]
// CHECK-DAG: output 'y_maxpool': OK: f32[1, 20, 14, 14]
// CHECK-DAG: output 'y_avgpool': OK: f32[1, 9, 17, 18]
// CHECK-DAG: output 'y_blk5': OK: f32[2, 48, 14, 13]
// CHECK-DAG: output 'y_blks2': OK: f32[1, 64, 7, 7]
// CHECK-DAG: output 'y_blkdil': OK: f32[1, 32, 11, 12]

// Those three compute in [N, C / L, O..., L]; the wider ones stay NCHW.
// RUN: cat %t/dump/passes/*/*tc-cpu-block-depthwise-convs.mlir | FileCheck %s --check-prefix=BLOCKED
// BLOCKED-DAG: -> tensor<2x3x14x13x16xf32>
// BLOCKED-DAG: -> tensor<1x2x7x7x32xf32>
// BLOCKED-DAG: -> tensor<1x1x11x12x32xf32>
// BLOCKED-NOT: tensor<1x3x23x29x{{.*}}xf32>

// Workgroups split the channels, each reading its own channels' rows, not
// the output rows (whose windows would read each input row three times).
// RUN: cat %t/dump/passes/*/*/*tc-cpu-distribute.mlir | FileCheck %s --check-prefix=SPLIT
// SPLIT-DAG: scf.forall (%{{.*}}) in (37) shared_outs(%{{.*}}) -> (tensor<1x37x1x23x29xf32>)
// SPLIT-DAG: scf.forall (%{{.*}}) in (12) shared_outs(%{{.*}}) -> (tensor<2x12x1x14x13xf32>)
// (tc-cpu-vectorize-contractions.mlir checks their register tiles: four
// output rows each.)
