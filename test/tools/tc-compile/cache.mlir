// The compile cache (lib/Cache): a second compile of the same model with
// the same options is a hit that gives the same model.so; anything that
// changes the code is a miss; the size bound evicts the least recently used
// entry; faults are in Inputs/cache_faults.py.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pyonnx %models dense_relu %t/m.onnx
// RUN: %pyonnx %models external_data %t/ext.onnx
// RUN: tc-compile %t/m.onnx -o %t/a.so --cache-dir=%t/cache --timing 2>&1 | FileCheck %s --check-prefix=MISS
// MISS: cache lookup (a miss)
// MISS: cache store
// RUN: tc-compile %t/m.onnx -o %t/b.so --cache-dir=%t/cache --timing 2>&1 | FileCheck %s --check-prefix=HIT
// HIT: cache hit
// HIT-NOT: import
// RUN: cmp %t/a.so %t/b.so
// RUN: tc-run %t/b.so --print-signature | FileCheck %s --check-prefix=LOADS
// LOADS: input 'x'
// RUN: tc-compile --cache-stats --cache-dir=%t/cache | FileCheck %s --check-prefix=STATS1
// STATS1: entries: 1
// STATS1: hits: 1
// STATS1: misses: 1

// Options that change the code, and the model's name (model.so records
// it), are misses; --no-cache neither reads nor counts.
// RUN: tc-compile %t/m.onnx -o %t/c.so --cache-dir=%t/cache --max-workgroups=4
// RUN: tc-compile %t/m.onnx -o %t/c.so --cache-dir=%t/cache --cpu=x86-64-v2
// RUN: cp %t/m.onnx %t/renamed.onnx
// RUN: tc-compile %t/renamed.onnx -o %t/c.so --cache-dir=%t/cache
// RUN: tc-compile %t/m.onnx -o %t/c.so --cache-dir=%t/cache --no-cache
// RUN: tc-compile --cache-stats --cache-dir=%t/cache | FileCheck %s --check-prefix=STATS2
// STATS2: entries: 4
// STATS2: hits: 1
// STATS2: misses: 4

// TC_CACHE_DIR is the default directory.
// RUN: env TC_CACHE_DIR=%t/cache tc-compile %t/m.onnx -o %t/d.so --timing 2>&1 | FileCheck %s --check-prefix=HIT

// External data: the entry depends on the data file's contents, not only
// the model's; a changed data file is a miss and gives its own results.
// RUN: tc-compile %t/ext.onnx -o %t/e.so --cache-dir=%t/ext-cache
// RUN: tc-compile %t/ext.onnx -o %t/e.so --cache-dir=%t/ext-cache --timing 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: ls %t/ext-cache/v1/*/*.deps
// RUN: %pyonnx -c "import sys; f = open(sys.argv[1], 'r+b'); f.seek(8); f.write(b'\x00\x00\x80\x3f'); f.close()" %t/ext.onnx.data
// RUN: tc-compile %t/ext.onnx -o %t/e2.so --cache-dir=%t/ext-cache --timing 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: not cmp -s %t/e.so %t/e2.so

// The size bound keeps the most recently used entries that fit.
// RUN: env TC_CACHE_MAX_BYTES=400K tc-compile %t/m.onnx -o %t/f.so --cache-dir=%t/small
// RUN: env TC_CACHE_MAX_BYTES=400K tc-compile %t/m.onnx -o %t/f.so --cache-dir=%t/small --max-workgroups=4
// RUN: env TC_CACHE_MAX_BYTES=400K tc-compile --cache-stats --cache-dir=%t/small | FileCheck %s --check-prefix=BOUND
// BOUND: entries: 1
// BOUND: (bound 409600)
// RUN: env TC_CACHE_MAX_BYTES=400K tc-compile %t/m.onnx -o %t/f.so --cache-dir=%t/small --max-workgroups=4 --timing 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: not env TC_CACHE_MAX_BYTES=lots tc-compile %t/m.onnx -o %t/f.so 2>&1 | FileCheck %s --check-prefix=BADBOUND
// BADBOUND: tc-compile: error: TC_CACHE_MAX_BYTES='lots' is not a size

// Concurrency, kills at any moment, damaged entries.
// RUN: %pyonnx %S/Inputs/cache_faults.py tc-compile tc-run %t/m.onnx %t/faults | FileCheck %s --check-prefix=FAULTS
// FAULTS: concurrent: 4 compiles succeeded, one whole entry
// FAULTS: killed: {{[0-9]+}} compiles killed, no torn entry
// FAULTS: damaged: a flipped entry reported once
// FAULTS: damaged: a truncated entry reported once
// FAULTS: ok
