// -o is checked before anything is compiled, never overwrites an input of
// the compile, and is replaced only by a complete, sealed model.so.
// RUN: rm -rf %t && mkdir -p %t/sub
// RUN: %pyonnx %models weights %t/m.onnx
// RUN: %pyonnx %models external_data %t/ext.onnx
// RUN: cp %t/m.onnx %t/m.orig.onnx

// The model as its own output: refused, the model untouched.
// RUN: not tc-compile %t/m.onnx -o %t/m.onnx 2>&1 | FileCheck %s --check-prefix=SELF
// RUN: not tc-compile %t/m.onnx -o %t/sub/../m.onnx 2>&1 | FileCheck %s --check-prefix=SELF
// RUN: not tc-compile %t/m.onnx --emit=tc -o %t/m.onnx 2>&1 | FileCheck %s --check-prefix=SELF
// RUN: cmp %t/m.onnx %t/m.orig.onnx
// SELF: tc-compile: error: the output '{{.*}}m.onnx' is an input of this compile ('{{.*}}m.onnx'); choose another -o

// An external-data file of the model as the output.
// RUN: cp %t/ext.onnx.data %t/ext.orig.data
// RUN: not tc-compile %t/ext.onnx -o %t/ext.onnx.data 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// RUN: cmp %t/ext.onnx.data %t/ext.orig.data
// EXTERNAL: tc-compile: error: the output '{{.*}}ext.onnx.data' is an external-data file of the model

// An empty -o, a directory, a missing directory: refused at once.
// RUN: not tc-compile %t/m.onnx -o "" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tc-compile: error: -o needs a file name (got an empty one)
// RUN: not tc-compile %t/m.onnx -o %t/sub 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: tc-compile: error: the output '{{.*}}sub' is a directory
// RUN: not tc-compile %t/m.onnx -o %t/nowhere/m.so 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: tc-compile: error: cannot write '{{.*}}nowhere/m.so': the directory '{{.*}}nowhere' does not exist
// RUN: not ls %t/m.so

// --cpu is checked before the compile, with a readable message.
// RUN: not tc-compile %t/m.onnx -o %t/bogus.so --cpu=bogus 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: tc-compile: error: --cpu=bogus: not a CPU of x86_64{{.*}} (use 'host', or an LLVM CPU name: x86-64, x86-64-v2, x86-64-v3, x86-64-v4
// CPU-NOT: LLVM ERROR
// RUN: tc-compile %t/m.onnx -o %t/v3.so --cpu=x86-64-v3

// The written file is sealed (tc-runtime/module_seal.h) and replaced
// atomically: no temporary is left beside it, nor in TMPDIR.
// RUN: mkdir -p %t/tmp && env TMPDIR=%t/tmp tc-compile %t/m.onnx -o %t/sub/m.so
// RUN: ls -A %t/sub | FileCheck %s --check-prefix=CLEAN --implicit-check-not=tmp
// RUN: ls -A %t/tmp | count 0
// CLEAN: m.so
// RUN: tail -c 32 %t/sub/m.so | od -An -c | FileCheck %s --check-prefix=SEAL
// SEAL: T   C   S   E   A   L 001  \0
// RUN: tc-run %t/sub/m.so --print-signature | FileCheck %s --check-prefix=RUNS
// RUNS: input 'x': f32[2, 8]

// A FIFO as the model is refused, not waited on.
// RUN: rm -f %t/fifo.onnx && mkfifo %t/fifo.onnx
// RUN: not timeout 20 tc-compile %t/fifo.onnx -o %t/fifo.so 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: cannot read the model file: not a regular file
