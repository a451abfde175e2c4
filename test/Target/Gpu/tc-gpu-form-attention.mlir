// RUN: tc-opt %s --split-input-file --tc-gpu-form-attention | FileCheck %s

// A 16-bit attention becomes tc_gpu.attention into a fresh tensor, its
// mask, scale and key layout kept.
// CHECK-LABEL: func.func @formed
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8x100x64xf16>
// CHECK: %[[R:.*]] = tc_gpu.attention %arg0, %arg1, %arg2 mask(%arg3 : tensor<2x1x1x100xf16>) into %[[E]] {key_transposed, scale = 1.250000e-01 : f32}
// CHECK-SAME: -> tensor<2x8x100x64xf16>
// CHECK: return %[[R]]
func.func @formed(%q: tensor<2x8x100x64xf16>, %kt: tensor<2x8x64x100xf16>,
                  %v: tensor<2x8x100x64xf16>, %m: tensor<2x1x1x100xf16>) -> tensor<2x8x100x64xf16> {
  %r = tc.attention %q, %kt, %v, %m {scale = 0.125 : f32, key_transposed}
      : (tensor<2x8x100x64xf16>, tensor<2x8x64x100xf16>, tensor<2x8x100x64xf16>, tensor<2x1x1x100xf16>) -> tensor<2x8x100x64xf16>
  return %r : tensor<2x8x100x64xf16>
}

// -----

// bf16, no mask, a head of 128 (the largest the kernel's tiles hold), a
// key batch that broadcasts.
// CHECK-LABEL: func.func @bf16
// CHECK: tc_gpu.attention %arg0, %arg1, %arg2 into %{{.*}} {scale = 5.000000e-01 : f32}
func.func @bf16(%q: tensor<4x7x128xbf16>, %k: tensor<1x9x128xbf16>,
                %v: tensor<4x9x128xbf16>) -> tensor<4x7x128xbf16> {
  %r = tc.attention %q, %k, %v {scale = 0.5 : f32}
      : (tensor<4x7x128xbf16>, tensor<1x9x128xbf16>, tensor<4x9x128xbf16>) -> tensor<4x7x128xbf16>
  return %r : tensor<4x7x128xbf16>
}

// -----

// The others keep tc.attention's general lowering: f32 (the kernel
// multiplies 16-bit operands), heads beyond 128 (whose tiles would not fit
// 48 KiB of shared memory), a dynamic head, and no keys.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: tc_gpu.attention
// CHECK-COUNT-4: tc.attention
func.func @kept(%q: tensor<4x7x64xf32>, %qh: tensor<4x7x?xf16>,
                %qw: tensor<4x7x160xf16>, %vw: tensor<4x9x160xf16>,
                %qe: tensor<4x7x64xf16>, %ke: tensor<4x0x64xf16>)
    -> (tensor<4x7x64xf32>, tensor<4x7x?xf16>, tensor<4x7x160xf16>, tensor<4x7x64xf16>) {
  %a = tc.attention %q, %q, %q {scale = 1.0 : f32}
      : (tensor<4x7x64xf32>, tensor<4x7x64xf32>, tensor<4x7x64xf32>) -> tensor<4x7x64xf32>
  %b = tc.attention %qh, %qh, %qh {scale = 1.0 : f32}
      : (tensor<4x7x?xf16>, tensor<4x7x?xf16>, tensor<4x7x?xf16>) -> tensor<4x7x?xf16>
  %c = tc.attention %qw, %vw, %vw {scale = 1.0 : f32}
      : (tensor<4x7x160xf16>, tensor<4x9x160xf16>, tensor<4x9x160xf16>) -> tensor<4x7x160xf16>
  %d = tc.attention %qe, %ke, %ke {scale = 1.0 : f32}
      : (tensor<4x7x64xf16>, tensor<4x0x64xf16>, tensor<4x0x64xf16>) -> tensor<4x7x64xf16>
  return %a, %b, %c, %d : tensor<4x7x64xf32>, tensor<4x7x?xf16>, tensor<4x7x160xf16>, tensor<4x7x64xf16>
}

// -----

