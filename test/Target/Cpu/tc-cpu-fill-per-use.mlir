// RUN: tc-opt %s --pass-pipeline="builtin.module(func.func(tc-cpu-fill-per-use))" | FileCheck %s

// One zero fill, split into workgroups, is the init of two workgroup loops
// that accumulate into it (CSE merged their fills): the second gets a clone
// of the fill loop and its tensor.empty, made just before it, so that
// bufferization fills each buffer in place instead of copying the shared
// zeros into the second. The first keeps the original.
// CHECK-LABEL: func.func @shared_zeros
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[Z:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[E]])
// CHECK: linalg.fill
// CHECK: %[[A:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[Z]])
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[Z2:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[E2]])
// CHECK: linalg.fill
// CHECK: %[[B:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[Z2]])
// CHECK: return %[[A]], %[[B]]
func.func @shared_zeros(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %z = scf.forall (%i) in (4) shared_outs(%o = %e) -> (tensor<4x8xf32>) {
    %s = tensor.extract_slice %o[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%s : tensor<1x8xf32>) -> tensor<1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<4x8xf32>
    }
  }
  %a = scf.forall (%i) in (4) shared_outs(%o = %z) -> (tensor<4x8xf32>) {
    %s = tensor.extract_slice %o[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
    %v = tensor.extract_slice %x[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
    %r = linalg.add ins(%v, %s : tensor<1x8xf32>, tensor<1x8xf32>) outs(%s : tensor<1x8xf32>) -> tensor<1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %o[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<4x8xf32>
    }
  }
  %b = scf.forall (%i) in (4) shared_outs(%o = %z) -> (tensor<4x8xf32>) {
    %s = tensor.extract_slice %o[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
    %v = tensor.extract_slice %x[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
    %r = linalg.mul ins(%v, %s : tensor<1x8xf32>, tensor<1x8xf32>) outs(%s : tensor<1x8xf32>) -> tensor<1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %o[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<4x8xf32>
    }
  }
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
