//===- FusionDialect.h - the fusion dialect -------------------------------===//

#ifndef TC_DIALECT_FUSION_IR_FUSIONDIALECT_H
#define TC_DIALECT_FUSION_IR_FUSIONDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tc/Dialect/Fusion/IR/FusionDialect.h.inc"

#endif // TC_DIALECT_FUSION_IR_FUSIONDIALECT_H
