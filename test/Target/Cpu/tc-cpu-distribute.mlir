// RUN: tc-opt %s --allow-unregistered-dialect --pass-pipeline="builtin.module(func.func(tc-cpu-distribute{max-workgroups=8 min-work=64}))" --split-input-file | FileCheck %s

// A matmul with its bias epilogue becomes one forall of 8 workgroups over
// the rows, each 8 rows (a register tile's height); the fill and the matmul
// are computed inside the tile.
// CHECK-LABEL: func.func @matmul_bias
// CHECK: scf.forall (%[[WG:.*]]) = (0) to (64) step (8)
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

// A register-tiled matmul without an epilogue: its zero fill is fused into
// the workgroups, but fills a tensor of the workgroup's own, not its slice
// of the output (--tc-cpu-fuse-into-register-tiles then computes it in the
// tiles' registers, which write the output once).
// CHECK-LABEL: func.func @matmul_local_accumulator
// CHECK: scf.forall (%{{.*}}) = (0) to (64) step (8) shared_outs(%[[OUT:.*]] =
// CHECK: %[[LOCAL:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[LOCAL]] : tensor<8x16xf32>)
// CHECK: linalg.matmul {{.*}} outs(%[[FILL]] : tensor<8x16xf32>)
// CHECK: tensor.parallel_insert_slice {{.*}} into %[[OUT]]
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @matmul_local_accumulator(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %m : tensor<64x16xf32>
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

// -----

// A convolution at batch 1 with its ReLU: split over 8 output channels per
// workgroup it would give 2 workgroups; its image rows give 8, each of 4
// rows, and the workgroup holds whole 8-channel register tiles. The
// padding is computed per workgroup on its band of input rows.
#x = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#o = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
// CHECK-LABEL: func.func @conv_relu
// CHECK: scf.forall (%[[WG:.*]]) = (0) to (32) step (4)
// CHECK: tensor.pad
// CHECK: linalg.fill {{.*}} -> tensor<1x16x4x32xf32>
// CHECK: linalg.generic {{.*}}["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: } -> tensor<1x16x4x32xf32>
// CHECK: linalg.generic
// CHECK: } -> tensor<1x16x4x32xf32>
// CHECK: scf.forall.in_parallel
func.func @conv_relu(%x: tensor<1x8x32x32xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x32x32xf32> to tensor<1x8x34x34xf32>
  %e = tensor.empty() : tensor<1x16x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  %c = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%pad, %w : tensor<1x8x34x34xf32>, tensor<16x8x3x3xf32>) outs(%f : tensor<1x16x32x32xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x16x32x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x16x32x32xf32>) outs(%e : tensor<1x16x32x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<1x16x32x32xf32>
  return %r : tensor<1x16x32x32xf32>
}

// -----

// A depthwise convolution (the image and the filter both read the channel)
// splits its channels: 6 workgroups of 2 channels, each padding and reading
// only its own channels' image, rather than its 32 output rows into 8
// workgroups, each of which would read two image rows more than it computes
// (half the image again for 4 rows per workgroup; three times the image for
// 1).
#x = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh + kh, ow + kw)>
#w = affine_map<(n, c, oh, ow, kh, kw) -> (c, kh, kw)>
#o = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.forall (%[[WG:.*]]) = (0) to (12) step (2)
// CHECK: %[[IMAGE:.*]] = tensor.extract_slice %arg0[0, %[[WG]], 0, 0] [1, 2, 32, 32]
// CHECK: tensor.pad %[[IMAGE]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: } : tensor<1x2x32x32xf32> to tensor<1x2x34x34xf32>
// CHECK: linalg.generic
// CHECK: } -> tensor<1x2x32x32xf32>
// CHECK: scf.forall.in_parallel
func.func @depthwise(%x: tensor<1x12x32x32xf32>, %w: tensor<12x3x3xf32>) -> tensor<1x12x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x12x32x32xf32> to tensor<1x12x34x34xf32>
  %e = tensor.empty() : tensor<1x12x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x32x32xf32>) -> tensor<1x12x32x32xf32>
  %c = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%pad, %w : tensor<1x12x34x34xf32>, tensor<12x3x3xf32>) outs(%f : tensor<1x12x32x32xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x12x32x32xf32>
  return %c : tensor<1x12x32x32xf32>
}

// -----

