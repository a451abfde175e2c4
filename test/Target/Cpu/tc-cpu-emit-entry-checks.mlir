// RUN: tc-opt %s --tc-cpu-emit-entry | FileCheck %s

// With run-time checks (tc.check_messages, from --tc-cpu-lower-checks),
// @main's last result is the failed check's index + 1. The run function
// returns 0 when it is 0; otherwise it frees each distinct output
// allocation (two outputs may share one), clears the slots and returns
// TC_RUN_CHECK_FAILED (256) + index. The messages become the table the
// runtime reads.
// CHECK-NOT: tc.check_messages
// CHECK-LABEL: llvm.func @tc_module_run_v1
// CHECK: %[[RESULT:.*]] = llvm.call @main
// CHECK: %[[CODE:.*]] = llvm.extractvalue %[[RESULT]][2]
// CHECK: %[[OK:.*]] = llvm.icmp "eq" %[[CODE]]
// CHECK: llvm.cond_br %[[OK]], ^[[SUCCESS:bb[0-9]+]], ^[[FAILURE:bb[0-9]+]]
// CHECK: ^[[FAILURE]]:
// CHECK: %[[A0:.*]] = llvm.load
// CHECK: llvm.call @free(%[[A0]])
// CHECK: %[[A1:.*]] = llvm.load
// CHECK: %[[SAME:.*]] = llvm.icmp "eq" %[[A1]], %[[A0]]
// CHECK: %[[DISTINCT:.*]] = llvm.select %[[SAME]], %{{.*}}, %[[A1]]
// CHECK: llvm.call @free(%[[DISTINCT]])
// CHECK: %[[BASE:.*]] = llvm.mlir.constant(255 : i32)
// CHECK: %[[FAILED:.*]] = llvm.add %[[CODE]], %[[BASE]]
// CHECK: llvm.return %[[FAILED]]
// CHECK: ^[[SUCCESS]]:
// CHECK-NEXT: llvm.return
// CHECK: llvm.mlir.global external constant @tc_module_check_messages_v1("node 'n' (Add): too long\00node 'm' (Mul): too short\00\00")
module attributes {tc.signature = #tc.signature<name = "m",
                     inputs = [#tc.slot<"x" : tensor<?xf32>, symbols = ["n"]>],
                     outputs = [#tc.slot<"y" : tensor<?xf32>, symbols = ["n"]>,
                                #tc.slot<"z" : tensor<?xf32>, symbols = ["n"]>],
                     targets = ["cpu"]>,
                   tc.check_messages = ["node 'n' (Add): too long", "node 'm' (Mul): too short"]} {
  llvm.func @main(%env: !llvm.ptr, %a: !llvm.ptr, %b: !llvm.ptr, %o: i64, %s: i64, %t: i64) -> !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, i32)> {
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %1 = llvm.insertvalue %a, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %2 = llvm.insertvalue %b, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %3 = llvm.mlir.poison : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, i32)>
    %4 = llvm.insertvalue %2, %3[0] : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, i32)>
    %5 = llvm.insertvalue %2, %4[1] : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, i32)>
    %6 = llvm.insertvalue %c1, %5[2] : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, i32)>
    llvm.return %6 : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, i32)>
  }
}
