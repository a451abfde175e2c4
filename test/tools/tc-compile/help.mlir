// tc-compile --help lists its own options only, not the thousands LLVM and
// MLIR register; theirs stay accepted.
// RUN: tc-compile --help | FileCheck %s
// CHECK: USAGE: tc-compile [options] <model.onnx>
// CHECK: tc-compile options:
// CHECK-DAG: --target=
// CHECK-DAG: --emit=
// CHECK-DAG: --dump-ir=
// CHECK-NOT: --amdgpu-
// CHECK-NOT: --x86-asm-syntax
// RUN: not tc-compile %t.missing.onnx --x86-asm-syntax=intel 2>&1 | FileCheck %s --check-prefix=ACCEPTED
// ACCEPTED: cannot read the model file
