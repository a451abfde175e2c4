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

// -----

// A check in @main's block ends the run when it fails: the rest of the
// block runs only when it holds; the failure block frees what is allocated
// and not yet freed there (not %b, freed before the check; not %out,
// allocated after it) and returns a placeholder output with the code.
// CHECK-LABEL: func.func @main(%{{.*}}: memref<?xf32>, %{{.*}}: index) -> (memref<4x?xf32>, i32)
// CHECK: %[[A:.*]] = memref.alloc() : memref<64xi8>
// CHECK: %[[B:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[C:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[SAME:.*]] = arith.cmpi eq
// CHECK: scf.if
// CHECK: llvm.atomicrmw max
// CHECK: cf.cond_br %[[SAME]], ^[[REST:.*]], ^[[FAIL:[a-z0-9]*]]
// CHECK: ^[[REST]]:
// CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<4x?xf32>
// CHECK: return %[[OUT]], %{{.*}} : memref<4x?xf32>, i32
// CHECK: ^[[FAIL]]:
// CHECK-NEXT: memref.dealloc %[[A]] : memref<64xi8>
// CHECK-NEXT: memref.dealloc %[[C]] : memref<?xf32>
// CHECK-NEXT: %[[CELL:.*]] = memref.alloc() : memref<1xf32>
// CHECK: %[[PLACEHOLDER:.*]] = memref.reinterpret_cast %[[CELL]] to offset: [0], sizes: [4, %{{.*}}], strides: [%{{.*}}, 1] : memref<1xf32> to memref<4x?xf32>
// CHECK: %[[CODE:.*]] = llvm.load
// CHECK-NEXT: return %[[PLACEHOLDER]], %[[CODE]] : memref<4x?xf32>, i32
module {
  func.func @main(%x: memref<?xf32>, %n: index) -> memref<4x?xf32> {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<64xi8>
    %b = memref.alloc(%n) : memref<?xf32>
    %c = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %b : memref<?xf32>
    %d = memref.dim %x, %c0 : memref<?xf32>
    %eq = arith.cmpi eq, %d, %n : index
    cf.assert %eq, "node 'r' (Reshape): count"
    %out = memref.alloc(%n) : memref<4x?xf32>
    memref.dealloc %a : memref<64xi8>
    memref.dealloc %c : memref<?xf32>
    return %out : memref<4x?xf32>
  }
}

// -----

// A kernel that frees only its own temporary (allocated inside it) leaves
// the buffers it reads allocated: the failure block frees %in and %acc.
// One that frees a buffer from outside (%gone), or a region argument, which
// may be any buffer, is assumed to have freed it (a leak on the error path
// rather than a double free): %gone and %kept are not freed there.
// CHECK-LABEL: func.func @main(%{{.*}}: memref<?xf32>, %{{.*}}: index) -> (memref<?xf32>, i32)
// CHECK: %[[IN:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[ACC:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[GONE:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[KEPT:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: cf.cond_br %{{.*}}, ^{{.*}}, ^[[FAIL:[a-z0-9]*]]
// CHECK: ^[[FAIL]]:
// CHECK-NEXT: memref.dealloc %[[IN]] : memref<?xf32>
// CHECK-NEXT: memref.dealloc %[[ACC]] : memref<?xf32>
// CHECK-NEXT: memref.alloc() : memref<1xf32>
module {
  func.func @main(%x: memref<?xf32>, %n: index) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %in = memref.alloc(%n) : memref<?xf32>
    %acc = memref.alloc(%n) : memref<?xf32>
    %gone = memref.alloc(%n) : memref<?xf32>
    %kept = memref.alloc(%n) : memref<?xf32>
    scf.forall (%i) in (4) {
      %tmp = memref.alloc(%n) : memref<?xf32>
      memref.copy %in, %tmp : memref<?xf32> to memref<?xf32>
      memref.copy %tmp, %acc : memref<?xf32> to memref<?xf32>
      memref.dealloc %tmp : memref<?xf32>
    }
    scf.forall (%i) in (1) {
      memref.dealloc %gone : memref<?xf32>
    }
    scf.for %i = %c0 to %n step %c1 iter_args(%buffer = %kept) -> memref<?xf32> {
      memref.dealloc %buffer : memref<?xf32>
      scf.yield %x : memref<?xf32>
    }
    %d = memref.dim %x, %c0 : memref<?xf32>
    %eq = arith.cmpi eq, %d, %n : index
    cf.assert %eq, "node 'r' (Reshape): count"
    memref.dealloc %in : memref<?xf32>
    memref.dealloc %acc : memref<?xf32>
    return %x : memref<?xf32>
  }
}
