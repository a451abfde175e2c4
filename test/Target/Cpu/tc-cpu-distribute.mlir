// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-cpu-distribute{max-workgroups=8 min-work=64}))" --split-input-file | FileCheck %s

// A matmul with its bias epilogue becomes one forall of 8 workgroups over
// the rows; the fill and the matmul are computed inside the tile.
// CHECK-LABEL: func.func @matmul_bias
// CHECK: scf.forall (%[[WG:.*]]) in (8)
// CHECK: linalg.fill {{.*}} -> tensor<8x16xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<8x16xf32>
// CHECK: linalg.generic
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @matmul_bias(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %bias: tensor<16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<64x16xf32>, tensor<16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// Small loop nests stay serial.
// CHECK-LABEL: func.func @tiny
// CHECK-NOT: scf.forall
func.func @tiny(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A producer every workgroup would need whole is not fused: the second
// matmul is split by rows but reads all of the first one's result through
// its rhs, so the first stays its own kernel.
// CHECK-LABEL: func.func @no_recompute
// CHECK: scf.forall
// CHECK: linalg.matmul {{.*}} -> tensor<8x64xf32>
// CHECK: scf.forall.in_parallel
// CHECK: scf.forall
// CHECK: linalg.matmul {{.*}} -> tensor<8x64xf32>
func.func @no_recompute(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%a, %m : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m2 : tensor<64x64xf32>
}
