//===- Shape.cpp - tc data-movement ops to tensor and linalg --------------===//
//
// Reshape, slices with positive steps (their bounds constant or read at run
// time) and concatenation become tensor ops that bufferize to views or
// in-place copies; transpose becomes linalg.transpose; broadcast, reversed
// slices and the non-constant pad modes become generics that compute where
// each element comes from.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Element `i` of a 1-D integer tensor, as an index.
Value extractIndex(OpBuilder &b, Location loc, Value shape, int64_t i) {
  Value element =
      tensor::ExtractOp::create(b, loc, shape, indexConstant(b, loc, i));
  return toIndex(b, loc, element);
}

struct ReshapePattern : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    // Equal types are equal shapes only without a shape operand (or with
    // static ones): the operand may rearrange several dynamic sizes, as
    // [1, 2, 4] -> [1, 1, 8] keeps the type tensor<1x?x?xf32>.
    if (inputType == resultType &&
        (!adaptor.getShape() || resultType.hasStaticShape())) {
      rewriter.replaceOp(op, input);
      return success();
    }
    // Sizes of the result's dynamic dims: from the shape operand, or the
    // element count divided by the static sizes when only one is dynamic.
    SmallVector<OpFoldResult> outputShape;
    Value total = indexConstant(rewriter, loc, 1);
    for (int64_t i = 0; i < inputType.getRank(); ++i)
      total = arith::MulIOp::create(rewriter, loc, total,
                                    dimValue(rewriter, loc, input, i));
    int64_t staticProduct = 1;
    for (int64_t size : resultType.getShape())
      if (!ShapedType::isDynamic(size))
        staticProduct *= size;
    for (int64_t i = 0; i < resultType.getRank(); ++i) {
      if (!resultType.isDynamicDim(i)) {
        outputShape.push_back(rewriter.getIndexAttr(resultType.getDimSize(i)));
      } else if (Value shape = adaptor.getShape()) {
        outputShape.push_back(extractIndex(rewriter, loc, shape, i));
      } else if (resultType.getNumDynamicDims() == 1) {
        Value divisor = indexConstant(rewriter, loc, std::max<int64_t>(staticProduct, 1));
        outputShape.push_back(
            arith::DivUIOp::create(rewriter, loc, total, divisor).getResult());
      } else {
        return rewriter.notifyMatchFailure(op, "several dynamic sizes and no shape");
      }
    }
    // With a run-time extent on either side the element counts can differ,
    // e.g. a model exported with its batch baked into a Reshape's shape and
    // run at another batch: an error naming the node, never a view that
    // reads past the buffer.
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape()) {
      int64_t fixed = 1;
      SmallVector<Value> dynamicSizes;
      for (OpFoldResult size : outputShape) {
        if (std::optional<int64_t> value = getConstantIntValue(size))
          fixed *= *value;
        else
          dynamicSizes.push_back(cast<Value>(size));
      }
      Value product = indexConstant(rewriter, loc, fixed);
      for (Value size : dynamicSizes)
        product = arith::MulIOp::create(rewriter, loc, product, size);
      Value same = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, total, product);
      checkAtRunTime(rewriter, loc, op, same,
                     "the input's element count does not match the target "
                     "shape's (a size fixed in the model, such as an exported "
                     "batch, differs from the input's)");
    }
    // Flatten to 1-D, then expand to the result: both are views.
    Value flat = input;
    if (inputType.getRank() == 0) {
      flat = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, inputType.getElementType()),
          input, ArrayRef<ReassociationIndices>{},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    } else if (inputType.getRank() > 1) {
      ReassociationIndices all;
      for (int64_t i = 0; i < inputType.getRank(); ++i)
        all.push_back(i);
      flat = tensor::CollapseShapeOp::create(rewriter, loc, input,
                                             ArrayRef<ReassociationIndices>{all});
    }
    // A fully static result needs a static flat tensor: expand_shape cannot
    // make a dynamic extent static.
    if (resultType.hasStaticShape() &&
        cast<RankedTensorType>(flat.getType()).isDynamicDim(0))
      flat = tensor::CastOp::create(
          rewriter, loc,
          RankedTensorType::get({resultType.getNumElements()},
                                resultType.getElementType()),
          flat);
    // And a result with a run-time extent needs a dynamic one: expand_shape
    // cannot split a static extent into dynamic ones.
    if (!resultType.hasStaticShape() && resultType.getRank() > 1 &&
        !cast<RankedTensorType>(flat.getType()).isDynamicDim(0))
      flat = tensor::CastOp::create(
          rewriter, loc,
          RankedTensorType::get({ShapedType::kDynamic},
                                resultType.getElementType()),
          flat);
    Value result = flat;
    if (resultType.getRank() == 0) {
      result = tensor::CollapseShapeOp::create(
          rewriter, loc, resultType, flat, ArrayRef<ReassociationIndices>{});
    } else if (resultType.getRank() > 1 ||
               cast<RankedTensorType>(flat.getType()) != resultType) {
      ReassociationIndices all;
      for (int64_t i = 0; i < resultType.getRank(); ++i)
        all.push_back(i);
      if (resultType.getRank() == 1) {
        result = tensor::CastOp::create(rewriter, loc, resultType, flat);
      } else {
        result = tensor::ExpandShapeOp::create(
            rewriter, loc, resultType, flat,
            ArrayRef<ReassociationIndices>{all}, outputShape);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TransposePattern : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    ArrayRef<int64_t> permutation = op.getPermutation();
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < resultType.getRank(); ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            dimValue(rewriter, loc, adaptor.getInput(), permutation[i]));
    Value init = emptyTensor(rewriter, loc, resultType, dynamicSizes);
    auto transpose = linalg::TransposeOp::create(rewriter, loc, adaptor.getInput(),
                                                 init, permutation);
    rewriter.replaceOp(op, transpose.getResult());
    return success();
  }
};

