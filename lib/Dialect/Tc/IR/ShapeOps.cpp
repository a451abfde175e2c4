//===- ShapeOps.cpp - reshape, transpose, concat, slice, gather, ... ------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

namespace {
/// Constant folding of data movement works on small dense constants only:
/// shape vectors and scalars, which is what shape arithmetic needs. Large
/// tensors stay as they are rather than being copied at compile time.
constexpr int64_t kMaxFoldElements = 1024;

DenseElementsAttr getSmallDense(Attribute attr) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(attr);
  if (!dense || dense.getNumElements() > kMaxFoldElements)
    return nullptr;
  return dense;
}

/// Row-major strides of a static shape.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Checks the optional 1-D shape operand of reshape and broadcast.
LogicalResult verifyShapeOperand(Operation *op, Value shape, int64_t rank) {
  if (!shape)
    return success();
  int64_t length = getRankedType(shape).getDimSize(0);
  if (!ShapedType::isDynamic(length) && length != rank)
    return op->emitOpError("shape operand has ")
           << length << " elements but the result has rank " << rank;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = getInput().getType(), result = getType();
  if (failed(verifyShapeOperand(*this, getShape(), result.getRank())))
    return failure();
  std::optional<int64_t> inCount = getStaticElementCount(input.getShape());
  std::optional<int64_t> outCount = getStaticElementCount(result.getShape());
  if (inCount && outCount && *inCount != *outCount)
    return emitOpError() << "input has " << *inCount
                         << " elements but the result type has " << *outCount;
  if (getShape())
    return success();
  int64_t dynamic = result.getNumDynamicDims();
  if (dynamic > 1)
    return emitOpError() << "result has " << dynamic
                         << " dynamic dimensions; a shape operand must "
                            "supply them";
  if (dynamic == 1 && inCount) {
    int64_t known = 1;
    for (int64_t size : result.getShape())
      if (!ShapedType::isDynamic(size))
        known *= size;
    if (known == 0 || *inCount % known != 0)
      return emitOpError() << "input has " << *inCount
                           << " elements, which the static result sizes ("
                           << known << " elements) do not divide";
  }
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  // With dynamic sizes, equal types do not mean equal shapes: the shape
  // operand may rearrange them.
  if (getInput().getType() == getType() &&
      (!getShape() || getType().hasStaticShape()))
    return getInput();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  return {};
}

namespace {
/// reshape(reshape(x)) -> reshape(x): only the last shape matters.
struct FoldReshapeChain : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReshapeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a tc.reshape");
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(inner.getInput()); });
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<FoldReshapeChain>(context);
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitInferError(loc, getOperationName(), "permutation has ",
                          perm.size(), " entries but the input has rank ",
                          input.getRank());
  llvm::SmallBitVector seen(perm.size());
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (!isValidAxis(p, input.getRank()) || seen.test(p))
      return emitInferError(loc, getOperationName(), "permutation [",
                            formatShape(perm),
                            "] is not a permutation of the input dimensions");
    seen.set(p);
    shape.push_back(input.getDimSize(p));
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getPermutation().size())) &&
      getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat() && getType().hasStaticShape())
      return dense.resizeSplat(getType());
  return {};
}