// A depthwise convolution's ReLU on a small image (32 elements, below
// min-work) still roots the kernel: the convolution under it (288
// multiply-adds) is worth workgroups, and computes in the ReLU's.
#x = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh + kh, ow + kw)>
#w = affine_map<(n, c, oh, ow, kh, kw) -> (c, kh, kw)>
#o = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
// CHECK-LABEL: func.func @small_epilogue
// CHECK: scf.forall
// CHECK:   linalg.generic {{.*}}"reduction", "reduction"]
// CHECK:   arith.maximumf
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.generic
func.func @small_epilogue(%x: tensor<1x8x4x4xf32>, %w: tensor<8x3x3xf32>) -> tensor<1x8x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %c = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x8x4x4xf32>, tensor<8x3x3xf32>) outs(%f : tensor<1x8x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x8x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x2x2xf32>) outs(%e : tensor<1x8x2x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<1x8x2x2xf32>
  return %r : tensor<1x8x2x2xf32>
}

// -----

// The same with a dynamic batch: tiling reads the batch size with tensor.dim
// of the fused producers, which is rerouted to their operands, so the pad,
// the fill and the convolution still fuse into the one kernel and nothing
// is computed outside it.
#x = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#o = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
// CHECK-LABEL: func.func @conv_relu_dynamic_batch
// CHECK-NOT: linalg
// CHECK: scf.forall (%[[WG:.*]]) = (0) to (32) step (4)
// CHECK: tensor.pad
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg
// CHECK: return
func.func @conv_relu_dynamic_batch(%x: tensor<?x8x32x32xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<?x16x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8x32x32xf32>
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x8x32x32xf32> to tensor<?x8x34x34xf32>
  %e = tensor.empty(%n) : tensor<?x16x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16x32x32xf32>) -> tensor<?x16x32x32xf32>
  %c = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%pad, %w : tensor<?x8x34x34xf32>, tensor<16x8x3x3xf32>) outs(%f : tensor<?x16x32x32xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<?x16x32x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<?x16x32x32xf32>) outs(%e : tensor<?x16x32x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<?x16x32x32xf32>
  return %r : tensor<?x16x32x32xf32>
}

// -----

// An elementwise op over [batch, sequence, hidden] with both leading
// extents dynamic splits the sequence, not the batch, which is often 1.
#id3 = affine_map<(b, s, c) -> (b, s, c)>
// CHECK-LABEL: func.func @dynamic_batch_and_sequence
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [%{{.*}}, %{{.*}}, 256]
// CHECK: math.tanh
func.func @dynamic_batch_and_sequence(%x: tensor<?x?x256xf32>) -> tensor<?x?x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x256xf32>
  %s = tensor.dim %x, %c1 : tensor<?x?x256xf32>
  %e = tensor.empty(%b, %s) : tensor<?x?x256xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x?x256xf32>) outs(%e : tensor<?x?x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<?x?x256xf32>
  return %y : tensor<?x?x256xf32>
}

// -----

// Attention scores [batch, heads, queries, keys]: the static heads split.
#id4 = affine_map<(b, h, q, k) -> (b, h, q, k)>
// CHECK-LABEL: func.func @dynamic_attention_scores
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: math.exp
func.func @dynamic_attention_scores(%x: tensor<?x12x?x?xf32>) -> tensor<?x12x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %b = tensor.dim %x, %c0 : tensor<?x12x?x?xf32>
  %q = tensor.dim %x, %c2 : tensor<?x12x?x?xf32>
  %k = tensor.dim %x, %c3 : tensor<?x12x?x?xf32>
  %e = tensor.empty(%b, %q, %k) : tensor<?x12x?x?xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x12x?x?xf32>) outs(%e : tensor<?x12x?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<?x12x?x?xf32>
  return %y : tensor<?x12x?x?xf32>
}

// -----

