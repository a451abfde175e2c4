// Kernels whose vector lanes run along a dynamic dimension (a matmul with
// dynamic M and N, softmax and an activation along a dynamic row) are
// vectorized in full tiles with the partial last tile peeled off, and give
// numpy's results at sizes with and without a partial tile. CumSum's body
// compares its loop indices: its tiles keep the loops' order, so the
// comparison reads the right loops (static and dynamic rows).
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so --no-cache --dump-ir=%t/dump
// RUN: cat %t/dump/passes/builtin_module_no-symbol-name/func_func_main_wg*/*vectorize-contractions.mlir | FileCheck %s --check-prefix=TILES
// Full 8x32 register tiles: eight FMAs of 32 lanes.
// TILES-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// RUN: tc-run %t/model.so --input=a=%t/a.a.npy --input=b=%t/a.b.npy --input=s=%t/a.s.npy --input=t=%t/a.t.npy --compare=mm=%t/a.mm.npy --compare=sm=%t/a.sm.npy --compare=sig=%t/a.sig.npy --compare=cs=%t/a.cs.npy --compare=ct=%t/a.ct.npy --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=A
// A: output 'mm': OK: f32[13, 45]
// A: output 'sm': OK: f32[3, 37]
// A: output 'sig': OK: f32[3, 37]
// A: output 'cs': OK: f32[3, 37]
// A: output 'ct': OK: f32[2, 37]
// RUN: tc-run %t/model.so --input=a=%t/b.a.npy --input=b=%t/b.b.npy --input=s=%t/b.s.npy --input=t=%t/b.t.npy --compare=mm=%t/b.mm.npy --compare=sm=%t/b.sm.npy --compare=sig=%t/b.sig.npy --compare=cs=%t/b.cs.npy --compare=ct=%t/b.ct.npy --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=B
// B: output 'mm': OK: f32[8, 64]
// B: output 'sm': OK: f32[3, 5]
// B: output 'sig': OK: f32[3, 5]
// B: output 'cs': OK: f32[3, 5]
// B: output 'ct': OK: f32[2, 37]
