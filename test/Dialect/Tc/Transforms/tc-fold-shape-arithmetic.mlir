// RUN: tc-opt %s -tc-fold-shape-arithmetic -split-input-file | FileCheck %s

// The head split of a dynamic-batch export: the static elements of the
// computed shape (12 heads of 64) become static sizes; the batch stays
// dynamic, tied to the input's.
// CHECK-LABEL: func @head_split
// CHECK: %[[R:.*]] = tc.reshape %arg0, %{{.*}} : (tensor<?x32x768xf32>, tensor<4xi64>) -> tensor<?x32x12x64xf32>
// CHECK: tc.transpose %[[R]] {{.*}} -> tensor<?x12x32x64xf32>
func.func @head_split(%x: tensor<?x32x768xf32>) -> tensor<?x?x?x?xf32> {
  %shape = tc.shape_of %x : (tensor<?x32x768xf32>) -> tensor<3xi64>
  %c0 = tc.constant dense<0> : tensor<i64>
  %c1 = tc.constant dense<1> : tensor<i64>
  %c2 = tc.constant dense<2> : tensor<i64>
  %heads = tc.constant dense<12> : tensor<1xi64>
  %b = tc.gather %shape, %c0 {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %s = tc.gather %shape, %c1 {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %e = tc.gather %shape, %c2 {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %twelve = tc.constant dense<12> : tensor<i64>
  %d = tc.div %e, %twelve : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %b1 = tc.reshape %b : (tensor<i64>) -> tensor<1xi64>
  %s1 = tc.reshape %s : (tensor<i64>) -> tensor<1xi64>
  %d1 = tc.reshape %d : (tensor<i64>) -> tensor<1xi64>
  %target = tc.concat %b1, %s1, %heads, %d1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %r = tc.reshape %x, %target : (tensor<?x32x768xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %t = tc.transpose %r {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %t : tensor<?x?x?x?xf32>
}

// -----

// Reshape's -1, as the importer resolves it: the input's element count
// divided by the product of the other sizes. With a dynamic batch and
// sequence both are products of the same two extents (traced through the
// elementwise op to the argument), which cancel: the -1 is 16.
// CHECK-LABEL: func @inferred_size
// CHECK: tc.reshape %{{.*}}, %{{.*}} : (tensor<?x?x64xf32>, tensor<4xi64>) -> tensor<?x?x4x16xf32>
func.func @inferred_size(%x: tensor<?x?x64xf32>) -> tensor<?x?x?x?xf32> {
  %y = tc.exp %x : tensor<?x?x64xf32>
  %sx = tc.shape_of %x : (tensor<?x?x64xf32>) -> tensor<3xi64>
  %sy = tc.shape_of %y : (tensor<?x?x64xf32>) -> tensor<3xi64>
  %head = tc.slice %sx {ends = array<i64: 2>, starts = array<i64: 0>, steps = array<i64: 1>} : (tensor<3xi64>) -> tensor<2xi64>
  %four = tc.constant dense<4> : tensor<1xi64>
  %minus = tc.constant dense<-1> : tensor<1xi64>
  %asked = tc.concat %head, %four, %minus {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %m1 = tc.constant dense<-1> : tensor<i64>
  %one = tc.constant dense<1> : tensor<i64>
  %isInfer = tc.compare eq, %asked, %m1 : (tensor<4xi64>, tensor<i64>) -> tensor<4xi1>
  %known = tc.select %isInfer, %one, %asked : (tensor<4xi1>, tensor<i64>, tensor<4xi64>) -> tensor<4xi64>
  %total = tc.reduce_prod %sy {axes = array<i64: 0>} : (tensor<3xi64>) -> tensor<i64>
  %part = tc.reduce_prod %known {axes = array<i64: 0>} : (tensor<4xi64>) -> tensor<i64>
  %rest = tc.div %total, %part : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %sizes = tc.select %isInfer, %rest, %asked : (tensor<4xi1>, tensor<i64>, tensor<4xi64>) -> tensor<4xi64>
  %r = tc.reshape %y, %sizes : (tensor<?x?x64xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// -----

// Arguments with one dim_param share one extent: their product cancels too.
// CHECK-LABEL: func @named_dims
// CHECK: tc.reshape %arg1, %{{.*}} : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x8xf32>
func.func @named_dims(%a: tensor<?x8xf32> {tc.dim_params = ["batch", ""]},
                      %b: tensor<?x8xf32> {tc.dim_params = ["batch", ""]}) -> tensor<?x?xf32> {
  %sa = tc.shape_of %a : (tensor<?x8xf32>) -> tensor<2xi64>
  %sb = tc.shape_of %b : (tensor<?x8xf32>) -> tensor<2xi64>
  %ta = tc.reduce_prod %sa {axes = array<i64: 0>} : (tensor<2xi64>) -> tensor<i64>
  %c0 = tc.constant dense<0> : tensor<i64>
  %n = tc.gather %sb, %c0 {axis = 0 : i64} : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %w = tc.div %ta, %n : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %n1 = tc.reshape %n : (tensor<i64>) -> tensor<1xi64>
  %w1 = tc.reshape %w : (tensor<i64>) -> tensor<1xi64>
  %sizes = tc.concat %n1, %w1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = tc.reshape %b, %sizes : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Expand to [batch, 1, 1, 32]: the ones keep the input's sizes, 32 is
// static; a fully known shape turns into a constant.
// CHECK-LABEL: func @expand_mask
// CHECK: tc.broadcast %{{.*}}, %{{.*}} : (tensor<?x1x1x32xi1>, tensor<4xi64>) -> tensor<?x1x1x32xi1>
func.func @expand_mask(%m: tensor<?x1x1x32xi1>) -> tensor<?x?x?x?xi1> {
  %s = tc.shape_of %m : (tensor<?x1x1x32xi1>) -> tensor<4xi64>
  %r = tc.broadcast %m, %s : (tensor<?x1x1x32xi1>, tensor<4xi64>) -> tensor<?x?x?x?xi1>
  return %r : tensor<?x?x?x?xi1>
}

// -----

// Slice bounds computed from static sizes (a packed QKV projection split
// by embed_dim / 3): the dynamic_slice becomes a static tc.slice.
// CHECK-LABEL: func @packed_qkv
// CHECK-NOT: tc.dynamic_slice
// CHECK: tc.slice %arg0 {ends = array<i64: 9223372036854775807, 256>, starts = array<i64: 0, 128>, steps = array<i64: 1, 1>} : (tensor<?x384xf32>) -> tensor<?x128xf32>
func.func @packed_qkv(%x: tensor<?x384xf32>) -> tensor<?x?xf32> {
  %s = tc.shape_of %x : (tensor<?x384xf32>) -> tensor<2xi64>
  %c1 = tc.constant dense<[1]> : tensor<1xi64>
  %e = tc.gather %s, %c1 {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %three = tc.constant dense<3> : tensor<1xi64>
  %two = tc.constant dense<2> : tensor<1xi64>
  %d = tc.div %e, %three : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %end = tc.mul %d, %two : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = tc.dynamic_slice %x, %d, %end {axes = array<i64: 1>, steps = array<i64: 1>} : (tensor<?x384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// What only the run time knows stays dynamic: a reshape to [n, n] of an
// input's dynamic extent n, and a size read from the data.
// CHECK-LABEL: func @stays_dynamic
// CHECK: tc.reshape %arg0, %{{.*}} : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
func.func @stays_dynamic(%x: tensor<?xf32>, %k: tensor<1xi64>) -> tensor<?x?xf32> {
  %s = tc.shape_of %x : (tensor<?xf32>) -> tensor<1xi64>
  %sizes = tc.concat %s, %k {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = tc.reshape %x, %sizes : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
