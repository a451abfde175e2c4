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
