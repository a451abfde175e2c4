// The weights of model.so follow its linked part, 64 KB aligned, and
// `import tc` maps them (no copy) read-only over the region that
// constants-object.mlir checks. Python is not instrumented, so an ASan build
// of the runtime cannot be loaded into it: this check is not for the
// sanitizer job (utils/sanitize.sh).
// UNSUPPORTED: asan
// RUN: %pyonnx %S/constants-object.mlir.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: %pyonnx %S/constants-object.mlir.py --mapped %t/model.so %t/x.npy %t/y.npy | FileCheck %s --check-prefix=MAPPED
// MAPPED: weights trailer: offset % 65536 = 0, bytes 110592, file bytes after the weights: 64
// MAPPED: matches: True
// MAPPED: mapped from the file: r--p at offset {{[0-9]+}}, covering the weights, address % 65536 = 0

