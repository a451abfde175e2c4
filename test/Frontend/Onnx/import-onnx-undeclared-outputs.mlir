// Graph outputs declared without a shape or without a type (the ONNX spec
// allows both) take the type they are computed with; a declared element
// type must still match it.
// RUN: %pyonnx %models undeclared_outputs %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s
// CHECK: func.func @main(%arg0: tensor<?x3xf32> {{.*}}) -> (tensor<?x3xf32> {tc.name = "y"}, tensor<?x3xf32> {tc.name = "z"})

// RUN: %pyonnx %models undeclared_shape_wrong_type %t.wrong
// RUN: not tc-translate --import-onnx %t.wrong 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: error: 1 unsupported piece in the model:
// WRONG-NEXT: s (graph output): declared as f32 but computed as i64
