// The remote compile cache against a real Redis (started and stopped by
// Inputs/remote_cache.py, which says what each part checks).
// REQUIRES: redis
// RUN: %pyonnx %models dense_relu %t.onnx
// RUN: %pyonnx %S/Inputs/remote_cache.py tc-compile tc-run %t.onnx %t | FileCheck %s
// CHECK: shared: a remote hit on a second machine, the same model.so
// CHECK: damaged: reported once and rebuilt
// CHECK: down: a refused and a silent Redis each give one warning and a model.so
// CHECK: malformed: one warning and a model.so
// CHECK: ok
