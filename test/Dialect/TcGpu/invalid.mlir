// RUN: tc-opt %s -split-input-file -verify-diagnostics

func.func @small_lhs(%a: memref<16x32xf16, 3>, %b: memref<16x64xf16, 3>, %acc: vector<16xf32>) {
  // expected-error @+1 {{expects lhs to hold at least 16x64 elements (K x M)}}
  %p = tc_gpu.block_mma %a, %b, %acc {tile = array<i64: 64, 64, 16>} : memref<16x32xf16, 3>, memref<16x64xf16, 3>, vector<16xf32>
  return
}

// -----

func.func @uneven(%a: memref<16x64xf16, 3>, %b: memref<16x64xf16, 3>, %acc: vector<24xf32>) {
  // expected-error @+1 {{accumulator of 24 elements does not divide the 64x64 tile among threads}}
  %p = tc_gpu.block_mma %a, %b, %acc {tile = array<i64: 64, 64, 16>} : memref<16x64xf16, 3>, memref<16x64xf16, 3>, vector<24xf32>
  return
}

// -----

func.func @mixed(%a: memref<16x64xf16, 3>, %b: memref<16x64xbf16, 3>, %acc: vector<16xf32>) {
  // expected-error @+1 {{expects both tiles of one element type}}
  %p = tc_gpu.block_mma %a, %b, %acc {tile = array<i64: 64, 64, 16>} : memref<16x64xf16, 3>, memref<16x64xbf16, 3>, vector<16xf32>
  return
}

// -----

func.func @store_too_small(%c: memref<32x64xf32, 3>, %acc: vector<16xf32>) {
  // expected-error @+1 {{expects dest to hold at least 64x64 elements}}
  tc_gpu.block_mma_store %acc, %c {tile = array<i64: 64, 64, 16>, operand_type = f16} : vector<16xf32>, memref<32x64xf32, 3>
  return
}

// -----

// Six elements over 64 lanes is neither the 16x16 matrix nor copies of it.
func.func @fragment_size(%a: vector<6xf16>, %b: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{expects a to hold 16x16 elements, or copies of them, over 64 lanes}}
  %d = tc_gpu.subgroup_mma %a, %b, %c {
    shape = array<i64: 16, 16, 16>, subgroup_size = 64 : i64,
    a_layout = affine_map<(l, i) -> (l mod 16, (l floordiv 16) * 4 + i)>,
    b_layout = affine_map<(l, i) -> ((l floordiv 16) * 4 + i, l mod 16)>,
    c_layout = affine_map<(l, i) -> ((l floordiv 16) * 4 + i, l mod 16)>
  } : vector<6xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}

// -----

func.func @layout_rank(%a: vector<4xf16>, %b: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{expects c_layout (lane, element) -> (row, column)}}
  %d = tc_gpu.subgroup_mma %a, %b, %c {
    shape = array<i64: 16, 16, 16>, subgroup_size = 64 : i64,
    a_layout = affine_map<(l, i) -> (l mod 16, (l floordiv 16) * 4 + i)>,
    b_layout = affine_map<(l, i) -> ((l floordiv 16) * 4 + i, l mod 16)>,
    c_layout = affine_map<(l) -> (l, l)>
  } : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}

// -----

func.func @scale_rows_short(%acc: vector<32xf32>, %f: memref<32xf32, 3>) -> vector<32xf32> {
  // expected-error @+1 {{expects factors to hold at least 64 elements (one per row)}}
  %r = tc_gpu.block_mma_scale_rows %acc, %f {tile = array<i64: 64, 64, 32>, operand_type = f16} : vector<32xf32>, memref<32xf32, 3>
  return %r : vector<32xf32>
}

// -----

func.func @attention_f32(%q: memref<8x16xf32>, %k: memref<9x16xf32>, %v: memref<9x16xf32>, %o: memref<8x16xf32>) {
  // expected-error @+1 {{expects f16 or bf16 operands}}
  tc_gpu.attention %q, %k, %v into %o {scale = 1.0 : f32} : memref<8x16xf32>, memref<9x16xf32>, memref<9x16xf32>, memref<8x16xf32>
  return
}

// -----

func.func @attention_head(%q: memref<8x16xf16>, %k: memref<9x32xf16>, %v: memref<9x16xf16>, %o: memref<8x16xf16>) {
  // expected-error @+1 {{expects query and key of one head size}}
  tc_gpu.attention %q, %k, %v into %o {scale = 1.0 : f32} : memref<8x16xf16>, memref<9x32xf16>, memref<9x16xf16>, memref<8x16xf16>
  return
}

// -----

func.func @attention_length(%q: memref<8x16xf16>, %k: memref<16x9xf16>, %v: memref<10x16xf16>, %o: memref<8x16xf16>) {
  // expected-error @+1 {{expects key and value of one length}}
  tc_gpu.attention %q, %k, %v into %o {scale = 1.0 : f32, key_transposed} : memref<8x16xf16>, memref<16x9xf16>, memref<10x16xf16>, memref<8x16xf16>
  return
}

// -----

