//===- TcOps.h - tc op classes --------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCOPS_H
#define TC_DIALECT_TC_IR_TCOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tc/Dialect/Tc/IR/ShapeUtils.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/Tc/IR/TcTraits.h"

#include "tc/Dialect/Tc/IR/TcEnums.h.inc"

#define GET_OP_CLASSES
#include "tc/Dialect/Tc/IR/TcOps.h.inc"

#endif // TC_DIALECT_TC_IR_TCOPS_H
