// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s
// The chain's kernel is one --tc-gpu-emulate-kernels can run (no value
// lives across a barrier): gpu-emulation runs it in CI.
// RUN: tc-opt %s --split-input-file --tc-gpu-map-kernels --gpu-kernel-outlining --tc-gpu-emulate-kernels | FileCheck %s --check-prefix=EMU
// EMU-LABEL: func.func @layer_norm
// EMU: call @__tc_emulated_layer_norm_kernel
// EMU-NOT: call
// EMU: return

// A layer normalization over rows of 128: the sum (from its fill) and the
// division into the mean, the sum of squared deviations (reading the mean)
// and rsqrt into the inverse deviation, then the normalization of each
// element. One kernel, a block per row: thread 0 finishes each reduction,
// writes the row's value to global memory and to a shared slot, and after
// a barrier every thread reads it from there, at the start of each later
// step (values do not live across barriers; the second reduction and the
// last step load neither %mean nor %rstd); the last step's threads (32:
// the reductions read vectors of 4) take the row's elements t, t + 32, ...
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<4x128xf32>, %[[G:[a-z0-9]+]]: memref<128xf32>, %[[Y:[a-z0-9]+]]: memref<4x128xf32>, %[[MEAN:[a-z0-9]+]]: memref<4xf32>, %[[RSTD:[a-z0-9]+]]: memref<4xf32>)
// CHECK-NOT: scf.parallel
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32{{.*}} workgroup(%[[P1:.*]] : memref<32xf32, #gpu.address_space<workgroup>>, %[[S1:.*]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[P2:.*]] : memref<32xf32, #gpu.address_space<workgroup>>, %[[S2:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK: gpu.shuffle
// CHECK: scf.if
// CHECK:   arith.divf
// CHECK:   memref.store %{{.*}}, %[[MEAN]]
// CHECK:   memref.store %{{.*}}, %[[S1]]
// CHECK: gpu.barrier
// CHECK: %[[M:.*]] = memref.load %[[S1]]
// CHECK-NOT: memref.load %[[MEAN]]
// CHECK: scf.for
// CHECK:   %[[MV:.*]] = vector.broadcast %[[M]]
// CHECK:   arith.subf %{{.*}}, %[[MV]] : vector<4xf32>
// CHECK: gpu.shuffle
// CHECK: scf.if
// CHECK:   math.rsqrt
// CHECK:   memref.store %{{.*}}, %[[RSTD]]
// CHECK:   memref.store %{{.*}}, %[[S2]]
// CHECK: gpu.barrier
// CHECK-DAG: %[[M2:.*]] = memref.load %[[S1]]
// CHECK-DAG: %[[R:.*]] = memref.load %[[S2]]
// CHECK-NOT: memref.load %[[RSTD]]
// CHECK-NOT: memref.load %[[MEAN]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %c128{{.*}} step %c32
// CHECK:   arith.subf %{{.*}}, %[[M2]]
// CHECK:   arith.mulf %{{.*}}, %[[R]]
// CHECK:   memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: return
#x = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#id = affine_map<(i) -> (i)>
func.func @layer_norm(%x: memref<4x128xf32>, %g: memref<128xf32>, %y: memref<4x128xf32>, %mean: memref<4xf32>, %rstd: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %sum = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<4xf32>)
  linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x128xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.addf %a, %o : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%sum : memref<4xf32>) outs(%mean : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.divf %a, %n : f32
    linalg.yield %0 : f32
  }
  %var = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%var : memref<4xf32>)
  linalg.generic {indexing_maps = [#x, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : memref<4x128xf32>, memref<4xf32>) outs(%var : memref<4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.addf %1, %o : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%var : memref<4xf32>) outs(%rstd : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.divf %a, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#x, #row, #row, #col, #x], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %rstd, %g : memref<4x128xf32>, memref<4xf32>, memref<4xf32>, memref<128xf32>) outs(%y : memref<4x128xf32>) {
  ^bb0(%a: f32, %m: f32, %r: f32, %w: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    %1 = arith.mulf %0, %r : f32
    %2 = arith.mulf %1, %w : f32
    linalg.yield %2 : f32
  }
  memref.dealloc %sum : memref<4xf32>
  memref.dealloc %var : memref<4xf32>
  return
}

// -----

// The last op reads the first row's maximum in every row: not its own
// row, which another block computes. No chain: the reduction's kernel,
// then the elementwise op's.
// CHECK-LABEL: func.func @other_row
// CHECK: gpu.launch
// CHECK-NOT: gpu.barrier
// CHECK: scf.parallel
#x = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#first = affine_map<(i, j) -> (0)>
func.func @other_row(%x: memref<4x128xf32>, %y: memref<4x128xf32>, %max: memref<4xf32>) {
  %low = arith.constant 0xFF800000 : f32
  linalg.fill ins(%low : f32) outs(%max : memref<4xf32>)
  linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x128xf32>) outs(%max : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.maximumf %a, %o : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#x, #first, #x], iterator_types = ["parallel", "parallel"]} ins(%x, %max : memref<4x128xf32>, memref<4xf32>) outs(%y : memref<4x128xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A softmax over a dynamic number of rows: the maximum, the sum of
// exponentials and the division are one kernel when their loops are
// provably the same (the buffers' rows all come from one dimension of %x,
// through allocations of the same size): a block per row, the grid as
// wide as %x has rows.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<?x64xf32>
// CHECK: %[[ROWS:.*]] = memref.dim %[[X]], %c0
// CHECK: %[[GRID:.*]] = arith.muli %c1{{.*}}, %[[ROWS]]
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]],
// CHECK: gpu.barrier
// CHECK: arith.divf
// CHECK-NOT: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: return
// Rows of different arguments are not provably the same: no chain.
// CHECK-LABEL: func.func @unrelated_rows
// CHECK: gpu.launch
// CHECK-NOT: gpu.barrier
// CHECK: scf.parallel
#x = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @dynamic_rows(%x: memref<?x64xf32>, %y: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %low = arith.constant -3.0e38 : f32
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %x, %c0 : memref<?x64xf32>
  %max = memref.alloc(%rows) : memref<?xf32>
  linalg.fill ins(%low : f32) outs(%max : memref<?xf32>)
  linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x64xf32>) outs(%max : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.maximumf %a, %o : f32
    linalg.yield %0 : f32
  }
  %sum = memref.alloc(%rows) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<?xf32>)
  linalg.generic {indexing_maps = [#x, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %max : memref<?x64xf32>, memref<?xf32>) outs(%sum : memref<?xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %o : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#x, #row, #row, #x], iterator_types = ["parallel", "parallel"]} ins(%x, %max, %sum : memref<?x64xf32>, memref<?xf32>, memref<?xf32>) outs(%y : memref<?x64xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    %2 = arith.divf %1, %s : f32
    linalg.yield %2 : f32
  }
  memref.dealloc %max : memref<?xf32>
  memref.dealloc %sum : memref<?xf32>
  return
}
func.func @unrelated_rows(%x: memref<?x64xf32>, %z: memref<?x64xf32>, %max: memref<?xf32>, %y: memref<?x64xf32>) {
  %low = arith.constant -3.0e38 : f32
  linalg.fill ins(%low : f32) outs(%max : memref<?xf32>)
  linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x64xf32>) outs(%max : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.maximumf %a, %o : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#x, #row, #x], iterator_types = ["parallel", "parallel"]} ins(%z, %max : memref<?x64xf32>, memref<?xf32>) outs(%y : memref<?x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    linalg.yield %0 : f32
  }
  return
}
