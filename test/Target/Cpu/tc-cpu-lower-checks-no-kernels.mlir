// RUN: tc-opt %s --tc-cpu-lower-checks=in-kernels=false | FileCheck %s

// GPU targets: a check inside a loop or a linalg op (which may become a
// kernel, with no way to the host's cell) is dropped; one in host code
// stays. Nothing is dropped on the CPU (in-kernels=true, the default).
// CHECK: module attributes {tc.check_messages = ["host"]}
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (memref<?xi64>, i32)
// CHECK: scf.for
// CHECK-NOT: llvm.atomicrmw
// CHECK: linalg.generic
// CHECK-NOT: llvm.atomicrmw
// CHECK: linalg.yield
// CHECK: scf.if
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: llvm.atomicrmw
// CHECK-NOT: cf.assert
#id = affine_map<(d0) -> (d0)>
module {
  func.func @main(%x: memref<?xi64>, %n: index) -> memref<?xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %x[%i] : memref<?xi64>
      %z = arith.constant 0 : i64
      %ok = arith.cmpi sge, %v, %z : i64
      cf.assert %ok, "in a loop"
    }
    linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%x : memref<?xi64>) {
    ^bb0(%o: i64):
      %z = arith.constant 0 : i64
      %ok = arith.cmpi sge, %o, %z : i64
      cf.assert %ok, "in a kernel"
      linalg.yield %o : i64
    }
    %d = memref.dim %x, %c0 : memref<?xi64>
    %same = arith.cmpi eq, %d, %n : index
    cf.assert %same, "host"
    return %x : memref<?xi64>
  }
}
