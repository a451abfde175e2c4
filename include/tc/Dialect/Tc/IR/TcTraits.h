//===- TcTraits.h - C++ op traits of the tc dialect -----------------------===//

#ifndef TC_DIALECT_TC_IR_TCTRAITS_H
#define TC_DIALECT_TC_IR_TCTRAITS_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tc::OpTrait {

/// Verifies an op by running its result-type inference, which checks the
/// operands and attributes and reports the first problem with its own
/// message, then checks the declared result types against the inferred ones. Listed before InferTypeOpInterface's trait, it stops verification
/// before that trait adds a generic "failed to infer returned types".
template <typename ConcreteType>
class VerifyByInference
    : public mlir::OpTrait::TraitBase<ConcreteType, VerifyByInference> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    llvm::SmallVector<Type, 1> inferred;
    if (failed(ConcreteType::inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), inferred)))
      return failure();
    if (!ConcreteType::isCompatibleReturnTypes(inferred, op->getResultTypes()))
      return op->emitOpError("result type ")
             << op->getResultTypes() << " does not match the type inferred "
             << "from the operands, " << inferred;
    return success();
  }
};

} // namespace mlir::tc::OpTrait

#endif // TC_DIALECT_TC_IR_TCTRAITS_H
