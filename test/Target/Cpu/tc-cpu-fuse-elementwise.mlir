// RUN: tc-opt %s --tc-cpu-fuse-elementwise --split-input-file | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>

// An elementwise chain becomes one generic.
// CHECK-LABEL: func.func @chain
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A producer read many times by a contraction stays a separate generic, so
// the tanh runs once per element, not once per reduction step.
// CHECK-LABEL: func.func @not_into_contraction
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: linalg.generic
// CHECK-NOT: math.tanh
// CHECK: arith.addf
func.func @not_into_contraction(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// A 1x1 convolution is a matmul over the collapsed image. Its bias
// broadcast (collapsed into the accumulator) and its activation (reading
// the expanded result) move into the collapsed shape, next to the
// contraction; the reshapes move to their far sides.
#bias = affine_map<(n, f, h, w) -> (f)>
#id4 = affine_map<(n, f, h, w) -> (n, f, h, w)>
#in = affine_map<(n, f, p, c) -> (n, c, p)>
#wt = affine_map<(n, f, p, c) -> (f, c)>
#out = affine_map<(n, f, p, c) -> (n, f, p)>
// CHECK-LABEL: func.func @pointwise_conv
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<1x8x16xf32>)
// CHECK: %[[MM:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<1x8x16xf32>)
// CHECK: %[[ACT:.*]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<1x8x16xf32>)
// CHECK:   arith.maximumf
// CHECK: tensor.expand_shape %[[ACT]] {{.*}} into tensor<1x8x4x4xf32>
func.func @pointwise_conv(%x: tensor<1x4x4x4xf32>, %w: tensor<8x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x8x4x4xf32>
  %xc = tensor.collapse_shape %x [[0], [1], [2, 3]] : tensor<1x4x4x4xf32> into tensor<1x4x16xf32>
  %ic = tensor.collapse_shape %init [[0], [1], [2, 3]] : tensor<1x8x4x4xf32> into tensor<1x8x16xf32>
  %mm = linalg.generic {indexing_maps = [#in, #wt, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%xc, %w : tensor<1x4x16xf32>, tensor<8x4xf32>) outs(%ic : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  %y = tensor.expand_shape %mm [[0], [1], [2, 3]] output_shape [1, 8, 4, 4] : tensor<1x8x16xf32> into tensor<1x8x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// A depthwise convolution runs with a unit group dimension: its bias
// broadcast (expanded into the accumulator) and its activation (reading the
// collapsed result) take that shape instead.
#bias = affine_map<(n, c, h, w) -> (c)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#in = affine_map<(n, c, g, h, w, kh, kw) -> (n, c, g, h + kh, w + kw)>
#wt = affine_map<(n, c, g, h, w, kh, kw) -> (c, g, kh, kw)>
#out = affine_map<(n, c, g, h, w, kh, kw) -> (n, c, g, h, w)>
// CHECK-LABEL: func.func @depthwise_conv
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x1xf32>) outs(%{{.*}} : tensor<1x4x1x4x4xf32>)
// CHECK: %[[CONV:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<1x4x1x4x4xf32>)
// CHECK: %[[ACT:.*]] = linalg.generic {{.*}} ins(%[[CONV]] : tensor<1x4x1x4x4xf32>)
// CHECK: tensor.collapse_shape %[[ACT]] {{.*}} into tensor<1x4x4x4xf32>
func.func @depthwise_conv(%x: tensor<1x4x1x6x6xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x4x4xf32>
  %ie = tensor.expand_shape %init [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 4, 4] : tensor<1x4x4x4xf32> into tensor<1x4x1x4x4xf32>
  %conv = linalg.generic {indexing_maps = [#in, #wt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x4x1x6x6xf32>, tensor<4x1x3x3xf32>) outs(%ie : tensor<1x4x1x4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x4x4xf32>
  %y = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x4x1x4x4xf32> into tensor<1x4x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// A batch matmul by a shared weight with a dynamic batch is a 2-D matmul
// over the collapsed batch, expanded back; packed, its panels are collapsed
// too, so the bias reads expand(collapse(contraction)). The bias moves into
// the packed shape, next to the contraction, as it does when the batch is
// static and only the panel collapse is there.
#lhs = affine_map<(m, n, j, k) -> (m, k)>
#rhs = affine_map<(m, n, j, k) -> (n, k, j)>
#acc = affine_map<(m, n, j, k) -> (m, n, j)>
#bias3 = affine_map<(b, s, c) -> (c)>
#id3 = affine_map<(b, s, c) -> (b, s, c)>
// CHECK-LABEL: func.func @packed_shared_weight_dynamic_batch
// CHECK: %[[MM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: %[[EPI:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]{{.*}} ins(%[[MM]], %{{.*}} : tensor<?x8x32xf32>, tensor<8x32xf32>)
// CHECK:   arith.addf
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[EPI]] {{\[}}[0], [1, 2]]
// CHECK: tensor.expand_shape %[[FLAT]] {{\[}}[0, 1], [2]]
func.func @packed_shared_weight_dynamic_batch(%x: tensor<?x64xf32>, %w: tensor<8x64x32xf32>, %bias: tensor<256xf32>, %b: index, %s: index) -> tensor<?x?x256xf32> {
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
  %e3 = tensor.empty(%b, %s) : tensor<?x?x256xf32>
  %y = linalg.generic {indexing_maps = [#id3, #bias3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bs, %bias : tensor<?x?x256xf32>, tensor<256xf32>) outs(%e3 : tensor<?x?x256xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x256xf32>
  return %y : tensor<?x?x256xf32>
}

// -----

// The same with an epilogue of two ops (a bias add, then an activation)
// whose outputs take their extents from the expanded result, as the
// lowering writes them: both end up as one generic in the packed shape
// next to the contraction, with no reshape between them.
#lhs = affine_map<(m, n, j, k) -> (m, k)>
#rhs = affine_map<(m, n, j, k) -> (n, k, j)>
#acc = affine_map<(m, n, j, k) -> (m, n, j)>
#bias3 = affine_map<(b, s, c) -> (c)>
#id3 = affine_map<(b, s, c) -> (b, s, c)>
// CHECK-LABEL: func.func @packed_epilogue_of_two_ops
// CHECK: %[[MM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<?x8x32xf32>, tensor<8x32xf32>)
// CHECK:   arith.addf
// CHECK:   math.tanh
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @packed_epilogue_of_two_ops(%x: tensor<?x64xf32>, %w: tensor<8x64x32xf32>, %bias: tensor<256xf32>, %b: index, %s: index) -> tensor<?x?x256xf32> {
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
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %bs, %c0 : tensor<?x?x256xf32>
  %d1 = tensor.dim %bs, %c1 : tensor<?x?x256xf32>
  %e3 = tensor.empty(%d0, %d1) : tensor<?x?x256xf32>
  %y = linalg.generic {indexing_maps = [#id3, #bias3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bs, %bias : tensor<?x?x256xf32>, tensor<256xf32>) outs(%e3 : tensor<?x?x256xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x256xf32>
  %e4 = tensor.empty(%d0, %d1) : tensor<?x?x256xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<?x?x256xf32>) outs(%e4 : tensor<?x?x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<?x?x256xf32>
  return %t : tensor<?x?x256xf32>
}
