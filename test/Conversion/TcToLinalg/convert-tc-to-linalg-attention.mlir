// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Scores contract Q and K over the head dim (K read as [.., Lk, D]), the
// scale and mask are applied in one generic, then the row softmax and the
// second contraction over Lk (probabilities read like Q, V broadcast over
// the batch).
// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[MASK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (0, d1, d4, d3)>
// CHECK-LABEL: func.func @attention
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[K]], #[[S]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %arg3 : tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>)
// CHECK: %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK: arith.mulf %{{.*}}, %[[SCALE]]
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[V]], #[[S]]]
// CHECK-SAME: ins(%{{.*}}, %arg2 : tensor<2x4x16x24xf32>, tensor<1x4x24x32xf32>)
// CHECK-SAME: outs(%{{.*}} : tensor<2x4x16x32xf32>)
func.func @attention(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<1x4x24x32xf32>,
                     %m: tensor<2x1x1x24xf32>) -> tensor<2x4x16x32xf32> {
  %0 = tc.attention %q, %k, %v, %m {scale = 0.125 : f32}
      : (tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>, tensor<1x4x24x32xf32>, tensor<2x1x1x24xf32>) -> tensor<2x4x16x32xf32>
  return %0 : tensor<2x4x16x32xf32>
}

// -----

// f16 accumulates in f32 and truncates once at the end; dynamic batch and
// sequence sizes come from the operands.
// CHECK-LABEL: func.func @attention_f16
// CHECK: arith.extf
// CHECK: arith.extf
// CHECK: arith.mulf {{.*}} : f32
// CHECK: math.exp {{.*}} : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: return {{.*}} : tensor<?x?x64xf16>
func.func @attention_f16(%q: tensor<?x?x64xf16>, %k: tensor<?x?x64xf16>, %v: tensor<?x?x64xf16>) -> tensor<?x?x64xf16> {
  %0 = tc.attention %q, %k, %v {scale = 0.125 : f32}
      : (tensor<?x?x64xf16>, tensor<?x?x64xf16>, tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  return %0 : tensor<?x?x64xf16>
}

// -----

// A mask whose extents are known only at run time: each must equal the
// scores' (a run-time 1 is not stretched), as for an unfused add; before,
// the fused op read a [B*H, 1, Lk] mask as [B*H, Lq, Lk].
// CHECK-LABEL: func.func @dynamic_mask
// CHECK: cf.assert %{{.*}}, "node 'attn' (Attention): operand 0 axis 1 does not match the result's extent
// CHECK: cf.assert %{{.*}}, "node 'attn' (Attention): operand 0 axis 2 does not match the result's extent
func.func @dynamic_mask(%q: tensor<?x8x16xf32>, %k: tensor<?x8x16xf32>, %v: tensor<?x8x16xf32>, %m: tensor<?x?x?xf32>) -> tensor<?x8x16xf32> {
  %0 = tc.attention %q, %k, %v, %m {scale = 0.25 : f32} : (tensor<?x8x16xf32>, tensor<?x8x16xf32>, tensor<?x8x16xf32>, tensor<?x?x?xf32>) -> tensor<?x8x16xf32> loc("attn"("Attention"))
  return %0 : tensor<?x8x16xf32>
}

// -----

// A key given as key^T [.., D, Lk] is read with the keys, the scores'
// last dimension, contiguous.
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-LABEL: func.func @transposed_key
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[KT]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x4x16x8xf32>, tensor<2x4x8x24xf32>)
// CHECK-SAME: outs(%{{.*}} : tensor<2x4x16x24xf32>)
func.func @transposed_key(%q: tensor<2x4x16x8xf32>, %kt: tensor<2x4x8x24xf32>, %v: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
  %0 = tc.attention %q, %kt, %v {key_transposed, scale = 0.125 : f32}
      : (tensor<2x4x16x8xf32>, tensor<2x4x8x24xf32>, tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32>
  return %0 : tensor<2x4x16x32xf32>
}
