//===- ContractionOps.cpp - matmul, batch_matmul and conv inference -------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType lhs = getRankedType(adaptor.getLhs());
  RankedTensorType rhs = getRankedType(adaptor.getRhs());
  if (lhs.getRank() != 2 || rhs.getRank() != 2)
    return emitInferError(loc, getOperationName(),
                          "expects 2-D lhs and rhs, got ranks ",
                          lhs.getRank(), " and ", rhs.getRank(),
                          " (tc.batch_matmul takes batches)");
  if (!areCompatibleSizes(lhs.getDimSize(1), rhs.getDimSize(0)))
    return emitInferError(loc, getOperationName(),
                          "contraction size mismatch: lhs dimension 1 is ",
                          lhs.getDimSize(1), " but rhs dimension 0 is ",
                          rhs.getDimSize(0));
  inferred.push_back(RankedTensorType::get(
      {lhs.getDimSize(0), rhs.getDimSize(1)}, lhs.getElementType()));
  return success();
}

LogicalResult BatchMatmulOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  RankedTensorType lhs = getRankedType(adaptor.getLhs());
  RankedTensorType rhs = getRankedType(adaptor.getRhs());
  int64_t rank = lhs.getRank();
  if (rank < 3 || rhs.getRank() != rank)
    return emitInferError(loc, getOperationName(),
                          "expects lhs and rhs of one rank >= 3, got ranks ",
                          lhs.getRank(), " and ", rhs.getRank());
  if (!areCompatibleSizes(lhs.getDimSize(rank - 1), rhs.getDimSize(rank - 2)))
    return emitInferError(loc, getOperationName(),
                          "contraction size mismatch: lhs dimension ",
                          rank - 1, " is ", lhs.getDimSize(rank - 1),
                          " but rhs dimension ", rank - 2, " is ",
                          rhs.getDimSize(rank - 2));
  ArrayRef<int64_t> lhsBatch = lhs.getShape().drop_back(2);
  ArrayRef<int64_t> rhsBatch = rhs.getShape().drop_back(2);
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(lhsBatch, rhsBatch);
  if (!shape)
    return emitInferError(
        loc, getOperationName(), "batch dimensions do not broadcast: ",
        describeBroadcastMismatch(lhsBatch, "lhs", rhsBatch, "rhs"));
  shape->push_back(lhs.getDimSize(rank - 2));
  shape->push_back(rhs.getDimSize(rank - 1));
  inferred.push_back(RankedTensorType::get(*shape, lhs.getElementType()));
  return success();
}

namespace {
/// The checks conv and conv_transpose share: [N, C, spatial...] operands of
/// one rank and well-formed window attributes.
template <typename Adaptor>
FailureOr<WindowParams> checkConvOperands(std::optional<Location> loc,
                                          StringRef name, Adaptor adaptor) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType filter = getRankedType(adaptor.getFilter());
  int64_t rank = input.getRank();
  if (rank < 3)
    return emitInferError(loc, name, "expects input of rank >= 3 ([N, C, "
                          "spatial...]), got rank ", rank);
  if (filter.getRank() != rank)
    return emitInferError(loc, name, "expects filter of rank ", rank,
                          " like the input, got rank ", filter.getRank());
  return readWindowParams(loc, name, rank - 2, adaptor.getStrides(),
                          adaptor.getDilations(), adaptor.getPadding());
}
} // namespace

