// RUN: tc-opt %s --tc-cpu-outline-workgroups --split-input-file | FileCheck %s
// RUN: tc-opt %s --tc-cpu-outline-workgroups --split-input-file | FileCheck %s --check-prefix=SERIAL
// RUN: tc-opt %s --tc-cpu-outline-workgroups --split-input-file | FileCheck %s --check-prefix=TWO

// The forall body becomes @main_wg0(captures..., %workgroup); constants are
// recreated there; @main gets the environment and dispatches the function
// over the workgroup count, with the kernel's name and its ONNX op types and
// nodes (from the importer's locations).
// CHECK: func.func private @main_wg0(%{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>, %[[WG:.*]]: index)
// CHECK: arith.constant 16 : index
// CHECK: arith.muli %[[WG]]
// CHECK: memref.subview
// CHECK: return
// CHECK: func.func @main(%[[ENV:.*]]: !llvm.ptr, %[[IN:.*]]: memref<64xf32>)
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<64xf32>
// CHECK: %[[COUNT:.*]] = arith.ceildivsi
// CHECK: tc_cpu.dispatch @main_wg0[%[[COUNT]] : index] %[[ENV]] captures(%[[IN]], %[[OUT]] : memref<64xf32>, memref<64xf32>)
// CHECK-SAME: {kernel = "k0", nodes = "copy_1\0Acopy_2", ops = "Identity"}
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
// dispatched with a count of 1, so that @main keeps only the dispatches. Its
// nodes come from the op's own location.
// SERIAL: func.func private @main_wg0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: index)
// SERIAL-NEXT: linalg.generic
// SERIAL: arith.negf
// SERIAL: func.func @main(%[[ENV:.*]]: !llvm.ptr, %[[IN:.*]]: memref<8xf32>)
// SERIAL: %[[ONE:.*]] = arith.constant 1 : index
// SERIAL: tc_cpu.dispatch @main_wg0[%[[ONE]] : index] %[[ENV]] captures(%[[IN]], %{{.*}} : memref<8xf32>, memref<8xf32>)
// SERIAL-SAME: {kernel = "k0", nodes = "neg_1", ops = "Neg"}
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

// -----

// A forall over two loops (a kernel split by rows and lanes) is one
// dispatch over the product of their trip counts; the workgroup number,
// row-major, gives each loop its position.
// TWO: func.func private @main_wg0(%{{.*}}: memref<8x96xf32>, %{{.*}}: memref<8x96xf32>, %[[WG:.*]]: index)
// TWO: %[[LANES:.*]] = arith.ceildivsi
// TWO: %[[J:.*]] = arith.remui %[[WG]], %[[LANES]]
// TWO: %[[I:.*]] = arith.divui %[[WG]], %[[LANES]]
// TWO: arith.muli %[[J]], %{{.*}}
// TWO: arith.muli %[[I]], %{{.*}}
// TWO: memref.subview %{{.*}}[%[[ROW:.*]], %[[COL:.*]]] [4, 32]
// TWO: func.func @main
// TWO: %[[ROWS:.*]] = arith.ceildivsi
// TWO: %[[LANES:.*]] = arith.ceildivsi
// TWO: %[[COUNT:.*]] = arith.muli %[[ROWS]], %[[LANES]]
// TWO: tc_cpu.dispatch @main_wg0[%[[COUNT]] : index]
func.func @main(%in: memref<8x96xf32>) -> memref<8x96xf32> {
  %out = memref.alloc() : memref<8x96xf32>
  scf.forall (%i, %j) = (0, 0) to (8, 96) step (4, 32) {
    %a = memref.subview %in[%i, %j] [4, 32] [1, 1] : memref<8x96xf32> to memref<4x32xf32, strided<[96, 1], offset: ?>>
    %b = memref.subview %out[%i, %j] [4, 32] [1, 1] : memref<8x96xf32> to memref<4x32xf32, strided<[96, 1], offset: ?>>
    memref.copy %a, %b : memref<4x32xf32, strided<[96, 1], offset: ?>> to memref<4x32xf32, strided<[96, 1], offset: ?>>
  }
  return %out : memref<8x96xf32>
}
