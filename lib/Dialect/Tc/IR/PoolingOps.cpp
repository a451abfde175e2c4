//===- PoolingOps.cpp - max_pool and avg_pool inference -------------------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

namespace {
template <typename Adaptor>
LogicalResult inferPoolResult(std::optional<Location> loc, StringRef name,
                              Adaptor adaptor, SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  int64_t rank = input.getRank();
  if (rank < 3)
    return emitInferError(loc, name, "expects input of rank >= 3 ([N, C, "
                          "spatial...]), got rank ", rank);
  int64_t spatial = rank - 2;
  ArrayRef<int64_t> kernel = adaptor.getKernelShape();
  if (static_cast<int64_t>(kernel.size()) != spatial)
    return emitInferError(loc, name, "expects ", spatial,
                          " kernel_shape values, got ", kernel.size());
  FailureOr<WindowParams> window =
      readWindowParams(loc, name, spatial, adaptor.getStrides(),
                       adaptor.getDilations(), adaptor.getPadding());
  if (failed(window))
    return failure();
  ArrayRef<int64_t> strides = window->strides, dilations = window->dilations,
                    padding = window->padding;
  if (llvm::any_of(kernel, [](int64_t k) { return k < 1; }))
    return emitInferError(loc, name, "kernel_shape must be >= 1");
  for (int64_t i = 0; i < spatial; ++i)
    if (padding[i] >= kernel[i] || padding[spatial + i] >= kernel[i])
      return emitInferError(loc, name, "padding of spatial dimension ", i,
                            " must be smaller than the kernel size ", kernel[i]);

  SmallVector<int64_t> shape = {input.getDimSize(0), input.getDimSize(1)};
  for (int64_t i = 0; i < spatial; ++i) {
    std::optional<int64_t> size = getWindowedOutputSize(
        input.getDimSize(2 + i), kernel[i], strides[i], dilations[i],
        padding[i], padding[spatial + i], adaptor.getCeilMode());
    if (!size)
      return emitInferError(loc, name, "window of size ", kernel[i],
                            " does not fit spatial dimension ", i, " of size ",
                            input.getDimSize(2 + i), " with its padding");
    shape.push_back(*size);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}
} // namespace

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferPoolResult(loc, getOperationName(), adaptor, inferred);
}

LogicalResult AvgPoolOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferPoolResult(loc, getOperationName(), adaptor, inferred);
}
