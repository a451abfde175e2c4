//===- PatternUtils.cpp - helpers of the composite-pattern fusion passes --===//

#include "PatternUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/ADT/SetVector.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tc;

std::optional<double> fuse::getScalarConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  ElementsAttr attr = constant.getValue();
  if (attr.getNumElements() < 1 ||
      (attr.getNumElements() != 1 && !attr.isSplat()))
    return std::nullopt;
  Type element = attr.getElementType();
  if (isa<FloatType>(element)) {
    if (auto it = attr.try_value_begin<APFloat>())
      return (**it).convertToDouble();
    return std::nullopt;
  }
  if (auto integer = dyn_cast<IntegerType>(element)) {
    auto it = attr.try_value_begin<APInt>();
    if (!it)
      return std::nullopt;
    APInt v = **it;
    return integer.isUnsigned() ? static_cast<double>(v.getZExtValue())
                                : static_cast<double>(v.getSExtValue());
  }
  return std::nullopt;
}

bool fuse::isNear(double actual, double expected) {
  return std::fabs(actual - expected) <= 1e-4 * std::fabs(expected);
}

bool fuse::isConstantNear(Value value, double expected) {
  std::optional<double> actual = getScalarConstant(value);
  if (!actual)
    return false;
  // An f16 or bf16 constant cannot be closer than its own precision.
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(value.getType()));
  if (type && type.getFPMantissaWidth() < 20) {
    double epsilon = std::ldexp(1.0, 1 - type.getFPMantissaWidth());
    return std::fabs(*actual - expected) <= epsilon * std::fabs(expected);
  }
  return isNear(*actual, expected);
}

Value fuse::otherThanConstant(Operation *op, double expected,
                              bool commutative) {
  if (op->getNumOperands() != 2)
    return nullptr;
  if (isConstantNear(op->getOperand(1), expected))
    return op->getOperand(0);
  if (commutative && isConstantNear(op->getOperand(0), expected))
    return op->getOperand(1);
  return nullptr;
}

bool fuse::onlyUsedBy(Value value, Operation *user) {
  return !value.use_empty() &&
         llvm::all_of(value.getUsers(),
                      [&](Operation *u) { return u == user; });
}

void fuse::eraseDeadOps(RewriterBase &rewriter, ArrayRef<Operation *> ops) {
  llvm::SetVector<Operation *> pending(ops.begin(), ops.end());
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : pending.takeVector()) {
      if (op->use_empty()) {
        rewriter.eraseOp(op);
        changed = true;
      } else {
        pending.insert(op);
      }
    }
  }
}
