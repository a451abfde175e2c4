// RUN: tc-opt %s --tc-gpu-map-kernels --split-input-file | FileCheck %s

// A depthwise convolution (too narrow for the shared-memory kernel) whose
// input is padded: the fill of the padded buffer and the copy into its
// interior make no kernels. The contraction's one-thread-per-output kernel
// reads the source where the window is inside it (index - 1 below 6,
// unsigned, in both spatial dimensions) and the fill's zero elsewhere; its
// output view is placed before the copy, so it cannot share the source's
// bytes.
// CHECK-LABEL: func.func @depthwise_padded
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<1x8x1x6x6xf32>
// CHECK-NOT: linalg.
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: %[[H:.*]] = arith.subi %{{.*}}, %c1
// CHECK: arith.cmpi ult, %[[H]], %c6
// CHECK: %[[W:.*]] = arith.subi %{{.*}}, %c1
// CHECK: arith.cmpi ult, %[[W]], %c6
// CHECK: scf.if
// CHECK: memref.load %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %[[H]], %[[W]]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %cst
// CHECK-NOT: scf.parallel
// CHECK: return
#in = affine_map<(n, c, g, h, w, kc, kh, kw) -> (n, c, kc, h + kh, w + kw)>
#wt = affine_map<(n, c, g, h, w, kc, kh, kw) -> (c, g, kc, kh, kw)>
#out = affine_map<(n, c, g, h, w, kc, kh, kw) -> (n, c, g, h, w)>
#bias = affine_map<(n, c, g, h, w) -> (c, g)>
#id5 = affine_map<(n, c, g, h, w) -> (n, c, g, h, w)>
func.func @depthwise_padded(%x: memref<1x8x1x6x6xf32>, %wt: memref<8x1x1x3x3xf32>, %b: memref<8x1xf32>) -> memref<1x8x1x6x6xf32> {
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() : memref<4096xi8>
  %padded = memref.view %arena[%c0][] {tc.arena_buffer = 0 : i64} : memref<4096xi8> to memref<1x8x1x8x8xf32>
  linalg.map outs(%padded : memref<1x8x1x8x8xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 0, 0, 1, 1] [1, 8, 1, 6, 6] [1, 1, 1, 1, 1] : memref<1x8x1x8x8xf32> to memref<1x8x1x6x6xf32, strided<[512, 64, 64, 8, 1], offset: 9>>
  %y = memref.view %arena[%c2048][] {tc.arena_buffer = 1 : i64} : memref<4096xi8> to memref<1x8x1x6x6xf32>
  memref.copy %x, %interior : memref<1x8x1x6x6xf32> to memref<1x8x1x6x6xf32, strided<[512, 64, 64, 8, 1], offset: 9>>
  linalg.generic {indexing_maps = [#bias, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : memref<8x1xf32>) outs(%y : memref<1x8x1x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#in, #wt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded, %wt : memref<1x8x1x8x8xf32>, memref<8x1x1x3x3xf32>) outs(%y : memref<1x8x1x6x6xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  %result = memref.alloc() : memref<1x8x1x6x6xf32>
  memref.copy %y, %result : memref<1x8x1x6x6xf32> to memref<1x8x1x6x6xf32>
  return %result : memref<1x8x1x6x6xf32>
}

// -----

// A convolution through the shared-memory kernel (32 output channels, 100
// pixels, K = 72), its padded input read the same way when the tile of B
// (the input) is staged; the clip after it goes into the kernel too.
// CHECK-LABEL: func.func @conv_padded
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<1x8x10x10xf32>
// CHECK-NOT: linalg.
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.cmpi ult, %{{.*}}, %c10
// CHECK: arith.cmpi ult, %{{.*}}, %c10
// CHECK: memref.load %[[X]]
// CHECK: arith.minimumf
// CHECK-NOT: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: return
#in = affine_map<(n, f, h, w, c, kh, kw) -> (n, c, h + kh, w + kw)>
#wt = affine_map<(n, f, h, w, c, kh, kw) -> (f, c, kh, kw)>
#out = affine_map<(n, f, h, w, c, kh, kw) -> (n, f, h, w)>
#id4 = affine_map<(n, f, h, w) -> (n, f, h, w)>
func.func @conv_padded(%x: memref<1x8x10x10xf32>, %wt: memref<32x8x3x3xf32>, %y: memref<1x32x10x10xf32>) {
  %c0 = arith.constant 0 : index
  %c8192 = arith.constant 8192 : index
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %arena = memref.alloc() : memref<32768xi8>
  %padded = memref.view %arena[%c0][] {tc.arena_buffer = 0 : i64} : memref<32768xi8> to memref<1x8x12x12xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x8x12x12xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 8, 10, 10] [1, 1, 1, 1] : memref<1x8x12x12xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  memref.copy %x, %interior : memref<1x8x10x10xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x10x10xf32>)
  linalg.generic {indexing_maps = [#in, #wt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded, %wt : memref<1x8x12x12xf32>, memref<32x8x3x3xf32>) outs(%y : memref<1x32x10x10xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : memref<1x32x10x10xf32>) outs(%y : memref<1x32x10x10xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.minimumf %p, %six : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %arena : memref<32768xi8>
  return
}

// -----

// Bufferization wrote the pooling's result into the buffer its padded
// input was copied from: the kernel cannot read the source while writing
// it. The fill and the copy stay kernels of their own (the first two
// loops), and the pooling reads the padded buffer.
// CHECK-LABEL: func.func @pool_into_source
// CHECK: %[[PADDED:.*]] = memref.view %{{.*}}[%c0{{.*}}][] {tc.arena_buffer = 0
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.load %[[PADDED]]
#in = affine_map<(n, c, h, w, kh, kw) -> (n, c, h + kh, w + kw)>
#win = affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>
#out = affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>
func.func @pool_into_source(%x: memref<1x8x8x8xf32>, %window: memref<2x2xf32>, %y: memref<1x8x8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() : memref<8192xi8>
  %source = memref.view %arena[%c4096][] {tc.arena_buffer = 1 : i64} : memref<8192xi8> to memref<1x8x8x8xf32>
  memref.copy %x, %source : memref<1x8x8x8xf32> to memref<1x8x8x8xf32>
  %padded = memref.view %arena[%c0][] {tc.arena_buffer = 0 : i64} : memref<8192xi8> to memref<1x8x9x9xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x8x9x9xf32>)
  %interior = memref.subview %padded[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : memref<1x8x9x9xf32> to memref<1x8x8x8xf32, strided<[648, 81, 9, 1]>>
  memref.copy %source, %interior : memref<1x8x8x8xf32> to memref<1x8x8x8xf32, strided<[648, 81, 9, 1]>>
  linalg.fill ins(%zero : f32) outs(%source : memref<1x8x8x8xf32>)
  linalg.generic {indexing_maps = [#in, #win, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%padded, %window : memref<1x8x9x9xf32>, memref<2x2xf32>) outs(%source : memref<1x8x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.addf %o, %p : f32
    linalg.yield %0 : f32
  }
  memref.copy %source, %y : memref<1x8x8x8xf32> to memref<1x8x8x8xf32>
  memref.dealloc %arena : memref<8192xi8>
  return
}

// -----

// The output's view is placed after the copy, over the source's bytes (the
// plan saw the source die at the copy): not fused.
// CHECK-LABEL: func.func @output_over_source
// CHECK: %[[PADDED:.*]] = memref.view %{{.*}}[%c0{{.*}}][] {tc.arena_buffer = 0
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.load %[[PADDED]]
#in = affine_map<(n, c, h, w, kh, kw) -> (n, c, h + kh, w + kw)>
#win = affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>
#out = affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>
func.func @output_over_source(%x: memref<1x8x8x8xf32>, %window: memref<2x2xf32>, %y: memref<1x8x8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() : memref<8192xi8>
  %source = memref.view %arena[%c4096][] {tc.arena_buffer = 1 : i64} : memref<8192xi8> to memref<1x8x8x8xf32>
  memref.copy %x, %source : memref<1x8x8x8xf32> to memref<1x8x8x8xf32>
  %padded = memref.view %arena[%c0][] {tc.arena_buffer = 0 : i64} : memref<8192xi8> to memref<1x8x9x9xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x8x9x9xf32>)
  %interior = memref.subview %padded[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : memref<1x8x9x9xf32> to memref<1x8x8x8xf32, strided<[648, 81, 9, 1]>>
  memref.copy %source, %interior : memref<1x8x8x8xf32> to memref<1x8x8x8xf32, strided<[648, 81, 9, 1]>>
  %pooled = memref.view %arena[%c4096][] {tc.arena_buffer = 2 : i64} : memref<8192xi8> to memref<1x8x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%pooled : memref<1x8x8x8xf32>)
  linalg.generic {indexing_maps = [#in, #win, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%padded, %window : memref<1x8x9x9xf32>, memref<2x2xf32>) outs(%pooled : memref<1x8x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.addf %o, %p : f32
    linalg.yield %0 : f32
  }
  memref.copy %pooled, %y : memref<1x8x8x8xf32> to memref<1x8x8x8xf32>
  memref.dealloc %arena : memref<8192xi8>
  return
}
