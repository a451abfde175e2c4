// tc-compile --mode=max-autotune: the register-tiled kernels' candidate
// configurations are compiled, timed with tc-run on this machine, and the
// fastest per kernel kept in the tuning table; the library computes the
// same results; a second compile finds every kernel in the table and tunes
// nothing.
// RUN: %pyonnx %s.py %t
// RUN: rm -rf %t/cache
// RUN: tc-compile %t/model.onnx --mode=max-autotune --cache-dir=%t/cache -o %t/tuned.so --timing 2>&1 | FileCheck %s --check-prefix=TUNE
// TUNE: tc-compile: max-autotune: [[KERNELS:[1-9][0-9]*]] tunable kernels ([[KEYS:[1-9][0-9]*]] distinct), 0 already in the tuning table; {{[2-9]}} candidate compiles, {{[0-9]+}} changed, tuned kernels {{[0-9.]+}} -> {{[0-9.]+}} ms per run; {{[0-9.]+}} s
// TUNE: autotune
// RUN: tc-run %t/tuned.so --input=x=%t/x.npy --compare=y=%t/y.npy --rtol=1e-3 --atol=1e-4 | FileCheck %s
// CHECK: output 'y': OK
// RUN: ls %t/cache/tuning | FileCheck %s --check-prefix=TABLE
// TABLE: cpu-{{.*}}.json
// RUN: cat %t/cache/tuning/*.json | FileCheck %s --check-prefix=ENTRY
// ENTRY: "kernels": {
// ENTRY: "cpu-{{[0-9a-f]+}}": {
// ENTRY: "heuristic_ms":
// ENTRY: "tile": [
//
// The tuned library is a cache entry of its own: again, a hit.
// RUN: tc-compile %t/model.onnx --mode=max-autotune --cache-dir=%t/cache -o %t/tuned.so --timing 2>&1 | FileCheck %s --check-prefix=HIT
// HIT: cache hit
// Without the cache entry, the table answers for every kernel.
// RUN: cp %t/cache/tuning/cpu-*.json %t/table.json
// RUN: tc-compile %t/model.onnx --mode=max-autotune --tuning-table=%t/table.json --no-cache -o %t/again.so 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: tc-compile: max-autotune: {{[1-9][0-9]*}} tunable kernels ({{[1-9][0-9]*}} distinct), {{[1-9][0-9]*}} already in the tuning table; {{[0-9.]+}} s
// RUN: tc-run %t/again.so --input=x=%t/x.npy --compare=y=%t/y.npy --rtol=1e-3 --atol=1e-4 | FileCheck %s
// The default mode compiles with a given table too.
// RUN: tc-compile %t/model.onnx --tuning-table=%t/table.json --no-cache -o %t/table.so
// RUN: tc-run %t/table.so --input=x=%t/x.npy --compare=y=%t/y.npy --rtol=1e-3 --atol=1e-4 | FileCheck %s
//
// A dynamic batch needs inputs to tune on; given, they are used.
// RUN: not tc-compile %t/dynamic.onnx --mode=max-autotune --no-cache -o %t/d.so 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: tc-compile: error: max-autotune times the model on generated inputs, and input 'x' has a dynamic shape: give inputs of the shapes to tune for with --autotune-inputs=DIR
// RUN: tc-compile %t/dynamic.onnx --mode=max-autotune --autotune-inputs=%t/inputs --no-cache -o %t/d.so 2>&1 | FileCheck %s --check-prefix=INPUTS
// INPUTS: tc-compile: max-autotune: {{[1-9][0-9]*}} tunable kernels
// RUN: tc-run %t/d.so --input=x=%t/x.npy --compare=y=%t/y.npy --rtol=1e-3 --atol=1e-4 | FileCheck %s
//
// A budget of 0 s stops after the heuristic compile.
// RUN: tc-compile %t/model.onnx --mode=max-autotune --autotune-budget=0 --no-cache -o %t/b.so 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: 1 candidate compiles, 0 changed, {{.*}} (the budget ended the trials)
//
// Errors.
// RUN: not tc-compile %t/model.onnx --mode=fastest -o %t/e.so 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: tc-compile: error: --mode: unknown mode 'fastest'; use default, reduce-overhead or max-autotune
// RUN: not tc-compile %t/model.onnx --autotune-budget=5 -o %t/e.so 2>&1 | FileCheck %s --check-prefix=FLAGS
// FLAGS: tc-compile: error: --autotune-inputs and --autotune-budget need --mode=max-autotune
// RUN: not tc-compile %t/model.onnx --mode=max-autotune --target=gpu-emulation -o %t/e.so 2>&1 | FileCheck %s --check-prefix=EMULATION
// EMULATION: tc-compile: error: --mode=max-autotune tunes the CPU's kernels; --target=gpu-emulation is a test target without them
// RUN: not tc-compile %t/model.onnx --tuning-table=%t/none.json -o %t/e.so 2>&1 | FileCheck %s --check-prefix=NOTABLE
// NOTABLE: tc-compile: error: --tuning-table: '{{.*}}none.json' does not exist
// RUN: not tc-compile %t/model.onnx --mode=max-autotune --autotune-inputs=%t/none --no-cache -o %t/e.so 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: tc-compile: error: --autotune-inputs: '{{.*}}none' is not a directory
