//===- FusionDialect.cpp - fusion dialect registration --------------------===//

#include "tc/Dialect/Fusion/IR/FusionDialect.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"

using namespace mlir;
using namespace mlir::fusion;

#include "tc/Dialect/Fusion/IR/FusionDialect.cpp.inc"

void FusionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tc/Dialect/Fusion/IR/FusionOps.cpp.inc"
      >();
}
