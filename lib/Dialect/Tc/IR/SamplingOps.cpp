//===- SamplingOps.cpp - grid_sample and roi_align inference --------------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

LogicalResult GridSampleOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType grid = getRankedType(adaptor.getGrid());
  int64_t rank = input.getRank();
  if (rank < 3)
    return emitInferError(loc, name, "expects input of rank >= 3 ([N, C, "
                          "spatial...]), got rank ", rank);
  if (grid.getRank() != rank)
    return emitInferError(loc, name, "expects a grid of rank ", rank,
                          " ([N, spatial..., ", rank - 2, "]), got rank ",
                          grid.getRank());
  if (!areCompatibleSizes(grid.getDimSize(rank - 1), rank - 2))
    return emitInferError(loc, name, "the grid's last dimension must be ",
                          rank - 2, ", got ", grid.getDimSize(rank - 1));
  if (!areCompatibleSizes(input.getDimSize(0), grid.getDimSize(0)))
    return emitInferError(loc, name, "batch mismatch: input has ",
                          input.getDimSize(0), ", grid has ",
                          grid.getDimSize(0));
  StringRef mode = adaptor.getMode(), padding = adaptor.getPaddingMode();
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return emitInferError(loc, name, "unknown mode '", mode, "'");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return emitInferError(loc, name, "unknown padding_mode '", padding, "'");

  int64_t batch = ShapedType::isDynamic(input.getDimSize(0))
                      ? grid.getDimSize(0)
                      : input.getDimSize(0);
  SmallVector<int64_t> shape = {batch, input.getDimSize(1)};
  llvm::append_range(shape, grid.getShape().slice(1, rank - 2));
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult RoiAlignOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType rois = getRankedType(adaptor.getRois());
  RankedTensorType indices = getRankedType(adaptor.getBatchIndices());
  if (input.getRank() != 4)
    return emitInferError(loc, name, "expects input of rank 4 ([N, C, H, W]), "
                          "got rank ", input.getRank());
  if (rois.getRank() != 2 || !areCompatibleSizes(rois.getDimSize(1), 4))
    return emitInferError(loc, name, "expects rois of shape [R, 4], got [",
                          formatShape(rois.getShape()), "]");
  if (indices.getRank() != 1 ||
      !areCompatibleSizes(indices.getDimSize(0), rois.getDimSize(0)))
    return emitInferError(loc, name, "expects batch_indices of shape [R] "
                          "matching rois, got [", formatShape(indices.getShape()),
                          "]");
  if (adaptor.getOutputHeight() < 1 || adaptor.getOutputWidth() < 1)
    return emitInferError(loc, name, "output_height and output_width must "
                          "be >= 1");
  if (adaptor.getSamplingRatio() < 0)
    return emitInferError(loc, name, "sampling_ratio must be >= 0");
  if (adaptor.getMode() != "avg" && adaptor.getMode() != "max")
    return emitInferError(loc, name, "unknown mode '", adaptor.getMode(), "'");
  int64_t regions = ShapedType::isDynamic(rois.getDimSize(0))
                        ? indices.getDimSize(0)
                        : rois.getDimSize(0);
  inferred.push_back(RankedTensorType::get(
      {regions, input.getDimSize(1), static_cast<int64_t>(adaptor.getOutputHeight()),
       static_cast<int64_t>(adaptor.getOutputWidth())},
      input.getElementType()));
  return success();
}

LogicalResult NonMaxSuppressionOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType boxes = getRankedType(adaptor.getBoxes());
  RankedTensorType scores = getRankedType(adaptor.getScores());
  if (boxes.getRank() != 3 || !areCompatibleSizes(boxes.getDimSize(2), 4))
    return emitInferError(loc, name, "expects boxes of shape [B, N, 4], got [",
                          formatShape(boxes.getShape()), "]");
  if (scores.getRank() != 3 ||
      !areCompatibleSizes(scores.getDimSize(0), boxes.getDimSize(0)) ||
      !areCompatibleSizes(scores.getDimSize(2), boxes.getDimSize(1)))
    return emitInferError(loc, name, "expects scores of shape [B, C, N] "
                          "matching boxes [", formatShape(boxes.getShape()),
                          "], got [", formatShape(scores.getShape()), "]");
  // The limits are single values; an empty tensor would have none to read.
  for (Value v : {adaptor.getMaxOutputBoxesPerClass(), adaptor.getIouThreshold(),
                  adaptor.getScoreThreshold()}) {
    if (!v)
      continue;
    RankedTensorType t = getRankedType(v);
    if (!t.hasStaticShape() || t.getNumElements() != 1)
      return emitInferError(loc, name, "expects its limits to hold one value "
                            "each, got [", formatShape(t.getShape()), "]");
  }
  inferred.push_back(RankedTensorType::get({ShapedType::kDynamic, 3},
                                           IntegerType::get(context, 64)));
  return success();
}
