//===- TcOps.cpp - the ODS-generated op definitions of the tc dialect -----===//
//
// Hand-written verifiers, type inference and folders live in one file per op
// family (ElementwiseOps.cpp, ShapeOps.cpp, ...).
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tc;

#include "tc/Dialect/Tc/IR/TcEnums.cpp.inc"

#define GET_OP_CLASSES
#include "tc/Dialect/Tc/IR/TcOps.cpp.inc"
