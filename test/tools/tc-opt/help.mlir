// tc-opt lists tc's dialects and passes next to the upstream ones.
// RUN: tc-opt --help | FileCheck %s
// CHECK: Available Dialects:{{.*}} fusion,{{.*}} tc,
// CHECK-DAG: --fusion-inline-groups
// CHECK-DAG: --tc-infer-shapes
// CHECK-DAG: --convert-linalg-to-loops
// CHECK-DAG: --gpu-module-to-binary
// CHECK-DAG: --one-shot-bufferize
