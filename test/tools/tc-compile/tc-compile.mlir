// RUN: %pyonnx %models weights %t.onnx
// RUN: tc-compile %t.onnx --check | FileCheck %s --check-prefix=CHECK-OK
// RUN: tc-compile %t.onnx --emit=tc -o %t.mlir && FileCheck %s --check-prefix=EMIT < %t.mlir
// RUN: tc-compile %t.onnx -o %t.so && tc-run %t.so --print-signature | FileCheck %s --check-prefix=SO
// RUN: %pyonnx -c "import numpy as np; np.save('%t.x.npy', np.ones((2, 8), np.float32)); np.save('%t.z.npy', (np.ones((2, 8), np.float32) @ np.arange(64, dtype=np.float32).reshape(8, 8) + 0.5) * 3)"
// RUN: tc-run %t.so --input=x=%t.x.npy --compare=z=%t.z.npy | FileCheck %s --check-prefix=EXEC
// RUN: not tc-compile %t.onnx --target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: tc-compile %t.onnx -o %t.dump.so --dump-ir=%t.dump && ls %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: %pyonnx %models unsupported %t.bad.onnx
// RUN: not tc-compile %t.bad.onnx --check 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: not tc-compile %t.missing.onnx --check 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK-OK: ok, the whole model is supported
// After shape inference and canonicalization: weights stay blobs.
// EMIT: tc.constant dense_resource<big> : tensor<8x8xf32>
// EMIT: tc.matmul
// SO: input 'x': f32[2, 8]
// SO: output 'z': f32[2, 8]
// EXEC: OK: f32[2, 8]
// TARGET: error: --target: unknown target 'tpu'; supported targets: cpu, cuda:sm_80, {{.*}}, rocm:gfx942
// DUMP: 00-import.mlir
// DUMP: 01-tc.mlir
// DUMP: 99-model.ll
// DUMP: passes
// UNSUP: error: 4 unsupported pieces in the model:
// MISSING: missing.onnx: error: cannot read the model file: No such file or directory

// --timing prints a table of the stages when the compile ends, each with
// its seconds, its share and the private memory held when it ended; with
// =passes, the MLIR pipelines' pass timings come first.
// RUN: %pyonnx %models weights %t.timing.onnx
// RUN: rm -rf %t.timing-cache
// RUN: tc-compile %t.timing.onnx -o %t.timing.so --timing --cache-dir=%t.timing-cache 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: stage {{ *}}seconds share {{ *}}private MB
// TIMING-NEXT: cache lookup (a miss)
// TIMING-NEXT: import {{ *}}{{[0-9]+\.[0-9]{3} +[0-9.]+% +[0-9]+\.[0-9]$}}
// TIMING-NEXT: graph passes
// TIMING-NEXT: code generation
// TIMING-NEXT: translation to LLVM IR
// One module, or split for the threads when it has enough functions:
// TIMING-NEXT: {{split for threads|LLVM optimization +[0-9]}}
// TIMING-NEXT: {{(LLVM optimization and )?object code}}
// TIMING-NEXT: link
// TIMING-NEXT: seal
// TIMING-NEXT: cache store
// TIMING-NEXT: total
// RUN: tc-compile %t.timing.onnx -o %t.timing.so --timing=passes --no-cache 2>&1 | FileCheck %s --check-prefix=PASSES
// PASSES: Execution time report
// PASSES: CpuOutlineWorkgroupsPass
// PASSES: stage {{ *}}seconds share
