//===- TcGpuDialect.h - the tc_gpu dialect ---------------------*- C++ -*-===//

#ifndef TC_DIALECT_TCGPU_IR_TCGPUDIALECT_H
#define TC_DIALECT_TCGPU_IR_TCGPUDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tc/Dialect/TcGpu/IR/TcGpuDialect.h.inc"

#endif // TC_DIALECT_TCGPU_IR_TCGPUDIALECT_H
