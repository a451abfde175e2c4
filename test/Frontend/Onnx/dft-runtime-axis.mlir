// DFT whose axis is a graph input compiles once: the transform along each
// candidate axis under an scf.if on the checked axis. Onesided, the arms'
// shapes differ and meet in a type with those dimensions dynamic. The axis
// of the real/imaginary dimension is a run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'dft' (DFT): the axis cannot be the real/imaginary dimension"
// IR: scf.if %{{.*}} -> (tensor<?x?x2xf32>)
// IR: tensor.cast %{{.*}} : tensor<2x4x2xf32> to tensor<?x?x2xf32>
// IR: tensor.cast %{{.*}} : tensor<3x3x2xf32> to tensor<?x?x2xf32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x=%t/a.x.npy --input=axis=%t/a.axis.npy --compare=y=%t/a.y.npy --atol=1e-5 | FileCheck %s --check-prefix=A
// A: OK: f32[2, 4, 2]
// RUN: tc-run %t/model.so --input=x=%t/b.x.npy --input=axis=%t/b.axis.npy --compare=y=%t/b.y.npy --atol=1e-5 | FileCheck %s --check-prefix=B
// B: OK: f32[3, 3, 2]
// RUN: not tc-run %t/model.so --input=x=%t/bad.x.npy --input=axis=%t/bad.axis.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'dft' (DFT): the axis cannot be the real/imaginary dimension
