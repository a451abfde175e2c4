//===- TcGpuOps.h - block and subgroup matrix products ---------*- C++ -*-===//

#ifndef TC_DIALECT_TCGPU_IR_TCGPUOPS_H
#define TC_DIALECT_TCGPU_IR_TCGPUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tc/Dialect/TcGpu/IR/TcGpuDialect.h"

#define GET_OP_CLASSES
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h.inc"

#endif // TC_DIALECT_TCGPU_IR_TCGPUOPS_H
