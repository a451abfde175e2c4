// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-gpu-fill-per-use))" | FileCheck %s

// One zero fill (as CSE leaves it) is the init of two row sums and is read
// once as an input: each sum gets its own fill of its own empty tensor just
// before it; the original stays for the input use.
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<4xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[F1]] : tensor<4xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<4xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[F2]] : tensor<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[FILL]] :
#x = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @shared_fill(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.addf %p, %o : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x8xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %0 = arith.addf %p, %o : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b, %fill : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%empty : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32, %o: f32):
    %0 = arith.addf %p, %q : f32
    %1 = arith.addf %0, %r : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %c : tensor<4xf32>
}