struct ConcatPattern : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    int64_t axis = op.getAxis(), rank = resultType.getRank();
    ValueRange inputs = adaptor.getInputs();
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i) {
      if (!resultType.isDynamicDim(i))
        continue;
      if (i != axis) {
        dynamicSizes.push_back(dimValue(rewriter, loc, inputs[0], i));
        continue;
      }
      Value sum = indexConstant(rewriter, loc, 0);
      for (Value input : inputs)
        sum = arith::AddIOp::create(rewriter, loc, sum,
                                    dimValue(rewriter, loc, input, axis));
      dynamicSizes.push_back(sum);
    }
    Value result = emptyTensor(rewriter, loc, resultType, dynamicSizes);
    Value offset = indexConstant(rewriter, loc, 0);
    for (Value input : inputs) {
      // Empty pieces add nothing (and their offset may be the axis' end,
      // which insert_slice rejects).
      auto inputType = cast<RankedTensorType>(input.getType());
      if (llvm::is_contained(inputType.getShape(), 0))
        continue;
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[axis] = getAsOpFoldResult(offset);
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets,
                                             mixedSizes(rewriter, loc, input),
                                             strides);
      offset = rewriter.createOrFold<arith::AddIOp>(
          loc, offset, dimValue(rewriter, loc, input, axis));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SlicePattern : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> starts = op.getStarts(), ends = op.getEnds(),
                      steps = op.getSteps();
    // An empty static result (a slice starting at the end, say) is just an
    // empty tensor; extract_slice would reject its out-of-bounds offset.
    if (resultType.hasStaticShape() && resultType.getNumElements() == 0) {
      rewriter.replaceOp(op, emptyTensor(rewriter, loc, resultType, {}));
      return success();
    }
    bool positive = llvm::all_of(steps, [](int64_t s) { return s > 0; });
    if (positive) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t i = 0; i < rank; ++i) {
        strides.push_back(rewriter.getIndexAttr(steps[i]));
        if (!inputType.isDynamicDim(i)) {
          offsets.push_back(rewriter.getIndexAttr(starts[i]));
          sizes.push_back(rewriter.getIndexAttr(resultType.getDimSize(i)));
          continue;
        }
        // ONNX bounds on a size known only now: negative counts from the
        // end, then clamp to [0, size].
        Value size = tensor::DimOp::create(rewriter, loc, input, i);
        auto clampBound = [&](int64_t bound) -> Value {
          Value v = indexConstant(rewriter, loc, bound);
          if (bound < 0)
            v = arith::AddIOp::create(rewriter, loc, v, size);
          v = arith::MaxSIOp::create(rewriter, loc, v, indexConstant(rewriter, loc, 0));
          return arith::MinSIOp::create(rewriter, loc, v, size);
        };
        Value start = clampBound(starts[i]), end = clampBound(ends[i]);
        Value span = arith::SubIOp::create(rewriter, loc, end, start);
        Value count = arith::CeilDivSIOp::create(
            rewriter, loc, span, indexConstant(rewriter, loc, steps[i]));
        count = arith::MaxSIOp::create(rewriter, loc, count,
                                       indexConstant(rewriter, loc, 0));
        offsets.push_back(start);
        sizes.push_back(count);
      }
      auto sliced = tensor::ExtractSliceOp::create(rewriter, loc, input,
                                                   offsets, sizes, strides);
      Value result = sliced;
      if (sliced.getType() != resultType)
        result = tensor::CastOp::create(rewriter, loc, resultType, sliced);
      rewriter.replaceOp(op, result);
      return success();
    }
    // Some step is negative: read input[start + i * step] in a generic.
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < rank; ++i) {
      if (inputType.isDynamicDim(i) || resultType.isDynamicDim(i))
        return rewriter.notifyMatchFailure(
            op, "a negative step on a dimension of dynamic size");
      exprs.push_back(getAffineDimExpr(i, ctx) * steps[i] + starts[i]);
    }
    AffineMap map = AffineMap::get(rank, 0, exprs, ctx);
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, {}, input, map,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Bounds read at run time: ONNX's clamping in index arithmetic, then an
/// extract_slice (a view) when every step is a positive constant, or a
/// generic that reads input[start + i * step] otherwise. Steps read at run
/// time choose between the clamping of positive and negative steps by
/// their sign, and a zero step is a run-time error.
struct DynamicSlicePattern : OpConversionPattern<DynamicSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    int64_t rank = resultType.getRank();
    bool unsignedBounds = isUnsignedInt(elementTypeOf(op.getStarts()));
    Value zero = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    Value minusOne = indexConstant(rewriter, loc, -1);
    SmallVector<Value> starts(rank, zero), counts, steps(rank, one);
    bool positiveSteps = !op.getStepValues();
    for (int64_t d = 0; d < rank; ++d)
      counts.push_back(dimValue(rewriter, loc, input, d));
    auto readIndex = [&](Value tensor, int64_t i, bool isUnsigned) -> Value {
      Value v = tensor::ExtractOp::create(rewriter, loc, tensor,
                                          indexConstant(rewriter, loc, i));
      return isUnsigned ? Value(arith::IndexCastUIOp::create(
                              rewriter, loc, rewriter.getIndexType(), v))
                        : toIndex(rewriter, loc, v);
    };
    auto clamp = [&](Value v, Value lo, Value hi) -> Value {
      return arith::MinSIOp::create(rewriter, loc,
                                    arith::MaxSIOp::create(rewriter, loc, v, lo), hi);
    };
    auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
      return arith::CmpIOp::create(rewriter, loc, p, x, y);
    };
    for (auto [index, axis] : llvm::enumerate(op.getAxes())) {
      size_t i = index; // a plain variable: lambdas cannot capture bindings in C++17
      Value size = counts[axis];
      auto read = [&](Value bounds) -> Value {
        Value v = readIndex(bounds, i, unsignedBounds);
        return arith::SelectOp::create(
            rewriter, loc, cmp(arith::CmpIPredicate::slt, v, zero),
            arith::AddIOp::create(rewriter, loc, v, size), v);
      };
      Value step, positive;
      if (Value values = adaptor.getStepValues()) {
        step = readIndex(values, i, isUnsignedInt(elementTypeOf(op.getStepValues())));
        checkAtRunTime(rewriter, loc, op, cmp(arith::CmpIPredicate::ne, step, zero),
                       "a slice step is zero");
        positive = cmp(arith::CmpIPredicate::sgt, step, zero);
      } else {
        int64_t s = op.getSteps()[i];
        step = indexConstant(rewriter, loc, s);
        positive = arith::ConstantIntOp::create(rewriter, loc,
                                                rewriter.getI1Type(), s > 0);
        positiveSteps &= s > 0;
      }
      Value start = read(adaptor.getStarts()), end = read(adaptor.getEnds());
      Value last = arith::SubIOp::create(rewriter, loc, size, one);
      // A constant step builds only its own clamping.
      std::optional<int64_t> known = getConstantIntValue(positive);
      bool forward = !known || *known, backward = !known || !*known;
      Value forwardStart, forwardSpan, backwardStart, backwardSpan;
      if (forward) {
        forwardStart = clamp(start, zero, size);
        forwardSpan = arith::SubIOp::create(rewriter, loc,
                                            clamp(end, zero, size), forwardStart);
      }
      if (backward) {
        backwardStart =
            clamp(start, zero, arith::MaxSIOp::create(rewriter, loc, last, zero));
        backwardSpan = arith::SubIOp::create(rewriter, loc, backwardStart,
                                             clamp(end, minusOne, last));
      }
      auto select = [&](function_ref<Value()> ifPositive,
                        function_ref<Value()> ifNegative) -> Value {
        if (known)
          return *known ? ifPositive() : ifNegative();
        return arith::SelectOp::create(rewriter, loc, positive, ifPositive(),
                                       ifNegative());
      };
      Value span = select([&] { return forwardSpan; }, [&] { return backwardSpan; });
      Value magnitude = select([&] { return step; }, [&] {
        return arith::SubIOp::create(rewriter, loc, zero, step).getResult();
      });
      // A zero step (stopped by the check) must not divide by zero first.
      if (!known)
        magnitude = arith::MaxSIOp::create(rewriter, loc, magnitude, one);
      Value count = arith::CeilDivSIOp::create(rewriter, loc, span, magnitude);
      counts[axis] = arith::MaxSIOp::create(rewriter, loc, count, zero);
      starts[axis] = select([&] { return forwardStart; },
                            [&] { return backwardStart; });
      steps[axis] = step;
    }
    Value result;
    if (positiveSteps) {
      SmallVector<OpFoldResult> offsets = getAsOpFoldResult(starts);
      SmallVector<OpFoldResult> sizes = getAsOpFoldResult(counts);
      SmallVector<OpFoldResult> strides = getAsOpFoldResult(steps);
      result = tensor::ExtractSliceOp::create(rewriter, loc, input, offsets,
                                              sizes, strides);
    } else {
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < rank; ++d)
        if (resultType.isDynamicDim(d))
          dynamicSizes.push_back(counts[d]);
      result = buildParallelGeneric(
          rewriter, loc, resultType, dynamicSizes, {}, {},
          [&](OpBuilder &b, Location l, ValueRange) -> Value {
            SmallVector<Value> indices;
            for (int64_t d = 0; d < rank; ++d) {
              Value i = linalg::IndexOp::create(b, l, d);
              indices.push_back(arith::AddIOp::create(
                  b, l, starts[d], arith::MulIOp::create(b, l, i, steps[d])));
            }
            return tensor::ExtractOp::create(b, l, input, indices);
          });
    }
    if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BroadcastPattern : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = resultType.getRank();
    int64_t offset = rank - inputType.getRank();
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i) {
      if (!resultType.isDynamicDim(i))
        continue;
      if (Value shape = adaptor.getShape()) {
        auto shapeType = cast<RankedTensorType>(shape.getType());
        int64_t shapeOffset = rank - shapeType.getDimSize(0);
        if (i >= shapeOffset) {
          dynamicSizes.push_back(extractIndex(rewriter, loc, shape, i - shapeOffset));
          continue;
        }
      }
      if (i < offset)
        return rewriter.notifyMatchFailure(op, "unknown broadcast size");
      dynamicSizes.push_back(dimValue(rewriter, loc, input, i - offset));
    }
    if (!inputType.hasStaticShape()) {
      // A dynamic input size may be 1 at run time and stretch: compute the
      // source index per element.
      Value result = buildParallelGeneric(
          rewriter, loc, resultType, dynamicSizes, {}, {},
          [&](OpBuilder &b, Location l, ValueRange) {
            SmallVector<Value> indices;
            for (int64_t i = 0; i < inputType.getRank(); ++i) {
              Value index = linalg::IndexOp::create(b, l, i + offset);
              if (inputType.getDimSize(i) == 1) {
                index = indexConstant(b, l, 0);
              } else if (inputType.isDynamicDim(i)) {
                Value size = tensor::DimOp::create(b, l, input, i);
                Value isOne = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq, size, indexConstant(b, l, 1));
                index = arith::SelectOp::create(b, l, isOne,
                                                indexConstant(b, l, 0), index);
              }
              indices.push_back(index);
            }
            return tensor::ExtractOp::create(b, l, input, indices);
          });
      rewriter.replaceOp(op, result);
      return success();
    }
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, dynamicSizes, input,
        broadcastMap(rewriter.getContext(), inputType, resultType.getShape()),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The input index that a padded output reads along one dimension: `index`
