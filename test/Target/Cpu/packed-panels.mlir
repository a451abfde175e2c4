// Contractions whose lanes-side input is an activation with rows 2 KB or
// more apart, packed panel by panel into a stack buffer inside each
// workgroup (--tc-cpu-vectorize-contractions), give numpy's results: a 1x1
// convolution in NCHW with bias and ReLU, one at batch 2 with a partial row
// tile, and a matmul of two activations with partial tiles in rows and
// lanes.
// RUN: %pyonnx %s.py %t
// RUN: rm -rf %t/dump
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache --channels-last=false --dump-ir=%t/dump
// RUN: tc-run %t/model.so --rtol=1e-4 --atol=1e-4 \
// RUN:   --input=x_pw=%t/x_pw.npy --input=x_pw2=%t/x_pw2.npy \
// RUN:   --input=x_a=%t/x_a.npy --input=x_b=%t/x_b.npy --input=x_pw3=%t/x_pw3.npy \
// RUN:   --compare=y_pw=%t/y_pw.npy --compare=y_pw2=%t/y_pw2.npy \
// RUN:   --compare=y_mm=%t/y_mm.npy --compare=y_pw3=%t/y_pw3.npy | FileCheck %s
// CHECK-DAG: output 'y_pw': OK: f32[1, 40, 32, 48]
// CHECK-DAG: output 'y_pw2': OK: f32[2, 52, 24, 32]
// CHECK-DAG: output 'y_mm': OK: f32[70, 600]
// CHECK-DAG: output 'y_pw3': OK: f32[1, 96, 28, 28]
// The last one is one dispatch of 7 x 2 workgroups.
// RUN: cat %t/dump/passes/*/*tc-cpu-outline-workgroups.mlir | FileCheck %s --check-prefix=SPLIT
// SPLIT: %[[ROWS:.*]] = arith.ceildivsi %{{.*}}, %c48
// SPLIT: %[[LANES:.*]] = arith.ceildivsi %{{.*}}, %c112
// SPLIT: %[[COUNT:.*]] = arith.muli %[[ROWS]], %[[LANES]]
// SPLIT: tc_cpu.dispatch @{{.*}}[%[[COUNT]] : index]{{.*}}nodes = "pw3

// Each workgroup packs 32 columns over the whole reduction (the matmul
// splits its 600 lanes into chunks of 40: a tile of 32 and one of 8); the
// batch-2 one a batch at a time.
// RUN: cat %t/dump/passes/*/*/*tc-cpu-vectorize-contractions.mlir | FileCheck %s --check-prefix=IR
// IR-DAG: memref.alloca() {alignment = 64 : i64} : memref<1x512x32xf32>
// IR-DAG: memref.alloca() {alignment = 64 : i64} : memref<1x192x32xf32>
// IR-DAG: memref.alloca() {alignment = 64 : i64} : memref<600x32xf32>
