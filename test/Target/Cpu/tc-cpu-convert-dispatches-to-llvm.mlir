// RUN: tc-opt %s --tc-cpu-outline-workgroups --arith-expand --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --tc-cpu-convert-dispatches-to-llvm --reconcile-unrealized-casts | FileCheck %s

// After the upstream conversions the dispatch gets its count as an i64 and
// each memref capture as the fields its workgroup function (now an
// llvm.func) takes: allocated and aligned pointers, offset, size, stride.
// The unrealized casts in between reconcile, and the kernel's names stay.
// CHECK: llvm.func @main_wg0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-LABEL: llvm.func @main(
// CHECK-NOT: builtin.unrealized_conversion_cast
// CHECK: tc_cpu.dispatch @main_wg0[%{{.*}} : i64] %{{.*}} captures(%{{.*}} : !llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64)
// CHECK-SAME: {kernel = "k0", nodes = "copy_1", ops = "Identity"}
func.func @main(%in: memref<64xf32>, %out: memref<64xf32>) {
  scf.forall (%i) in (4) {
    %c16 = arith.constant 16 : index
    %off = arith.muli %i, %c16 : index
    %v = memref.load %in[%off] : memref<64xf32>
    memref.store %v, %out[%off] : memref<64xf32> loc("copy_1"("Identity"))
  }
  return
}
