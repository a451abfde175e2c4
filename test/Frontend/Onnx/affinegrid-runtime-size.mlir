// AffineGrid whose size is a graph input compiles once: the base grid is
// built from tc.range coordinates over the extents read at run time, then
// multiplied with theta. A size whose N is not theta's is a run-time error
// naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'grid' (AffineGrid): the size computed at run time has a negative extent or an N other than theta's"
// IR: tc.batch_matmul %{{.*}}, %{{.*}} : (tensor<1x?x3xf32>, tensor<2x3x2xf32>) -> tensor<2x?x2xf32>
// IR: -> tensor<2x?x?x2xf32>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=theta=%t/a.theta.npy --input=size=%t/a.size.npy --compare=grid=%t/a.grid.npy --compare=corners=%t/a.corners.npy --atol=1e-6 | FileCheck %s --check-prefix=A
// A: output 'grid': OK: f32[2, 4, 5, 2]
// A: output 'corners': OK: f32[2, 4, 5, 2]
// RUN: tc-run %t/model.so --input=theta=%t/b.theta.npy --input=size=%t/b.size.npy --compare=grid=%t/b.grid.npy --compare=corners=%t/b.corners.npy --atol=1e-6 | FileCheck %s --check-prefix=B
// B: output 'corners': OK: f32[2, 1, 3, 2]
// RUN: not tc-run %t/model.so --input=theta=%t/bad.theta.npy --input=size=%t/bad.size.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'grid' (AffineGrid): the size computed at run time has a negative extent or an N other than theta's