namespace {
/// transpose(transpose(x, p), q) -> transpose(x, p o q).
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a tc.transpose");
    SmallVector<int64_t> composed;
    for (int64_t p : op.getPermutation())
      composed.push_back(inner.getPermutation()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             inner.getInput(), composed);
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<ComposeTransposes>(context);
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitInferError(loc, name, "expects at least one input");
  RankedTensorType first = getRankedType(inputs.front());
  int64_t rank = first.getRank(), axis = adaptor.getAxis();
  if (!isValidAxis(axis, rank))
    return emitInferError(loc, name, "axis ", axis,
                          " is out of range for inputs of rank ", rank);
  SmallVector<int64_t> shape(first.getShape());
  for (auto [index, input] : llvm::enumerate(inputs.drop_front())) {
    RankedTensorType type = getRankedType(input);
    if (type.getRank() != rank)
      return emitInferError(loc, name, "input #", index + 1, " has rank ",
                            type.getRank(), " but input #0 has rank ", rank);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (d == axis) {
        shape[d] = ShapedType::isDynamic(shape[d]) ||
                           ShapedType::isDynamic(size)
                       ? ShapedType::kDynamic
                       : shape[d] + size;
        continue;
      }
      if (!areCompatibleSizes(shape[d], size))
        return emitInferError(loc, name, "input #", index + 1,
                              " has size ", size, " in dimension ", d,
                              " but the inputs before it have ", shape[d]);
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = size;
    }
  }
  inferred.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  RankedTensorType type = getType();
  if (!type.hasStaticShape() || type.getNumElements() > kMaxFoldElements)
    return {};
  SmallVector<DenseElementsAttr> parts;
  for (Attribute attr : adaptor.getInputs()) {
    DenseElementsAttr dense = getSmallDense(attr);
    if (!dense)
      return {};
    parts.push_back(dense);
  }
  // Interleave the inputs' rows: the outer dimensions are shared.
  int64_t axis = getAxis(), outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  SmallVector<Attribute> elements;
  for (int64_t o = 0; o < outer; ++o)
    for (DenseElementsAttr part : parts) {
      auto values = part.getValues<Attribute>();
      int64_t chunk = part.getNumElements() / std::max<int64_t>(outer, 1);
      for (int64_t i = 0; i < chunk; ++i)
        elements.push_back(values[o * chunk + i]);
    }
  return DenseElementsAttr::get(type, elements);
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType input = getRankedType(adaptor.getInput());
  ArrayRef<int64_t> starts = adaptor.getStarts(), ends = adaptor.getEnds(),
                    steps = adaptor.getSteps();
  int64_t rank = input.getRank();
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(ends.size()) != rank ||
      static_cast<int64_t>(steps.size()) != rank)
    return emitInferError(loc, name, "expects ", rank,
                          " starts, ends and steps (one per dimension), got ",
                          starts.size(), ", ", ends.size(), " and ",
                          steps.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = input.getDimSize(d), start = starts[d], end = ends[d],
            step = steps[d];
    if (step == 0)
      return emitInferError(loc, name, "step of dimension ", d, " is zero");
    if (ShapedType::isDynamic(size)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    bool inRange = step > 0 ? (0 <= start && start <= size && 0 <= end &&
                               end <= size)
                            : (0 <= start && start < size && -1 <= end &&
                               end < size);
    if (!inRange && !(step < 0 && size == 0))
      return emitInferError(loc, name, "bounds [", start, ", ", end,
                            ") with step ", step, " of dimension ", d,
                            " are not clamped to its size ", size);
    int64_t count = step > 0 ? (end - start + step - 1) / step
                             : (start - end + (-step) - 1) / (-step);
    shape.push_back(std::max<int64_t>(count, 0));
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  RankedTensorType input = getInput().getType(), result = getType();
  if (!input.hasStaticShape() || !result.hasStaticShape())
    return {};
  bool identity = input == result;
  for (int64_t d = 0; d < input.getRank(); ++d)
    identity &= getStarts()[d] == 0 && getSteps()[d] == 1 &&
                getEnds()[d] == input.getDimSize(d);
  if (identity)
    return getInput();
  DenseElementsAttr dense = getSmallDense(adaptor.getInput());
  if (!dense)
    return {};
  auto values = dense.getValues<Attribute>();
  SmallVector<int64_t> inStrides = stridesOf(input.getShape());
  SmallVector<int64_t> outStrides = stridesOf(result.getShape());
  SmallVector<Attribute> elements;
  for (int64_t i = 0; i < result.getNumElements(); ++i) {
    int64_t offset = 0;
    for (int64_t d = 0; d < result.getRank(); ++d) {
      int64_t index = (i / outStrides[d]) % result.getDimSize(d);
      offset += (getStarts()[d] + index * getSteps()[d]) * inStrides[d];
    }
    elements.push_back(values[offset]);
  }
  return DenseElementsAttr::get(result, elements);
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType indices = getRankedType(adaptor.getIndices());
  int64_t axis = adaptor.getAxis();
  if (!isValidAxis(axis, input.getRank()))
    return emitInferError(loc, getOperationName(), "axis ", axis,
                          " is out of range for an input of rank ",
                          input.getRank());
  SmallVector<int64_t> shape(input.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, input.getShape().drop_front(axis + 1));
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr input = getSmallDense(adaptor.getInput());
  DenseElementsAttr indices = getSmallDense(adaptor.getIndices());
  RankedTensorType result = getType();
  if (!input || !indices || !result.hasStaticShape())
    return {};
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  int64_t axis = getAxis(), size = shape[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < static_cast<int64_t>(shape.size()); ++d)
    inner *= shape[d];
  SmallVector<int64_t> picks;
  for (const APInt &index : indices.getValues<APInt>()) {
    int64_t i = index.getSExtValue();
    if (i < 0)
      i += size;
    if (i < 0 || i >= size)
      return {}; // out of range: left for run time to report
    picks.push_back(i);
  }
  auto values = input.getValues<Attribute>();
  SmallVector<Attribute> elements;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t p : picks)
      for (int64_t i = 0; i < inner; ++i)
        elements.push_back(values[(o * size + p) * inner + i]);
  return DenseElementsAttr::get(result, elements);
}

