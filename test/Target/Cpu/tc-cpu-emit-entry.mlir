// RUN: tc-opt %s --tc-cpu-emit-entry | FileCheck %s

// The dispatch placeholder becomes a trampoline plus a parallel_for call;
// the ABI globals carry the metadata.
// CHECK-NOT: __tc_dispatch

// CHECK-LABEL: llvm.func internal @main(
// CHECK: llvm.alloca
// CHECK: llvm.mlir.addressof @main_wg0_trampoline
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.func internal @main_wg0_trampoline(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: llvm.mlir.global external constant @tc_module_abi_version(1 : i32)
// CHECK: llvm.mlir.global external constant @tc_module_metadata_v1("tc-module 1\0Aname m\0Ainput x f32 1 ?n\0Aoutput y f32 1 ?n\0Atarget cpu\0A\00")
// The entry point builds the input descriptor and returns the result's.
// CHECK-LABEL: llvm.func @tc_module_run_v1
// CHECK: llvm.call @main
// CHECK: llvm.return
module attributes {tc.module_metadata = "tc-module 1\0Aname m\0Ainput x f32 1 ?n\0Aoutput y f32 1 ?n\0Atarget cpu\0A"} {
  llvm.func @main_wg0(%p: !llvm.ptr, %i: i64) {
    llvm.return
  }
  llvm.func @__tc_dispatch_main_wg0(!llvm.ptr, i64, !llvm.ptr)
  llvm.func @main(%env: !llvm.ptr, %a: !llvm.ptr, %b: !llvm.ptr, %o: i64, %s: i64, %t: i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {
    %c4 = llvm.mlir.constant(4 : i64) : i64
    llvm.call @__tc_dispatch_main_wg0(%env, %c4, %b) : (!llvm.ptr, i64, !llvm.ptr) -> ()
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %1 = llvm.insertvalue %a, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %2 = llvm.insertvalue %b, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    llvm.return %2 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  }
}
