// RUN: tc-opt %s --tc-cpu-configure-kernels --split-input-file | FileCheck %s
// RUN: tc-opt %s --tc-cpu-configure-kernels=candidate=1 --split-input-file | FileCheck %s --check-prefix=C1
// RUN: tc-opt %s --tc-cpu-configure-kernels=candidate=4 --split-input-file | FileCheck %s --check-prefix=C4
// RUN: tc-opt %s --tc-cpu-configure-kernels="max-workgroups=8 candidate=9" --split-input-file | FileCheck %s --check-prefix=FEW
// RUN: tc-opt %s --tc-cpu-configure-kernels=table=%S/Inputs/tuning-table.json --split-input-file | FileCheck %s --check-prefix=TABLE

// A matmul gets the heuristics' 8x32 tiles and 64 workgroups, and a key
// that names its computation (stable: tuning tables are indexed by it).
// Candidate 1 has 4 rows; candidate 4 the heuristic tile in a quarter of
// the workgroups; a candidate beyond a kernel's list is the heuristic
// configuration. A tuning table's entry overrides the choice.
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 32], workgroups = 64>, fusion.kernel_key = "cpu-[[KEY:[0-9a-f]+]]"}
// C1-LABEL: func.func @matmul
// C1: fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [4, 32], workgroups = 64>
// C4-LABEL: func.func @matmul
// C4: fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 32], workgroups = 16>
// FEW-LABEL: func.func @matmul
// FEW: fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 32], workgroups = 8>
// TABLE-LABEL: func.func @matmul
// TABLE: fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [12, 32], workgroups = 4>, fusion.kernel_key = "cpu-24bf37627a9a60e5"
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}

// -----

// Over a 7-row M, 8 and 12 rows are both one 7-row tile: the candidates
// are 7, 4 and 6 rows, then fewer workgroups; candidate 4 is beyond them.
// A configuration written by hand stays; the key is still set.
// CHECK-LABEL: func.func @seven_rows
// CHECK: tile = [8, 32], workgroups = 64
// CHECK: tile = [2, 16], workgroups = 3
// C1-LABEL: func.func @seven_rows
// C1: tile = [4, 32], workgroups = 64
// C1: tile = [2, 16], workgroups = 3
// C4-LABEL: func.func @seven_rows
// C4: tile = [8, 32], workgroups = 64
// C4: tile = [2, 16], workgroups = 3>, fusion.kernel_key = "cpu-
func.func @seven_rows(%a: tensor<7x32xf32>, %b: tensor<32x64xf32>, %c: tensor<7x64xf32>) -> (tensor<7x64xf32>, tensor<7x64xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<7x32xf32>, tensor<32x64xf32>) outs(%c : tensor<7x64xf32>) -> tensor<7x64xf32>
  %n = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [2, 16], workgroups = 3>}
      ins(%a, %b : tensor<7x32xf32>, tensor<32x64xf32>) outs(%c : tensor<7x64xf32>) -> tensor<7x64xf32>
  return %m, %n : tensor<7x64xf32>, tensor<7x64xf32>
}

// -----

// Elementwise ops and ops on buffers are not configured.
// CHECK-LABEL: func.func @not_kernels
// CHECK-NOT: fusion.config
// CHECK: return
func.func @not_kernels(%a: tensor<64xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  linalg.matmul ins(%b, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return %r : tensor<64xf32>
}