// A packed contraction with a dynamic batch whose epilogue takes its extent
// from the contraction's collapsed and expanded result: the extent is read
// off the input instead, so the contraction (and its fill) fuse into the
// epilogue's workgroups rather than making kernels of their own.
#lhs = affine_map<(m, n, j, k) -> (m, k)>
#rhs = affine_map<(m, n, j, k) -> (n, k, j)>
#acc = affine_map<(m, n, j, k) -> (m, n, j)>
#id3 = affine_map<(m, n, j) -> (m, n, j)>
#pan = affine_map<(m, n, j) -> (n, j)>
// CHECK-LABEL: func.func @packed_epilogue_dynamic_batch
// CHECK: scf.forall
// CHECK-NOT: scf.forall
// CHECK: linalg.fill
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}}"reduction"]
// CHECK-NOT: scf.forall
// CHECK: math.tanh
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @packed_epilogue_dynamic_batch(%x: tensor<?x64xf32>, %w: tensor<8x64x32xf32>, %bias: tensor<8x32xf32>, %b: index, %s: index) -> tensor<?x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%m) : tensor<?x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x32xf32>) -> tensor<?x8x32xf32>
  %mm = linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x64xf32>, tensor<8x64x32xf32>) outs(%f : tensor<?x8x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %c : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<?x8x32xf32>
  %flat = tensor.collapse_shape %mm [[0], [1, 2]] : tensor<?x8x32xf32> into tensor<?x256xf32>
  %bs = tensor.expand_shape %flat [[0, 1], [2]] output_shape [%b, %s, 256] : tensor<?x256xf32> into tensor<?x?x256xf32>
  %d0 = tensor.dim %bs, %c0 : tensor<?x?x256xf32>
  %rows = tensor.dim %mm, %c0 : tensor<?x8x32xf32>
  %e2 = tensor.empty(%rows) : tensor<?x8x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #pan, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x8x32xf32>, tensor<8x32xf32>) outs(%e2 : tensor<?x8x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    %t = math.tanh %r : f32
    linalg.yield %t : f32
  } -> tensor<?x8x32xf32>
  "test.use"(%d0) : (index) -> ()
  return %y : tensor<?x8x32xf32>
}

// -----

// A reduction without a register tile (a Winograd transform's body
// multiplies twice) fills its own slice of the zero init inside each
// workgroup; the fill is not a kernel of its own.
#x3 = affine_map<(i, j, k) -> (i, j, k)>
#k1 = affine_map<(i, j, k) -> (k)>
#o2 = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func.func @reduction_own_fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x16xf32>
// CHECK-NEXT: scf.forall (%{{.*}}) in (8) shared_outs(%{{.*}} = %[[E]])
// CHECK-NOT: scf.forall.in_parallel
// CHECK: linalg.fill {{.*}} -> tensor<8x16xf32>
// CHECK-NOT: scf.forall.in_parallel
// CHECK: linalg.generic
// CHECK: scf.forall.in_parallel
// CHECK-NOT: scf.forall
// CHECK: return
func.func @reduction_own_fill(%x: tensor<64x16x8xf32>, %c: tensor<8xf32>, %d: tensor<8xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.generic {indexing_maps = [#x3, #k1, #k1, #o2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %c, %d : tensor<64x16x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %g: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.mulf %0, %g : f32
    %2 = arith.addf %o, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// A reduction with two elementwise users, one of them left only measured
// (an unpacking copy whose activation another copy took over, still read
// for the dynamic batch of the output): the measured one goes before any
// distribution, so the reduction has one user and fuses into its
// workgroups, one forall in all.
#red_in = affine_map<(b, c, k) -> (b, k, c)>
#red_out = affine_map<(b, c, k) -> (b, c)>
#id2 = affine_map<(b, c) -> (b, c)>
#tr2 = affine_map<(b, c) -> (b, c)>
// CHECK-LABEL: func.func @measured_copy_dynamic_batch
// CHECK: scf.forall
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}}"reduction"]
// CHECK-NOT: scf.forall
// CHECK: arith.maximumf
// CHECK: scf.forall.in_parallel
// CHECK-NOT: scf.forall
// CHECK: return
func.func @measured_copy_dynamic_batch(%x: tensor<?x64x128xf32>) -> tensor<?x128xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %b = tensor.dim %x, %c0 : tensor<?x64x128xf32>
  %e = tensor.empty(%b) : tensor<?x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  %sum = linalg.generic {indexing_maps = [#red_in, #red_out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?x64x128xf32>) outs(%f : tensor<?x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x128xf32>
  %e1 = tensor.empty(%b) : tensor<?x128xf32>
  %copy = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<?x128xf32>) outs(%e1 : tensor<?x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?x128xf32>
  %rows = tensor.dim %copy, %c0 : tensor<?x128xf32>
  %e2 = tensor.empty(%rows) : tensor<?x128xf32>
  %y = linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<?x128xf32>) outs(%e2 : tensor<?x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}

// -----

// A configured kernel splits into at most its configuration's workgroups
// (2, not the pass's 8), each a multiple of its tile's rows (4).
// CHECK-LABEL: func.func @configured_workgroups
// CHECK: scf.forall (%{{.*}}) = (0) to (64) step (32)
// CHECK: linalg.matmul {fusion.config = {{.*}}} {{.*}} -> tensor<32x16xf32>
func.func @configured_workgroups(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %m = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [4, 32], workgroups = 2>}
      ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %m : tensor<64x16xf32>
}

// -----

