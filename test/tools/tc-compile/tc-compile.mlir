// RUN: %pyonnx %models weights %t.onnx
// RUN: tc-compile %t.onnx --check | FileCheck %s --check-prefix=CHECK-OK
// RUN: tc-compile %t.onnx --emit=tc -o %t.mlir && FileCheck %s --check-prefix=EMIT < %t.mlir
// RUN: not tc-compile %t.onnx 2>&1 | FileCheck %s --check-prefix=SO
// RUN: %pyonnx %models unsupported %t.bad.onnx
// RUN: not tc-compile %t.bad.onnx --check 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: not tc-compile %t.missing.onnx --check 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK-OK: ok, the whole model is supported
// After shape inference and canonicalization: weights stay blobs.
// EMIT: tc.constant dense_resource<big> : tensor<8x8xf32>
// EMIT: tc.matmul
// SO: error: generating a shared library is not available in this build yet
// UNSUP: error: 4 unsupported pieces in the model:
// MISSING: missing.onnx: error: cannot read the model file: No such file or directory
