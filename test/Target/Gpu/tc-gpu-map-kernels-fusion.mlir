// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// A matmul between its fill and a bias-add + relu (a Gemm and its
// activation): one shared-memory kernel whose accumulators start at the
// fill's zero and whose results go through the epilogue into %y. The
// accumulator buffer is read by nothing else: never stored.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-SAME: %[[Y:[a-z0-9]+]]: memref<64x48xf32>)
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<64x48xf32>
// CHECK: gpu.launch
// CHECK-SAME: workgroup
// CHECK-NOT: memref.store {{.*}}, %[[ACC]]
// CHECK: memref.load %{{.*}} : memref<48xf32>
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @matmul_bias_relu(%x: memref<64x32xf32>, %w: memref<32x48xf32>, %bias: memref<48xf32>, %y: memref<64x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64x48xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x48xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x32xf32>, memref<32x48xf32>) outs(%acc : memref<64x48xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %bias : memref<64x48xf32>, memref<48xf32>) outs(%y : memref<64x48xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.addf %p, %q : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<64x48xf32>
  return
}

// -----

// A depthwise-like contraction (one output column: too narrow for the
// shared-memory kernel) starting from a broadcast bias, its clip in place:
// one thread per output, the accumulator starting at the bias and carried
// through the reduction loop in a register, clipped, stored once.
// CHECK-LABEL: func.func @rowsum_bias_clip
// CHECK-SAME: %[[B:[a-z0-9]+]]: memref<40xf32>, %[[Y:[a-z0-9]+]]: memref<40x1xf32>)
// CHECK: scf.parallel
// CHECK:   scf.parallel
// CHECK:     %[[START:.*]] = memref.load %[[B]]
// CHECK:     scf.for {{.*}} iter_args(%{{.*}} = %[[START]])
// CHECK:       arith.addf
// CHECK:       scf.yield
// CHECK:     arith.minimumf
// CHECK:     memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: memref.store
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NOT: scf.parallel
// CHECK-NOT: linalg.
#x = affine_map<(i, j, k) -> (i, k)>
#o = affine_map<(i, j, k) -> (i, j)>
#id2 = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
func.func @rowsum_bias_clip(%x: memref<40x9xf32>, %b: memref<40xf32>, %y: memref<40x1xf32>) {
  %six = arith.constant 6.0 : f32
  linalg.generic {indexing_maps = [#col, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : memref<40xf32>) outs(%y : memref<40x1xf32>) {
  ^bb0(%p: f32, %out: f32):
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [#x, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<40x9xf32>) outs(%y : memref<40x1xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %0 = arith.addf %p, %acc : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%y : memref<40x1xf32>) outs(%y : memref<40x1xf32>) {
  ^bb0(%p: f32, %out: f32):
    %0 = arith.minimumf %p, %six : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// The matmul's own output is the function's argument, which the caller
// reads: it is stored beside the epilogue's result. An epilogue that reads
// the output transposed is no epilogue (its element is another thread's).
// CHECK-LABEL: func.func @output_lives_on
// CHECK-SAME: %[[ACC:[a-z0-9]+]]: memref<64x64xf32>, %[[Y:[a-z0-9]+]]: memref<64x64xf32>, %[[Z:[a-z0-9]+]]: memref<64x64xf32>)
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: gpu.terminator
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[Z]]
#a3 = affine_map<(i, j, k) -> (i, k)>
#b3 = affine_map<(i, j, k) -> (k, j)>
#c3 = affine_map<(i, j, k) -> (i, j)>
#i3 = affine_map<(i, j) -> (i, j)>
#t3 = affine_map<(i, j) -> (j, i)>
func.func @output_lives_on(%x: memref<64x32xf32>, %w: memref<32x64xf32>, %acc: memref<64x64xf32>, %y: memref<64x64xf32>, %z: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#a3, #b3, #c3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x32xf32>, memref<32x64xf32>) outs(%acc : memref<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#i3, #i3], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<64x64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.negf %p : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#t3, #i3], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<64x64xf32>) outs(%z : memref<64x64xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  }
  return
}

// -----

// A write to memory between the fill and the contraction (a copy) keeps
// them apart: the fill stays a kernel of its own.
// CHECK-LABEL: func.func @not_next_to_each_other
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: gpu.launch
#a4 = affine_map<(i, j, k) -> (i, k)>
#b4 = affine_map<(i, j, k) -> (k, j)>
#c4 = affine_map<(i, j, k) -> (i, j)>
func.func @not_next_to_each_other(%x: memref<64x32xf32>, %w: memref<32x64xf32>, %acc: memref<64x64xf32>, %s: memref<8xf32>, %t: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [#a4, #b4, #c4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x32xf32>, memref<32x64xf32>) outs(%acc : memref<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Views of the memory plan's arena. The first relu's output is placed
// after the matmul and shares its bytes with the matmul's input %xa, whose
// last use the matmul is: the matmul's kernel would write the relu's
// results while other blocks still read %xa, so no epilogue. The second
// relu's output is placed before the fill: fused.
// CHECK-LABEL: func.func @arena_views
// CHECK: %[[XA:.*]] = memref.view %{{.*}}[%c32768{{.*}}][] : memref<65536xi8> to memref<64x32xf32>
// CHECK: %[[ACC:.*]] = memref.view %{{.*}}[%c0{{.*}}][] : memref<65536xi8> to memref<64x64xf32>
// CHECK: %[[Y2:.*]] = memref.view %{{.*}}[%c16384{{.*}}][] : memref<65536xi8> to memref<64x64xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: gpu.terminator
// CHECK: %[[Y:.*]] = memref.view %{{.*}}[%c32768{{.*}}][] : memref<65536xi8> to memref<64x64xf32>
// CHECK: scf.parallel
// CHECK: arith.maximumf
// CHECK: {{memref|vector}}.store %{{.*}}, %[[Y]]
// CHECK: gpu.launch
// CHECK-NOT: memref.store %{{.*}}, %[[ACC]]
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[Y2]]
// CHECK: gpu.terminator
#a5 = affine_map<(i, j, k) -> (i, k)>
#b5 = affine_map<(i, j, k) -> (k, j)>
#c5 = affine_map<(i, j, k) -> (i, j)>
#i5 = affine_map<(i, j) -> (i, j)>
func.func @arena_views(%x: memref<64x32xf32>, %w: memref<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() : memref<65536xi8>
  %c32768 = arith.constant 32768 : index
  %xa = memref.view %arena[%c32768][] : memref<65536xi8> to memref<64x32xf32>
  memref.copy %x, %xa : memref<64x32xf32> to memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %acc = memref.view %arena[%c0][] : memref<65536xi8> to memref<64x64xf32>
  %c16384 = arith.constant 16384 : index
  %y2 = memref.view %arena[%c16384][] : memref<65536xi8> to memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#a5, #b5, #c5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xa, %w : memref<64x32xf32>, memref<32x64xf32>) outs(%acc : memref<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  %y = memref.view %arena[%c32768][] : memref<65536xi8> to memref<64x64xf32>
  linalg.generic {indexing_maps = [#i5, #i5], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<64x64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.maximumf %p, %zero : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#a5, #b5, #c5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x32xf32>, memref<32x64xf32>) outs(%acc : memref<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#i5, #i5], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<64x64xf32>) outs(%y2 : memref<64x64xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.maximumf %p, %zero : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %arena : memref<65536xi8>
  return
}

// -----

// A normalization's mean: the accumulator copied from a buffer of zeros
// (bufferization's copy of a fill that CSE shared between reductions), a
// block reduction over rows of 128, and the division by 128 into another
// buffer. One kernel: thread 0 of each block starts from the zeros'
// element, adds the row's total, divides and stores the mean; the
// accumulator, read by nothing else, is never stored.
// CHECK-LABEL: func.func @row_mean
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<4x128xf32>, %[[ZEROS:[a-z0-9]+]]: memref<4xf32>, %[[MEAN:[a-z0-9]+]]: memref<4xf32>)
// CHECK-NOT: scf.parallel
// CHECK: gpu.launch
// CHECK: gpu.shuffle
// CHECK: scf.if
// CHECK:   %[[START:.*]] = memref.load %[[ZEROS]]
// CHECK:   %[[SUM:.*]] = arith.addf %{{.*}}, %[[START]]
// CHECK:   %[[M:.*]] = arith.divf %[[SUM]], %cst
// CHECK:   memref.store %[[M]], %[[MEAN]]
// CHECK-NOT: memref.store
// CHECK-NOT: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: return
#x = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#id1 = affine_map<(i) -> (i)>
func.func @row_mean(%x: memref<4x128xf32>, %zeros: memref<4xf32>, %mean: memref<4xf32>) {
  %n = arith.constant 128.0 : f32
  %acc = memref.alloc() : memref<4xf32>
  memref.copy %zeros, %acc : memref<4xf32> to memref<4xf32>
  linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x128xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.addf %a, %o : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%acc : memref<4xf32>) outs(%mean : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.divf %a, %n : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %acc : memref<4xf32>
  return
}

// -----

// The bias and tanh after a matmul write into the matmul's own input %a
// (bufferization reuses a buffer that dies with the matmul, as for BERT's
// pooler): other blocks still read %a while one stores its results, so the
// epilogue stays a kernel of its own; the fill still goes in.
// CHECK-LABEL: func.func @epilogue_into_input
// CHECK: %[[A:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: scf.parallel
// CHECK: math.tanh
// CHECK: vector.store %{{.*}}, %[[A]]
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @epilogue_into_input(%x: memref<64x64xf32>, %w: memref<64x64xf32>, %bias: memref<64xf32>, %y: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64x64xf32>
  memref.copy %x, %a : memref<64x64xf32> to memref<64x64xf32>
  %acc = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : memref<64x64xf32>, memref<64x64xf32>) outs(%acc : memref<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %bias : memref<64x64xf32>, memref<64xf32>) outs(%a : memref<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.addf %p, %q : f32
    %1 = math.tanh %0 : f32
    linalg.yield %1 : f32
  }
  memref.copy %a, %y : memref<64x64xf32> to memref<64x64xf32>
  memref.dealloc %acc : memref<64x64xf32>
  memref.dealloc %a : memref<64x64xf32>
  return
}