// Rows of its tile: 12 rows do not divide 64 (nor does any of 9 to 11),
// so 64 rows over 8 workgroups are chunks of 12 (whole tiles) and a rest.
// CHECK-LABEL: func.func @configured_rows
// CHECK: scf.forall (%{{.*}}) = (0) to (64) step (12)
func.func @configured_rows(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %m = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [12, 32], workgroups = 8>}
      ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %m : tensor<64x16xf32>
}

// -----

// Weights larger than a core's own cache (1024 x 512, 2 MB): split by rows,
// every workgroup would read all of them from the shared cache; split by
// columns, each reads its own 64 columns and all the activations (256 KB),
// which stay in its cache.
// CHECK-LABEL: func.func @matmul_large_weights
// CHECK: scf.forall (%{{.*}}) = (0) to (512) step (64)
// CHECK: linalg.matmul {{.*}} -> tensor<64x64xf32>
func.func @matmul_large_weights(%a: tensor<64x1024xf32>, %b: tensor<1024x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x512xf32>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %m : tensor<64x512xf32>
}

// -----

// Both operands larger than a core's cache: the split that replicates the
// smaller one (by columns: 8 workgroups each reading the 2 MB activations,
// against 8 reading the 4 MB weights).
// CHECK-LABEL: func.func @matmul_both_large
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (32)
// CHECK: linalg.matmul {{.*}} -> tensor<128x32xf32>
func.func @matmul_both_large(%a: tensor<128x4096xf32>, %b: tensor<4096x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<128x4096xf32>, tensor<4096x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %m : tensor<128x256xf32>
}

// -----

// A channels-last copy of an image (a transposition) that a strided
// convolution split by its 8 blocks of output channels reads at the same
// offsets in every workgroup (15 of 16 rows and columns): computed once, as
// its own kernel, split by the rows of its output (where it writes), not
// transposed again by each workgroup.
// CHECK-LABEL: func.func @transposed_once
// CHECK: %[[T:.*]] = scf.forall (%[[WG:.*]]) in (8)
// CHECK:   tensor.extract_slice %arg0[0, 0, %{{.*}}, 0] [1, 32, 2, 16]
// CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x16x32xf32>)
// CHECK: scf.forall (%[[WG2:.*]]) in (8)
// CHECK-NOT: linalg.generic {{.*}}["parallel", "parallel", "parallel", "parallel"]}
// CHECK:   tensor.extract_slice %[[T]][0, 0, 0, 0] [1, 15, 15, 32]
// CHECK:   linalg.generic {{.*}}"reduction", "reduction", "reduction"]
#xc = affine_map<(n, c, h, w) -> (n, c, h, w)>
#xl = affine_map<(n, c, h, w) -> (n, h, w, c)>
#in = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (n, oh * 2 + kh, ow * 2 + kw, c)>
#fl = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (fb, c, kh, kw, l)>
#ou = affine_map<(n, fb, oh, ow, l, c, kh, kw) -> (n, fb, oh, ow, l)>
func.func @transposed_once(%x: tensor<1x32x16x16xf32>, %w: tensor<8x32x3x3x32xf32>) -> tensor<1x8x7x7x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x16x16x32xf32>
  %t = linalg.generic {indexing_maps = [#xc, #xl], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x32x16x16xf32>) outs(%e0 : tensor<1x16x16x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x16x32xf32>
  %e = tensor.empty() : tensor<1x8x7x7x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x7x7x32xf32>) -> tensor<1x8x7x7x32xf32>
  %c = linalg.generic {indexing_maps = [#in, #fl, #ou], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%t, %w : tensor<1x16x16x32xf32>, tensor<8x32x3x3x32xf32>) outs(%f : tensor<1x8x7x7x32xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x8x7x7x32xf32>
  return %c : tensor<1x8x7x7x32xf32>
}
// -----

// A channel-blocked strided convolution (tc-cpu-block-conv-channels) whose
// ReLU writes the output back in NCHW order reads the kernel transposed.
// Such an epilogue splits evenly, channel blocks first (here there is one),
// but never through the register tile's lanes or rows, which the granules
// give through that permutation: so the output rows, 8 workgroups of one
// row, each a whole 8 x 32 tile. Split by its 32 lanes, each of 32
// workgroups computed one output channel in scalar code (a 16 -> 32,
// stride-2 convolution 27 times slower).
// CHECK-LABEL: func.func @blocked_conv_transposed_epilogue
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x1x8x32xf32>) attrs = {fusion.config
// CHECK: arith.maximumf
// CHECK: -> tensor<1x1x32x1x8xf32>
func.func @blocked_conv_transposed_epilogue(%img: tensor<1x16x18x18xf32>, %w: tensor<1x16x3x3x32xf32>, %init: tensor<1x1x8x8x32xf32>) -> tensor<1x1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %k = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d5, d2 * 2 + d6, d3 * 2 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d6, d7, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%img, %w : tensor<1x16x18x18xf32>, tensor<1x16x3x3x32xf32>) outs(%init : tensor<1x1x8x8x32xf32>)
      attrs = {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 32], workgroups = 64>} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x8x8x32xf32>
  %e = tensor.empty() : tensor<1x1x32x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x1x8x8x32xf32>) outs(%e : tensor<1x1x32x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1x32x8x8xf32>
  return %r : tensor<1x1x32x8x8xf32>
}