LogicalResult
GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType indices = getRankedType(adaptor.getIndices());
  int64_t axis = adaptor.getAxis(), rank = input.getRank();
  if (indices.getRank() != rank)
    return emitInferError(loc, getOperationName(), "indices have rank ",
                          indices.getRank(), " but the input has rank ", rank);
  if (!isValidAxis(axis, rank))
    return emitInferError(loc, getOperationName(), "axis ", axis,
                          " is out of range for an input of rank ", rank);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && !input.isDynamicDim(d) && !indices.isDynamicDim(d) &&
        indices.getDimSize(d) > input.getDimSize(d))
      return emitInferError(loc, getOperationName(), "indices dimension ", d,
                            " (", indices.getDimSize(d),
                            ") exceeds the input's (", input.getDimSize(d),
                            ")");
  inferred.push_back(indices.clone(input.getElementType()));
  return success();
}

LogicalResult GatherNDOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType indices = getRankedType(adaptor.getIndices());
  int64_t batch = adaptor.getBatchDims();
  int64_t q = indices.getRank() ? indices.getDimSize(indices.getRank() - 1)
                                : ShapedType::kDynamic;
  if (indices.getRank() < 1 || ShapedType::isDynamic(q))
    return emitInferError(loc, getOperationName(),
                          "indices need a static last dimension");
  if (batch < 0 || batch >= indices.getRank() || batch + q > input.getRank())
    return emitInferError(loc, getOperationName(), "index vectors of length ",
                          q, " after ", batch,
                          " batch dimensions do not fit an input of rank ",
                          input.getRank());
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, input.getShape().drop_front(batch + q));
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

namespace {
LogicalResult checkReduction(std::optional<Location> loc, StringRef name,
                             StringRef reduction) {
  if (llvm::is_contained({"none", "add", "mul", "max", "min"}, reduction))
    return success();
  return emitInferError(loc, name, "unknown reduction '", reduction, "'");
}
} // namespace

