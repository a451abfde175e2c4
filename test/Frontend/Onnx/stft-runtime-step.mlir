// STFT whose frame_step is a graph input compiles once: the frame starts
// are tc.range(0, length - frame_length + 1, step), a dynamic number of
// frames gathered and transformed. A step that is not positive is a
// run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'stft' (STFT): the frame_step computed at run time must be positive"
// IR: tc.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
// IR: tc.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<1x16x1xf32>, tensor<?x4xi64>) -> tensor<1x?x4x1xf32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=signal=%t/a.signal.npy --input=step=%t/a.step.npy --input=window=%t/a.window.npy --compare=y=%t/a.y.npy --atol=1e-5 | FileCheck %s --check-prefix=A
// A: OK: f32[1, 5, 3, 2]
// RUN: tc-run %t/model.so --input=signal=%t/b.signal.npy --input=step=%t/b.step.npy --input=window=%t/b.window.npy --compare=y=%t/b.y.npy --atol=1e-5 | FileCheck %s --check-prefix=B
// B: OK: f32[1, 2, 3, 2]
// RUN: not tc-run %t/model.so --input=signal=%t/bad.signal.npy --input=step=%t/bad.step.npy --input=window=%t/bad.window.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'stft' (STFT): the frame_step computed at run time must be positive
