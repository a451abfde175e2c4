// RUN: tc-opt %s --tc-cpu-outline-workgroups --split-input-file | FileCheck %s
// RUN: tc-opt %s --tc-cpu-outline-workgroups --split-input-file | FileCheck %s --check-prefix=SERIAL

// The forall body becomes @main_wg0(captures..., %workgroup); constants are
// recreated there; @main gets the environment and calls the dispatch
// placeholder with the workgroup count. The placeholder names the workgroup
// function and the ONNX nodes (from the importer's locations) of the kernel.
// CHECK: func.func private @main_wg0(%{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>, %[[WG:.*]]: index)
// CHECK: arith.constant 16 : index
// CHECK: arith.muli %[[WG]]
// CHECK: memref.subview
// CHECK: return
// CHECK: func.func private @__tc_dispatch_k0(!llvm.ptr, index, memref<64xf32>, memref<64xf32>)
// CHECK-SAME: tc.kernel_nodes = "copy_1\0Acopy_2", tc.kernel_ops = "Identity", tc.workgroup = "main_wg0"
// CHECK: func.func @main(%[[ENV:.*]]: !llvm.ptr, %[[IN:.*]]: memref<64xf32>)
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<64xf32>
// CHECK: call @__tc_dispatch_k0(%[[ENV]], %{{.*}}, %[[IN]], %[[OUT]])
// CHECK-NOT: scf.forall
func.func @main(%in: memref<64xf32>) -> memref<64xf32> {
  %out = memref.alloc() : memref<64xf32>
  %c16 = arith.constant 16 : index
  scf.forall (%i) in (4) {
    %off = arith.muli %i, %c16 : index
    %a = memref.subview %in[%off] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    %b = memref.subview %out[%off] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %a, %b : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, strided<[1], offset: ?>> loc(fused["copy_1"("Identity"), "copy_2"("Identity")])
  }
  return %out : memref<64xf32>
}

// -----

// A linalg op outside any forall (a kernel --tc-cpu-distribute left serial,
// too small to split) is a kernel of one workgroup: its own function,
// dispatched with a count of 1, so that @main keeps only the calls. Its
// nodes come from the op's own location.
// SERIAL: func.func private @main_wg0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: index)
// SERIAL-NEXT: linalg.generic
// SERIAL: arith.negf
// SERIAL: func.func private @__tc_dispatch_k0(!llvm.ptr, index, memref<8xf32>, memref<8xf32>)
// SERIAL-SAME: tc.kernel_nodes = "neg_1", tc.kernel_ops = "Neg", tc.workgroup = "main_wg0"
// SERIAL: func.func @main(%[[ENV:.*]]: !llvm.ptr, %[[IN:.*]]: memref<8xf32>)
// SERIAL: %[[ONE:.*]] = arith.constant 1 : index
// SERIAL: call @__tc_dispatch_k0(%[[ENV]], %[[ONE]], %[[IN]], %{{.*}})
// SERIAL-NOT: linalg.generic
#id = affine_map<(i) -> (i)>
func.func @main(%in: memref<8xf32>) -> memref<8xf32> {
  %out = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%in : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  } loc("neg_1"("Neg"))
  return %out : memref<8xf32>
}