// Dynamic batch and sequence lengths (static heads): the kernel reads the
// extents at run time. The result's batch and query extents come from the
// query; every other dynamic extent is checked against the one it meets
// (the key's and value's batch, the value's keys against the key's), as
// the general lowering checks its broadcasts.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[KB:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[KB]], %[[B]]
// CHECK: cf.assert %[[SAME]], "tc.attention: the extents of key axis 0 and of the attention differ
// CHECK: cf.assert {{.*}}the extents of value axis 0 and of the attention differ
// CHECK: %[[LQ:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[LK:.*]] = tensor.dim %arg1, %c1
// CHECK: %[[LV:.*]] = tensor.dim %arg2, %c1
// CHECK: %[[KEYS:.*]] = arith.cmpi eq, %[[LV]], %[[LK]]
// CHECK: cf.assert %[[KEYS]], {{.*}}the extents of value axis 1 and of the keys differ
// CHECK: %[[E:.*]] = tensor.empty(%[[B]], %[[LQ]]) : tensor<?x?x48xf16>
// CHECK: tc_gpu.attention %arg0, %arg1, %arg2 into %[[E]]
func.func @dynamic(%q: tensor<?x?x64xf16>, %k: tensor<?x?x64xf16>,
                   %v: tensor<?x?x48xf16>) -> tensor<?x?x48xf16> {
  %r = tc.attention %q, %k, %v {scale = 0.125 : f32}
      : (tensor<?x?x64xf16>, tensor<?x?x64xf16>, tensor<?x?x48xf16>) -> tensor<?x?x48xf16>
  return %r : tensor<?x?x48xf16>
}

// -----

// Multi-head attention as exporters write it: the heads moved ahead of the
// sequence by transposes, and back after. The op reads Q, K and V where the
// transposes read them and writes its result where the last one would,
// recording for each which stored dim holds each logical one; the
// transposes go.
// CHECK-LABEL: func.func @heads
// CHECK-NOT: tc.transpose
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x128x12x64xf16>
// CHECK: %[[R:.*]] = tc_gpu.attention %arg0, %arg1, %arg2 into %[[E]]
// CHECK-SAME: init_permutation = array<i64: 0, 2, 1, 3>, key_permutation = array<i64: 0, 2, 3, 1>, key_transposed, query_permutation = array<i64: 0, 2, 1, 3>
// CHECK-SAME: value_permutation = array<i64: 0, 2, 1, 3>
// CHECK-SAME: : tensor<1x128x12x64xf16>, tensor<1x128x12x64xf16>, tensor<1x128x12x64xf16>, tensor<1x128x12x64xf16> -> tensor<1x128x12x64xf16>
// CHECK-NOT: tc.transpose
// CHECK: return %[[R]]
func.func @heads(%q: tensor<1x128x12x64xf16>, %k: tensor<1x128x12x64xf16>,
                 %v: tensor<1x128x12x64xf16>) -> tensor<1x128x12x64xf16> {
  %qt = tc.transpose %q {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf16>) -> tensor<1x12x128x64xf16>
  %kt = tc.transpose %k {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x128x12x64xf16>) -> tensor<1x12x64x128xf16>
  %vt = tc.transpose %v {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf16>) -> tensor<1x12x128x64xf16>
  %a = tc.attention %qt, %kt, %vt {scale = 0.125 : f32, key_transposed}
      : (tensor<1x12x128x64xf16>, tensor<1x12x64x128xf16>, tensor<1x12x128x64xf16>) -> tensor<1x12x128x64xf16>
  %o = tc.transpose %a {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x12x128x64xf16>) -> tensor<1x128x12x64xf16>
  return %o : tensor<1x128x12x64xf16>
}

// -----

// Two transposes in a row compose; a result with another reader keeps its
// own layout (and the transpose after it).
// CHECK-LABEL: func.func @composed
// CHECK-NOT: tc.transpose
// CHECK: %[[R:.*]] = tc_gpu.attention %arg0, %arg0, %arg0 into %{{.*}} {key_permutation = array<i64: 1, 0, 2>, query_permutation = array<i64: 1, 0, 2>, scale = 1.000000e+00 : f32, value_permutation = array<i64: 1, 0, 2>} : tensor<7x4x16xf16>, tensor<7x4x16xf16>, tensor<7x4x16xf16>, tensor<4x7x16xf16> -> tensor<4x7x16xf16>
// CHECK: tc.transpose %[[R]]
func.func @composed(%x: tensor<7x4x16xf16>) -> (tensor<4x7x16xf16>, tensor<7x4x16xf16>) {
  %a = tc.transpose %x {permutation = array<i64: 0, 2, 1>} : (tensor<7x4x16xf16>) -> tensor<7x16x4xf16>
  %b = tc.transpose %a {permutation = array<i64: 2, 0, 1>} : (tensor<7x16x4xf16>) -> tensor<4x7x16xf16>
  %k = tc.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<7x4x16xf16>) -> tensor<4x7x16xf16>
  %r = tc.attention %b, %k, %k {scale = 1.0 : f32}
      : (tensor<4x7x16xf16>, tensor<4x7x16xf16>, tensor<4x7x16xf16>) -> tensor<4x7x16xf16>
  %t = tc.transpose %r {permutation = array<i64: 1, 0, 2>} : (tensor<4x7x16xf16>) -> tensor<7x4x16xf16>
  return %r, %t : tensor<4x7x16xf16>, tensor<7x4x16xf16>
}
