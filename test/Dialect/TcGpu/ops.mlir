// RUN: tc-opt %s | tc-opt | FileCheck %s

// The ops print and parse back.
// CHECK-LABEL: func.func @block
// CHECK: %[[P:.*]] = tc_gpu.block_mma %{{.*}}, %{{.*}}, %{{.*}} {tile = array<i64: 64, 64, 16>} : memref<16x72xf16, 3>, memref<16x64xf16, 3>, vector<16xf32>
// CHECK: tc_gpu.block_mma_store %[[P]], %{{.*}} {operand_type = f16, tile = array<i64: 64, 64, 16>} : vector<16xf32>, memref<64x64xf32, 3>
func.func @block(%a: memref<16x72xf16, 3>, %b: memref<16x64xf16, 3>, %c: memref<64x64xf32, 3>,
                 %acc: vector<16xf32>) {
  %p = tc_gpu.block_mma %a, %b, %acc {tile = array<i64: 64, 64, 16>} : memref<16x72xf16, 3>, memref<16x64xf16, 3>, vector<16xf32>
  tc_gpu.block_mma_store %p, %c {tile = array<i64: 64, 64, 16>, operand_type = f16} : vector<16xf32>, memref<64x64xf32, 3>
  return
}

// CHECK-LABEL: func.func @subgroup
// CHECK: tc_gpu.subgroup_mma %{{.*}}, %{{.*}}, %{{.*}} {a_layout = #{{.*}}, b_layout = #{{.*}}, c_layout = #{{.*}}, shape = array<i64: 16, 16, 16>, subgroup_size = 64 : i64} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
func.func @subgroup(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = tc_gpu.subgroup_mma %a, %b, %c {
    shape = array<i64: 16, 16, 16>, subgroup_size = 64 : i64,
    a_layout = affine_map<(l, i) -> (l mod 16, (l floordiv 16) * 4 + i)>,
    b_layout = affine_map<(l, i) -> ((l floordiv 16) * 4 + i, l mod 16)>,
    c_layout = affine_map<(l, i) -> ((l floordiv 16) * 4 + i, l mod 16)>
  } : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
  return %d : vector<4xf32>
}

// The host side: a launch through the runtime's environment, and the
// device copy of a constant.
// CHECK-LABEL: func.func @host
// CHECK: %[[W:.*]] = tc_gpu.device_constant 2 %{{.*}}, %{{.*}}, %{{.*}} : memref<4x4xf32>
// CHECK: tc_gpu.launch 7 %{{.*}} grid(%{{.*}}, %{{.*}}, %{{.*}}) block(%{{.*}}, %{{.*}}, %{{.*}}) args(%[[W]], %{{.*}} : memref<4x4xf32>, index)
// CHECK: tc_gpu.launch 0 %{{.*}} grid
// CHECK-NOT: args
func.func @host(%env: !llvm.ptr, %host: memref<4x4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 64 : index
  %w = tc_gpu.device_constant 2 %env, %bytes, %host : memref<4x4xf32>
  tc_gpu.launch 7 %env grid(%n, %c1, %c1) block(%c1, %c1, %c1) args(%w, %n : memref<4x4xf32>, index)
  tc_gpu.launch 0 %env grid(%c1, %c1, %c1) block(%c1, %c1, %c1)
  return
}

// CHECK-LABEL: func.func @copies
// CHECK: tc_gpu.download %{{.*}} to %{{.*}}, %{{.*}} : memref<i64, strided<[], offset: ?>>, memref<i64>
// CHECK: tc_gpu.upload %{{.*}} to %{{.*}}, %{{.*}} : memref<i64>, memref<i64, strided<[], offset: ?>>
func.func @copies(%x: memref<i64, strided<[], offset: ?>>, %cell: memref<i64>) {
  %c8 = arith.constant 8 : index
  tc_gpu.download %x to %cell, %c8 : memref<i64, strided<[], offset: ?>>, memref<i64>
  tc_gpu.upload %cell to %x, %c8 : memref<i64>, memref<i64, strided<[], offset: ?>>
  return
}

