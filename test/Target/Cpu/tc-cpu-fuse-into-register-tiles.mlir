// RUN: tc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tc-cpu-fuse-into-register-tiles))" | FileCheck %s

// The register tiles of a 4x32 kernel (2x16 each) accumulate into a buffer
// that a bias fill writes first and a clip epilogue reads last. The bias is
// read where each tile reads its accumulator (a broadcast along the lanes),
// the clip is applied where each tile writes it, into the output; the view
// of the output, made after the tiles, moves before them. The fill, the
// epilogue and the buffer are gone.
// CHECK-LABEL: func.func @bias_and_clip
// CHECK-NOT: memref.alloc
// CHECK: %[[OUT:.*]] = memref.subview %{{.*}}[0, 0] [4, 32] [1, 1]
// CHECK: scf.for %[[I:.*]] =
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[BIAS:.*]] = vector.transfer_read %{{.*}}[%[[I]]], %{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : memref<4xf32>, vector<2x16xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[BIAS]])
// CHECK: %[[LO:.*]] = vector.transfer_read %{{.*}}[], %{{.*}} {{.*}} : memref<f32>, vector<2x16xf32>
// CHECK: %[[HI:.*]] = vector.transfer_read %{{.*}}[], %{{.*}} {{.*}} : memref<f32>, vector<2x16xf32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[SUM]], %[[LO]] : vector<2x16xf32>
// CHECK: %[[MIN:.*]] = arith.minimumf %[[MAX]], %[[HI]] : vector<2x16xf32>
// CHECK: vector.transfer_write %[[MIN]], %[[OUT]][%[[I]], %[[J]]] {in_bounds = [true, true]}
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @bias_and_clip(%x: memref<8x32xf32>, %w: memref<4x8xf32>,
                         %bias: memref<4xf32>, %lo: memref<f32>, %hi: memref<f32>,
                         %out: memref<8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<4x32xf32>
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<4xf32>) outs(%acc : memref<4x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  scf.for %i = %c0 to %c4 step %c2 {
    scf.for %j = %c0 to %c32 step %c16 {
      %init = vector.transfer_read %acc[%i, %j], %pad {in_bounds = [true, true]} : memref<4x32xf32>, vector<2x16xf32>
      %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%a = %init) -> (vector<2x16xf32>) {
        %row = vector.transfer_read %x[%k, %j], %pad {in_bounds = [true]} : memref<8x32xf32>, vector<16xf32>
        %wk = memref.load %w[%i, %k] : memref<4x8xf32>
        %rows = vector.broadcast %row : vector<16xf32> to vector<2x16xf32>
        %ws = vector.broadcast %wk : f32 to vector<2x16xf32>
        %next = vector.fma %rows, %ws, %a : vector<2x16xf32>
        scf.yield %next : vector<2x16xf32>
      }
      vector.transfer_write %sum, %acc[%i, %j] {in_bounds = [true, true]} : vector<2x16xf32>, memref<4x32xf32>
    }
  }
  %o = memref.subview %out[0, 0] [4, 32] [1, 1] : memref<8x32xf32> to memref<4x32xf32, strided<[32, 1]>>
  linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %lo, %hi : memref<4x32xf32>, memref<f32>, memref<f32>)
      outs(%o : memref<4x32xf32, strided<[32, 1]>>) {
  ^bb0(%in: f32, %l: f32, %h: f32, %out_: f32):
    %0 = arith.maximumf %in, %l : f32
    %1 = arith.minimumf %0, %h : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<4x32xf32>
  return
}

// -----

// The accumulator is read and written inside the reduction loop (not
// hoisted): each read is no tile's first, so nothing is fused.
// CHECK-LABEL: func.func @not_hoisted
// CHECK: memref.alloc
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: vector.transfer_read %[[ACC:alloc[_0-9]*]][
// CHECK: vector.transfer_write %{{.*}}, %[[ACC]][
// CHECK: linalg.generic
// CHECK: memref.dealloc
func.func @not_hoisted(%x: memref<8x16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  linalg.fill ins(%pad : f32) outs(%acc : memref<16xf32>)
  scf.for %k = %c0 to %c8 step %c1 {
    %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %row = vector.transfer_read %x[%k, %c0], %pad {in_bounds = [true]} : memref<8x16xf32>, vector<16xf32>
    %s = arith.addf %a, %row : vector<16xf32>
    vector.transfer_write %s, %acc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%acc : memref<16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  memref.dealloc %acc : memref<16xf32>
  return
}

// -----

// The tile reads the epilogue's output (its memory is an input of the
// kernel too): writing it tile by tile would change what later tiles read,
// so the epilogue stays. The zero fill is still computed in the tile (a
// constant splat) and the buffer stays for the epilogue.
// CHECK-LABEL: func.func @epilogue_output_read_by_tiles
// CHECK: %[[ACC:.*]] = memref.alloc
// CHECK-NOT: linalg.fill
// CHECK: %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK: vector.transfer_write %{{.*}}, %[[ACC]][
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ACC]]
// CHECK: memref.dealloc %[[ACC]]
func.func @epilogue_output_read_by_tiles(%io: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  linalg.fill ins(%pad : f32) outs(%acc : memref<16xf32>)
  %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %a) -> (vector<16xf32>) {
    %row = vector.transfer_read %io[%k, %c0], %pad {in_bounds = [true]} : memref<8x16xf32>, vector<16xf32>
    %n = arith.addf %s, %row : vector<16xf32>
    scf.yield %n : vector<16xf32>
  }
  vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  %first = memref.subview %io[0, 0] [1, 16] [1, 1] : memref<8x16xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%acc : memref<16xf32>) outs(%first : memref<16xf32, strided<[1]>>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  memref.dealloc %acc : memref<16xf32>
  return
}

