// RUN: tc-opt %s --tc-cpu-move-bf16-as-integers | FileCheck %s

// A bf16 vector copied unchanged (LLVM 22's x86 back end aborts on a
// <9 x bfloat> load and store with AVX512-BF16): the same bits move as i16,
// with the load's alignment; the widening still reads bf16.
// CHECK-LABEL: llvm.func @copy_row
// CHECK: %[[BITS:.*]] = llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> vector<9xi16>
// CHECK: %[[ROW:.*]] = llvm.bitcast %[[BITS]] : vector<9xi16> to vector<9xbf16>
// CHECK: %[[OUT:.*]] = llvm.bitcast %[[ROW]] : vector<9xbf16> to vector<9xi16>
// CHECK: llvm.store %[[OUT]], %{{.*}} {alignment = 2 : i64} : vector<9xi16>, !llvm.ptr
// CHECK: llvm.fpext %[[ROW]] : vector<9xbf16> to vector<9xf32>
// Scalars and other types are left alone.
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<8xf16>
llvm.func @copy_row(%p: !llvm.ptr, %q: !llvm.ptr) -> vector<9xf32> {
  %row = llvm.load %p {alignment = 2 : i64} : !llvm.ptr -> vector<9xbf16>
  llvm.store %row, %q {alignment = 2 : i64} : vector<9xbf16>, !llvm.ptr
  %wide = llvm.fpext %row : vector<9xbf16> to vector<9xf32>
  %s = llvm.load %p : !llvm.ptr -> bf16
  %h = llvm.load %p : !llvm.ptr -> vector<8xf16>
  llvm.return %wide : vector<9xf32>
}
