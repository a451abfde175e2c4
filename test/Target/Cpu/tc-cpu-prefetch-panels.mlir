// RUN: tc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tc-cpu-prefetch-panels))" | FileCheck %s

// A workgroup of one panel (%p) of 2 MB of packed weights [16, 1024, 32]:
// 12 row tiles of 8 rows, each a reduction over 1024 steps. Each tile
// prefetches its twelfth of panel p + 1 into the second-level cache, one
// line per step: at step k of tile t, element floor((t * 1024 + k) * 32 /
// 12) of the next panel, through a flat view of the weights, at most their
// last element.
// CHECK-DAG: #[[NEXT:.*]] = affine_map<(d0, d1)[s0] -> ((d0 * 8 + (d1 floordiv 8) * 8192) floordiv 3 + s0 * 32768 + 32768, 524287)>
// CHECK-LABEL: func.func @one_panel
// CHECK-SAME: (%[[W:.*]]: memref<16x1024x32xf32>, %{{.*}}: memref<96x1024xf32>, %{{.*}}: memref<96x32xf32>, %[[P:.*]]: index)
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[W]] {{\[}}[0, 1, 2]] : memref<16x1024x32xf32> into memref<524288xf32>
// CHECK: scf.for %[[R:[a-z0-9]+]] =
// CHECK: scf.for %[[K:[a-z0-9]+]] = {{.*}} iter_args
// CHECK-NEXT: %[[I:.*]] = affine.min #[[NEXT]](%[[K]], %[[R]])[%[[P]]]
// CHECK-NEXT: memref.prefetch %[[FLAT]][%[[I]]], read, locality<2>, data : memref<524288xf32>
// CHECK-NOT: memref.prefetch
#lanes = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @one_panel(%w: memref<16x1024x32xf32>, %x: memref<96x1024xf32>,
                     %out: memref<96x32xf32>, %p: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c96 = arith.constant 96 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<8x32xf32>
  scf.for %r = %c0 to %c96 step %c8 {
    %acc = scf.for %k = %c0 to %c1024 step %c1 iter_args(%a = %zero) -> (vector<8x32xf32>) {
      %b = vector.transfer_read %w[%p, %k, %c0], %pad {in_bounds = [true, true], permutation_map = #lanes} : memref<16x1024x32xf32>, vector<1x32xf32>
      %x0 = vector.transfer_read %x[%r, %k], %pad {in_bounds = [true, true]} : memref<96x1024xf32>, vector<8x1xf32>
      %c = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x0, %b, %a : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
      scf.yield %c : vector<8x32xf32>
    }
    vector.transfer_write %acc, %out[%r, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<96x32xf32>
  }
  return
}

// -----

// A workgroup of two panels (2 %wg + %j) inside its row loop: the next
// block is two panels on (the next workgroup's), and only the row loop
// spreads the prefetches (4 tiles, 8 elements of 32 per step).
// CHECK-DAG: #[[NEXT2:.*]] = affine_map<(d0, d1, d2) -> (d0 * 32768 + d1 * 8 + (d2 floordiv 8) * 8192 + 65536, 524287)>
// CHECK-LABEL: func.func @two_panels
// CHECK: memref.collapse_shape
// CHECK: scf.for %[[R:[a-z0-9]+]] =
// CHECK: scf.for
// CHECK: %[[P:.*]] = affine.apply
// CHECK: scf.for %[[K:[a-z0-9]+]] =
// CHECK-NEXT: %[[I:.*]] = affine.min #[[NEXT2]](%[[P]], %[[K]], %[[R]])
// CHECK-NEXT: memref.prefetch %{{.*}}[%[[I]]]
// CHECK-NOT: memref.prefetch
#lanes2 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @two_panels(%w: memref<16x1024x32xf32>, %x: memref<32x1024xf32>,
                      %out: memref<32x2x32xf32>, %wg: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<8x32xf32>
  scf.for %r = %c0 to %c32 step %c8 {
    scf.for %j = %c0 to %c2 step %c1 {
      %p = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%wg, %j)
      %acc = scf.for %k = %c0 to %c1024 step %c1 iter_args(%a = %zero) -> (vector<8x32xf32>) {
        %b = vector.transfer_read %w[%p, %k, %c0], %pad {in_bounds = [true, true], permutation_map = #lanes2} : memref<16x1024x32xf32>, vector<1x32xf32>
        %x0 = vector.transfer_read %x[%r, %k], %pad {in_bounds = [true, true]} : memref<32x1024xf32>, vector<8x1xf32>
        %c = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x0, %b, %a : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
        scf.yield %c : vector<8x32xf32>
      }
      vector.transfer_write %acc, %out[%r, %j, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<32x2x32xf32>
    }
  }
  return
}

// -----

// A single row tile (a GEMV-shaped kernel) is the panel's one reader: it
// prefetches the whole next panel, two lines (128 bytes) per step. The
// same tile after full ones (a peeled partial tile) would not.
// CHECK-DAG: #[[FIRST:.*]] = affine_map<(d0)[s0] -> (d0 * 32 + s0 * 32768 + 32768, 524287)>
// CHECK-DAG: #[[SECOND:.*]] = affine_map<(d0)[s0] -> (d0 * 32 + s0 * 32768 + 32784, 524287)>
// CHECK-LABEL: func.func @single_tile
// CHECK: scf.for %[[K:[a-z0-9]+]] =
// CHECK-NEXT: %[[I0:.*]] = affine.min #[[FIRST]](%[[K]])
// CHECK-NEXT: memref.prefetch %{{.*}}[%[[I0]]]
// CHECK-NEXT: %[[I1:.*]] = affine.min #[[SECOND]](%[[K]])
// CHECK-NEXT: memref.prefetch %{{.*}}[%[[I1]]]
// CHECK-NOT: memref.prefetch
#lanes3 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @single_tile(%w: memref<16x1024x32xf32>, %x: memref<1x1024xf32>,
                       %out: memref<1x32xf32>, %p: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<1x32xf32>
  %acc = scf.for %k = %c0 to %c1024 step %c1 iter_args(%a = %zero) -> (vector<1x32xf32>) {
    %b = vector.transfer_read %w[%p, %k, %c0], %pad {in_bounds = [true, true], permutation_map = #lanes3} : memref<16x1024x32xf32>, vector<1x32xf32>
    %x0 = vector.transfer_read %x[%c0, %k], %pad {in_bounds = [true, true]} : memref<1x1024xf32>, vector<1x1xf32>
    %c = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x0, %b, %a : vector<1x1xf32>, vector<1x32xf32> into vector<1x32xf32>
    scf.yield %c : vector<1x32xf32>
  }
  vector.transfer_write %acc, %out[%c0, %c0] {in_bounds = [true, true]} : vector<1x32xf32>, memref<1x32xf32>
  return
}

// -----

// Weights within a core's own cache (256 KB) stay there from panel to
// panel: nothing to prefetch.
// CHECK-LABEL: func.func @small_weights
// CHECK-NOT: memref.prefetch
#lanes4 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @small_weights(%w: memref<4x512x32xf32>, %x: memref<64x512xf32>,
                         %out: memref<64x32xf32>, %p: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<8x32xf32>
  scf.for %r = %c0 to %c64 step %c8 {
    %acc = scf.for %k = %c0 to %c512 step %c1 iter_args(%a = %zero) -> (vector<8x32xf32>) {
      %b = vector.transfer_read %w[%p, %k, %c0], %pad {in_bounds = [true, true], permutation_map = #lanes4} : memref<4x512x32xf32>, vector<1x32xf32>
      %x0 = vector.transfer_read %x[%r, %k], %pad {in_bounds = [true, true]} : memref<64x512xf32>, vector<8x1xf32>
      %c = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x0, %b, %a : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
      scf.yield %c : vector<8x32xf32>
    }
    vector.transfer_write %acc, %out[%r, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<64x32xf32>
  }
  return
}

// -----

// A convolution's workgroup (one panel of 32 output channels of a 3x3
// convolution over 512 channels, weights [16, 512, 3, 3, 32], 9.4 MB) takes
// the input channels in blocks of 16 (%cb), and each of its 7 row tiles
// (%r) sweeps a block's 16 x 3 x 3 rows of weights (4608 floats). The tiles
// prefetch the next block (after the panel's last, the next panel's
// first), a seventh each: at step s = (c * 3 + kh) * 3 + kw of tile r,
// element floor((r * 144 + s) * 32 / 7) of it. The prefetch goes just
// before the read, after the channel index it computes from.
// CHECK-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1, d2, d3, d4)[s0] -> (d0 * 288 - d3 * 288 + s0 * 147456 + (d1 * 96 + d2 * 32 + d3 * 288 + d4 * 4608) floordiv 7 + 4608, 2359295)>
// CHECK-LABEL: func.func @conv_blocks
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3, 4]] : memref<16x512x3x3x32xf32> into memref<2359296xf32>
// CHECK: scf.for %[[CB:[a-z0-9]+]] =
// CHECK: scf.for %[[R:[a-z0-9]+]] =
// CHECK: scf.for %[[C:[a-z0-9]+]] =
// CHECK: scf.for %[[KH:[a-z0-9]+]] =
// CHECK: scf.for %[[KW:[a-z0-9]+]] =
// CHECK-NEXT: %[[CH:.*]] = arith.addi %[[CB]], %[[C]]
// CHECK-NEXT: %[[I:.*]] = affine.min #[[BLOCK]](%[[CH]], %[[KH]], %[[KW]], %[[C]], %[[R]])
// CHECK-NEXT: memref.prefetch %{{.*}}[%[[I]]]
// CHECK-NOT: memref.prefetch
#lanes5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4)>
func.func @conv_blocks(%w: memref<16x512x3x3x32xf32>, %x: memref<512x9x9xf32>,
                       %out: memref<7x7x32xf32>, %p: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %pad = arith.constant 0.0 : f32
  scf.for %cb = %c0 to %c512 step %c16 {
    scf.for %r = %c0 to %c7 step %c1 {
      %init = vector.transfer_read %out[%r, %c0, %c0], %pad {in_bounds = [true, true]} : memref<7x7x32xf32>, vector<7x32xf32>
      %acc = scf.for %c = %c0 to %c16 step %c1 iter_args(%a0 = %init) -> (vector<7x32xf32>) {
        %a1 = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a2 = %a0) -> (vector<7x32xf32>) {
          %row = arith.addi %r, %kh : index
          %a3 = scf.for %kw = %c0 to %c3 step %c1 iter_args(%a4 = %a2) -> (vector<7x32xf32>) {
            %ch = arith.addi %cb, %c : index
            %b = vector.transfer_read %w[%p, %ch, %kh, %kw, %c0], %pad {in_bounds = [true, true], permutation_map = #lanes5} : memref<16x512x3x3x32xf32>, vector<1x32xf32>
            %xs = vector.transfer_read %x[%ch, %row, %kw], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>} : memref<512x9x9xf32>, vector<7x1xf32>
            %s = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %xs, %b, %a4 : vector<7x1xf32>, vector<1x32xf32> into vector<7x32xf32>
            scf.yield %s : vector<7x32xf32>
          }
          scf.yield %a3 : vector<7x32xf32>
        }
        scf.yield %a1 : vector<7x32xf32>
      }
      vector.transfer_write %acc, %out[%r, %c0, %c0] {in_bounds = [true, true]} : vector<7x32xf32>, memref<7x7x32xf32>
    }
  }
  return
}

