// A tuning table that cannot be used is an error naming it and why.
// RUN: not tc-opt %s --tc-cpu-configure-kernels=table=%t.missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot read the tuning table '{{.*}}missing.json': No such file or directory
// RUN: echo '{"kernels": ' > %t.truncated.json
// RUN: not tc-opt %s --tc-cpu-configure-kernels=table=%t.truncated.json 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: error: the tuning table '{{.*}}truncated.json' is not JSON
// RUN: echo '{"kernels": {"cpu-0": {"tile": [8], "workgroups": 4}}}' > %t.entry.json
// RUN: not tc-opt %s --tc-cpu-configure-kernels=table=%t.entry.json 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: the tuning table '{{.*}}entry.json': entry 'cpu-0' needs "tile": [rows, lanes] and "workgroups", all positive
// RUN: echo '[]' > %t.shape.json
// RUN: not tc-opt %s --tc-cpu-configure-kernels=table=%t.shape.json 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: the tuning table '{{.*}}shape.json' has no "kernels" object
func.func @matmul(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
