// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-place-input-producers))" --split-input-file | FileCheck %s
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-place-input-producers,tc-cpu-plan-memory))" --split-input-file | FileCheck %s --check-prefix=PLAN
// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-cpu-plan-memory))" --split-input-file | FileCheck %s --check-prefix=NOPASS

// A convolution reading a padded copy of %source: the pad (fill and copy)
// moves next to the convolution, before the fill of its output, and the
// allocations of its output and of the clip after it (which writes a
// buffer of its own) move above the pad. The plan then keeps them off the
// source's bytes; without the pass it gives the output the source's bytes,
// the source's last use being the copy. (Deallocations come after the
// plan.)
// CHECK-LABEL: func.func @padded_conv
// CHECK: %[[SOURCE:.*]] = memref.alloc() : memref<1x4x8x8xf32>
// CHECK: %[[PADDED:.*]] = memref.alloc() : memref<1x4x10x10xf32>
// CHECK: %[[INTERIOR:.*]] = memref.subview %[[PADDED]]
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1x4x8x8xf32>
// CHECK: %[[CLIPPED:.*]] = memref.alloc() : memref<1x4x8x8xf32>
// CHECK: linalg.fill {{.*}} outs(%[[PADDED]]
// CHECK: memref.copy %[[SOURCE]], %[[INTERIOR]]
// CHECK: linalg.fill {{.*}} outs(%[[OUT]]
// CHECK: linalg.generic
// PLAN-LABEL: func.func @padded_conv
// PLAN: %[[SOURCE:.*]] = memref.view %{{.*}}[%c[[AT:[0-9]+]]{{(_[0-9]+)?}}][] {tc.arena_buffer = 0
// PLAN: linalg.copy ins(%{{.*}}) outs(%[[SOURCE]] :
// PLAN-NOT: memref.view %{{.*}}[%c[[AT]]{{(_[0-9]+)?}}][]
// PLAN: return
// NOPASS-LABEL: func.func @padded_conv
// NOPASS: %[[SOURCE:.*]] = memref.view %{{.*}}[%c[[AT:[0-9]+]]{{(_[0-9]+)?}}][] {tc.arena_buffer = 0
// NOPASS: linalg.copy ins(%{{.*}}) outs(%[[SOURCE]] :
// NOPASS: %[[OUT:.*]] = memref.view %{{.*}}[%c[[AT]]{{(_[0-9]+)?}}][] {tc.arena_buffer = 2
// NOPASS: linalg.fill {{.*}} outs(%[[OUT]] :
#in = affine_map<(n, f, h, w, c, kh, kw) -> (n, c, h + kh, w + kw)>
#wt = affine_map<(n, f, h, w, c, kh, kw) -> (f, c, kh, kw)>
#out = affine_map<(n, f, h, w, c, kh, kw) -> (n, f, h, w)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
func.func @padded_conv(%x: memref<1x4x8x8xf32>, %wt: memref<4x4x3x3xf32>, %y: memref<1x4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %source = memref.alloc() : memref<1x4x8x8xf32>
  linalg.copy ins(%x : memref<1x4x8x8xf32>) outs(%source : memref<1x4x8x8xf32>)
  %padded = memref.alloc() : memref<1x4x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x4x10x10xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  memref.copy %source, %interior : memref<1x4x8x8xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  %out = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x4x8x8xf32>)
  linalg.generic {indexing_maps = [#in, #wt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded, %wt : memref<1x4x10x10xf32>, memref<4x4x3x3xf32>) outs(%out : memref<1x4x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  %clipped = memref.alloc() : memref<1x4x8x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%out : memref<1x4x8x8xf32>) outs(%clipped : memref<1x4x8x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.minimumf %p, %six : f32
    linalg.yield %0 : f32
  }
  linalg.copy ins(%clipped : memref<1x4x8x8xf32>) outs(%y : memref<1x4x8x8xf32>)
  return
}

// -----

// A padded buffer read by an elementwise op (no reduction loops): nothing
// could read the source instead, nothing moves.
// CHECK-LABEL: func.func @padded_elementwise
// CHECK: memref.copy
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1x4x10x10xf32>
// CHECK: linalg.generic
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
func.func @padded_elementwise(%x: memref<1x4x8x8xf32>, %y: memref<1x4x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x4x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x4x10x10xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  memref.copy %x, %interior : memref<1x4x8x8xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  %out = memref.alloc() : memref<1x4x10x10xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%padded : memref<1x4x10x10xf32>) outs(%out : memref<1x4x10x10xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.addf %p, %p : f32
    linalg.yield %0 : f32
  }
  linalg.copy ins(%out : memref<1x4x10x10xf32>) outs(%y : memref<1x4x10x10xf32>)
  return
}

// -----

