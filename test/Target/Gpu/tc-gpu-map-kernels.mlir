// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// An elementwise op over 3x101 (an odd number of elements: no vectors, see
// tc-gpu-map-kernels-elementwise.mlir): its two parallel loops collapse
// into one of 303 iterations, tiled by 256: blocks take tiles, threads the
// elements of a tile (a guard skips the tail), consecutive threads
// consecutive columns.
// CHECK-LABEL: func.func @relu
// CHECK: scf.parallel (%[[TILE:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[STEP:.*]]) {
// CHECK:   scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[STEP]]) step
// CHECK:     scf.if
// CHECK:       arith.remsi
// CHECK:       arith.divsi
// CHECK:       arith.maximumf
// CHECK:       memref.store
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NOT: linalg.
#id = affine_map<(i, j) -> (i, j)>
func.func @relu(%x: memref<3x101xf32>, %y: memref<3x101xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<3x101xf32>) outs(%y : memref<3x101xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.maximumf %a, %zero : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A reduction over the leading dim: the parallel loop moves outermost, one
// thread per output (40, so one block of 64 threads: whole warps), and the
// reduction runs sequentially in each thread.
// CHECK-LABEL: func.func @column_sum
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[THREADS:.*]] = arith.muli %{{.*}}, %[[C64]] : index
// CHECK: scf.parallel
// CHECK:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[THREADS]])
// CHECK:     scf.for
// CHECK:       arith.addf
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
#x = affine_map<(i, j) -> (i, j)>
#c = affine_map<(i, j) -> (j)>
func.func @column_sum(%x: memref<6x40xf32>, %y: memref<40xf32>) {
  linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel"]} ins(%x : memref<6x40xf32>) outs(%y : memref<40xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A reduction to a scalar is one block of 128 threads (99 elements, an odd
// count: no vectors; rounded up to a power of two): each thread folds elements t, t + 128,
// ... from the neutral element 0; f32 partial sums are combined by xor
// shuffles within each group of 32 lanes (offsets 16 to 1), lane 0 of each
// group writes its sum to shared memory, and after one barrier the first
// group combines the 4 sums (offsets 2, 1; lanes past 3 contribute 0);
// thread 0 adds the total to the output's initial value, which the fill
// before the reduction would have stored (zero): the fill makes no kernel
// of its own. A copy between buffers moves a vector of 4 elements per
// thread.
// CHECK-LABEL: func.func @total
// CHECK-NOT: scf.parallel
// CHECK: gpu.launch {{.*}} threads(%[[T:[a-z0-9]+]], {{.*}} in (%{{.*}} = %c128{{.*}} workgroup(%[[P:.*]] : memref<128xf32, #gpu.address_space<workgroup>>)
// CHECK:   %[[SHARE:.*]] = scf.for %{{.*}} = %[[T]] to %c99{{.*}} step %c128{{.*}} iter_args(%{{.*}} = %[[ZERO:[a-z0-9_]+]])
// CHECK:     memref.load %arg0
// CHECK:     arith.addf
// CHECK:   %[[S16:.*]], %{{.*}} = gpu.shuffle xor %[[SHARE]], %c16_i32, %c32_i32 : f32
// CHECK:   %[[V1:.*]] = arith.addf %[[SHARE]], %[[S16]]
// CHECK:   gpu.shuffle xor %[[V1]], %c8_i32
// CHECK:   gpu.shuffle xor %{{.*}}, %c4_i32
// CHECK:   gpu.shuffle xor %{{.*}}, %c2_i32
// CHECK:   %[[S1:.*]], %{{.*}} = gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK:   %[[GROUP:.*]] = arith.addf %{{.*}}, %[[S1]]
// CHECK:   scf.if
// CHECK:     memref.store %[[GROUP]], %[[P]]
// CHECK:   gpu.barrier
// CHECK:   %[[SLOT:.*]] = arith.minui %[[T]], %c3
// CHECK:   %[[READ:.*]] = memref.load %[[P]][%[[SLOT]]]
// CHECK:   %[[MINE:.*]] = arith.select %{{.*}}, %[[READ]], %[[ZERO]]
// CHECK:   gpu.shuffle xor %[[MINE]], %c2_i32
// CHECK:   %[[L1:.*]], %{{.*}} = gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK:   %[[TOTAL:.*]] = arith.addf %{{.*}}, %[[L1]]
// CHECK-NOT: gpu.barrier
// CHECK:   scf.if
// CHECK-NOT:  memref.load
// CHECK:     %[[SUM:.*]] = arith.addf %[[TOTAL]], %cst
// CHECK:     memref.store %[[SUM]], %arg1[]
// CHECK: scf.parallel
// CHECK:   scf.parallel
// CHECK:     vector.load %arg2
// CHECK:     vector.store
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.
#all = affine_map<(i) -> (i)>
#none = affine_map<(i) -> ()>
func.func @total(%x: memref<99xf32>, %y: memref<f32>, %w: memref<100xf32>, %z: memref<100xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<f32>)
  linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction"]} ins(%x : memref<99xf32>) outs(%y : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  memref.copy %w, %z : memref<100xf32> to memref<100xf32>
  return
}

