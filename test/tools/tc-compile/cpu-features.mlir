// model.so records what compiled it and the CPU features its code may use;
// tc-run --print-signature shows them.
// RUN: %pyonnx %models dense_relu %t.onnx
// RUN: tc-compile %t.onnx -o %t.host.so --no-cache
// RUN: tc-run %t.host.so --print-signature | FileCheck %s --check-prefix=HOST
// HOST: compiled by tc {{[0-9.]+}} llvm 22.{{[0-9.]+}}
// HOST: cpu {{[a-z0-9-]+}}, using cmov
// RUN: tc-compile %t.onnx -o %t.v1.so --cpu=x86-64 --no-cache
// RUN: tc-run %t.v1.so --print-signature | FileCheck %s --check-prefix=V1
// V1: cpu x86-64, using cmov{{$}}
// RUN: tc-compile %t.onnx -o %t.v3.so --cpu=x86-64-v3 --no-cache
// RUN: tc-run %t.v3.so --print-signature | FileCheck %s --check-prefix=V3
// V3: cpu x86-64-v3, using {{.*}} avx {{.*}} fma avx2 bmi bmi2 lzcnt movbe{{$}}
