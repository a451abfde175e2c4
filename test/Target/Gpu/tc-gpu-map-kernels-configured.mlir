// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file --verify-diagnostics | FileCheck %s

// A configuration set by hand fixes the tile: here the 128 x 128
// matrix-core tile for a contraction too small for the heuristics to take
// it (256 x 256: 4 blocks).
// CHECK-LABEL: func.func @configured
// CHECK-NOT: scf.if
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x136xf16, #gpu.address_space<workgroup>>
// CHECK: tc_gpu.block_mma {{.*}}tile = array<i64: 128, 128, 16>{{.*}}vector<64xf32>
func.func @configured(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0>} {
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

// f32 factors multiply on CUDA cores, whose kernel has no 128 x 128 tile.
func.func @f32_large(%a: memref<256x64xf32>, %b: memref<64x256xf32>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{the GPU's tiled contraction builds tile = [32, 32, 16] or [64, 64, 16] (and [128, 128, 16] on matrix cores), not #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0>}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf32>, memref<64x256xf32>) outs(%c : memref<256x256xf32>)
      attrs = {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0>} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Three stages need asynchronous copies on every target of the build.
func.func @three_stages_without_copies(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{the GPU's tiled contraction pipelines three stages only where every target of the build copies asynchronously (--tc-gpu-map-kernels' async-copies), not #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>} {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