LogicalResult ConvOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType filter = getRankedType(adaptor.getFilter());
  FailureOr<WindowParams> window = checkConvOperands(loc, name, adaptor);
  if (failed(window))
    return failure();
  int64_t spatial = input.getRank() - 2;
  ArrayRef<int64_t> strides = window->strides, dilations = window->dilations,
                    padding = window->padding;

  int64_t groups = adaptor.getGroups();
  if (groups < 1)
    return emitInferError(loc, name, "groups must be >= 1, got ", groups);
  // The input's channel and first spatial dimension: [N, C, D...], or
  // [N, D..., C] with channels_last.
  bool channelsLast = adaptor.getChannelsLast();
  int64_t channelDim = channelsLast ? spatial + 1 : 1;
  int64_t firstSpatial = channelsLast ? 1 : 2;
  int64_t channels = input.getDimSize(channelDim),
          filters = filter.getDimSize(0);
  if (!ShapedType::isDynamic(channels) && channels % groups != 0)
    return emitInferError(loc, name, "input channels (", channels,
                          ") are not divisible by groups (", groups, ")");
  if (!ShapedType::isDynamic(filters) && filters % groups != 0)
    return emitInferError(loc, name, "filter count (", filters,
                          ") is not divisible by groups (", groups, ")");
  if (!ShapedType::isDynamic(channels) &&
      !areCompatibleSizes(channels / groups, filter.getDimSize(1)))
    return emitInferError(loc, name, "filter dimension 1 is ",
                          filter.getDimSize(1), " but input channels / groups is ",
                          channels / groups);
  if (Value bias = adaptor.getBias()) {
    RankedTensorType biasType = getRankedType(bias);
    if (biasType.getRank() != 1 ||
        !areCompatibleSizes(biasType.getDimSize(0), filters))
      return emitInferError(loc, name, "expects bias of shape [", filters,
                            "], got [", formatShape(biasType.getShape()), "]");
    if (biasType.getElementType() != input.getElementType())
      return emitInferError(loc, name, "bias element type ",
                            biasType.getElementType(),
                            " differs from the input's ",
                            input.getElementType());
  }

  SmallVector<int64_t> shape = {input.getDimSize(0)};
  if (!channelsLast)
    shape.push_back(filters);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t window = filter.getDimSize(2 + i);
    if (ShapedType::isDynamic(window)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    std::optional<int64_t> size = getWindowedOutputSize(
        input.getDimSize(firstSpatial + i), window, strides[i], dilations[i],
        padding[i], padding[spatial + i], /*ceilMode=*/false);
    if (!size)
      return emitInferError(loc, name, "kernel of size ", window, " (dilation ",
                            dilations[i], ") does not fit spatial dimension ",
                            i, " of size ", input.getDimSize(firstSpatial + i),
                            " with its padding");
    shape.push_back(*size);
  }
  if (channelsLast)
    shape.push_back(filters);
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult ConvTransposeOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType filter = getRankedType(adaptor.getFilter());
  FailureOr<WindowParams> window = checkConvOperands(loc, name, adaptor);
  if (failed(window))
    return failure();
  int64_t spatial = input.getRank() - 2;
  SmallVector<int64_t> outputPadding(spatial, 0);
  if (auto attr = adaptor.getOutputPadding()) {
    if (static_cast<int64_t>(attr->size()) != spatial)
      return emitInferError(loc, name, "expects ", spatial,
                            " output_padding values, got ", attr->size());
    outputPadding.assign(attr->begin(), attr->end());
  }
  int64_t groups = adaptor.getGroups();
  if (groups < 1)
    return emitInferError(loc, name, "groups must be >= 1, got ", groups);
  int64_t channels = input.getDimSize(1);
  if (!areCompatibleSizes(channels, filter.getDimSize(0)))
    return emitInferError(loc, name, "filter dimension 0 is ",
                          filter.getDimSize(0), " but the input has ",
                          channels, " channels");
  if (!ShapedType::isDynamic(channels) && channels % groups != 0)
    return emitInferError(loc, name, "input channels (", channels,
                          ") are not divisible by groups (", groups, ")");
  int64_t filters = ShapedType::isDynamic(filter.getDimSize(1))
                        ? ShapedType::kDynamic
                        : filter.getDimSize(1) * groups;
  if (Value bias = adaptor.getBias()) {
    RankedTensorType biasType = getRankedType(bias);
    if (biasType.getRank() != 1 ||
        !areCompatibleSizes(biasType.getDimSize(0), filters))
      return emitInferError(loc, name, "expects bias of shape [", filters,
                            "], got [", formatShape(biasType.getShape()), "]");
  }
  SmallVector<int64_t> shape = {input.getDimSize(0), filters};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = input.getDimSize(2 + i), k = filter.getDimSize(2 + i);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t out = window->strides[i] * (in - 1) + outputPadding[i] +
                  window->dilations[i] * (k - 1) + 1 - window->padding[i] -
                  window->padding[spatial + i];
    if (out < 1)
      return emitInferError(loc, name, "spatial dimension ", i,
                            " would have size ", out);
    shape.push_back(out);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult DetOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  int64_t rank = input.getRank();
  if (rank < 2 || !areCompatibleSizes(input.getDimSize(rank - 1),
                                      input.getDimSize(rank - 2)))
    return emitInferError(loc, getOperationName(), "expects square matrices "
                          "[..., M, M], got [", formatShape(input.getShape()),
                          "]");
  inferred.push_back(RankedTensorType::get(input.getShape().drop_back(2),
                                           input.getElementType()));
  return success();
}