/// is the output index less the begin padding, `size` the input's extent
/// (not zero). edge clamps, wrap continues periodically, reflect mirrors
/// without the edge (period 2 * (size - 1)).
Value padSourceIndex(OpBuilder &b, Location l, PadMode mode, Value index,
                     Value size) {
  Value zero = indexConstant(b, l, 0);
  Value last = arith::SubIOp::create(b, l, size, indexConstant(b, l, 1));
  if (mode == PadMode::edge) {
    index = arith::MaxSIOp::create(b, l, index, zero);
    return arith::MinSIOp::create(b, l, index, last);
  }
  if (mode == PadMode::wrap) {
    Value rem = arith::RemSIOp::create(b, l, index, size);
    Value negative =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, rem, zero);
    return arith::SelectOp::create(b, l, negative,
                                   arith::AddIOp::create(b, l, rem, size), rem);
  }
  Value period = arith::MulIOp::create(b, l, last, indexConstant(b, l, 2));
  Value safePeriod = arith::MaxSIOp::create(b, l, period, indexConstant(b, l, 1));
  Value rem = arith::RemSIOp::create(b, l, index, safePeriod);
  Value negative =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, rem, zero);
  rem = arith::SelectOp::create(b, l, negative,
                                arith::AddIOp::create(b, l, rem, safePeriod), rem);
  Value mirrored = arith::SubIOp::create(b, l, period, rem);
  Value beyond =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, rem, last);
  index = arith::SelectOp::create(b, l, beyond, mirrored, rem);
  return arith::MinSIOp::create(b, l, index, last);
}

