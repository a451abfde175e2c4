// ReverseSequence, MaxUnpool and Col2Im are gathers and scatters through
// index maps; MaxPool's Indices output and BatchNormalization in training
// mode are compositions too.
// RUN: %pyonnx %models layout_extras %t.onnx
// RUN: tc-translate --import-onnx %t.onnx | FileCheck %s

// ReverseSequence: index len - 1 - t where t < len, else t, along time.
// CHECK: %[[T:.*]] = tc.constant dense<{{\[\[}}0], [1], [2], [3]]> : tensor<4x1xi64>
// CHECK: %[[LEN:.*]] = tc.reshape %arg1 : (tensor<3xi64>) -> tensor<1x3xi64>
// CHECK: %[[IN:.*]] = tc.compare lt, %[[T]], %[[LEN]] : (tensor<4x1xi64>, tensor<1x3xi64>) -> tensor<4x3xi1>
// CHECK: %[[LAST:.*]] = tc.sub %[[LEN]], %{{.*}} : (tensor<1x3xi64>, tensor<i64>) -> tensor<1x3xi64>
// CHECK: %[[REV:.*]] = tc.sub %[[LAST]], %[[T]] : (tensor<1x3xi64>, tensor<4x1xi64>) -> tensor<4x3xi64>
// CHECK: %[[IDX:.*]] = tc.select %[[IN]], %[[REV]], %[[T]]
// CHECK: %[[R:.*]] = tc.gather_elements %arg0, %[[IDX]] {axis = 0 : i64} : (tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>

// MaxUnpool: scatter into the inferred 4x4 output, then pad to 5x5.
// CHECK: %[[UX:.*]] = tc.reshape %arg2 : (tensor<1x1x2x2xf32>) -> tensor<4xf32>
// CHECK: %[[UI:.*]] = tc.reshape %arg3 : (tensor<1x1x2x2xi64>) -> tensor<4xi64>
// CHECK: %[[Z:.*]] = tc.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK: %[[S:.*]] = tc.scatter_elements %[[Z]], %[[UI]], %[[UX]] {axis = 0 : i64} : (tensor<16xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<16xf32>
// CHECK: %[[S4:.*]] = tc.reshape %[[S]] : (tensor<16xf32>) -> tensor<1x1x4x4xf32>
// CHECK: %[[U:.*]] = tc.pad %[[S4]] {padding = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x5x5xf32>

// Col2Im (block 1x5, pads 1 left and right): each column entry is added at
// its position in the padded 5x7 image, then the padding is sliced off.
// Block 0 covers padded columns 0..4, block 1 columns 1..5.
// CHECK: %[[COLS:.*]] = tc.reshape %arg4 : (tensor<1x5x15xf32>) -> tensor<1x1x75xf32>
// CHECK: %[[MAP:.*]] = tc.constant dense<{{\[\[\[}}0, 1, 2, 7, 8, 9, 14, 15, 16, 21, 22, 23, 28, 29, 30, 1, 2, 3, {{.*}}, 32, 33, 34]]]> : tensor<1x1x75xi64>
// CHECK: %[[ZI:.*]] = tc.constant dense<0.000000e+00> : tensor<1x1x35xf32>
// CHECK: %[[SUM:.*]] = tc.scatter_elements %[[ZI]], %[[MAP]], %[[COLS]] {axis = 2 : i64, reduction = "add"}
// CHECK: %[[PADDED:.*]] = tc.reshape %[[SUM]] : (tensor<1x1x35xf32>) -> tensor<1x1x5x7xf32>
// CHECK: %[[IMG:.*]] = tc.slice %[[PADDED]] {ends = array<i64: 1, 1, 5, 6>, starts = array<i64: 0, 0, 0, 1>, steps = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x7xf32>) -> tensor<1x1x5x5xf32>
// CHECK: return %[[R]], %[[U]], %[[IMG]]

