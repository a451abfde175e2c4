// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels{targets=cuda:sm_90 candidates=3}))" --split-input-file | FileCheck %s --check-prefix=SM90
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels{targets=rocm:gfx1100 candidates=8}))" --split-input-file | FileCheck %s --check-prefix=RDNA
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels{targets=cuda:sm_90}))" --split-input-file | FileCheck %s --check-prefix=NONE

// With candidates=N every contraction lists up to N alternatives, largest
// tile first: on sm_90 (asynchronous copies) each tile with three stages,
// then two; RDNA 3 copies synchronously (two stages) and its WMMA lanes
// hold 8 accumulators, more than the 32 x 32 tile's threads. The kernel's
// key names it in a tuning table. Without the option, nothing is listed.
// SM90-LABEL: func.func @f16
// SM90: fusion.candidates = [#fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 3>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 2>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>]
// SM90-SAME: fusion.kernel_key = "gpu-{{[0-9a-f]+}}"
// RDNA-LABEL: func.func @f16
// RDNA: fusion.candidates = [#fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 2>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 2>]
// RDNA-SAME: fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0>
// NONE-LABEL: func.func @f16
// NONE-NOT: fusion.candidates
// NONE-NOT: fusion.kernel_key
// NONE: return
func.func @f16(%a: memref<128x64xf16>, %b: memref<64x96xf16>, %c: memref<128x96xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64xf16>, memref<64x96xf16>) outs(%c : memref<128x96xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// f32 factors multiply on CUDA cores: no 128 x 128 tile. A configuration
// written by hand stays, and lists nothing.
// SM90-LABEL: func.func @f32
// SM90: fusion.candidates = [#fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 2>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [32, 32, 16], workgroups = 0, stages = 3>]
// SM90-LABEL: func.func @by_hand
// SM90-NOT: fusion.candidates
// SM90: return
func.func @f32(%a: memref<128x64xf32>, %b: memref<64x96xf32>, %c: memref<128x96xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf32>, memref<64x96xf32>) outs(%c : memref<128x96xf32>)
  return
}
func.func @by_hand(%a: memref<128x64xf32>, %b: memref<64x96xf32>, %c: memref<128x96xf32>) {
  linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [32, 32, 16], workgroups = 0>}
      ins(%a, %b : memref<128x64xf32>, memref<64x96xf32>) outs(%c : memref<128x96xf32>)
  return
}