func.func @attention_result(%q: tensor<8x16xf16>, %k: tensor<9x16xf16>, %v: tensor<9x16xf16>, %o: tensor<8x16xf16>) {
  // expected-error @+1 {{expects one result on tensors and none on buffers}}
  tc_gpu.attention %q, %k, %v into %o {scale = 1.0 : f32} : tensor<8x16xf16>, tensor<9x16xf16>, tensor<9x16xf16>, tensor<8x16xf16>
  return
}

// -----

func.func @load_three_matrices(%t: memref<16x72xf16, 3>, %i: index) {
  // expected-error @+1 {{expects offsets of 1, 2 or 4 matrices}}
  %v = tc_gpu.subgroup_load_matrices %t[%i, %i] {offsets = array<i64: 0, 0, 8, 0, 0, 8>, transpose} : memref<16x72xf16, 3> -> vector<6xf16>
  return
}

// -----

func.func @load_elements(%t: memref<16x72xf16, 3>, %i: index) {
  // expected-error @+1 {{expects 4 elements, two of each matrix}}
  %v = tc_gpu.subgroup_load_matrices %t[%i, %i] {offsets = array<i64: 0, 0, 8, 0>, transpose} : memref<16x72xf16, 3> -> vector<8xf16>
  return
}

// -----

func.func @load_type(%t: memref<16x72xf16, 3>, %i: index) {
  // expected-error @+1 {{expects the tile's element type}}
  %v = tc_gpu.subgroup_load_matrices %t[%i, %i] {offsets = array<i64: 0, 0>, transpose} : memref<16x72xf16, 3> -> vector<2xbf16>
  return
}

// -----

func.func @for_each_body(%acc: vector<16xf32>) {
  // expected-error @+1 {{expects a body of (row: index, column: index, value: f32)}}
  tc_gpu.block_mma_for_each %acc {tile = array<i64: 64, 64, 16>, operand_type = f16} : vector<16xf32> {
  ^bb0(%r: index, %v: f32):
  }
  return
}

// -----

func.func @for_each_tile(%acc: vector<24xf32>) {
  // expected-error @+1 {{accumulator of 24 elements does not divide the 64x64 tile among threads}}
  tc_gpu.block_mma_for_each %acc {tile = array<i64: 64, 64, 16>, operand_type = f16} : vector<24xf32> {
  ^bb0(%r: index, %c: index, %v: f32):
  }
  return
}

// -----

func.func @hint_outside() {
  // expected-error @+1 {{expects to be in a kernel}}
  tc_gpu.min_blocks_hint {blocks = 2}
  return
}

// -----

gpu.module @hints {
  gpu.func @hint_zero() kernel {
    // expected-error @+1 {{expects a positive number of blocks}}
    tc_gpu.min_blocks_hint {blocks = 0}
    gpu.return
  }
}

// -----

func.func @small_k_inner_rhs(%a: memref<16x64xf16, 3>, %b: memref<64x8xf16, 3>, %acc: vector<16xf32>) {
  // expected-error @+1 {{expects rhs to hold at least 64x16 elements (N x K)}}
  %p = tc_gpu.block_mma %a, %b, %acc {tile = array<i64: 64, 64, 16>, rhs_k_inner} : memref<16x64xf16, 3>, memref<64x8xf16, 3>, vector<16xf32>
  return
}

// -----

func.func @copy_to_global(%x: memref<64x64xf16>, %y: memref<64x64xf16>, %i: index, %valid: i1) {
  // expected-error @+1 {{expects dest in workgroup (shared) memory}}
  tc_gpu.async_copy %x[%i, %i], %y[%i, %i], %valid {elements = 8} : memref<64x64xf16>, memref<64x64xf16>
  return
}

// -----

func.func @copy_size(%x: memref<64x64xf16>, %t: memref<64x24xf16, #gpu.address_space<workgroup>>, %i: index, %valid: i1) {
  // expected-error @+1 {{expects a copy of 4, 8 or 16 bytes, not 3 elements}}
  tc_gpu.async_copy %x[%i, %i], %t[%i, %i], %valid {elements = 3} : memref<64x64xf16>, memref<64x24xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_types(%x: memref<64x64xf32>, %t: memref<64x24xf16, #gpu.address_space<workgroup>>, %i: index, %valid: i1) {
  // expected-error @+1 {{expects both memrefs of one element type}}
  tc_gpu.async_copy %x[%i, %i], %t[%i, %i], %valid {elements = 4} : memref<64x64xf32>, memref<64x24xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @wait_negative() {
  // expected-error @+1 {{expects a non-negative number of pending groups}}
  tc_gpu.async_wait {pending = -1}
  return
}

// -----

func.func @no_candidates() -> index {
  // expected-error @+1 {{expects at least one candidate}}
  %c = tc_gpu.tuned_choice "gpu-0123456789abcdef" []
  return %c : index
}

// -----

func.func @site_without_env() -> index {
  // expected-error @+1 {{expects both an environment and a site, or neither}}
  %c = tc_gpu.tuned_choice "gpu-0123456789abcdef" [#fusion.kernel_config<strategy = "tiled-contraction", tile = [32, 32, 16], workgroups = 0>] {site = 0 : i32}
  return %c : index
}