/// reflect / edge / wrap padding as a generic that maps each output index
/// back into the input; `low` are the begin paddings (index values) and
/// `dynamicSizes` the result's dynamic extents.
Value padByIndexMap(OpBuilder &builder, Location loc, PadMode mode, Value input,
                    RankedTensorType resultType, ArrayRef<Value> low,
                    ValueRange dynamicSizes) {
  int64_t rank = resultType.getRank();
  return buildParallelGeneric(
      builder, loc, resultType, dynamicSizes, {}, {},
      [&](OpBuilder &b, Location l, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t i = 0; i < rank; ++i) {
          Value index = arith::SubIOp::create(
              b, l, linalg::IndexOp::create(b, l, i), low[i]);
          indices.push_back(
              padSourceIndex(b, l, mode, index, dimValue(b, l, input, i)));
        }
        return tensor::ExtractOp::create(b, l, input, indices);
      });
}

/// The scalar a constant pad fills with: `value` or zero.
Value padFill(OpBuilder &b, Location loc, Value value, Type elementType) {
  if (value)
    return tensor::ExtractOp::create(b, loc, value, ValueRange{});
  return scalarConstant(b, loc, elementType, 0);
}

struct PadPattern : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> padding = op.getPadding();
    SmallVector<int64_t> low(padding.take_front(rank)),
        high(padding.drop_front(rank));
    if (op.getMode() == PadMode::constant) {
      Value value = padFill(rewriter, loc, adaptor.getValue(),
                            inputType.getElementType());
      Value padded = padTensor(rewriter, loc, input, low, high, value);
      if (padded.getType() != resultType)
        padded = tensor::CastOp::create(rewriter, loc, resultType, padded);
      rewriter.replaceOp(op, padded);
      return success();
    }
    SmallVector<Value> dynamicSizes, lowValues;
    for (int64_t i = 0; i < rank; ++i) {
      lowValues.push_back(indexConstant(rewriter, loc, low[i]));
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(arith::AddIOp::create(
            rewriter, loc, dimValue(rewriter, loc, input, i),
            indexConstant(rewriter, loc, low[i] + high[i])));
    }
    rewriter.replaceOp(op, padByIndexMap(rewriter, loc, op.getMode(), input,
                                         resultType, lowValues, dynamicSizes));
    return success();
  }
};

