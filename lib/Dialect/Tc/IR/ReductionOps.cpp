//===- ReductionOps.cpp - reduce_* and arg-reduction inference ------------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

namespace {
LogicalResult inferReduceResult(std::optional<Location> loc, StringRef name,
                                Value input, ArrayRef<int64_t> axes,
                                bool keepdims,
                                SmallVectorImpl<Type> &inferred) {
  RankedTensorType type = getRankedType(input);
  llvm::SmallBitVector reduced(type.getRank());
  for (int64_t axis : axes) {
    if (!isValidAxis(axis, type.getRank()))
      return emitInferError(loc, name, "axis ", axis,
                            " is out of range for an input of rank ",
                            type.getRank());
    if (reduced.test(axis))
      return emitInferError(loc, name, "axis ", axis, " is repeated");
    reduced.set(axis);
  }
  SmallVector<int64_t> shape;
  for (auto [i, size] : llvm::enumerate(type.getShape())) {
    if (!reduced.test(i))
      shape.push_back(size);
    else if (keepdims)
      shape.push_back(1);
  }
  inferred.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}
} // namespace

#define TC_REDUCE_OP(OP)                                                       \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &inferred) {        \
    return inferReduceResult(loc, getOperationName(), adaptor.getInput(),      \
                             adaptor.getAxes(), adaptor.getKeepdims(),         \
                             inferred);                                        \
  }                                                                            \
  OpFoldResult OP::fold(FoldAdaptor) {                                         \
    /* Reducing no axes is the identity. */                                    \
    if (getAxes().empty() && getInput().getType() == getType())                \
      return getInput();                                                       \
    return {};                                                                 \
  }
TC_REDUCE_OP(ReduceSumOp)
TC_REDUCE_OP(ReduceMeanOp)
TC_REDUCE_OP(ReduceMaxOp)
TC_REDUCE_OP(ReduceMinOp)
TC_REDUCE_OP(ReduceProdOp)
#undef TC_REDUCE_OP

namespace {
template <typename Adaptor>
LogicalResult inferArgReduceResult(std::optional<Location> loc, StringRef name,
                                   MLIRContext *context, Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  SmallVector<Type, 1> reduced;
  if (failed(inferReduceResult(loc, name, adaptor.getInput(),
                               {static_cast<int64_t>(adaptor.getAxis())},
                               adaptor.getKeepdims(),
                               reduced)))
    return failure();
  inferred.push_back(cast<RankedTensorType>(reduced.front())
                         .clone(IntegerType::get(context, 64)));
  return success();
}
} // namespace

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferArgReduceResult(loc, getOperationName(), context, adaptor,
                              inferred);
}

LogicalResult ArgMinOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferArgReduceResult(loc, getOperationName(), context, adaptor,
                              inferred);
}

LogicalResult CumSumOp::verify() {
  int64_t rank = getType().getRank();
  if (!isValidAxis(getAxis(), rank))
    return emitOpError() << "axis " << static_cast<int64_t>(getAxis())
                         << " is out of range for an input of rank " << rank;
  return success();
}

LogicalResult NonZeroOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  inferred.push_back(RankedTensorType::get(
      {input.getRank(), ShapedType::kDynamic}, IntegerType::get(context, 64)));
  return success();
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  int64_t axis = adaptor.getAxis(), k = adaptor.getK();
  if (!isValidAxis(axis, input.getRank()))
    return emitInferError(loc, getOperationName(), "axis ", axis,
                          " is out of range for an input of rank ",
                          input.getRank());
  int64_t size = input.getDimSize(axis);
  if (k < 0 || (!ShapedType::isDynamic(size) && k > size))
    return emitInferError(loc, getOperationName(), "k = ", k,
                          " does not fit dimension ", axis, " of size ", size);
  SmallVector<int64_t> shape(input.getShape());
  shape[axis] = k;
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  inferred.push_back(RankedTensorType::get(shape, IntegerType::get(context, 64)));
  return success();
}

LogicalResult UniqueOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  Type i64 = IntegerType::get(context, 64);
  int64_t dynamic = ShapedType::kDynamic;
  SmallVector<int64_t> values = {dynamic};
  int64_t slices = input.hasStaticShape() ? input.getNumElements() : dynamic;
  if (std::optional<uint64_t> a = adaptor.getAxis()) {
    int64_t axis = static_cast<int64_t>(*a);
    if (!isValidAxis(axis, input.getRank()))
      return emitInferError(loc, getOperationName(), "axis ", axis,
                            " is out of range for an input of rank ",
                            input.getRank());
    values.assign(input.getShape().begin(), input.getShape().end());
    values[axis] = dynamic;
    slices = input.getDimSize(axis);
  }
  inferred.push_back(RankedTensorType::get(values, input.getElementType()));
  inferred.push_back(RankedTensorType::get({dynamic}, i64));
  inferred.push_back(RankedTensorType::get({slices}, i64));
  inferred.push_back(RankedTensorType::get({dynamic}, i64));
  return success();
}
