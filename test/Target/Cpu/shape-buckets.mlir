// Shape buckets: one library holds the generic code for every shape and
// code compiled for the extents each --shape-bucket fixes; a run takes the
// first bucket its inputs match, else the generic code. The model's two
// broadcasting additions are run-time checks in the generic code; a bucket
// that fixes `rows` keeps only the second, so its failed check must report
// that node (its checks follow the generic ones in the module's table).
// RUN: rm -rf %t && %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/m.so --no-cache --shape-bucket=batch=2,rows=2 --shape-bucket=batch=3
// RUN: tc-run %t/m.so --print-signature | FileCheck %s --check-prefix=SIG
// SIG: shape bucket batch=2,rows=2: its own code for these extents; other extents run the generic code
// SIG-NEXT: shape bucket batch=3: its own code for these extents; other extents run the generic code
// SIG-NEXT: input 'x': f32[?batch, 8]

// Each shape runs the code meant for it (the profile names the kernels of
// bucket N "bN_k...") and matches numpy.
// RUN: for c in b2 b3 b4 b1; do tc-run %t/m.so --input=x=%t/$c.x.npy --input=y=%t/$c.y.npy --input=z=%t/$c.z.npy --compare=out=%t/$c.out.npy --profile || exit 1; done 2>&1 | FileCheck %s --check-prefix=SHAPES
// SHAPES: b0_k{{[0-9]+}} MatMul
// SHAPES: output 'out': OK: f32[2, 16]
// SHAPES: b1_k{{[0-9]+}} MatMul
// SHAPES: output 'out': OK: f32[3, 16]
// SHAPES-NOT: b{{[0-9]}}_k
// SHAPES: output 'out': OK: f32[4, 16]
// SHAPES-NOT: b{{[0-9]}}_k
// SHAPES: output 'out': OK: f32[1, 16]

// Failed checks name their node in either code.
// RUN: not tc-run %t/m.so --input=x=%t/bad_b0.x.npy --input=y=%t/bad_b0.y.npy --input=z=%t/bad_b0.z.npy 2>&1 | FileCheck %s --check-prefix=BAD0
// BAD0: node 'add_cols' (Add): operand 1 axis 0 does not match
// RUN: not tc-run %t/m.so --input=x=%t/bad_b1.x.npy --input=y=%t/bad_b1.y.npy --input=z=%t/bad_b1.z.npy 2>&1 | FileCheck %s --check-prefix=BAD1
// BAD1: node 'add_rows' (Add): operand 1 axis 0 does not match
// RUN: not tc-run %t/m.so --input=x=%t/bad_generic.x.npy --input=y=%t/bad_generic.y.npy --input=z=%t/bad_generic.z.npy 2>&1 | FileCheck %s --check-prefix=BADG
// BADG: node 'add_cols' (Add): operand 1 axis 0 does not match

// The entry point tests the bucket's extents (input_dims[0] is x's batch,
// input_dims[2] y's rows) before the generic code.
// RUN: tc-compile %t/model.onnx --emit=llvm --shape-bucket=batch=2,rows=2 | FileCheck %s --check-prefix=ENTRY
// ENTRY: llvm.func @tc_module_run_v1(
// ENTRY: llvm.getelementptr %arg2[0]
// ENTRY: llvm.icmp "eq" %{{.*}}, %{{.*}}
// ENTRY: llvm.getelementptr %arg2[2]
// ENTRY: llvm.icmp "eq"
// ENTRY: llvm.cond_br
// ENTRY: llvm.call @__tc_run_bucket0(
// ENTRY: llvm.call @__tc_run_generic(

// Flags: a dimension no input has, a malformed bucket, a GPU target.
// RUN: not tc-compile %t/model.onnx -o %t/e.so --shape-bucket=batch=1 --shape-bucket=seq=8 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: tc-compile: error: --shape-bucket=seq=8: no input has a dimension named 'seq' (named dimensions: batch, cols, rows)
// RUN: not tc-compile %t/model.onnx -o %t/e.so --shape-bucket=batch 2>&1 | FileCheck %s --check-prefix=SPEC
// SPEC: tc-compile: error: --shape-bucket=batch: expected NAME=EXTENT (a non-negative integer), got 'batch'
// RUN: not tc-compile %t/model.onnx -o %t/e.so --shape-bucket=batch=1,batch=2 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: the dimension 'batch' is given twice
// RUN: not tc-compile %t/model.onnx -o %t/e.so --shape-bucket=batch=1 --target=cuda:sm_90 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: shape buckets are compiled for the CPU target only
