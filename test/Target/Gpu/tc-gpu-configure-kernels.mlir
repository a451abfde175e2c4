// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels{targets=rocm:gfx1100}))" --split-input-file | FileCheck %s --check-prefix=RDNA
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels{targets=cuda:sm_90,rocm:gfx942,rocm:gfx1100}))" --split-input-file | FileCheck %s --check-prefix=RDNA
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels{targets=cuda:sm_90,rocm:gfx942}))" --split-input-file | FileCheck %s --check-prefix=NONE
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels))" --split-input-file | FileCheck %s --check-prefix=NONE
// RUN: not tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-configure-kernels{targets=rocm:gfx1200}))" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// An fp16 contraction of 128 x 96: WMMA's lanes hold 8 accumulators, the
// 32 x 32 tile's threads 4, so a build with an RDNA 3 target takes the
// 64 x 64 tile (16 per thread); mma.sync and CDNA's 16x16x16 MFMA hold 4
// and keep the heuristics. f32 factors (not TF32) use no matrix cores.
// RDNA-LABEL: func.func @f16
// RDNA: linalg.generic {{.*}}fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0>
// NONE-LABEL: func.func @f16
// NONE-NOT: fusion.config
// NONE: return
// BAD: error: tc-gpu-configure-kernels: unsupported rocm architecture 'gfx1200'; supported targets:
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

// Both sides below 64: the wide tile would leave most of its block idle.
// A configuration written by hand stays. f32 factors are not configured.
// RDNA-LABEL: func.func @small_and_kept
// RDNA: outs(%arg2 : memref<48x32xf32>) {
// RDNA: tile = [32, 32, 16]
// RDNA-NOT: fusion.config
// RDNA: return
func.func @small_and_kept(%a: memref<48x64xf16>, %b: memref<64x32xf16>, %c: memref<48x32xf32>,
                          %d: memref<128x128xf32>, %e: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<48x64xf16>, memref<64x32xf16>) outs(%c : memref<48x32xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<48x64xf16>, memref<64x32xf16>) outs(%c : memref<48x32xf32>)
      attrs = {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [32, 32, 16], workgroups = 0>} {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%d, %d : memref<128x128xf32>, memref<128x128xf32>) outs(%e : memref<128x128xf32>)
  return
}

// -----

// Large enough for the 128 x 128 matrix-core tile (256 of its blocks):
// with an RDNA 3 target the configuration is that tile (64 accumulators a
// thread, more than WMMA's 8).
// RDNA-LABEL: func.func @f16_large
// RDNA: linalg.generic {{.*}}fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0>
// NONE-LABEL: func.func @f16_large
// NONE-NOT: fusion.config
// NONE: return
func.func @f16_large(%a: memref<2048x64xf16>, %b: memref<64x2048xf16>, %c: memref<2048x2048xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2048x64xf16>, memref<64x2048xf16>) outs(%c : memref<2048x2048xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
