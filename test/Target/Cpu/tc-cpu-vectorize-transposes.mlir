// RUN: tc-opt %s --tc-cpu-vectorize-transposes | FileCheck %s

// out[i, j] = x[j, i] + b[i, j] over 32 x 48: tiles of 16 x 16, each 16
// contiguous rows of x read as one vector<16x16xf32>, transposed in
// registers, added to b's tile and written as 16 contiguous rows of out.
// CHECK-LABEL: func.func @transpose_add
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[X:.*]] = vector.transfer_read %{{.*}} : memref<16x16xf32, strided<[32, 1], offset: ?>>, vector<16x16xf32>
// CHECK: %[[T:.*]] = vector.transpose %[[X]], [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK: %[[B:.*]] = vector.transfer_read {{.*}} vector<16x16xf32>
// CHECK: %[[S:.*]] = arith.addf %[[T]], %[[B]] : vector<16x16xf32>
// CHECK: vector.transfer_write %[[S]]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @transpose_add(%x: memref<48x32xf32>, %b: memref<32x48xf32>, %out: memref<32x48xf32>) {
  linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<48x32xf32>, memref<32x48xf32>) outs(%out : memref<32x48xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// 20 x 10 (a copy between layouts, as Winograd's pack): the 20 lanes split
// into 16 and a partial 4, the 10 rows one partial tile.
// CHECK-LABEL: func.func @tails
// CHECK-DAG: vector.transpose %{{.*}}, [1, 0] : vector<10x16xf32> to vector<16x10xf32>
// CHECK-DAG: vector.transpose %{{.*}}, [1, 0] : vector<10x4xf32> to vector<4x10xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @tails(%x: memref<10x20xf32>, %out: memref<20x10xf32>) {
  linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<10x20xf32>) outs(%out : memref<20x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// An activation on the way (the SiLU joined to a blocked convolution's
// unpack) runs before the transpose, on the rows as read: whole vector
// registers, where the output's rows may be short (14 of a 14-wide image).
// CHECK-LABEL: func.func @activation_before_transpose
// CHECK: %[[X:.*]] = vector.transfer_read {{.*}} vector<14x16xf32>
// CHECK: %[[E:.*]] = math.exp %[[X]] : vector<14x16xf32>
// CHECK: vector.transpose %[[E]], [1, 0] : vector<14x16xf32> to vector<16x14xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @activation_before_transpose(%x: memref<14x16xf32>, %out: memref<16x14xf32>) {
  linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<14x16xf32>) outs(%out : memref<16x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}
