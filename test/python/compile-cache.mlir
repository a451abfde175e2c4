// tc.compile goes through tc-compile's compile cache: the second compile of
// a model is a hit (counted by --cache-stats) and loads; --no-cache in the
// flags bypasses it; a damaged entry's warning reaches Python's warnings.
// RUN: %pyonnx %s.py %t | FileCheck %s
// CHECK: first: misses 1 hits 0
// CHECK: second: misses 1 hits 1, same library, runs
// CHECK: no-cache: misses 1 hits 1
// CHECK: damaged: one warning: {{.*}}is damaged