// Attention's V: transposed early, read by the second batch matmul after
// other work. The transpose moves down to just before the fill of that
// matmul's output, the output's allocation above it; the first matmul's
// transposed input stays where it is (already next to it), its output's
// allocation above it. A transpose whose source is written in between
// stays put.
// CHECK-LABEL: func.func @attention_v
// CHECK: %[[V:.*]] = memref.alloc() : memref<4x8x8xf32>
// CHECK: %[[Q:.*]] = memref.alloc() : memref<4x8x8xf32>
// CHECK: %[[S:.*]] = memref.alloc() : memref<4x8x8xf32>
// CHECK: linalg.transpose ins(%arg0 {{.*}} outs(%[[Q]]
// CHECK: linalg.fill {{.*}} outs(%[[S]]
// CHECK: linalg.generic {{.*}} ins(%[[Q]], %arg2 : {{.*}} outs(%[[S]]
// CHECK: %[[O:.*]] = memref.alloc() : memref<4x8x8xf32>
// CHECK: linalg.transpose ins(%arg1 {{.*}} outs(%[[V]]
// CHECK: linalg.fill {{.*}} outs(%[[O]]
// CHECK: linalg.generic {{.*}} ins(%[[S]], %[[V]] : {{.*}} outs(%[[O]]
// CHECK-LABEL: func.func @source_written_between
// CHECK: linalg.transpose
// CHECK: linalg.copy
// CHECK: linalg.fill
#q = affine_map<(b, i, j, k) -> (b, i, k)>
#k = affine_map<(b, i, j, k) -> (b, j, k)>
#v = affine_map<(b, i, j, k) -> (b, k, j)>
#o = affine_map<(b, i, j, k) -> (b, i, j)>
func.func @attention_v(%x: memref<8x4x8xf32>, %y: memref<8x4x8xf32>, %kt: memref<4x8x8xf32>, %out: memref<4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<4x8x8xf32>
  linalg.transpose ins(%y : memref<8x4x8xf32>) outs(%v : memref<4x8x8xf32>) permutation = [1, 0, 2]
  %q = memref.alloc() : memref<4x8x8xf32>
  linalg.transpose ins(%x : memref<8x4x8xf32>) outs(%q : memref<4x8x8xf32>) permutation = [1, 0, 2]
  %s = memref.alloc() : memref<4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<4x8x8xf32>)
  linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : memref<4x8x8xf32>, memref<4x8x8xf32>) outs(%s : memref<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  %o = memref.alloc() : memref<4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<4x8x8xf32>)
  linalg.generic {indexing_maps = [#q, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<4x8x8xf32>, memref<4x8x8xf32>) outs(%o : memref<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.copy ins(%o : memref<4x8x8xf32>) outs(%out : memref<4x8x8xf32>)
  return
}

func.func @source_written_between(%x: memref<8x4x8xf32>, %w: memref<4x8x8xf32>, %out: memref<4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %src = memref.alloc() : memref<8x4x8xf32>
  linalg.copy ins(%x : memref<8x4x8xf32>) outs(%src : memref<8x4x8xf32>)
  %v = memref.alloc() : memref<4x8x8xf32>
  linalg.transpose ins(%src : memref<8x4x8xf32>) outs(%v : memref<4x8x8xf32>) permutation = [1, 0, 2]
  linalg.copy ins(%x : memref<8x4x8xf32>) outs(%src : memref<8x4x8xf32>)
  linalg.fill ins(%zero : f32) outs(%out : memref<4x8x8xf32>)
  linalg.generic {indexing_maps = [#q, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %v : memref<4x8x8xf32>, memref<4x8x8xf32>) outs(%out : memref<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The copy that made the transposed heads (a strided slice copied so that
// it can be reshaped) moves down with the transpose: both just before the
// fill of the matmul's output (after them the copy into its other input,
// a producer too), the output's allocation above them.
// CHECK-LABEL: func.func @copied_heads
// CHECK: %[[Y:.*]] = memref.alloc() : memref<32x2x128xf32>
// CHECK: %[[QT:.*]] = memref.alloc() : memref<8x32x32xf32>
// CHECK: %[[OTHER:.*]] = memref.alloc() : memref<8x32x32xf32>
// CHECK: %[[S:.*]] = memref.alloc() : memref<8x32x32xf32>
// CHECK: memref.copy %{{.*}}, %[[Y]]
// CHECK: linalg.transpose {{.*}} outs(%[[QT]]
// CHECK: linalg.copy ins(%arg1 {{.*}} outs(%[[OTHER]]
// CHECK: linalg.fill {{.*}} outs(%[[S]]
#q = affine_map<(b, i, j, k) -> (b, i, k)>
#k = affine_map<(b, i, j, k) -> (b, j, k)>
#o = affine_map<(b, i, j, k) -> (b, i, j)>
func.func @copied_heads(%qkv: memref<32x2x384xf32>, %kt: memref<8x32x32xf32>, %out: memref<8x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %slice = memref.subview %qkv[0, 0, 0] [32, 2, 128] [1, 1, 1] : memref<32x2x384xf32> to memref<32x2x128xf32, strided<[768, 384, 1]>>
  %y = memref.alloc() : memref<32x2x128xf32>
  memref.copy %slice, %y : memref<32x2x128xf32, strided<[768, 384, 1]>> to memref<32x2x128xf32>
  %flat = memref.collapse_shape %y [[0, 1, 2]] : memref<32x2x128xf32> into memref<8192xf32>
  %heads = memref.expand_shape %flat [[0, 1, 2]] output_shape [32, 8, 32] : memref<8192xf32> into memref<32x8x32xf32>
  %qt = memref.alloc() : memref<8x32x32xf32>
  linalg.transpose ins(%heads : memref<32x8x32xf32>) outs(%qt : memref<8x32x32xf32>) permutation = [1, 0, 2]
  %other = memref.alloc() : memref<8x32x32xf32>
  linalg.copy ins(%kt : memref<8x32x32xf32>) outs(%other : memref<8x32x32xf32>)
  %s = memref.alloc() : memref<8x32x32xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<8x32x32xf32>)
  linalg.generic {indexing_maps = [#q, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qt, %other : memref<8x32x32xf32>, memref<8x32x32xf32>) outs(%s : memref<8x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.copy ins(%s : memref<8x32x32xf32>) outs(%out : memref<8x32x32xf32>)
  return
}
