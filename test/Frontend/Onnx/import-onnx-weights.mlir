// RUN: %pyonnx %models weights %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pyonnx %models external_data %t.dir/model.onnx
// RUN: tc-translate --import-onnx %t.dir/model.onnx | FileCheck %s
// RUN: cd %t.dir && tc-translate --import-onnx model.onnx | FileCheck %s

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
