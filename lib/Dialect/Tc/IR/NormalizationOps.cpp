//===- NormalizationOps.cpp - softmax, layer_norm, batch_norm -------------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

// Result types come from ODS: SameOperandsAndResultType (softmax) and
// AllTypesMatch<input, result> (norms) generate the inference.

namespace {
LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (!isValidAxis(axis, rank))
    return op->emitOpError("axis ")
           << axis << " is out of range for an input of rank " << rank;
  return success();
}
} // namespace

LogicalResult SoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), getType().getRank());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), getType().getRank());
}

LogicalResult LayerNormOp::verify() {
  RankedTensorType input = getInput().getType();
  if (failed(verifyAxis(*this, getAxis(), input.getRank())))
    return failure();
  ArrayRef<int64_t> normalized = input.getShape().drop_front(getAxis());
  auto checkParam = [&](Value param, StringRef what) -> LogicalResult {
    ArrayRef<int64_t> shape = getRankedType(param).getShape();
    bool ok = shape.size() == normalized.size() &&
              llvm::all_of(llvm::zip(shape, normalized), [](auto pair) {
                return areCompatibleSizes(std::get<0>(pair), std::get<1>(pair));
              });
    if (!ok)
      return emitOpError() << "expects " << what << " of shape ["
                           << formatShape(normalized)
                           << "] (the input's dimensions from axis "
                           << getAxis() << "), got [" << formatShape(shape)
                           << "]";
    return success();
  };
  if (failed(checkParam(getScale(), "scale")))
    return failure();
  if (Value bias = getBias()) {
    if (getRankedType(bias).getElementType() != input.getElementType())
      return emitOpError() << "bias element type "
                           << getRankedType(bias).getElementType()
                           << " differs from the input's "
                           << input.getElementType();
    return checkParam(bias, "bias");
  }
  return success();
}

LogicalResult BatchNormOp::verify() {
  RankedTensorType input = getInput().getType();
  if (input.getRank() < 2)
    return emitOpError() << "expects input of rank >= 2 ([N, C, ...]), got "
                         << "rank " << input.getRank();
  RankedTensorType param = getScale().getType();
  if (param.getRank() != 1 ||
      !areCompatibleSizes(param.getDimSize(0), input.getDimSize(1)))
    return emitOpError() << "expects scale, bias, mean and variance of shape ["
                         << formatShape(input.getShape().slice(1, 1))
                         << "] (the input's channels), got ["
                         << formatShape(param.getShape()) << "]";
  return success();
}
