// A value the compiler cannot check (an extent only known at run time)
// is checked by the compiled model: a failed check is an error naming the
// ONNX node, exit 1, never a read past the end of a buffer.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=a=%t/a5.npy --input=b=%t/b5.npy --compare=sum=%t/sum5.npy | FileCheck %s --check-prefix=OK
// OK: output 'sum': OK: f32[5]
// RUN: not tc-run %t/model.so --input=a=%t/a5.npy --input=b=%t/b1.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tc-run: error: running '{{.*}}model.so': model '{{.*}}': node 'add_0' (Add): operand 1 axis 0 does not match the result's extent
// RUN: not tc-run %t/model.so --input=a=%t/a5.npy --input=b=%t/b7.npy 2>&1 | FileCheck %s --check-prefix=BAD