// -----

// Other than 32-bit values (here f64): the partial results go to shared
// memory and 7 rounds of a tree between barriers combine them.
// CHECK-LABEL: func.func @total_f64
// CHECK: gpu.launch {{.*}} workgroup(%[[P:.*]] : memref<128xf64, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.shuffle
// CHECK:   memref.store %{{.*}}, %[[P]]
// CHECK:   gpu.barrier
// CHECK:   scf.for %{{.*}} = %{{.*}} to %c7
// CHECK:     scf.if
// CHECK:       arith.addf
// CHECK:     gpu.barrier
// CHECK:   memref.load %[[P]]
// CHECK:   scf.if
// CHECK:     arith.addf
// CHECK:     memref.store %{{.*}}, %arg1[]
#all64 = affine_map<(i) -> (i)>
#none64 = affine_map<(i) -> ()>
func.func @total_f64(%x: memref<99xf64>, %y: memref<f64>) {
  linalg.generic {indexing_maps = [#all64, #none64], iterator_types = ["reduction"]} ins(%x : memref<99xf64>) outs(%y : memref<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %0 = arith.addf %a, %acc : f64
    linalg.yield %0 : f64
  }
  return
}

// -----

// A host loop that reads elements and hands back a scalar (NonZero's
// count) runs in one thread: its result goes to a device cell (an index as
// i64), which the host loads after the kernel (a download, later) and
// frees.
// CHECK-LABEL: func.func @count
// CHECK: %[[CELL:.*]] = memref.alloc() : memref<1xi64>
// CHECK: scf.parallel
// CHECK:   scf.parallel
// CHECK:     %[[N:.*]] = scf.for
// CHECK:       memref.load
// CHECK:     %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:     memref.store %[[N64]], %[[CELL]][%{{.*}}] : memref<1xi64>
// CHECK: %[[LOADED:.*]] = memref.load %[[CELL]]
// CHECK: %[[COUNT:.*]] = arith.index_cast %[[LOADED]] : i64 to index
// CHECK: memref.dealloc %[[CELL]]
// CHECK: memref.alloc(%[[COUNT]])
func.func @count(%x: memref<64xi1>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> index {
    %v = memref.load %x[%i] : memref<64xi1>
    %one = arith.select %v, %c1, %c0 : index
    %next = arith.addi %acc, %one : index
    scf.yield %next : index
  }
  %y = memref.alloc(%n) : memref<?xi64>
  return %y : memref<?xi64>
}

// -----

// A matmul (dynamic M) gets the shared-memory kernel: 16 x 16 threads per
// block, a block per 32 x 32 output tile (grid ceil(N/32) x ceil(M/32)),
// each thread 2 x 2 outputs (rows 2 ty, 2 ty + 1; columns tx, tx + 16). At
// each 16-step of K the 32 x 16 tile of A and the 16 x 32 tile of B are
// staged in shared memory (two elements of each per thread), every read
// guarded, A's transposed (K, then M, padded to 36) so that a thread's two
// rows (2 ty, 2 ty + 1) are adjacent (one vector read once LLVM's
// load-store vectorizer has merged them). Two pairs of tiles are used in
// turn: step 0 is staged before the loop; each step loads the next one's
// elements before its products and stores them into the other pair after
// them, then waits at the step's one barrier. The four accumulators start
// from the output and are carried by the K loop and its inner loop
// (registers): two reads of A and two of B for four multiply-adds. (Odd
// extents: the tiles are staged by scalars;
// tc-gpu-map-kernels-matmul-staging.mlir has the vectors.)
// CHECK-LABEL: func.func @matmul
// CHECK: %[[M:.*]] = memref.dim %arg0, %c0
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[AS0:[a-z0-9]+]] : memref<16x36xf32, #gpu.address_space<workgroup>>, %[[BS0:[a-z0-9]+]] : memref<16x36xf32, #gpu.address_space<workgroup>>, %[[AS1:[a-z0-9]+]] : memref<16x36xf32, #gpu.address_space<workgroup>>, %[[BS1:[a-z0-9]+]] : memref<16x36xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: memref.load %arg2
// CHECK: memref.load %arg0
// CHECK: memref.load %arg1
// CHECK: memref.load %arg0
// CHECK: memref.load %arg1
// CHECK: memref.store %{{.*}}, %[[AS0]][%[[TX]], %[[TY]]]
// CHECK: memref.store %{{.*}}, %[[BS0]][%[[TY]], %[[TX]]]
// CHECK: gpu.barrier
// CHECK: %[[ACC:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %c41{{.*}} step %c16 iter_args(
// CHECK:   %[[AS:.*]] = arith.select %[[ODD:.*]], %[[AS1]], %[[AS0]]
// CHECK:   %[[BS:.*]] = arith.select %[[ODD]], %[[BS1]], %[[BS0]]
// CHECK:   memref.load %arg0
// CHECK:   memref.load %arg1
// CHECK:   memref.load %arg0
// CHECK:   memref.load %arg1
// CHECK-NOT: gpu.barrier
// CHECK:   %[[PRODUCTS:.*]]:4 = scf.for %[[KK:[a-z0-9_]+]] = {{.*}} -> (f32, f32, f32, f32)
// CHECK:     memref.load %[[AS]][%[[KK]], %[[ROW:.*]]] : memref<16x36xf32, #gpu.address_space<workgroup>>
// CHECK:     memref.load %[[BS]]
// CHECK:     %[[NEXT:.*]] = arith.addi %[[ROW]], %c1
// CHECK:     memref.load %[[AS]][%[[KK]], %[[NEXT]]]
// CHECK:     memref.load %[[BS]]
// CHECK-COUNT-4: arith.mulf
// CHECK:   %[[AN:.*]] = arith.select %[[ODD]], %[[AS0]], %[[AS1]]
// CHECK:   %[[BN:.*]] = arith.select %[[ODD]], %[[BS0]], %[[BS1]]
// CHECK:   memref.store %{{.*}}, %[[AN]][%[[TX]], %[[TY]]]
// CHECK:   memref.store %{{.*}}, %[[BN]][%[[TY]], %[[TX]]]
// CHECK:   gpu.barrier
// CHECK:   scf.yield %[[PRODUCTS]]#0, %[[PRODUCTS]]#1, %[[PRODUCTS]]#2, %[[PRODUCTS]]#3
// CHECK: memref.store %[[ACC]]#0, %arg2
// CHECK: memref.store %[[ACC]]#1, %arg2
// CHECK: memref.store %[[ACC]]#2, %arg2
// CHECK: memref.store %[[ACC]]#3, %arg2
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<?x41xf32>, %b: memref<41x71xf32>, %c: memref<?x71xf32>) {
  linalg.matmul ins(%a, %b : memref<?x41xf32>, memref<41x71xf32>) outs(%c : memref<?x71xf32>)
  return
}