// RUN: %pyonnx %models pool_indices_bn_training %t2.onnx
// RUN: tc-translate --import-onnx %t2.onnx | FileCheck %s --check-prefix=POOL
// MaxPool Indices (storage_order=1, 2x2 window, stride 2, pads 1 at the
// top and left): the first tap inside the input equal to the maximum,
// visited last to first; column-major spatial indices.
// POOL: %[[Y:.*]] = tc.max_pool %arg0
// POOL: %[[XP:.*]] = tc.pad %arg0 {padding = array<i64: 0, 0, 1, 1, 0, 0, 0, 0>}
// The fallback: the first tap inside each window.
// POOL: %[[FIRST:.*]] = tc.constant dense<{{\[\[\[\[}}0, 3], [1, 4]]]]> : tensor<1x1x2x2xi64>
// POOL: %[[I0:.*]] = tc.broadcast %[[FIRST]]
// Tap (1, 1) lies inside every window.
// POOL: %[[T3:.*]] = tc.slice %[[XP]] {ends = array<i64: 1, 2, 4, 4>, starts = array<i64: 0, 0, 1, 1>, steps = array<i64: 1, 1, 2, 2>}
// POOL: %[[H3:.*]] = tc.compare eq, %[[T3]], %[[Y]]
// POOL: %[[I1:.*]] = tc.select %[[H3]], %{{.*}}, %[[I0]]
// Tap (1, 0) lies inside the right column of windows only.
// POOL: tc.compare eq
// POOL: %[[M2:.*]] = tc.constant dense<{{\[\[\[\[}}false, true], [false, true]]]]> : tensor<1x1x2x2xi1>
// POOL: tc.and %{{.*}}, %[[M2]]
// POOL: tc.select %{{.*}}, %{{.*}}, %[[I1]]
// Plus (n * C + c) * H * W.
// POOL: %[[BASE:.*]] = tc.constant dense<{{\[\[\[\[}}0]], {{\[\[}}9]]]]> : tensor<1x2x1x1xi64>
// POOL: %[[IDX:.*]] = tc.add %{{.*}}, %[[BASE]] : (tensor<1x2x2x2xi64>, tensor<1x2x1x1xi64>) -> tensor<1x2x2x2xi64>
// BatchNormalization training: batch statistics over N, H, W; the running
// statistics blend by momentum (0.8).
// POOL: %[[MEAN:.*]] = tc.reduce_mean %arg0 {axes = array<i64: 0, 2, 3>, keepdims}
// POOL: %[[C:.*]] = tc.sub %arg0, %[[MEAN]]
// POOL: %[[BN:.*]] = tc.add %{{.*}}, %{{.*}} : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
// POOL: %[[VAR:.*]] = tc.reduce_mean %{{.*}} {axes = array<i64: 0, 2, 3>} : (tensor<1x2x3x3xf32>) -> tensor<2xf32>
// POOL: %[[MEAN1:.*]] = tc.reshape %[[MEAN]] : (tensor<1x2x1x1xf32>) -> tensor<2xf32>
// POOL: %[[MOM:.*]] = tc.constant dense<8.000000e-01> : tensor<f32>
// POOL: %[[OLD:.*]] = tc.mul %arg3, %[[MOM]]
// POOL: %[[REST:.*]] = tc.constant dense<0.199999988> : tensor<f32>
// POOL: %[[NEW:.*]] = tc.mul %[[MEAN1]], %[[REST]]
// POOL: %[[RM:.*]] = tc.add %[[OLD]], %[[NEW]]
// POOL: %[[RVOLD:.*]] = tc.mul %arg4, %{{.*}}
// POOL: %[[RVNEW:.*]] = tc.mul %[[VAR]], %{{.*}}
// POOL: %[[RV:.*]] = tc.add %[[RVOLD]], %[[RVNEW]]
// POOL: return %[[Y]], %[[IDX]], %[[BN]], %[[RM]], %[[RV]]
