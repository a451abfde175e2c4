// RUN: tc-opt %s --split-input-file --tc-cpu-emit-entry --verify-diagnostics | FileCheck %s

// The signature becomes model.so's metadata text (module_abi.h) here and
// nowhere else: names escaped, unsigned and narrow element types by their
// ABI names, symbolic and anonymous dynamic extents, every target, the
// compiler, the CPU and its features, the mode and each shape bucket. The
// entry point reads ranks and element sizes from it (ui8: 1 byte, i4: 1).
// CHECK: llvm.mlir.global external constant @tc_module_metadata_v1("tc-module 1\0Aname my%20model\0Ainput in%200 u8 2 ?batch ?\0Ainput k i4 1 3\0Aoutput y f32 2 ?batch 3\0Atarget cpu\0Atarget cuda:sm_90\0Acompiler tc 0.1.0 llvm 22\0Acpu znver4 avx2 fma\0Amode reduce-overhead\0Abucket batch=1\0Abucket batch=8\0A\00")
// CHECK-NOT: tc.signature
// CHECK-LABEL: llvm.func @tc_module_run_v1
// The first input's extents are input_dims[0..1], the second's [2].
// CHECK: llvm.getelementptr %arg2[2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: llvm.call @main
module attributes {tc.signature = #tc.signature<name = "my model",
    inputs = [#tc.slot<"in 0" : tensor<?x?xui8>, symbols = ["batch", ""]>,
              #tc.slot<"k" : tensor<3xi4>>],
    outputs = [#tc.slot<"y" : tensor<?x3xf32>, symbols = ["batch", ""]>],
    targets = ["cpu", "cuda:sm_90"], compiler = "tc 0.1.0 llvm 22",
    cpu = "znver4", features = ["avx2", "fma"], mode = "reduce-overhead",
    buckets = [ {batch = 1 : i64}, {batch = 8 : i64} ]>} {
  llvm.func @main(%env: !llvm.ptr,
                  %a0: !llvm.ptr, %b0: !llvm.ptr, %o0: i64, %s0: i64, %s1: i64, %t0: i64, %t1: i64,
                  %a1: !llvm.ptr, %b1: !llvm.ptr, %o1: i64, %s2: i64, %t2: i64)
      -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> {
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    llvm.return %0 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  }
}

// -----

// expected-error @+1 {{--tc-cpu-emit-entry expects the module's tc.signature (set by tc-compile)}}
module {
  llvm.func @main(%env: !llvm.ptr) {
    llvm.return
  }
}
