// Col2Im whose image_shape and block_shape are graph inputs compiles once:
// the index map of kernel offsets and blocks is computed at run time, the
// entries scatter-added into a padded image of run-time extents, which the
// pads crop. It matches onnx's reference for two shape sets on a 2-D image
// (strides, dilations, pads) and a 3-D one; shapes that do not fit the input
// are a run-time error naming the node. Constant shapes on an input of
// dynamic shape take the same path, the input checked when it runs.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'col2im_2d' (Col2Im): image_shape and block_shape do not fit the input [N, C * prod(block_shape), number of blocks]"
// IR: tc.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64, reduction = "add"} : (tensor<2x?x?xf32>, tensor<2x?x?xi64>, tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
// IR: tc.dynamic_pad
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x2=%t/a.x2.npy --input=image2=%t/a.image2.npy --input=block2=%t/a.block2.npy --input=x3=%t/a.x3.npy --input=image3=%t/a.image3.npy --input=block3=%t/a.block3.npy --compare=y2=%t/a.y2.npy --compare=y3=%t/a.y3.npy | FileCheck %s --check-prefix=A
// A: output 'y2': OK: f32[2, 3, 5, 6]
// A: output 'y3': OK: f32[1, 3, 3, 4, 5]
// RUN: tc-run %t/model.so --input=x2=%t/b.x2.npy --input=image2=%t/b.image2.npy --input=block2=%t/b.block2.npy --input=x3=%t/b.x3.npy --input=image3=%t/b.image3.npy --input=block3=%t/b.block3.npy --compare=y2=%t/b.y2.npy --compare=y3=%t/b.y3.npy | FileCheck %s --check-prefix=B
// B: output 'y2': OK: f32[2, 2, 4, 9]
// B: output 'y3': OK: f32[1, 2, 2, 5, 3]
// RUN: not tc-run %t/model.so --input=x2=%t/a.x2.npy --input=image2=%t/a.image2.npy --input=block2=%t/bad.block2.npy --input=x3=%t/a.x3.npy --input=image3=%t/a.image3.npy --input=block3=%t/a.block3.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'col2im_2d' (Col2Im): image_shape and block_shape do not fit the input
// RUN: tc-compile %t/model_const.onnx -o %t/model_const.so
// RUN: tc-run %t/model_const.so --input=x2=%t/a.x2.npy --compare=y2=%t/a.y2.npy | FileCheck %s --check-prefix=CONST
// CONST: output 'y2': OK: f32[2, 3, 5, 6]
// RUN: not tc-run %t/model_const.so --input=x2=%t/b.x2.npy 2>&1 | FileCheck %s --check-prefix=CONSTBAD
// CONSTBAD: node 'col2im_const' (Col2Im): image_shape and block_shape do not fit the input
