// RUN: %pyonnx %models weights %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pyonnx %models external_data %t.dir/model.onnx
// RUN: tc-translate --import-onnx %t.dir/model.onnx | FileCheck %s
// RUN: cd %t.dir && tc-translate --import-onnx model.onnx | FileCheck %s
// RUN: %pyonnx %models subbyte %t.sub
// RUN: tc-translate --import-onnx %t.sub | FileCheck %s --check-prefix=SUB

// Weights are dense_resource blobs; tiny constants (scalars, shape vectors)
// stay inline so that folding sees them; unused initializers are dropped.
// CHECK-LABEL: func.func @main
// CHECK: %[[W:.*]] = tc.constant dense_resource<big> : tensor<8x8xf32>
// CHECK: tc.matmul %arg0, %[[W]]
// CHECK: tc.constant dense<5.000000e-01> : tensor<8xf32>
// CHECK: tc.constant dense<3.000000e+00> : tensor<f32>
// CHECK-NOT: small
// CHECK: dialect_resources
// CHECK-NEXT: builtin:
// CHECK-NEXT: big: "0x04000000000000000000803F00000040

// 4- and 2-bit tensors are unpacked, one element per byte, signed or not.
// SUB-DAG: tc.constant dense<[-8, -1, 0, 3, 7]> : tensor<5xi4>
// SUB-DAG: tc.constant dense<[0, 1, 2, 3, 3, 1]> : tensor<6xui2>
