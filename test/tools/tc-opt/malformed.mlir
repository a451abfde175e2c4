// A malformed file is reported with its location, and tc-opt exits 1.
// RUN: not tc-opt %s 2>&1 | FileCheck %s
// RUN: tc-opt %s; test $? -eq 1
// CHECK: malformed.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tc.exp %x tensor<4xf32>
  return %0 : tensor<4xf32>
}
