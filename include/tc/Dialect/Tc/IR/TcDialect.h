//===- TcDialect.h - the tc dialect ---------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCDIALECT_H
#define TC_DIALECT_TC_IR_TCDIALECT_H

#include "mlir/IR/Dialect.h"
#include "tc/Dialect/Tc/IR/TcAttributes.h"

#include "tc/Dialect/Tc/IR/TcDialect.h.inc"

#endif // TC_DIALECT_TC_IR_TCDIALECT_H