// CHECK-LABEL: func.func @scale_rows
// CHECK: tc_gpu.block_mma_scale_rows %{{.*}}, %{{.*}} {operand_type = bf16, tile = array<i64: 64, 64, 32>} : vector<32xf32>, memref<64xf32, 3>
func.func @scale_rows(%acc: vector<32xf32>, %f: memref<64xf32, 3>) -> vector<32xf32> {
  %r = tc_gpu.block_mma_scale_rows %acc, %f {tile = array<i64: 64, 64, 32>, operand_type = bf16} : vector<32xf32>, memref<64xf32, 3>
  return %r : vector<32xf32>
}

// On tensors tc_gpu.attention returns its result; on buffers it writes init.
// CHECK-LABEL: func.func @attention
// CHECK: %{{.*}} = tc_gpu.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x1x45xf16>) into %{{.*}} {key_transposed, scale = 1.250000e-01 : f32} : tensor<2x3x70x40xf16>, tensor<2x3x40x45xf16>, tensor<2x3x45x40xf16>, tensor<2x3x70x40xf16> -> tensor<2x3x70x40xf16>
// CHECK: tc_gpu.attention %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} {scale = 5.000000e-01 : f32} : memref<4x8x16xbf16>, memref<1x9x16xbf16>, memref<4x9x24xbf16>, memref<4x8x24xbf16>
// CHECK-NOT: ->
func.func @attention(%q: tensor<2x3x70x40xf16>, %k: tensor<2x3x40x45xf16>, %v: tensor<2x3x45x40xf16>,
                     %m: tensor<1x1x1x45xf16>, %qb: memref<4x8x16xbf16>, %kb: memref<1x9x16xbf16>,
                     %vb: memref<4x9x24xbf16>, %ob: memref<4x8x24xbf16>) -> tensor<2x3x70x40xf16> {
  %e = tensor.empty() : tensor<2x3x70x40xf16>
  %r = tc_gpu.attention %q, %k, %v mask(%m : tensor<1x1x1x45xf16>) into %e {scale = 0.125 : f32, key_transposed}
      : tensor<2x3x70x40xf16>, tensor<2x3x40x45xf16>, tensor<2x3x45x40xf16>, tensor<2x3x70x40xf16> -> tensor<2x3x70x40xf16>
  tc_gpu.attention %qb, %kb, %vb into %ob {scale = 0.5 : f32}
      : memref<4x8x16xbf16>, memref<1x9x16xbf16>, memref<4x9x24xbf16>, memref<4x8x24xbf16>
  return %r : tensor<2x3x70x40xf16>
}

// Tiles that keep K along their columns: lhs[m][k], rhs[n][k].
// CHECK-LABEL: func.func @k_inner
// CHECK: tc_gpu.block_mma %{{.*}}, %{{.*}}, %{{.*}} {lhs_k_inner, rhs_k_inner, tile = array<i64: 64, 64, 16>} : memref<64x24xf16, 3>, memref<64x24xf16, 3>, vector<16xf32>
func.func @k_inner(%a: memref<64x24xf16, 3>, %b: memref<64x24xf16, 3>, %acc: vector<16xf32>) -> vector<16xf32> {
  %p = tc_gpu.block_mma %a, %b, %acc {tile = array<i64: 64, 64, 16>, lhs_k_inner, rhs_k_inner} : memref<64x24xf16, 3>, memref<64x24xf16, 3>, vector<16xf32>
  return %p : vector<16xf32>
}

// A subgroup's 8 x 8 matrix loads, as stored and transposed.
// CHECK-LABEL: func.func @load_rows
// CHECK: tc_gpu.subgroup_load_matrices %{{.*}}[%{{.*}}, %{{.*}}] {offsets = array<i64: 0, 0, 8, 0, 0, 8, 8, 8>} : memref<64x24xf16, 3> -> vector<8xf16>
func.func @load_rows(%t: memref<64x24xf16, 3>, %m: index, %k: index) -> vector<8xf16> {
  %a = tc_gpu.subgroup_load_matrices %t[%m, %k] {offsets = array<i64: 0, 0, 8, 0, 0, 8, 8, 8>} : memref<64x24xf16, 3> -> vector<8xf16>
  return %a : vector<8xf16>
}

