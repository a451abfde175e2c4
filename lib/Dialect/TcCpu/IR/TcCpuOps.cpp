//===- TcCpuOps.cpp - the tc_cpu dialect: registration and verifiers ------===//

#include "tc/Dialect/TcCpu/IR/TcCpuOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tc_cpu;

#include "tc/Dialect/TcCpu/IR/TcCpuDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tc/Dialect/TcCpu/IR/TcCpuOps.cpp.inc"

void TcCpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tc/Dialect/TcCpu/IR/TcCpuOps.cpp.inc"
      >();
}

/// The arguments the LLVM calling convention passes for a value of `type`:
/// a ranked memref's descriptor fields (two pointers, the offset, sizes and
/// strides), an unranked one's rank and pointer, else the value itself.
static int64_t loweredArgumentCount(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return 3 + 2 * memref.getRank();
  if (isa<UnrankedMemRefType>(type))
    return 2;
  return 1;
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  Operation *fn = symbols.lookupNearestSymbolFrom(*this, getWorkgroupAttr());
  // Before the LLVM lowering the workgroup function takes the captures and
  // the workgroup's number (an index); after it, the captures' lowered
  // arguments and an i64. Between the function's lowering and the
  // dispatch's, the dispatch still holds memrefs: their fields count.
  if (auto func = dyn_cast_or_null<func::FuncOp>(fn)) {
    SmallVector<Type> expected(getCaptures().getTypes());
    expected.push_back(IndexType::get(getContext()));
    if (func.getFunctionType().getInputs() != ArrayRef<Type>(expected) ||
        func.getNumResults() != 0)
      return emitOpError("expects workgroup function ")
             << getWorkgroupAttr()
             << " to take the captures' types and an index, and return "
                "nothing";
    return success();
  }
  if (auto llvmFunc = dyn_cast_or_null<LLVM::LLVMFuncOp>(fn)) {
    int64_t expected = 1;
    for (Type type : getCaptures().getTypes())
      expected += loweredArgumentCount(type);
    if (llvmFunc.getNumArguments() != expected)
      return emitOpError("expects workgroup function ")
             << getWorkgroupAttr() << " to take " << expected
             << " arguments (the captures' and the workgroup's number), not "
             << llvmFunc.getNumArguments();
    return success();
  }
  return emitOpError("expects ")
         << getWorkgroupAttr() << " to name a workgroup function";
}
