// The phases of --tc-gpu-map-kernels, each a pass of its own
// (KernelMapping.h). After the reduction phase the matmul, the fill before
// it and the bias + relu after it are one kernel, and the unrelated
// elementwise op is still a linalg op; the elementwise phase makes it a
// marked kernel loop; the last phase maps that loop to blocks and threads.
// RUN: tc-opt %s --tc-gpu-prepare-kernel-ops --tc-gpu-build-attention-kernels --tc-gpu-build-reduction-kernels | FileCheck %s --check-prefix=REDUCTIONS
// RUN: tc-opt %s --tc-gpu-prepare-kernel-ops --tc-gpu-build-attention-kernels --tc-gpu-build-reduction-kernels --tc-gpu-build-elementwise-kernels | FileCheck %s --check-prefix=ELEMENTWISE
// RUN: tc-opt %s --tc-gpu-prepare-kernel-ops --tc-gpu-build-attention-kernels --tc-gpu-build-reduction-kernels --tc-gpu-build-elementwise-kernels --tc-gpu-map-kernel-loops | FileCheck %s --check-prefix=MAPPED
//
// The phases in a row are --tc-gpu-map-kernels, here and on the inputs of
// its own tests (with their options).
// RUN: tc-opt %s --tc-gpu-prepare-kernel-ops --tc-gpu-build-attention-kernels --tc-gpu-build-reduction-kernels --tc-gpu-build-elementwise-kernels --tc-gpu-map-kernel-loops -o %t.phases
// RUN: tc-opt %s --tc-gpu-map-kernels -o %t.whole
// RUN: diff %t.phases %t.whole
// RUN: for f in tc-gpu-map-kernels tc-gpu-map-kernels-fusion tc-gpu-map-kernels-row-chain tc-gpu-map-kernels-matmul-staging tc-gpu-map-kernels-padding tc-gpu-map-kernels-transposed tc-gpu-map-kernels-elementwise; do tc-opt %S/$f.mlir --split-input-file --tc-gpu-prepare-kernel-ops --tc-gpu-build-attention-kernels --tc-gpu-build-reduction-kernels --tc-gpu-build-elementwise-kernels --tc-gpu-map-kernel-loops -o %t.$f.phases && tc-opt %S/$f.mlir --split-input-file --tc-gpu-map-kernels -o %t.$f.whole && diff %t.$f.phases %t.$f.whole || exit 1; done
// RUN: for f in tc-gpu-map-kernels-attention tc-gpu-map-kernels-async-copies; do tc-opt %S/$f.mlir --split-input-file --tc-gpu-prepare-kernel-ops --tc-gpu-build-attention-kernels=async-copies=true --tc-gpu-build-reduction-kernels=async-copies=true --tc-gpu-build-elementwise-kernels --tc-gpu-map-kernel-loops -o %t.$f.phases && tc-opt %S/$f.mlir --split-input-file --tc-gpu-map-kernels=async-copies=true -o %t.$f.whole && diff %t.$f.phases %t.$f.whole || exit 1; done

// REDUCTIONS-LABEL: func.func @gemm_and_exp
// REDUCTIONS: gpu.launch
// REDUCTIONS: arith.maximumf
// REDUCTIONS-NOT: linalg.fill
// REDUCTIONS: linalg.generic
// REDUCTIONS: math.exp
// REDUCTIONS: linalg.yield
// REDUCTIONS-NOT: linalg.

// ELEMENTWISE-LABEL: func.func @gemm_and_exp
// ELEMENTWISE: gpu.launch
// ELEMENTWISE: scf.parallel
// ELEMENTWISE: math.exp
// ELEMENTWISE: tc.gpu_kernel
// ELEMENTWISE-NOT: linalg.

// MAPPED-LABEL: func.func @gemm_and_exp
// MAPPED: gpu.launch
// MAPPED: scf.parallel
// MAPPED: scf.parallel
// MAPPED: math.exp
// MAPPED: mapping = [#gpu.loop_dim_map<processor = thread_x
// MAPPED: mapping = [#gpu.loop_dim_map<processor = block_x
// MAPPED-NOT: tc.gpu_kernel
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @gemm_and_exp(%x: memref<64x32xf32>, %w: memref<32x48xf32>, %bias: memref<48xf32>, %y: memref<64x48xf32>, %u: memref<7x33xf32>, %v: memref<7x33xf32>) {
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
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%u : memref<7x33xf32>) outs(%v : memref<7x33xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = math.exp %p : f32
    linalg.yield %0 : f32
  }
  return
}
