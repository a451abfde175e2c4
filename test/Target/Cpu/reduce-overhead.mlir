// tc-compile --mode=reduce-overhead: the default code, with the mode in the
// metadata, where the runtime reads it (runs keep the CPU threads awake;
// GPU runs replay graphs); the same results; a cache entry of its own.
// RUN: %pyonnx %S/max-autotune.mlir.py %t
// RUN: rm -rf %t/cache
// RUN: tc-compile %t/model.onnx --mode=reduce-overhead --cache-dir=%t/cache -o %t/ro.so
// RUN: tc-run %t/ro.so --print-signature | FileCheck %s --check-prefix=SIGNATURE
// SIGNATURE: mode reduce-overhead
// RUN: tc-run %t/ro.so --threads=2 --benchmark=20 --input=x=%t/x.npy --compare=y=%t/y.npy --rtol=1e-3 --atol=1e-4 | FileCheck %s
// CHECK: output 'y': OK
// The default mode says nothing, and is not the reduce-overhead entry.
// RUN: tc-compile %t/model.onnx --cache-dir=%t/cache -o %t/default.so --timing 2>&1 | FileCheck %s --check-prefix=MISS
// MISS-NOT: cache hit
// RUN: tc-run %t/default.so --print-signature | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-NOT: {{^}}  mode
// RUN: tc-compile %t/model.onnx --mode=reduce-overhead --cache-dir=%t/cache -o %t/ro2.so --timing 2>&1 | FileCheck %s --check-prefix=HIT
// HIT: cache hit
// --no-gpu-graphs is accepted on the CPU, where it changes nothing.
// RUN: tc-run %t/ro.so --no-gpu-graphs --input=x=%t/x.npy --compare=y=%t/y.npy --rtol=1e-3 --atol=1e-4 | FileCheck %s