// -----

// A copy between the tiles and the epilogue touches memory: the epilogue
// stays where it is.
// CHECK-LABEL: func.func @memory_between
// CHECK: scf.for
// CHECK: vector.transfer_write
// CHECK: memref.copy
// CHECK: linalg.generic
func.func @memory_between(%x: memref<8x16xf32>, %y: memref<16xf32>, %z: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %a) -> (vector<16xf32>) {
    %row = vector.transfer_read %x[%k, %c0], %pad {in_bounds = [true]} : memref<8x16xf32>, vector<16xf32>
    %n = arith.addf %s, %row : vector<16xf32>
    scf.yield %n : vector<16xf32>
  }
  vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  memref.copy %y, %z : memref<16xf32> to memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%acc, %z : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%in: f32, %zz: f32, %o: f32):
    %m = arith.mulf %in, %zz : f32
    linalg.yield %m : f32
  }
  memref.dealloc %acc : memref<16xf32>
  return
}

// -----

// A workgroup's accumulator copied into its slice of the output (a kernel
// without an epilogue, whose zero fill --tc-cpu-distribute made local): the
// copy is an identity epilogue, so the tile starts from zeros in registers
// and writes the output directly.
// CHECK-LABEL: func.func @copy_out
// CHECK-NOT: memref.alloc
// CHECK: %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK: vector.transfer_write %[[SUM]], %{{.*}}[%{{.*}}] {in_bounds = [true]} : vector<16xf32>, memref<16xf32, strided<[1], offset: 16>>
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
func.func @copy_out(%x: memref<8x16xf32>, %out: memref<2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  linalg.fill ins(%pad : f32) outs(%acc : memref<16xf32>)
  %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %a) -> (vector<16xf32>) {
    %row = vector.transfer_read %x[%k, %c0], %pad {in_bounds = [true]} : memref<8x16xf32>, vector<16xf32>
    %n = arith.addf %s, %row : vector<16xf32>
    scf.yield %n : vector<16xf32>
  }
  vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  %slice = memref.subview %out[1, 0] [1, 16] [1, 1] : memref<2x16xf32> to memref<16xf32, strided<[1], offset: 16>>
  memref.copy %acc, %slice : memref<16xf32> to memref<16xf32, strided<[1], offset: 16>>
  memref.dealloc %acc : memref<16xf32>
  return
}

// -----

// A tile may read its accumulator without its unit dims (vector<2x16>) and
// write it with them (vector<2x1x16>): the same block. The fill is
// computed at the read's shape, the epilogue at the write's.
// CHECK-LABEL: func.func @unit_dims
// CHECK-NOT: memref.alloc
// CHECK: %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<2x16xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK: %[[CAST:.*]] = vector.shape_cast %[[SUM]] : vector<2x16xf32> to vector<2x1x16xf32>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[CAST]], %{{.*}} : vector<2x1x16xf32>
// CHECK: vector.transfer_write %[[RELU]], %{{.*}} : vector<2x1x16xf32>, memref<2x1x16xf32>
// CHECK-NOT: linalg
func.func @unit_dims(%x: memref<8x2x16xf32>, %out: memref<2x1x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<2x1x16xf32>
  linalg.fill ins(%pad : f32) outs(%acc : memref<2x1x16xf32>)
  %a = vector.transfer_read %acc[%c0, %c0, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d0, d2)>} : memref<2x1x16xf32>, vector<2x16xf32>
  %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %a) -> (vector<2x16xf32>) {
    %rows = vector.transfer_read %x[%k, %c0, %c0], %pad {in_bounds = [true, true]} : memref<8x2x16xf32>, vector<2x16xf32>
    %n = arith.addf %s, %rows : vector<2x16xf32>
    scf.yield %n : vector<2x16xf32>
  }
  %cast = vector.shape_cast %sum : vector<2x16xf32> to vector<2x1x16xf32>
  vector.transfer_write %cast, %acc[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x1x16xf32>, memref<2x1x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc : memref<2x1x16xf32>) outs(%out : memref<2x1x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %acc : memref<2x1x16xf32>
  return
}
