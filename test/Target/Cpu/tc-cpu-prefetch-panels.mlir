// RUN: tc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tc-cpu-prefetch-panels))" | FileCheck %s

// A workgroup of one panel (%p) of 2 MB of packed weights [16, 1024, 32]:
// 12 row tiles of 8 rows, each a reduction over 1024 steps. Each tile
// prefetches its twelfth of panel p + 1 (the last panel itself) into the
// second-level cache, one line per step: at step k of tile t, element
// floor((t * 1024 + k) * 32 / 12) of the panel.
// CHECK-DAG: #[[NEXT:.*]] = affine_map<(d0) -> (d0 + 1, 15)>
// CHECK-DAG: #[[TILE:.*]] = affine_map<(d0) -> (d0 floordiv 8)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> ((((d0 * 1024 + d1) * 32) floordiv 12) floordiv 32)>
// CHECK-DAG: #[[LANE:.*]] = affine_map<(d0, d1) -> ((((d0 * 1024 + d1) * 32) floordiv 12) mod 32)>
// CHECK-LABEL: func.func @one_panel
// CHECK-SAME: (%[[W:.*]]: memref<16x1024x32xf32>, %{{.*}}: memref<96x1024xf32>, %{{.*}}: memref<96x32xf32>, %[[P:.*]]: index)
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[N:.*]] = affine.min #[[NEXT]](%[[P]])
// CHECK-NEXT: %[[T:.*]] = affine.apply #[[TILE]](%[[R]])
// CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT: %[[ROWV:.*]] = affine.apply #[[ROW]](%[[T]], %[[K]])
// CHECK-NEXT: %[[LANEV:.*]] = affine.apply #[[LANE]](%[[T]], %[[K]])
// CHECK-NEXT: memref.prefetch %[[W]][%[[N]], %[[ROWV]], %[[LANEV]]], read, locality<2>, data : memref<16x1024x32xf32>
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
// panel is two on (the next workgroup's), and only the row loop spreads
// the prefetches (4 tiles, 8 elements of 32 per step).
// CHECK-DAG: #[[NEXT2:.*]] = affine_map<(d0) -> (d0 + 2, 15)>
// CHECK-DAG: #[[ROW4:.*]] = affine_map<(d0, d1) -> (((d0 * 1024 + d1) * 8) floordiv 32)>
// CHECK-LABEL: func.func @two_panels
// CHECK: scf.for
// CHECK: scf.for
// CHECK: affine.min #[[NEXT2]]
// CHECK: scf.for
// CHECK: affine.apply #[[ROW4]]
// CHECK: memref.prefetch
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
// CHECK-DAG: #[[ROW1:.*]] = affine_map<(d0, d1) -> (d0 * 1024 + d1)>
// CHECK-DAG: #[[FIRST:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG: #[[SECOND:.*]] = affine_map<(d0, d1) -> (16)>
// CHECK-LABEL: func.func @single_tile
// CHECK: scf.for %[[K:[a-z0-9]+]] =
// CHECK: %[[R0:.*]] = affine.apply #[[ROW1]](%{{.*}}, %[[K]])
// CHECK: %[[L0:.*]] = affine.apply #[[FIRST]](%{{.*}}, %[[K]])
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %[[R0]], %[[L0]]]
// CHECK: %[[R1:.*]] = affine.apply #[[ROW1]](%{{.*}}, %[[K]])
// CHECK: %[[L1:.*]] = affine.apply #[[SECOND]](%{{.*}}, %[[K]])
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %[[R1]], %[[L1]]]
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