// -----

// A workgroup's share of panels of any number (the LM head's 1571 panels
// in 63 workgroups) loops over them outside its row loop: each panel's row
// tiles prefetch the next panel as before.
// CHECK-LABEL: func.func @panels_of_any_number
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NEXT: affine.min
// CHECK-NEXT: memref.prefetch
#lanes6 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @panels_of_any_number(%w: memref<64x1024x32xf32>, %x: memref<32x1024xf32>,
                                %out: memref<32x64x32xf32>, %first: index, %count: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<8x32xf32>
  scf.for %j = %c0 to %count step %c1 {
    %p = arith.addi %first, %j : index
    scf.for %r = %c0 to %c32 step %c8 {
      %acc = scf.for %k = %c0 to %c1024 step %c1 iter_args(%a = %zero) -> (vector<8x32xf32>) {
        %b = vector.transfer_read %w[%p, %k, %c0], %pad {in_bounds = [true, true], permutation_map = #lanes6} : memref<64x1024x32xf32>, vector<1x32xf32>
        %x0 = vector.transfer_read %x[%r, %k], %pad {in_bounds = [true, true]} : memref<32x1024xf32>, vector<8x1xf32>
        %c = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x0, %b, %a : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
        scf.yield %c : vector<8x32xf32>
      }
      vector.transfer_write %acc, %out[%r, %p, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<32x64x32xf32>
    }
  }
  return
}
