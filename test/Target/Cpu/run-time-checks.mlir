// A value the compiler cannot check (an extent only known at run time)
// is checked by the compiled model: a failed check is an error naming the
// ONNX node, exit 1, never a read past the end of a buffer.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=a=%t/a5.npy --input=b=%t/b5.npy --compare=sum=%t/sum5.npy | FileCheck %s --check-prefix=SUM
// SUM: output 'sum': OK: f32[5]
// RUN: not tc-run %t/model.so --input=a=%t/a5.npy --input=b=%t/b1.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tc-run: error: running '{{.*}}.so': model '{{.*}}': node 'add_0' (Add): operand 1 axis 0 does not match the result's extent
// RUN: not tc-run %t/model.so --input=a=%t/a5.npy --input=b=%t/b7.npy 2>&1 | FileCheck %s --check-prefix=BAD

// A Reshape whose shape was fixed at export (batch 2) checks its element
// count; a failure ends the run before the Add that would index past a
// buffer (CPU and GPU code).
// RUN: tc-compile %t/baked.onnx -o %t/baked.so
// RUN: tc-run %t/baked.so --input=x=%t/x2.npy --compare=y=%t/y2.npy | FileCheck %s --check-prefix=BAKED
// BAKED: output 'y': OK: f32[2, 8]
// RUN: not tc-run %t/baked.so --input=x=%t/x1.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not tc-run %t/baked.so --input=x=%t/x1000.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: tc-run: error: running '{{.*}}.so': model '{{.*}}': node 'baked_reshape' (Reshape): the input's element count does not match the target shape's
// RUN: tc-compile %t/baked.onnx --target=gpu-emulation -o %t/baked-gpu.so
// RUN: tc-run %t/baked-gpu.so --input=x=%t/x2.npy --compare=y=%t/y2.npy | FileCheck %s --check-prefix=BAKED
// RUN: not tc-run %t/baked-gpu.so --input=x=%t/x1000.npy 2>&1 | FileCheck %s --check-prefix=COUNT

// Indices are checked element by element.
// RUN: tc-compile %t/gather.onnx -o %t/gather.so
// RUN: tc-run %t/gather.so --input=x=%t/x.npy --input=i=%t/good.npy --compare=rows=%t/rows.npy | FileCheck %s --check-prefix=ROWS
// ROWS: output 'rows': OK: f32[4, 3]
// RUN: not tc-run %t/gather.so --input=x=%t/x.npy --input=i=%t/past_end.npy 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not tc-run %t/gather.so --input=x=%t/x.npy --input=i=%t/before_start.npy 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: node 'lookup' (Gather): an index is out of range for the axis it indexes (valid: -n to n - 1 for an axis of extent n)
// On a GPU target the element check is dropped (kernels cannot report it),
// the extent checks on the host stay.
// RUN: tc-compile %t/gather.onnx --target=gpu-emulation -o %t/gather-gpu.so
// RUN: tc-run %t/gather-gpu.so --input=x=%t/x.npy --input=i=%t/good.npy --compare=rows=%t/rows.npy | FileCheck %s --check-prefix=ROWS
// RUN: tc-compile %t/model.onnx --target=gpu-emulation -o %t/model-gpu.so
// RUN: not tc-run %t/model-gpu.so --input=a=%t/a5.npy --input=b=%t/b1.npy 2>&1 | FileCheck %s --check-prefix=BAD