// Asynchronous copies into shared memory, their groups, and the wait.
// CHECK-LABEL: func.func @async_copies
// CHECK: tc_gpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {elements = 8 : i64} : memref<64x64xf16>, memref<64x24xf16, #gpu.address_space<workgroup>>
// CHECK: tc_gpu.async_commit
// CHECK: tc_gpu.async_wait {pending = 1 : i64}
func.func @async_copies(%x: memref<64x64xf16>, %t: memref<64x24xf16, #gpu.address_space<workgroup>>, %i: index, %valid: i1) {
  tc_gpu.async_copy %x[%i, %i], %t[%i, %i], %valid {elements = 8} : memref<64x64xf16>, memref<64x24xf16, #gpu.address_space<workgroup>>
  tc_gpu.async_commit
  tc_gpu.async_wait {pending = 1}
  return
}

// CHECK-LABEL: func.func @load_transposed
// CHECK: tc_gpu.subgroup_load_matrices %{{.*}}[%{{.*}}, %{{.*}}] {offsets = array<i64: 0, 0, 0, 8, 8, 0, 8, 8>, transpose} : memref<16x72xf16, 3> -> vector<8xf16>
// CHECK: tc_gpu.subgroup_load_matrices %{{.*}}[%{{.*}}, %{{.*}}] {offsets = array<i64: 0, 0>, transpose} : memref<16x72xbf16, 3> -> vector<2xbf16>
func.func @load_transposed(%t: memref<16x72xf16, 3>, %u: memref<16x72xbf16, 3>, %k: index, %m: index) -> (vector<8xf16>, vector<2xbf16>) {
  %a = tc_gpu.subgroup_load_matrices %t[%k, %m] {offsets = array<i64: 0, 0, 0, 8, 8, 0, 8, 8>, transpose} : memref<16x72xf16, 3> -> vector<8xf16>
  %b = tc_gpu.subgroup_load_matrices %u[%k, %m] {offsets = array<i64: 0, 0>, transpose} : memref<16x72xbf16, 3> -> vector<2xbf16>
  return %a, %b : vector<8xf16>, vector<2xbf16>
}

// An epilogue on each element of the block's accumulator tile.
// CHECK-LABEL: func.func @for_each
// CHECK: tc_gpu.block_mma_for_each %{{.*}} {operand_type = f16, tile = array<i64: 64, 64, 16>} : vector<16xf32> {
// CHECK: ^bb0(%[[R:.*]]: index, %[[C:.*]]: index, %[[V:.*]]: f32):
// CHECK:   memref.store %[[V]], %{{.*}}[%[[R]], %[[C]]]
// CHECK-NEXT: }
func.func @for_each(%acc: vector<16xf32>, %out: memref<64x64xf32>) {
  tc_gpu.block_mma_for_each %acc {tile = array<i64: 64, 64, 16>, operand_type = f16} : vector<16xf32> {
  ^bb0(%r: index, %c: index, %v: f32):
    memref.store %v, %out[%r, %c] : memref<64x64xf32>
  }
  return
}

// An occupancy hint in a kernel.
// CHECK-LABEL: gpu.func @hinted
// CHECK: tc_gpu.min_blocks_hint {blocks = 2 : i64}
gpu.module @hints {
  gpu.func @hinted() kernel {
    tc_gpu.min_blocks_hint {blocks = 2}
    gpu.return
  }
}

// A host helper's staging copy: host memory, a download, an upload, the
// free.
// CHECK-LABEL: func.func @staging
// CHECK: %[[H:.*]] = tc_gpu.stage_alloc %arg1
// CHECK: tc_gpu.stage_copy %[[H]], %arg0, %arg1 {download}
// CHECK: tc_gpu.stage_copy %arg0, %[[H]], %arg1{{$}}
// CHECK: tc_gpu.stage_free %[[H]]
func.func @staging(%device: i64, %bytes: i64) {
  %host = tc_gpu.stage_alloc %bytes
  tc_gpu.stage_copy %host, %device, %bytes {download}
  tc_gpu.stage_copy %device, %host, %bytes
  tc_gpu.stage_free %host
  return
}
