// RUN: tc-opt %s --split-input-file --verify-diagnostics --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --tc-gpu-lower-host-ops --reconcile-unrealized-casts | FileCheck %s

// A launch stores its parameters (a memref expanded: allocated, aligned,
// offset, size, stride; then an index) in one stack struct, points a stack
// array at its fields, stores the six extents as i32, and calls the
// environment's launch (field 3) with its runtime (field 0), the kernel's
// index, the extents, the pointers and their count. The stack slots are at
// the function's entry, so loops do not grow the stack.
// CHECK: llvm.func @main(%[[ENV:[^:]*]]: !llvm.ptr,
// CHECK: %[[VALUES:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, i64, i64, i64)>
// CHECK: %[[POINTERS:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x ptr>
// CHECK: %[[DIMS:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x i32>
// The constant: env->constant (field 4) with the host buffer's aligned
// pointer and its bytes; the device pointer replaces both pointers of the
// descriptor.
// CHECK: %[[CONSTANT:.*]] = llvm.getelementptr %[[ENV]][0, 4]
// CHECK: %[[FN:.*]] = llvm.load %[[CONSTANT]]
// CHECK: %[[DEVICE:.*]] = llvm.call %[[FN]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, i32, !llvm.ptr, i64) -> !llvm.ptr
// CHECK: llvm.insertvalue %[[DEVICE]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[DEVICE]], %{{.*}}[1]
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[VALUES]][0, 0]
// CHECK: llvm.store %{{.*}}, %[[F0]] : !llvm.ptr, !llvm.ptr
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[POINTERS]][0]
// CHECK: llvm.store %[[F0]], %[[S0]]
// CHECK: %[[F5:.*]] = llvm.getelementptr %[[VALUES]][0, 5]
// CHECK: llvm.store %{{.*}}, %[[F5]] : i64, !llvm.ptr
// CHECK: llvm.getelementptr %[[POINTERS]][5]
// CHECK: %[[X:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK: %[[D0:.*]] = llvm.getelementptr %[[DIMS]][0]
// CHECK: llvm.store %[[X]], %[[D0]] : i32, !llvm.ptr
// CHECK: llvm.getelementptr %[[DIMS]][5]
// CHECK: %[[COUNT:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK: %[[KERNEL:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[LAUNCH_SLOT:.*]] = llvm.getelementptr %[[ENV]][0, 3]
// CHECK: %[[LAUNCH:.*]] = llvm.load %[[LAUNCH_SLOT]]
// CHECK: %[[RUNTIME_SLOT:.*]] = llvm.getelementptr %[[ENV]][0, 0]
// CHECK: %[[RUNTIME:.*]] = llvm.load %[[RUNTIME_SLOT]]
// CHECK: llvm.call %[[LAUNCH]](%[[RUNTIME]], %[[KERNEL]], %[[DIMS]], %[[POINTERS]], %[[COUNT]]) : !llvm.ptr, (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32) -> ()
// CHECK-NOT: tc_gpu.
module {
  memref.global "private" constant @w : memref<16xf32> = dense<1.0>
  func.func @main(%env: !llvm.ptr, %n: index) {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 64 : index
    %g = memref.get_global @w : memref<16xf32>
    %w = tc_gpu.device_constant 0 %env, %bytes, %g : memref<16xf32>
    tc_gpu.launch 3 %env grid(%n, %c1, %c1) block(%c1, %c1, %c1) args(%w, %n : memref<16xf32>, index)
    return
  }
}

// -----

// A download copies the device element into the host cell through the
// environment's download (field 5), an upload the cell into the element
// through its upload (field 6): destination, then source, each the aligned
// pointer plus offset x bytes, then the bytes.
// CHECK: llvm.func @main(%[[ENV:[^:]*]]: !llvm.ptr,
// CHECK: %[[CELL_OFFSET:.*]] = llvm.mul %{{.*}}, %[[BYTES:.*]] : i64
// CHECK: %[[CELL:.*]] = llvm.getelementptr %{{.*}}[%[[CELL_OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[ELEMENT:.*]] = llvm.getelementptr
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[ENV]][0, 5]
// CHECK: %[[DOWNLOAD:.*]] = llvm.load %[[SLOT]]
// CHECK: %[[RUNTIME_SLOT:.*]] = llvm.getelementptr %[[ENV]][0, 0]
// CHECK: %[[RUNTIME:.*]] = llvm.load %[[RUNTIME_SLOT]]
// CHECK: llvm.call %[[DOWNLOAD]](%[[RUNTIME]], %[[CELL]], %[[ELEMENT]], %[[BYTES]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.getelementptr %[[ENV]][0, 6]
// CHECK-NOT: tc_gpu.
module {
  func.func @main(%env: !llvm.ptr, %x: memref<i64, strided<[], offset: ?>>) {
    %c8 = arith.constant 8 : index
    %cell = memref.alloca() : memref<i64>
    tc_gpu.download %x to %cell, %c8 : memref<i64, strided<[], offset: ?>>, memref<i64>
    tc_gpu.upload %cell to %x, %c8 : memref<i64>, memref<i64, strided<[], offset: ?>>
    return
  }
}

// -----

module {
  func.func @helper(%env: !llvm.ptr, %x: memref<i64, strided<[], offset: ?>>) {
    %c8 = arith.constant 8 : index
    %cell = memref.alloca() : memref<i64>
    // expected-error @+2 {{host-value copies outside @main are not supported}}
    // expected-error @+1 {{failed to legalize operation 'tc_gpu.download' that was explicitly marked illegal}}
    tc_gpu.download %x to %cell, %c8 : memref<i64, strided<[], offset: ?>>, memref<i64>
    return
  }
}
