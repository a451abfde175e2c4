// RUN: tc-opt %s --split-input-file --verify-diagnostics --tc-cpu-lower-checks | FileCheck %s

// Each failing assert records its message's index + 1 in one cell (an
// atomic max in a branch, so a check in a workgroup is safe and a check
// that holds costs a compare); @main returns the cell as a last result and
// the module lists the messages. Equal messages share one index.
// CHECK-LABEL: module attributes {tc.check_messages = ["node 'a' (Add): first", "node 'b' (Mul): second"]}
// CHECK: func.func @main(%[[X:.*]]: memref<?xf32>, %[[N:.*]]: index) -> (memref<?xf32>, i32)
// CHECK: %[[CELL:.*]] = llvm.alloca %{{.*}} x i32 : (i64) -> !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[CELL]] : i32, !llvm.ptr
// CHECK: %[[SAME:.*]] = arith.cmpi eq
// CHECK: %[[FAILS:.*]] = arith.xori %[[SAME]], %{{.*}} : i1
// CHECK: scf.if %[[FAILS]] {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.atomicrmw max %[[CELL]], %[[ONE]] monotonic
// CHECK: scf.if
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: llvm.atomicrmw max
// CHECK: scf.if
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: llvm.atomicrmw max
// CHECK-NOT: cf.assert
// CHECK: %[[RESULT:.*]] = llvm.load %[[CELL]] : !llvm.ptr -> i32
// CHECK: return %[[X]], %[[RESULT]] : memref<?xf32>, i32
module {
  func.func @main(%x: memref<?xf32>, %n: index) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %d = memref.dim %x, %c0 : memref<?xf32>
    %eq = arith.cmpi eq, %d, %n : index
    cf.assert %eq, "node 'a' (Add): first"
    %lt = arith.cmpi ult, %d, %n : index
    cf.assert %lt, "node 'b' (Mul): second"
    cf.assert %eq, "node 'a' (Add): first"
    return %x : memref<?xf32>
  }
}

// -----

// A module without checks is left as it is.
// CHECK-LABEL: module {
// CHECK: func.func @main(%{{.*}}: memref<4xf32>) -> memref<4xf32>
// CHECK-NOT: llvm.alloca
module {
  func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
    return %x : memref<4xf32>
  }
}

// -----

// Checks belong to @main, where the run function can report them.
module {
  func.func @helper(%b: i1) {
    // expected-error@+1 {{run-time checks are supported in @main only}}
    cf.assert %b, "elsewhere"
    return
  }
  func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
    return %x : memref<4xf32>
  }
}