// -----

// A convolution is the same kernel as an implicit GEMM: M = the 16 output
// channels, N = batch and output pixels (2 x 6 x 6 = 72, the side of the
// output's innermost loop: threads along x store consecutive pixels), K =
// input channels and window (3 x 3 x 3 = 27, two steps of 16). The input's
// tile is read through the op's own indexing, oh + kh and ow + kw.
// CHECK-LABEL: func.func @conv
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[AS:[a-z0-9]+]] : memref<16x36xf32, #gpu.address_space<workgroup>>, %[[BS:[a-z0-9]+]] : memref<16x36xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %arg1
// CHECK: arith.addi
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.*}}, %[[AS]]
// CHECK: memref.store %{{.*}}, %[[BS]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %c27{{.*}} step %c16
// CHECK:   memref.load %arg1
// CHECK:   memref.load %arg0
// CHECK:   gpu.barrier
// CHECK-NOT: linalg.conv
func.func @conv(%x: memref<2x3x8x8xf32>, %w: memref<16x3x3x3xf32>, %y: memref<2x16x6x6xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<2x3x8x8xf32>, memref<16x3x3x3xf32>) outs(%y : memref<2x16x6x6xf32>)
  return
}

// -----

// A depthwise convolution has one output channel per group (N = 1): the
// general path, one thread per output.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: workgroup(
// CHECK: scf.parallel
func.func @depthwise(%x: memref<1x8x8x8xf32>, %w: memref<8x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x8x8xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
  return
}

