// An op that does not verify names itself and its operands; exit code 1.
// RUN: tc-opt %s; test $? -eq 1
// RUN: not tc-opt %s 2>&1 | FileCheck %s
// CHECK: invalid-op.mlir:[[@LINE+2]]:8: error: 'tc.matmul' op contraction size mismatch: lhs dimension 1 is 4 but rhs dimension 0 is 5
func.func @f(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) -> tensor<3x6xf32> {
  %0 = tc.matmul %a, %b : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
