// STFT whose frame_length is a graph input and that has no window compiles
// once: the frame indices and the DFT matrix are computed at run time, so
// the frames and frequency bins are run-time extents. With a window, the
// window fixes the frame length and the run-time one is checked against it.
// Out-of-range lengths are run-time errors naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'real' (STFT): the frame_length computed at run time must be in [1, the signal's length]"
// IR: tc.gather %arg0, %{{.*}} {axis = 1 : i64} : (tensor<2x20x1xf32>, tensor<?x?xi64>) -> tensor<2x?x?x1xf32>
// IR: tc.cos
// IR: tc.matmul %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// IR: cf.assert %{{.*}}, "node 'windowed' (STFT): the frame_length computed at run time differs from the window's length"
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=real=%t/a.real.npy --input=complex=%t/a.complex.npy --input=step=%t/a.step.npy --input=length=%t/a.length.npy --input=window=%t/a.window.npy --input=window_length=%t/a.window_length.npy --compare=y_real=%t/a.y_real.npy --compare=y_complex=%t/a.y_complex.npy --compare=y_windowed=%t/a.y_windowed.npy --atol=1e-5 | FileCheck %s --check-prefix=A
// A: output 'y_real': OK: f32[2, 4, 4, 2]
// A: output 'y_complex': OK: f32[1, 5, 6, 2]
// A: output 'y_windowed': OK: f32[2, 5, 3, 2]
// RUN: tc-run %t/model.so --input=real=%t/b.real.npy --input=complex=%t/b.complex.npy --input=step=%t/b.step.npy --input=length=%t/b.length.npy --input=window=%t/b.window.npy --input=window_length=%t/b.window_length.npy --compare=y_real=%t/b.y_real.npy --compare=y_complex=%t/b.y_complex.npy --compare=y_windowed=%t/b.y_windowed.npy --atol=1e-5 | FileCheck %s --check-prefix=B
// B: output 'y_real': OK: f32[2, 2, 5, 2]
// B: output 'y_complex': OK: f32[1, 4, 9, 2]
// B: output 'y_windowed': OK: f32[2, 3, 3, 2]
// RUN: not tc-run %t/model.so --input=real=%t/bad.real.npy --input=complex=%t/bad.complex.npy --input=step=%t/bad.step.npy --input=length=%t/bad.length.npy --input=window=%t/bad.window.npy --input=window_length=%t/bad.window_length.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'real' (STFT): the frame_length computed at run time must be in [1, the signal's length]
// RUN: not tc-run %t/model.so --input=real=%t/a.real.npy --input=complex=%t/a.complex.npy --input=step=%t/a.step.npy --input=length=%t/a.length.npy --input=window=%t/a.window.npy --input=window_length=%t/five.npy 2>&1 | FileCheck %s --check-prefix=WINDOW
// WINDOW: node 'windowed' (STFT): the frame_length computed at run time differs from the window's length
// A frame_length of 0 is the same error, not a division by zero in the
// kernels that may run before the check.
// RUN: not tc-run %t/model.so --input=real=%t/a.real.npy --input=complex=%t/a.complex.npy --input=step=%t/a.step.npy --input=length=%t/zero.npy --input=window=%t/a.window.npy --input=window_length=%t/a.window_length.npy 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: node 'real' (STFT): the frame_length computed at run time must be in [1, the signal's length]