// -----

// Softmax's sum of exponentials over rows of 128 contiguous floats: each
// thread of a block of 32 reads vectors of 4 (aligned to 16 bytes) at 4 t,
// 4 t + 128, ..., runs the body on them (the row maximum, constant along
// the row, loaded once and broadcast) into 4 partial sums, folds those in
// order, then the block combines the threads' sums by shuffles.
// CHECK-LABEL: func.func @row_sum_exp
// CHECK: gpu.launch {{.*}} threads(%[[T:[a-z0-9]+]], {{.*}} in (%{{.*}} = %c32{{.*}}
// CHECK:   %[[START:.*]] = arith.muli %[[T]], %c4
// CHECK:   %[[INIT:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK:   %[[SHARE:.*]] = scf.for %[[I:.*]] = %[[START]] to %c128{{.*}} step %c128{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<4xf32>)
// CHECK:     %[[X:.*]] = vector.load %arg0[%{{.*}}, %[[I]]] {alignment = 16 : i64} : memref<8x128xf32>, vector<4xf32>
// CHECK:     %[[M:.*]] = memref.load %arg1
// CHECK:     %[[MV:.*]] = vector.broadcast %[[M]] : f32 to vector<4xf32>
// CHECK:     %[[D:.*]] = arith.subf %[[X]], %[[MV]] : vector<4xf32>
// CHECK:     %[[E:.*]] = math.exp %[[D]] : vector<4xf32>
// CHECK:     %[[SUM:.*]] = arith.addf %[[ACC]], %[[E]] : vector<4xf32>
// CHECK:     scf.yield %[[SUM]]
// CHECK:   %[[L0:.*]] = vector.extract %[[SHARE]][0]
// CHECK:   %[[L1:.*]] = vector.extract %[[SHARE]][1]
// CHECK:   %[[S01:.*]] = arith.addf %[[L0]], %[[L1]] : f32
// CHECK:   vector.extract %[[SHARE]][2]
// CHECK:   vector.extract %[[SHARE]][3]
// CHECK:   %[[MINE:.*]] = arith.addf
// CHECK:   gpu.shuffle xor %[[MINE]], %c16_i32
#x = affine_map<(i, j) -> (i, j)>
#r = affine_map<(i, j) -> (i)>
func.func @row_sum_exp(%x: memref<8x128xf32>, %m: memref<8xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [#x, #r, #r], iterator_types = ["parallel", "reduction"]} ins(%x, %m : memref<8x128xf32>, memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %e = math.exp %d : f32
    %0 = arith.addf %acc, %e : f32
    linalg.yield %0 : f32
  }
  return
}
