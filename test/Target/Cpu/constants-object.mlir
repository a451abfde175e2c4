// The weights of model.so do not go through LLVM IR: each constant of 4 KB
// or more is a hidden symbol in a read-only section written straight into
// an object of its own (lib/Target/Cpu/ConstantsObject.cpp), named after its
// bytes so that one weight used twice is stored once; smaller ones (the
// biases) stay in the IR. The layers' kernels, which differ only in their
// weights, are one function. The results match numpy.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=%t/x.npy --compare=%t/y.npy --rtol=1e-4 --atol=1e-5 | FileCheck %s
// CHECK: OK: f32[256, 96]

// Three distinct 36 KB weights, each once, 64-byte aligned, in .rodata
// (llvm-objdump -t: address, flags, section, alignment/size, name).
// RUN: llvm-objdump -t %t/model.so | grep __tc_const_ | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-objdump -t %t/model.so | grep -c __tc_const_ | FileCheck %s --check-prefix=COUNT
// SYMBOLS: {{[0-9a-f]*[048c]0}} l {{ *}}O .rodata {{0*}}9000 .hidden __tc_const_{{[0-9A-F]+}}_36864
// COUNT: 3
// RUN: llvm-readelf -S %t/model.so | FileCheck %s --check-prefix=SECTION
// SECTION: .rodata PROGBITS {{.*}} A{{M?}} {{ *}}0 {{ *}}0 64

// The LLVM dialect module still holds the weights (externalized only on
// the way to the object); its matmul kernels: one for the four layers.
// RUN: tc-compile %t/model.onnx --emit=llvm -o %t/model.mlir
// RUN: grep -c "llvm.func internal @main_wg[0-9]*(" %t/model.mlir | FileCheck %s --check-prefix=KERNELS
// KERNELS: {{^1$}}
