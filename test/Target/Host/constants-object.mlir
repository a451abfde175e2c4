// The weights of model.so go through neither LLVM IR nor the linker: each
// constant of 4 KB or more is a hidden symbol in a zero-fill section that an
// object of its own defines (lib/Target/Host/ConstantsObject.cpp), named
// after its bytes so that one weight used twice is stored once; the bytes
// are appended to the linked library and the runtime maps them over that
// section (tc-runtime/module_weights.h). Smaller constants (the biases) stay
// in the IR. The layers' kernels, which differ only in their weights, are
// one function. The results match numpy.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=%t/x.npy --compare=%t/y.npy --rtol=1e-4 --atol=1e-5 | FileCheck %s
// CHECK: OK: f32[256, 96]

// Three distinct 36 KB weights, each once, 64-byte aligned, in .tc_weights
// (llvm-objdump -t: address, flags, section, alignment/size, name), a
// NOBITS section aligned to 64 KB; the region is exported, 64 KB in size.
// RUN: llvm-objdump -t %t/model.so | grep __tc_const_ | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-objdump -t %t/model.so | grep -c __tc_const_ | FileCheck %s --check-prefix=COUNT
// SYMBOLS: {{[0-9a-f]*[048c]0}} l {{ *}}O .tc_weights {{0*}}9000 .hidden __tc_const_{{[0-9A-F]+}}_36864
// COUNT: 3
// RUN: llvm-readelf -S %t/model.so | FileCheck %s --check-prefix=SECTION
// SECTION: .tc_weights NOBITS {{.*}} WA {{ *}}0 {{ *}}0 65536
// RUN: llvm-nm -D --defined-only %t/model.so | FileCheck %s --check-prefix=REGION
// REGION: {{0*[0-9a-f]*0000}} B tc_module_weights_v1
// (constants-mapped.mlir checks how `import tc` maps the appended bytes.)

// The LLVM dialect module still holds the weights (externalized only on
// the way to the object); its matmul kernels: one for the four layers.
// RUN: tc-compile %t/model.onnx --emit=llvm -o %t/model.mlir
// RUN: grep -c "llvm.func internal @main_wg[0-9]*(" %t/model.mlir | FileCheck %s --check-prefix=KERNELS
// KERNELS: {{^1$}}
