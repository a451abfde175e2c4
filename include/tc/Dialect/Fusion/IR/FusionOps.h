//===- FusionOps.h - fusion.group and fusion.yield ------------------------===//

#ifndef TC_DIALECT_FUSION_IR_FUSIONOPS_H
#define TC_DIALECT_FUSION_IR_FUSIONOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tc/Dialect/Fusion/IR/FusionDialect.h"

#include "tc/Dialect/Fusion/IR/FusionEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tc/Dialect/Fusion/IR/FusionAttrs.h.inc"

#define GET_OP_CLASSES
#include "tc/Dialect/Fusion/IR/FusionOps.h.inc"

#endif // TC_DIALECT_FUSION_IR_FUSIONOPS_H
