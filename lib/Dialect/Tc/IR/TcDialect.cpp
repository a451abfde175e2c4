//===- TcDialect.cpp - tc dialect registration and constant materializer --===//

#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;

#include "tc/Dialect/Tc/IR/TcDialect.cpp.inc"

void TcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tc/Dialect/Tc/IR/TcOps.cpp.inc"
      >();
}

Operation *TcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
