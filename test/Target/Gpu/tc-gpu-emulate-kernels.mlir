// RUN: tc-opt %s --tc-gpu-emulate-kernels --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tc-opt %s --tc-gpu-emulate-kernels=reverse-order --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=REVERSE

// Each kernel becomes a CPU function looping over blocks, then threads (x
// innermost); ids and dimensions become the loop variables and extents; the
// launch becomes a call with the grid and block sizes.
// CHECK-NOT: gpu.module
// CHECK-LABEL: func.func @main
// CHECK: call @__tc_emulated_k(%{{.*}}, %[[C2:.*]], %[[C1:.*]], %[[C1]], %[[C64:.*]], %[[C1]], %[[C1]])
// CHECK: func.func private @__tc_emulated_k(%[[X:.*]]: memref<128xf32>, %[[GX:.*]]: index, %[[GY:.*]]: index, %[[GZ:.*]]: index, %[[BX:.*]]: index, %[[BY:.*]]: index, %[[BZ:.*]]: index)
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[GZ]]
// CHECK:   scf.for %{{.*}} = %{{.*}} to %[[GY]]
// CHECK:     scf.for %[[BID:.*]] = %{{.*}} to %[[GX]]
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[BZ]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[BY]]
// CHECK:           scf.for %[[TID:.*]] = %{{.*}} to %[[BX]]
// CHECK:             arith.muli %[[BID]], %[[BX]]
// CHECK:             arith.addi %{{.*}}, %[[TID]]
// CHECK:             memref.store
// In reverse order (the gpu-emulation:reverse race check), iteration i of
// a loop over n ids runs id n - 1 - i, blocks and threads alike.
// REVERSE: func.func private @__tc_emulated_k(%[[X:.*]]: memref<128xf32>, %[[GX:.*]]: index, %[[GY:.*]]: index, %[[GZ:.*]]: index, %[[BX:.*]]: index, %[[BY:.*]]: index, %[[BZ:.*]]: index)
// REVERSE: scf.for %[[IB:.*]] = %{{.*}} to %[[GX]]
// REVERSE:   %[[LASTB:.*]] = arith.subi %[[GX]], %{{.*}} : index
// REVERSE:   %[[BID:.*]] = arith.subi %[[LASTB]], %[[IB]] : index
// REVERSE:   scf.for %[[IT:.*]] = %{{.*}} to %[[BX]]
// REVERSE:     %[[LASTT:.*]] = arith.subi %[[BX]], %{{.*}} : index
// REVERSE:     %[[TID:.*]] = arith.subi %[[LASTT]], %[[IT]] : index
// REVERSE:     arith.muli %[[BID]], %[[BX]]
// REVERSE:     arith.addi %{{.*}}, %[[TID]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<128xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %0 = arith.muli %b, %n : index
      %i = arith.addi %0, %t : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %x[%i] : memref<128xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<128xf32>)
    return
  }
}

// -----

// A barrier splits the block's work into stretches, each run by every
// thread in turn: all threads have stored to shared memory (a host buffer
// here, on the heap, freed at the end) before any reads its neighbour's
// element. The index computed
// before the barrier is recomputed after it; the loop around the second
// barrier has the same bounds in every thread and is re-created around its
// stretches.
// CHECK-LABEL: func.func private @__tc_emulated_shift
// CHECK: %[[SHARED:.*]] = memref.alloc() {alignment = 16 : i64} : memref<64xf32>
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           scf.for %[[T1:.*]] =
// CHECK:             memref.store %{{.*}}, %[[SHARED]][%[[T1]]]
// CHECK:       scf.for %{{.*}} = %{{.*}} to %c3
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for %[[T2:.*]] =
// CHECK:               %[[NEXT:.*]] = arith.addi %[[T2]], %{{.*}}
// CHECK:               %[[CLAMPED:.*]] = arith.minui %[[NEXT]]
// CHECK:               memref.load %[[SHARED]][%[[CLAMPED]]]
// CHECK: memref.dealloc %[[SHARED]]
// CHECK-NEXT: return
// CHECK-NOT: gpu.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shift(%x: memref<128xf32>) workgroup(%s: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c63 = arith.constant 63 : index
      %v = memref.load %x[%t] : memref<128xf32>
      memref.store %v, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %i = %c0 to %c3 step %c1 {
        %n = arith.addi %t, %c1 : index
        %m = arith.minui %n, %c63 : index
        %w = memref.load %s[%m] : memref<64xf32, #gpu.address_space<workgroup>>
        memref.store %w, %x[%t] : memref<128xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@shift blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<128xf32>)
    return
  }
}

// -----