LogicalResult
ScatterElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType indices = getRankedType(adaptor.getIndices());
  RankedTensorType updates = getRankedType(adaptor.getUpdates());
  StringRef name = getOperationName();
  if (indices.getRank() != input.getRank())
    return emitInferError(loc, name, "indices have rank ", indices.getRank(),
                          " but the input has rank ", input.getRank());
  if (!isValidAxis(adaptor.getAxis(), input.getRank()))
    return emitInferError(loc, name, "axis ",
                          static_cast<int64_t>(adaptor.getAxis()),
                          " is out of range for an input of rank ",
                          input.getRank());
  if (!areCompatibleReturnTypes({indices.clone(updates.getElementType())},
                                {updates}))
    return emitInferError(loc, name, "updates of shape [",
                          formatShape(updates.getShape()),
                          "] differ from the indices' [",
                          formatShape(indices.getShape()), "]");
  if (failed(checkReduction(loc, name, adaptor.getReduction())))
    return failure();
  inferred.push_back(input);
  return success();
}

LogicalResult ScatterNDOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = getRankedType(adaptor.getInput());
  RankedTensorType indices = getRankedType(adaptor.getIndices());
  RankedTensorType updates = getRankedType(adaptor.getUpdates());
  StringRef name = getOperationName();
  int64_t q = indices.getRank() ? indices.getDimSize(indices.getRank() - 1)
                                : ShapedType::kDynamic;
  if (indices.getRank() < 1 || ShapedType::isDynamic(q) || q > input.getRank())
    return emitInferError(loc, name, "indices need a static last dimension of "
                          "at most the input's rank");
  SmallVector<int64_t> expected(indices.getShape().drop_back());
  llvm::append_range(expected, input.getShape().drop_front(q));
  if (!areCompatibleReturnTypes(
          {RankedTensorType::get(expected, updates.getElementType())}, {updates}))
    return emitInferError(loc, name, "expects updates of shape [",
                          formatShape(expected), "], got [",
                          formatShape(updates.getShape()), "]");
  if (failed(checkReduction(loc, name, adaptor.getReduction())))
    return failure();
  inferred.push_back(input);
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  RankedTensorType input = getInput().getType(), result = getType();
  if (failed(verifyShapeOperand(*this, getShape(), result.getRank())))
    return failure();
  if (!isBroadcastableTo(input.getShape(), result.getShape()))
    return emitOpError() << "input of shape [" << formatShape(input.getShape())
                         << "] does not broadcast to the result shape ["
                         << formatShape(result.getShape()) << "]";
  if (getShape())
    return success();
  // Without a shape operand, a dynamic result size must come from a dynamic
  // input size in the same (trailing-aligned) position.
  int64_t offset = result.getRank() - input.getRank();
  for (int64_t d = 0; d < result.getRank(); ++d)
    if (result.isDynamicDim(d) &&
        (d < offset || !input.isDynamicDim(d - offset)))
      return emitOpError() << "result dimension " << d
                           << " is dynamic; a shape operand must supply it";
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType() &&
      (!getShape() || getType().hasStaticShape()))
    return getInput();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat() && getType().hasStaticShape())
      return dense.resizeSplat(getType());
  return {};
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType input = getRankedType(adaptor.getInput());
  ArrayRef<int64_t> padding = adaptor.getPadding();
  int64_t rank = input.getRank();
  if (static_cast<int64_t>(padding.size()) != 2 * rank)
    return emitInferError(loc, name, "expects ", 2 * rank,
                          " padding values (begin and end per dimension), got ",
                          padding.size());
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return emitInferError(loc, name, "padding must be >= 0");
  if (Value value = adaptor.getValue()) {
    if (getRankedType(value).getElementType() != input.getElementType())
      return emitInferError(loc, name, "padding value element type ",
                            getRankedType(value).getElementType(),
                            " differs from the input's ",
                            input.getElementType());
    if (adaptor.getMode() != PadMode::constant)
      return emitInferError(loc, name, "a padding value is only used with "
                                       "mode(constant)");
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = input.getDimSize(d);
    int64_t before = padding[d], after = padding[rank + d];
    if (adaptor.getMode() == PadMode::reflect && !ShapedType::isDynamic(size) &&
        (before >= size || after >= size))
      return emitInferError(loc, name, "reflect padding of dimension ", d,
                            " must be smaller than its size ", size);
    shape.push_back(ShapedType::isDynamic(size) ? size : size + before + after);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  if (llvm::all_of(getPadding(), [](int64_t p) { return p == 0; }) &&
      getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult DynamicPadOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t rank = input.getRank();
  if (getType().getRank() != rank)
    return emitOpError() << "result rank " << getType().getRank()
                         << " differs from the input rank " << rank;
  int64_t length = getPads().getType().getDimSize(0);
  if (!areCompatibleSizes(length, 2 * rank))
    return emitOpError() << "expects " << 2 * rank
                         << " pads (begin and end per dimension), got " << length;
  if (getValue() && getMode() != PadMode::constant)
    return emitOpError("a padding value is only used with mode(constant)");
  return success();
}

//===----------------------------------------------------------------------===//
// ResizeOp
//===----------------------------------------------------------------------===//

/// The interpolation attributes tc.resize and tc.dynamic_resize share.
template <typename OpTy>
static LogicalResult verifyResizeModes(OpTy op) {
  auto oneOf = [&](StringRef what, StringRef value,
                   ArrayRef<StringRef> allowed) -> LogicalResult {
    if (llvm::is_contained(allowed, value))
      return success();
    return op.emitOpError() << "unknown " << what << " '" << value << "'";
  };
  if (failed(oneOf("mode", op.getMode(), {"nearest", "linear", "cubic"})) ||
      failed(oneOf("coordinate_transformation_mode",
                   op.getCoordinateTransformationMode(),
                   {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                    "align_corners", "asymmetric", "tf_crop_and_resize"})) ||
      failed(oneOf("nearest_mode", op.getNearestMode(),
                   {"round_prefer_floor", "round_prefer_ceil", "floor",
                    "ceil"})))
    return failure();
  if (op.getAntialias() && op.getMode() == "nearest")
    return op.emitOpError("antialiasing applies to linear and cubic only");
  int64_t rank = op.getInput().getType().getRank();
  if (op.getType().getRank() != rank)
    return op.emitOpError() << "result rank " << op.getType().getRank()
                            << " differs from the input rank " << rank;
  return success();
}

LogicalResult ResizeOp::verify() {
  if (failed(verifyResizeModes(*this)))
    return failure();
  int64_t rank = getInput().getType().getRank();
  if (static_cast<int64_t>(getScales().size()) != rank)
    return emitOpError() << "expects " << rank << " scales, got "
                         << getScales().size();
  if (llvm::any_of(getScales(), [](float s) { return !(s > 0); }))
    return emitOpError("scales must be positive");
  bool crop = getCoordinateTransformationMode() == "tf_crop_and_resize";
  if (crop && (!getRoi() || static_cast<int64_t>(getRoi()->size()) != 2 * rank))
    return emitOpError() << "tf_crop_and_resize needs a roi of " << 2 * rank
                         << " values";
  return success();
}

LogicalResult DynamicResizeOp::verify() {
  if (failed(verifyResizeModes(*this)))
    return failure();
  int64_t rank = getInput().getType().getRank();
  auto expectLength = [&](Value v, StringRef what, int64_t n) -> LogicalResult {
    int64_t length = cast<RankedTensorType>(v.getType()).getDimSize(0);
    if (areCompatibleSizes(length, n))
      return success();
    return emitOpError() << "expects " << n << " " << what << ", got " << length;
  };
  if (failed(expectLength(getScales(), "scales", rank)) ||
      failed(expectLength(getSizes(), "sizes", rank)))
    return failure();
  bool crop = getCoordinateTransformationMode() == "tf_crop_and_resize";
  if (crop != static_cast<bool>(getRoi()))
    return emitOpError("takes a roi exactly when its coordinate "
                       "transformation mode is tf_crop_and_resize");
  if (crop && failed(expectLength(getRoi(), "roi values", 2 * rank)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ShapeOfOp
//===----------------------------------------------------------------------===//

LogicalResult ShapeOfOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  inferred.push_back(
      RankedTensorType::get({getRankedType(adaptor.getInput()).getRank()},
                            IntegerType::get(context, 64)));
  return success();
}

OpFoldResult ShapeOfOp::fold(FoldAdaptor) {
  RankedTensorType input = getInput().getType();
  if (!input.hasStaticShape())
    return {};
  return DenseIntElementsAttr::get(getType(), input.getShape());
}

LogicalResult TensorScatterOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType cache = getRankedType(adaptor.getCache());
  RankedTensorType update = getRankedType(adaptor.getUpdate());
  int64_t rank = cache.getRank(), axis = adaptor.getAxis();
  if (update.getRank() != rank)
    return emitInferError(loc, name, "expects cache and update of the same "
                          "rank, got ", rank, " and ", update.getRank());
  // Axis 0 is the batch that write_indices index.
  if (axis < 1 || axis >= rank)
    return emitInferError(loc, name, "axis ", axis, " is out of range [1, ",
                          rank, ")");
  for (int64_t d = 0; d < rank; ++d) {
    int64_t c = cache.getDimSize(d), u = update.getDimSize(d);
    bool bad = d == axis ? (!ShapedType::isDynamic(c) &&
                            !ShapedType::isDynamic(u) && u > c)
                         : !areCompatibleSizes(c, u);
    if (bad)
      return emitInferError(loc, name, "update [", formatShape(update.getShape()),
                            "] does not fit cache [",
                            formatShape(cache.getShape()), "] at axis ", axis);
  }
  if (Value w = adaptor.getWriteIndices()) {
    RankedTensorType indices = getRankedType(w);
    if (indices.getRank() != 1 ||
        !areCompatibleSizes(indices.getDimSize(0), cache.getDimSize(0)))
      return emitInferError(loc, name, "expects write_indices of shape [",
                            formatShape(cache.getShape().take_front()),
                            "], got [", formatShape(indices.getShape()), "]");
  }
  inferred.push_back(cache);
  return success();
}

LogicalResult DynamicSliceOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType input = getRankedType(adaptor.getInput());
  ArrayRef<int64_t> axes = adaptor.getAxes(), steps = adaptor.getSteps();
  int64_t n = axes.size();
  for (Value bounds : {adaptor.getStarts(), adaptor.getEnds()}) {
    RankedTensorType t = getRankedType(bounds);
    if (t.getRank() != 1 || !areCompatibleSizes(t.getDimSize(0), n))
      return emitInferError(loc, name, "expects starts and ends of shape [", n,
                            "] (one per axis), got [", formatShape(t.getShape()),
                            "]");
  }
  if (Value values = adaptor.getStepValues()) {
    RankedTensorType t = getRankedType(values);
    if (!steps.empty() || t.getRank() != 1 ||
        !areCompatibleSizes(t.getDimSize(0), n))
      return emitInferError(loc, name, "expects step_values of shape [", n,
                            "] and no constant steps, got [",
                            formatShape(t.getShape()), "] and ", steps.size());
  } else if (static_cast<int64_t>(steps.size()) != n) {
    return emitInferError(loc, name, "expects ", n, " steps, got ",
                          steps.size());
  }
  SmallVector<int64_t> shape(input.getShape());
  SmallVector<bool> seen(input.getRank(), false);
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (!isValidAxis(axis, input.getRank()) || seen[axis])
      return emitInferError(loc, name, "axis ", axis,
                            " is out of range or repeated");
    if (!steps.empty() && steps[i] == 0)
      return emitInferError(loc, name, "step of axis ", axis, " is zero");
    seen[axis] = true;
    shape[axis] = ShapedType::kDynamic;
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}