// -----

// A channels-last spatial mean at batch 1, [1, 6, 6, 32] -> [1, 32], and
// its division: vectorized along the channels, which stay whole, so it
// stays one workgroup rather than 32 of one channel each.
// CHECK-LABEL: func.func @channels_last_mean
// CHECK-NOT: scf.forall (
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x6x6x32xf32>)
// CHECK-NOT: scf.forall (
// CHECK: return
func.func @channels_last_mean(%x: tensor<1x6x6x32xf32>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x6x6x32xf32>) outs(%f : tensor<1x32xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<1x32xf32>) outs(%e : tensor<1x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %n : f32
    linalg.yield %d : f32
  } -> tensor<1x32xf32>
  return %m : tensor<1x32xf32>
}

// -----

// Lanes that split evenly only in chunks of 16 (784 = 49 x 16, a 1x1
// convolution over a 28x28 image) would leave every tile half its
// accumulators: they split in chunks of 112 (three tiles of 32 and one of
// 16), and the rows in two, for 14 workgroups.
// CHECK-LABEL: func.func @two_way_split
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (256, 784) step (128, 112)
// CHECK: linalg.matmul {{.*}} -> tensor<128x112xf32>
func.func @two_way_split(%w: tensor<256x512xf32>, %x: tensor<512x784xf32>) -> tensor<256x784xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x784xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x784xf32>) -> tensor<256x784xf32>
  %m = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 32], workgroups = 64>}
      ins(%w, %x : tensor<256x512xf32>, tensor<512x784xf32>) outs(%f : tensor<256x784xf32>) -> tensor<256x784xf32>
  return %m : tensor<256x784xf32>
}

// -----

// A transposition from NHWC to NCHW splits by rows, neither by its input's
// last dim (channels: each workgroup would read one float in 32) nor by its
// output's (columns): --tc-cpu-vectorize-transposes moves 16 x 16 squares
// of the two.
// CHECK-LABEL: func.func @transpose_to_nchw
// CHECK: scf.forall (%[[H:.*]]) in (8)
// CHECK: tensor.extract_slice %arg0[0, %[[H]], 0, 0] [1, 1, 16, 32]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, %[[H]], 0] [1, 32, 1, 16]
#nhwc = affine_map<(n, c, h, w) -> (n, h, w, c)>
#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @transpose_to_nchw(%x: tensor<1x8x16x32xf32>) -> tensor<1x32x8x16xf32> {
  %e = tensor.empty() : tensor<1x32x8x16xf32>
  %t = linalg.generic {indexing_maps = [#nhwc, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x16x32xf32>) outs(%e : tensor<1x32x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x32x8x16xf32>
  return %t : tensor<1x32x8x16xf32>
}

// -----

// Attention's scores, Q K^T over 8 heads of 197 x 64: split by rows (25
// workgroups of 8), every workgroup would read all heads' keys; split by
// heads, each reads its own, and 8 workgroups are enough.
// CHECK-LABEL: func.func @attention_scores_by_heads
// CHECK: scf.forall (%[[HEAD:.*]]) in (8)
// CHECK: tensor.extract_slice %arg0[%[[HEAD]], 0, 0] [1, 197, 64]
// CHECK: tensor.extract_slice %arg1[%[[HEAD]], 0, 0] [1, 64, 197]
func.func @attention_scores_by_heads(%q: tensor<8x197x64xf32>, %kt: tensor<8x64x197xf32>) -> tensor<8x197x197xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x197x197xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x197x197xf32>) -> tensor<8x197x197xf32>
  %s = linalg.batch_matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 32], workgroups = 64>}
      ins(%q, %kt : tensor<8x197x64xf32>, tensor<8x64x197xf32>) outs(%f : tensor<8x197x197xf32>) -> tensor<8x197x197xf32>
  return %s : tensor<8x197x197xf32>
}