// Two shared buffers used in turn (the pipelined contraction's pairs of
// tiles): the arith.select between them, recomputed in each stretch that
// uses it, selects between the host buffers and takes their type (no
// workgroup address space).
// CHECK-LABEL: func.func private @__tc_emulated_turns
// CHECK: %[[S0:.*]] = memref.alloc() {alignment = {{.*}}} : memref<64xf32>
// CHECK: %[[S1:.*]] = memref.alloc() {alignment = {{.*}}} : memref<64xf32>
// CHECK: arith.select %{{.*}}, %[[S1]], %[[S0]] : memref<64xf32>
// CHECK-NOT: address_space
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @turns(%x: memref<64xf32>) workgroup(%s0: memref<64xf32, #gpu.address_space<workgroup>>, %s1: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %v = memref.load %x[%t] : memref<64xf32>
      memref.store %v, %s0[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %i = %c0 to %c4 step %c1 {
        %parity = arith.remui %i, %c2 : index
        %odd = arith.cmpi ne, %parity, %c0 : index
        %cur = arith.select %odd, %s1, %s0 : memref<64xf32, #gpu.address_space<workgroup>>
        %next = arith.select %odd, %s0, %s1 : memref<64xf32, #gpu.address_space<workgroup>>
        %w = memref.load %cur[%t] : memref<64xf32, #gpu.address_space<workgroup>>
        %d = arith.addf %w, %w : f32
        memref.store %d, %next[%t] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
      }
      %r = memref.load %s0[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %r, %x[%t] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@turns blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

// A barrier under a condition cannot be emulated stretch by stretch.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<128xf32>, %c: i1) kernel {
      // expected-error @below {{cannot emulate a barrier inside this op}}
      scf.if %c {
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// Host-value copies are copies within the one memory.
// CHECK-LABEL: func.func @main
// CHECK: memref.copy %[[DEV:.*]], %[[CELL:.*]] : memref<i64, strided<[], offset: ?>> to memref<i64>
// CHECK: memref.copy %[[CELL]], %[[DEV]] : memref<i64> to memref<i64, strided<[], offset: ?>>
// CHECK-NOT: tc_gpu.
func.func @main(%x: memref<i64, strided<[], offset: ?>>) -> i64 {
  %c8 = arith.constant 8 : index
  %cell = memref.alloca() : memref<i64>
  tc_gpu.download %x to %cell, %c8 : memref<i64, strided<[], offset: ?>>, memref<i64>
  tc_gpu.upload %cell to %x, %c8 : memref<i64>, memref<i64, strided<[], offset: ?>>
  %v = memref.load %cell[] : memref<i64>
  return %v : i64
}

// -----

// A shuffle exchanges values between lanes in lockstep; emulated, it is an
// exchange through two alternating shared buffers (host buffers here): each
// thread stores its value, a barrier ends the stretch, then each reads its
// partner's slot (lane xor offset) and its own again, so that the add after
// the shuffle uses nothing computed before the barrier.
// CHECK-LABEL: func.func private @__tc_emulated_warp_sum
// CHECK-DAG: %[[X0:.*]] = memref.alloc() {alignment = 16 : i64} : memref<32xf32>
// CHECK-DAG: %[[X1:.*]] = memref.alloc() {alignment = 16 : i64} : memref<32xf32>
// CHECK: %[[V:.*]] = memref.load %arg0[%{{.*}}] : memref<32xf32>
// CHECK: memref.store %[[V]], %[[X0]][%{{.*}}]
// CHECK: scf.for
// CHECK:   %[[OWN:.*]] = memref.load %[[X0]][%{{.*}}]
// CHECK:   %[[PARTNER:.*]] = arith.xori %{{.*}}, %{{.*}} : index
// CHECK:   %[[FROM:.*]] = arith.select %{{.*}}, %[[PARTNER]], %{{.*}} : index
// CHECK:   %[[THEIRS:.*]] = memref.load %[[X0]][%[[FROM]]]
// CHECK:   %[[GOT:.*]] = arith.select %{{.*}}, %[[THEIRS]], %[[OWN]] : f32
// CHECK:   %[[SUM:.*]] = arith.addf %[[OWN]], %[[GOT]]
// CHECK:   memref.store %[[SUM]], %[[X1]][%{{.*}}]
// CHECK: scf.for
// CHECK:   memref.load %[[X1]]
// CHECK:   memref.load %[[X1]]
// CHECK:   arith.addf
// CHECK:   memref.store
// CHECK-NOT: gpu.shuffle
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp_sum(%x: memref<32xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<32xf32>
      %c16 = arith.constant 16 : i32
      %c8 = arith.constant 8 : i32
      %c32 = arith.constant 32 : i32
      %s16, %ok16 = gpu.shuffle xor %v, %c16, %c32 : f32
      %v1 = arith.addf %v, %s16 : f32
      %s8, %ok8 = gpu.shuffle xor %v1, %c8, %c32 : f32
      %v2 = arith.addf %v1, %s8 : f32
      memref.store %v2, %x[%t] : memref<32xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@warp_sum blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<32xf32>)
    return
  }
}