/// Pads read at run time. Constant mode pads by the positive amounts
/// (tensor.pad) and then crops the negative ones (extract_slice), the order
/// of ONNX's reference, which matters when a crop reaches into the padding.
/// The other modes map output indices into the input; they cannot fill
/// from an empty dimension, which is a run-time error.
struct DynamicPadPattern : OpConversionPattern<DynamicPadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicPadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    Value zero = indexConstant(rewriter, loc, 0);
    SmallVector<Value> low, high, sizes, extents;
    for (int64_t i = 0; i < 2 * rank; ++i) {
      Value amount = tensor::ExtractOp::create(
          rewriter, loc, adaptor.getPads(),
          ValueRange{indexConstant(rewriter, loc, i)});
      (i < rank ? low : high).push_back(toIndex(rewriter, loc, amount));
    }
    for (int64_t i = 0; i < rank; ++i) {
      sizes.push_back(dimValue(rewriter, loc, input, i));
      extents.push_back(arith::AddIOp::create(
          rewriter, loc, sizes[i],
          arith::AddIOp::create(rewriter, loc, low[i], high[i])));
    }
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(extents[i]);
    Value result;
    if (op.getMode() == PadMode::constant) {
      SmallVector<OpFoldResult> padLow, padHigh, offsets, resultSizes;
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      for (int64_t i = 0; i < rank; ++i) {
        padLow.push_back(arith::MaxSIOp::create(rewriter, loc, low[i], zero).getResult());
        padHigh.push_back(arith::MaxSIOp::create(rewriter, loc, high[i], zero).getResult());
        // The begin crop: -min(low, 0).
        offsets.push_back(arith::SubIOp::create(
                              rewriter, loc, zero,
                              arith::MinSIOp::create(rewriter, loc, low[i], zero))
                              .getResult());
        resultSizes.push_back(extents[i]);
      }
      SmallVector<int64_t> paddedShape(rank, ShapedType::kDynamic);
      auto paddedType = RankedTensorType::get(paddedShape, inputType.getElementType());
      Value fill = padFill(rewriter, loc, adaptor.getValue(),
                           inputType.getElementType());
      Value padded = tensor::PadOp::create(rewriter, loc, paddedType, input,
                                           padLow, padHigh, fill);
      result = tensor::ExtractSliceOp::create(rewriter, loc, padded, offsets,
                                              resultSizes, strides);
    } else {
      for (int64_t i = 0; i < rank; ++i) {
        Value empty = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                            sizes[i], zero);
        Value none = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                           extents[i], zero);
        checkAtRunTime(
            rewriter, loc, op,
            arith::OrIOp::create(rewriter, loc,
                                 arith::XOrIOp::create(
                                     rewriter, loc, empty,
                                     arith::ConstantIntOp::create(
                                         rewriter, loc, rewriter.getI1Type(), 1)),
                                 none),
            "mode '" + stringifyPadMode(op.getMode()) +
                "' cannot pad dimension " + Twine(i) + ", which is empty");
      }
      auto type = RankedTensorType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                                        inputType.getElementType());
      result = padByIndexMap(rewriter, loc, op.getMode(), input, type, low,
                             extents);
    }
    if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateShapePatterns(TcTypeConverter &converter,
                           RewritePatternSet &patterns) {
  patterns.add<ReshapePattern, TransposePattern, ConcatPattern, SlicePattern,
               DynamicSlicePattern, DynamicPadPattern,
               BroadcastPattern, PadPattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
