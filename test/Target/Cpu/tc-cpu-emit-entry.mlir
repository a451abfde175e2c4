// RUN: tc-opt %s --tc-cpu-emit-entry | FileCheck %s

// Each tc_cpu.dispatch (one per kernel) becomes a trampoline of its own
// plus a parallel_for call, also where two kernels share a workgroup
// function; the ABI globals carry the metadata, and the kernel table names
// each trampoline with the ONNX op types and nodes of its kernel.
// CHECK-NOT: tc_cpu.dispatch

// CHECK-LABEL: llvm.func internal @main(
// CHECK: llvm.alloca
// CHECK: llvm.mlir.addressof @k0_trampoline
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.mlir.addressof @k1_trampoline
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.func internal @k0_trampoline(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: llvm.call @main_wg0(
// CHECK: llvm.func internal @k1_trampoline(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: llvm.call @main_wg0(
// CHECK: llvm.mlir.global external constant @tc_module_abi_version(1 : i32)
// CHECK: llvm.mlir.global external constant @tc_module_metadata_v1("tc-module 1\0Aname m\0Ainput x f32 1 ?n\0Aoutput y f32 1 ?n\0Atarget cpu\0A\00")
// CHECK: llvm.mlir.global internal constant @__tc_kernel_k0_name("k0\00")
// CHECK: llvm.mlir.global internal constant @__tc_kernel_k0_ops("Conv+Relu\00")
// CHECK: llvm.mlir.global internal constant @__tc_kernel_k0_nodes("conv_1\0Arelu_1\00")
// CHECK: llvm.mlir.global internal constant @__tc_kernel_k1_name("k1\00")
// CHECK: llvm.mlir.global external constant @tc_module_kernel_count_v1(2 : i32)
// CHECK: llvm.mlir.global external constant @tc_module_kernels_v1() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, ptr, ptr)>>
// CHECK: llvm.mlir.addressof @k0_trampoline
// CHECK: llvm.mlir.addressof @__tc_kernel_k0_name
// CHECK: llvm.mlir.addressof @k1_trampoline
// The entry point builds the input descriptor and returns the result's.
// CHECK-LABEL: llvm.func @tc_module_run_v1
// CHECK: llvm.call @main
// CHECK: llvm.return
module attributes {tc.signature = #tc.signature<name = "m",
    inputs = [#tc.slot<"x" : tensor<?xf32>, symbols = ["n"]>],
    outputs = [#tc.slot<"y" : tensor<?xf32>, symbols = ["n"]>], targets = ["cpu"]>} {
  llvm.func @main_wg0(%p: !llvm.ptr, %i: i64) {
    llvm.return
  }
  llvm.func @main(%env: !llvm.ptr, %a: !llvm.ptr, %b: !llvm.ptr, %o: i64, %s: i64, %t: i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {
    %c4 = llvm.mlir.constant(4 : i64) : i64
    tc_cpu.dispatch @main_wg0[%c4 : i64] %env captures(%b : !llvm.ptr) {kernel = "k0", ops = "Conv+Relu", nodes = "conv_1\0Arelu_1"}
    tc_cpu.dispatch @main_wg0[%c4 : i64] %env captures(%a : !llvm.ptr) {kernel = "k1", ops = "Conv+Relu", nodes = "conv_2\0Arelu_2"}
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %1 = llvm.insertvalue %a, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %2 = llvm.insertvalue %b, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    llvm.return %2 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  }
}
