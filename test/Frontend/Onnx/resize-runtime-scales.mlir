// Resize whose scales or sizes are graph inputs, on an image of dynamic
// height and width, compiles once (tc.dynamic_resize, every dimension's
// scale and size worked out at run time) and matches onnx's reference for
// two images and parameter sets; constant scales on the dynamic image size
// their output at run time. Antialiased downscales by scales or sizes read at
// run time loop over their filter's taps, as does a constant filter too
// wide to unroll. Scales that are not positive are a run-time
// error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: tc.dynamic_resize %arg0, %{{.*}}, %{{.*}} {mode = "linear"} : (tensor<1x2x?x?xf32>, tensor<4xf64>, tensor<4xi64>) -> tensor<1x2x?x?xf32>
// IR: tc.dynamic_resize %arg0, %{{.*}}, %{{.*}} {coordinate_transformation_mode = "align_corners", mode = "cubic"} : (tensor<1x2x?x?xf32>, tensor<4xf64>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
// IR: tc.resize %arg0 {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 1.500000e+00>} : (tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
// IR: tc.dynamic_resize %arg0, %{{.*}}, %{{.*}} {antialias, mode = "linear"}
// IR: tc.dynamic_resize %arg0, %{{.*}}, %{{.*}} {antialias, exclude_outside, mode = "cubic"}
// IR: tc.resize %arg5 {antialias, mode = "linear", scales = array<f32: 1.000000e+00, 1.000000e+00, 2.500000e-02>} : (tensor<2x3x300xf32>) -> tensor<2x3x7xf32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --print-signature | FileCheck %s --check-prefix=SIG
// SIG: output 'linear': f32[1, 2, ?linear2, ?linear3]
// SIG: output 'cubic': f32[?cubic0, ?cubic1, ?cubic2, ?cubic3]
// RUN: tc-run %t/model.so --input=x=%t/a.x.npy --input=scales=%t/a.scales.npy --input=sizes=%t/a.sizes.npy --compare=linear=%t/a.linear.out.npy --compare=cubic=%t/a.cubic.out.npy --compare=nearest=%t/a.nearest.out.npy --input=aa_scales=%t/a.aa_scales.npy --input=aa_sizes=%t/a.aa_sizes.npy --input=long=%t/a.long.npy --compare=aa_linear=%t/a.aa_linear.out.npy --compare=aa_cubic=%t/a.aa_cubic.out.npy --compare=aa_wide=%t/a.aa_wide.out.npy | FileCheck %s --check-prefix=A
// A: output 'linear': OK: f32[1, 2, 10, 3]
// A: output 'cubic': OK: f32[1, 2, 5, 7]
// A: output 'nearest': OK: f32[1, 2, 10, 10]
// A: output 'aa_linear': OK: f32[1, 2, 3, 2]
// A: output 'aa_cubic': OK: f32[1, 2, 3, 2]
// A: output 'aa_wide': OK: f32[2, 3, 7]
// RUN: tc-run %t/model.so --input=x=%t/b.x.npy --input=scales=%t/b.scales.npy --input=sizes=%t/b.sizes.npy --compare=linear=%t/b.linear.out.npy --compare=cubic=%t/b.cubic.out.npy --compare=nearest=%t/b.nearest.out.npy --input=aa_scales=%t/b.aa_scales.npy --input=aa_sizes=%t/b.aa_sizes.npy --input=long=%t/b.long.npy --compare=aa_linear=%t/b.aa_linear.out.npy --compare=aa_cubic=%t/b.aa_cubic.out.npy --compare=aa_wide=%t/b.aa_wide.out.npy | FileCheck %s --check-prefix=B
// B: output 'linear': OK: f32[1, 2, 6, 9]
// B: output 'cubic': OK: f32[1, 1, 2, 2]
// B: output 'nearest': OK: f32[1, 2, 8, 4]
// B: output 'aa_linear': OK: f32[1, 2, 1, 4]
// B: output 'aa_cubic': OK: f32[1, 2, 1, 3]
// B: output 'aa_wide': OK: f32[2, 3, 7]
// RUN: not tc-run %t/model.so --input=x=%t/a.x.npy --input=scales=%t/bad.scales.npy --input=sizes=%t/a.sizes.npy --input=aa_scales=%t/a.aa_scales.npy --input=aa_sizes=%t/a.aa_sizes.npy --input=long=%t/a.long.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'linear' (Resize): the scales computed at run time: scales must be positive
