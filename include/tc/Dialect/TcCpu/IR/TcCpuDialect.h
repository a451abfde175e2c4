//===- TcCpuDialect.h - the tc_cpu dialect ---------------------*- C++ -*-===//

#ifndef TC_DIALECT_TCCPU_IR_TCCPUDIALECT_H
#define TC_DIALECT_TCCPU_IR_TCCPUDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tc/Dialect/TcCpu/IR/TcCpuDialect.h.inc"

#endif // TC_DIALECT_TCCPU_IR_TCCPUDIALECT_H
