// A missing input file is named; exit code 1.
// RUN: tc-opt %t.does-not-exist.mlir; test $? -eq 1
// RUN: not tc-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s
// CHECK: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
