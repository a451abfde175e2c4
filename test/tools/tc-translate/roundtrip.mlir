// tc-translate parses and verifies tc IR and prints it back.
// RUN: tc-translate --tc-roundtrip %s | FileCheck %s
// RUN: tc-translate --help | FileCheck %s --check-prefix=HELP
// CHECK: tc.add %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// HELP-DAG: --tc-roundtrip
// HELP-DAG: --mlir-to-llvmir
func.func @f(%x: tensor<4xf32>, %y: tensor<f32>) -> tensor<4xf32> {
  %0 = tc.add %x, %y : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
