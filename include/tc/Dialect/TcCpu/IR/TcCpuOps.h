//===- TcCpuOps.h - kernel dispatches of the CPU target --------*- C++ -*-===//

#ifndef TC_DIALECT_TCCPU_IR_TCCPUOPS_H
#define TC_DIALECT_TCCPU_IR_TCCPUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "tc/Dialect/TcCpu/IR/TcCpuDialect.h"

#define GET_OP_CLASSES
#include "tc/Dialect/TcCpu/IR/TcCpuOps.h.inc"

#endif // TC_DIALECT_TCCPU_IR_TCCPUOPS_H
