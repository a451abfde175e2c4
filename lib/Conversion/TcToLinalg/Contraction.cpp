//===- Contraction.cpp - tc.matmul, tc.batch_matmul, tc.conv to linalg ----===//
//
// Contractions accumulate in f32 when their operands are f16 or bf16 and
// truncate once at the end. tc.matmul becomes linalg.matmul (what the
// vectorizer and the GPU lowering know best); batch matmul with numpy batch
// broadcasting and N-D grouped convolution become linalg.generic, because no
// named op covers every rank and group count.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

/// acc + lhs * rhs in the accumulator type.
Value multiplyAccumulate(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         Value acc, Type tcType) {
  Type accType = acc.getType();
  lhs = castScalar(b, loc, lhs, tcType, accType);
  rhs = castScalar(b, loc, rhs, tcType, accType);
  if (isa<FloatType>(accType))
    return arith::AddFOp::create(
        b, loc, acc, arith::MulFOp::create(b, loc, lhs, rhs));
  return arith::AddIOp::create(b, loc, acc,
                               arith::MulIOp::create(b, loc, lhs, rhs));
}

/// Carries `source`'s mark of TF32 factors (kTf32FactorsAttr) to the
/// linalg op that computes its products.
void keepTf32Mark(Operation *source, Operation *lowered) {
  if (source->hasAttr(kTf32FactorsAttr))
    lowered->setAttr(kTf32FactorsAttr, UnitAttr::get(source->getContext()));
}

/// A generic `init += lhs * rhs` over `maps`/`iterators`: the one shape of
/// every contraction here (matmul, batch matmul, convolution). It keeps
/// `source`'s mark of TF32 factors (kTf32FactorsAttr).
Value contractionGeneric(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         Value init, ArrayRef<AffineMap> maps,
                         ArrayRef<utils::IteratorType> iterators, Type tcType,
                         Operation *source) {
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nested, l,
            multiplyAccumulate(nested, l, args[0], args[1], args[2], tcType));
      });
  keepTf32Mark(source, generic);
  return generic.getResult(0);
}

/// Casts the accumulator tensor back to the result element type.
Value finishAccumulation(OpBuilder &b, Location loc, Value acc, Type tcType) {
  Type accType = elementTypeOf(acc);
  if (accType == tcType || isa<IntegerType>(tcType))
    return acc;
  return castTensor(b, loc, acc, accType, tcType);
}

struct MatmulPattern : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Type tcType = elementTypeOf(op.getLhs());
    Type accType = accumulatorType(resultType.getElementType());
    checkSameExtent(rewriter, loc, op, adaptor.getLhs(), 1, adaptor.getRhs(),
                    0, "the lhs columns and rhs rows (the contraction extent)");
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(dimValue(rewriter, loc, adaptor.getLhs(), 0));
    if (resultType.isDynamicDim(1))
      dynamicSizes.push_back(dimValue(rewriter, loc, adaptor.getRhs(), 1));
    RankedTensorType accTensor = resultType.clone(accType);
    Value init = filledTensor(rewriter, loc, accTensor, dynamicSizes,
                              scalarConstant(rewriter, loc, accType, 0));
    Value acc;
    if (isUnsignedInt(tcType)) {
      // linalg.matmul sign-extends mixed types; unsigned needs a generic.
      AffineExpr m, n, k;
      bindDims(rewriter.getContext(), m, n, k);
      MLIRContext *ctx = rewriter.getContext();
      SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, k}, ctx),
                                     AffineMap::get(3, 0, {k, n}, ctx),
                                     AffineMap::get(3, 0, {m, n}, ctx)};
      acc = contractionGeneric(
          rewriter, loc, adaptor.getLhs(), adaptor.getRhs(), init, maps,
          {utils::IteratorType::parallel, utils::IteratorType::parallel,
           utils::IteratorType::reduction},
          tcType, op);
    } else {
      auto matmul = linalg::MatmulOp::create(
          rewriter, loc, TypeRange{accTensor},
          ValueRange{adaptor.getLhs(), adaptor.getRhs()}, ValueRange{init});
      keepTf32Mark(op, matmul);
      acc = matmul.getResult(0);
    }
    rewriter.replaceOp(op, finishAccumulation(rewriter, loc, acc, tcType));
    return success();
  }
};

/// A batch matmul whose rhs is one matrix for the whole batch (every rhs
/// batch extent a static 1, a weight shared by the batch) and whose lhs
/// batch is not a static 1 (dynamic, as in a model exported with dynamic
/// batch and sequence axes, or larger): one linalg.matmul of the lhs with
/// its batch collapsed into the rows, [B... * M, K] x [K, N], expanded back
/// to [B..., M, N]. Views only; the CPU pipeline moves the expansion past
/// elementwise consumers (FuseElementwise), so the matmul keeps its fused
/// epilogue, as a static batch of 1 does once its unit loop is dropped.
/// Not for unsigned operands: linalg.matmul sign-extends.
bool isSharedWeight(RankedTensorType lhsType, RankedTensorType rhsType,
                    Type tcType) {
  int64_t rank = lhsType.getRank(), batch = rank - 2;
  if (batch < 1 || rhsType.getRank() != rank || isUnsignedInt(tcType))
    return false;
  return llvm::all_of(rhsType.getShape().take_front(batch),
                      [](int64_t size) { return size == 1; }) &&
         !llvm::all_of(lhsType.getShape().take_front(batch),
                       [](int64_t size) { return size == 1; });
}

/// The rewrite of isSharedWeight's batch matmul, in the accumulator type.
Value sharedWeightMatmul(ConversionPatternRewriter &rewriter, Location loc,
                         Value lhs, Value rhs, RankedTensorType resultType,
                         Type accType, Operation *source) {
  int64_t rank = resultType.getRank(), batch = rank - 2;
  ReassociationIndices leading;
  for (int64_t i = 0; i <= batch; ++i)
    leading.push_back(i);
  SmallVector<ReassociationIndices> reassociation = {leading, {batch + 1}};
  Value rows = tensor::CollapseShapeOp::create(rewriter, loc, lhs, reassociation);
  Value matrix = tensor::CollapseShapeOp::create(rewriter, loc, rhs, reassociation);
  auto rowsType = cast<RankedTensorType>(rows.getType());
  auto flatType = RankedTensorType::get(
      {rowsType.getDimSize(0), resultType.getDimSize(rank - 1)}, accType);
  SmallVector<Value> dynamicSizes;
  if (flatType.isDynamicDim(0))
    dynamicSizes.push_back(dimValue(rewriter, loc, rows, 0));
  if (flatType.isDynamicDim(1))
    dynamicSizes.push_back(dimValue(rewriter, loc, matrix, 1));
  Value init = filledTensor(rewriter, loc, flatType, dynamicSizes,
                            scalarConstant(rewriter, loc, accType, 0));
  auto matmul = linalg::MatmulOp::create(rewriter, loc, TypeRange{flatType},
                                         ValueRange{rows, matrix},
                                         ValueRange{init});
  keepTf32Mark(source, matmul);
  Value flat = matmul.getResult(0);
  SmallVector<OpFoldResult> outputShape = mixedSizes(rewriter, loc, lhs);
  outputShape.back() = tensor::getMixedSize(rewriter, loc, matrix, 1);
  return tensor::ExpandShapeOp::create(rewriter, loc, resultType.clone(accType), flat,
                                       reassociation, outputShape)
      .getResult();
}

struct BatchMatmulPattern : OpConversionPattern<BatchMatmulOp> {
  BatchMatmulPattern(TypeConverter &converter, MLIRContext *ctx,
                     bool collapseSharedWeight)
      : OpConversionPattern(converter, ctx),
        collapseSharedWeight(collapseSharedWeight) {}
  bool collapseSharedWeight;

  LogicalResult
  matchAndRewrite(BatchMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    int64_t rank = resultType.getRank(), batch = rank - 2;
    Type tcType = elementTypeOf(op.getLhs());
    Type accType = accumulatorType(resultType.getElementType());
    if (collapseSharedWeight && isSharedWeight(lhsType, rhsType, tcType)) {
      checkSameExtent(rewriter, loc, op, lhs, batch + 1, rhs, batch,
                      "the lhs columns and rhs rows (the contraction extent)");
      Value shared =
          sharedWeightMatmul(rewriter, loc, lhs, rhs, resultType, accType, op);
      rewriter.replaceOp(op, finishAccumulation(rewriter, loc, shared, tcType));
      return success();
    }

    // Loops: batch..., m, n, k.
    SmallVector<AffineExpr> lhsExprs, rhsExprs, outExprs;
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < batch; ++i) {
      AffineExpr d = getAffineDimExpr(i, ctx);
      AffineExpr zero = getAffineConstantExpr(0, ctx);
      bool lhsBroadcast =
          lhsType.getDimSize(i) == 1 && resultType.getDimSize(i) != 1;
      bool rhsBroadcast =
          rhsType.getDimSize(i) == 1 && resultType.getDimSize(i) != 1;
      lhsExprs.push_back(lhsBroadcast ? zero : d);
      rhsExprs.push_back(rhsBroadcast ? zero : d);
      if (!lhsBroadcast && !rhsBroadcast)
        checkSameExtent(rewriter, loc, op, lhs, i, rhs, i,
                        "the operands' extents on batch axis " + Twine(i) +
                            " (a run-time 1 does not broadcast)");
      outExprs.push_back(d);
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(dimValue(
            rewriter, loc, lhsType.isDynamicDim(i) ? lhs : rhs, i));
    }
    AffineExpr m = getAffineDimExpr(batch, ctx);
    AffineExpr n = getAffineDimExpr(batch + 1, ctx);
    AffineExpr k = getAffineDimExpr(batch + 2, ctx);
    lhsExprs.append({m, k});
    rhsExprs.append({k, n});
    outExprs.append({m, n});
    checkSameExtent(rewriter, loc, op, lhs, batch + 1, rhs, batch,
                    "the lhs columns and rhs rows (the contraction extent)");
    if (resultType.isDynamicDim(batch))
      dynamicSizes.push_back(dimValue(rewriter, loc, lhs, batch));
    if (resultType.isDynamicDim(batch + 1))
      dynamicSizes.push_back(dimValue(rewriter, loc, rhs, batch + 1));

    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, lhsExprs, ctx),
        AffineMap::get(rank + 1, 0, rhsExprs, ctx),
        AffineMap::get(rank + 1, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
    iterators.push_back(utils::IteratorType::reduction);
    RankedTensorType accTensor = resultType.clone(accType);
    Value init = filledTensor(rewriter, loc, accTensor, dynamicSizes,
                              scalarConstant(rewriter, loc, accType, 0));
    Value acc = contractionGeneric(rewriter, loc, lhs, rhs, init, maps,
                                   iterators, tcType, op);
    rewriter.replaceOp(op, finishAccumulation(rewriter, loc, acc, tcType));
    return success();
  }
};

/// Splits dimension `dim` of `tensor` into (groups, size / groups).
Value splitGroups(OpBuilder &b, Location loc, Value tensor, int64_t dim,
                  int64_t groups) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> outputShape;
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<OpFoldResult> sizes = mixedSizes(b, loc, tensor);
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i != dim) {
      reassociation.push_back({static_cast<int64_t>(shape.size())});
      shape.push_back(type.getDimSize(i));
      outputShape.push_back(sizes[i]);
      continue;
    }
    int64_t size = type.getDimSize(i);
    reassociation.push_back({static_cast<int64_t>(shape.size()),
                             static_cast<int64_t>(shape.size()) + 1});
    shape.push_back(groups);
    shape.push_back(size / groups);
    outputShape.push_back(b.getIndexAttr(groups));
    outputShape.push_back(b.getIndexAttr(size / groups));
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), tensor,
                                       reassociation, outputShape);
}

/// Strides, dilations and padding of a (transposed) convolution, with the
/// defaults for absent attributes.
struct Window {
  SmallVector<int64_t> strides, dilations, padding;
};
template <typename OpTy> Window readWindow(OpTy op, int64_t spatial) {
  SmallVector<int64_t> strides(spatial, 1), dilations(spatial, 1),
      padding(2 * spatial, 0);
  if (auto attr = op.getStrides())
    strides.assign(attr->begin(), attr->end());
  if (auto attr = op.getDilations())
    dilations.assign(attr->begin(), attr->end());
  if (auto attr = op.getPadding())
    padding.assign(attr->begin(), attr->end());
  return {strides, dilations, padding};
}

/// The accumulator a convolution starts from: `bias` [F] broadcast along
/// dim `channelDim`, or zeros.
Value biasOrZeros(OpBuilder &b, Location loc, RankedTensorType accTensor,
                  ValueRange dynamicSizes, Value bias, Type tcType,
                  int64_t channelDim = 1) {
  Type accType = accTensor.getElementType();
  if (!bias)
    return filledTensor(b, loc, accTensor, dynamicSizes,
                        scalarConstant(b, loc, accType, 0));
  MLIRContext *ctx = b.getContext();
  AffineMap biasMap = AffineMap::get(accTensor.getRank(), 0,
                                     {getAffineDimExpr(channelDim, ctx)}, ctx);
  return buildParallelGeneric(
      b, loc, accTensor, dynamicSizes, bias, biasMap,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        return castScalar(nested, l, args[0], tcType, accType);
      });
}

/// A channels_last convolution: input [N, D..., C], result [N, O..., F],
/// the channels innermost, so that the register tile's lanes are output
/// channels and every read of an input position is a contiguous vector of
/// channels. Loops:
/// - pointwise (1x1, unit strides, no padding): a matmul over the
///   collapsed image, (n, p, f, c), the filter read as [F, C];
/// - depthwise (groups = C = F): (n, o..., c, k...), the filter as [C, K...];
/// - ungrouped: (n, o..., f, c, k...).
/// --tc-channels-last creates no other form.
LogicalResult lowerChannelsLast(ConvOp op, ConvOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter,
                                RankedTensorType resultType, Type tcType) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  auto filterType = cast<RankedTensorType>(adaptor.getFilter().getType());
  int64_t rank = resultType.getRank(), spatial = rank - 2;
  int64_t groups = op.getGroups();
  int64_t channels = filterType.getDimSize(1) * groups;
  bool depthwise =
      groups > 1 && groups == channels && filterType.getDimSize(0) == channels;
  if (groups > 1 && !depthwise)
    return rewriter.notifyMatchFailure(
        op, "channels_last with groups other than depthwise");
  for (int64_t i = 1; i <= spatial; ++i)
    if (resultType.isDynamicDim(i))
      return rewriter.notifyMatchFailure(op,
                                         "channels_last with dynamic spaces");
  Type accType = accumulatorType(resultType.getElementType());
  Window window = readWindow(op, spatial);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };

  SmallVector<Value> dynamicSizes;
  if (resultType.isDynamicDim(0))
    dynamicSizes.push_back(dimValue(rewriter, loc, adaptor.getInput(), 0));
  RankedTensorType accTensor = resultType.clone(accType);

  bool pointwise = !depthwise &&
                   window.strides == SmallVector<int64_t>(spatial, 1) &&
                   window.padding == SmallVector<int64_t>(2 * spatial, 0) &&
                   llvm::all_of(filterType.getShape().drop_front(2),
                                [](int64_t k) { return k == 1; });
  // The filter without its window ([F, C]) or its unit channel ([C, K...]).
  ReassociationIndices tail;
  for (int64_t i = 1; i < rank; ++i)
    tail.push_back(i);
  if (pointwise) {
    // The bias joins after the sum, as a matmul's does: an init computed
    // from it would sit behind the reshape that --tc-cpu-pack-weights puts
    // on the output, outside the kernel's workgroups.
    // A fill of the collapsed [N, P, F] itself, which --tc-cpu-pack-weights
    // rebuilds in its panel shape.
    int64_t pixels = 1;
    SmallVector<OpFoldResult> outputShape = {
        resultType.isDynamicDim(0)
            ? OpFoldResult(dynamicSizes.front())
            : rewriter.getIndexAttr(resultType.getDimSize(0))};
    ReassociationIndices space;
    for (int64_t i = 1; i <= spatial; ++i) {
      space.push_back(i);
      pixels *= resultType.getDimSize(i);
      outputShape.push_back(rewriter.getIndexAttr(resultType.getDimSize(i)));
    }
    outputShape.push_back(
        rewriter.getIndexAttr(resultType.getDimSize(rank - 1)));
    SmallVector<ReassociationIndices> flatten = {{0}, space, {rank - 1}};
    Value flatInit =
        filledTensor(rewriter, loc,
                     RankedTensorType::get({resultType.getDimSize(0), pixels,
                                            resultType.getDimSize(rank - 1)},
                                           accType),
                     dynamicSizes, scalarConstant(rewriter, loc, accType, 0));
    Value input = tensor::CollapseShapeOp::create(rewriter, loc,
                                                  adaptor.getInput(), flatten);
    Value filter = tensor::CollapseShapeOp::create(
        rewriter, loc, adaptor.getFilter(),
        SmallVector<ReassociationIndices>{{0}, tail});
    SmallVector<AffineMap> maps = {
        AffineMap::get(4, 0, {d(0), d(1), d(3)}, ctx),
        AffineMap::get(4, 0, {d(2), d(3)}, ctx),
        AffineMap::get(4, 0, {d(0), d(1), d(2)}, ctx)};
    SmallVector<utils::IteratorType> iterators = parallelIterators(3);
    iterators.push_back(utils::IteratorType::reduction);
    Value acc = contractionGeneric(rewriter, loc, input, filter, flatInit, maps,
                                   iterators, tcType, op);
    acc = tensor::ExpandShapeOp::create(rewriter, loc, accTensor, acc, flatten,
                                        outputShape);
    if (Value bias = adaptor.getBias()) {
      AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
      AffineMap channel = AffineMap::get(rank, 0, {d(rank - 1)}, ctx);
      acc = buildParallelGeneric(
          rewriter, loc, accTensor, dynamicSizes, ValueRange{acc, bias},
          {identity, channel},
          [&](OpBuilder &nested, Location l, ValueRange args) -> Value {
            Value b = castScalar(nested, l, args[1], tcType, accType);
            if (isa<FloatType>(accType))
              return arith::AddFOp::create(nested, l, args[0], b);
            return arith::AddIOp::create(nested, l, args[0], b);
          });
    }
    rewriter.replaceOp(op, finishAccumulation(rewriter, loc, acc, tcType));
    return success();
  }

  Value init = biasOrZeros(rewriter, loc, accTensor, dynamicSizes,
                           adaptor.getBias(), tcType, rank - 1);
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    low[1 + i] = window.padding[i];
    high[1 + i] = window.padding[spatial + i];
  }
  Value input =
      padTensor(rewriter, loc, adaptor.getInput(), low, high,
                scalarConstant(rewriter, loc, resultType.getElementType(), 0));
  Value filter = adaptor.getFilter();
  // Loops: n, o_1..o_S, [f,] c, k_1..k_S.
  int64_t o = 1, f = depthwise ? -1 : 1 + spatial;
  int64_t c = 1 + spatial + (depthwise ? 0 : 1), k = c + 1;
  int64_t loops = k + spatial;
  SmallVector<AffineExpr> inputExprs = {d(0)}, filterExprs, outExprs = {d(0)};
  for (int64_t i = 0; i < spatial; ++i) {
    inputExprs.push_back(d(o + i) * window.strides[i] +
                         d(k + i) * window.dilations[i]);
    outExprs.push_back(d(o + i));
  }
  inputExprs.push_back(d(c));
  if (depthwise) {
    SmallVector<ReassociationIndices> dropUnit = {{0, 1}};
    for (int64_t i = 2; i < rank; ++i)
      dropUnit.push_back({i});
    filter = tensor::CollapseShapeOp::create(rewriter, loc, filter, dropUnit);
    filterExprs.push_back(d(c));
    outExprs.push_back(d(c));
  } else {
    filterExprs.append({d(f), d(c)});
    outExprs.push_back(d(f));
  }
  for (int64_t i = 0; i < spatial; ++i)
    filterExprs.push_back(d(k + i));
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inputExprs, ctx),
                                 AffineMap::get(loops, 0, filterExprs, ctx),
                                 AffineMap::get(loops, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iterators = parallelIterators(c);
  iterators.append(loops - c, utils::IteratorType::reduction);
  if (depthwise)
    iterators[c] = utils::IteratorType::parallel;
  Value acc = contractionGeneric(rewriter, loc, input, filter, init, maps,
                                 iterators, tcType, op);
  rewriter.replaceOp(op, finishAccumulation(rewriter, loc, acc, tcType));
  return success();
}

struct ConvPattern : OpConversionPattern<ConvOp> {
  ConvPattern(TypeConverter &converter, MLIRContext *ctx,
              bool denseStridedPointwise)
      : OpConversionPattern(converter, ctx),
        denseStridedPointwise(denseStridedPointwise) {}
  bool denseStridedPointwise;

  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    auto filterType = cast<RankedTensorType>(adaptor.getFilter().getType());
    int64_t spatial = resultType.getRank() - 2;
    int64_t groups = op.getGroups();
    if (filterType.isDynamicDim(0) || filterType.isDynamicDim(1))
      return rewriter.notifyMatchFailure(op, "dynamic filter channels");
    Type tcType = elementTypeOf(op.getInput());
    if (op.getChannelsLast())
      return lowerChannelsLast(op, adaptor, rewriter, resultType, tcType);
    Type accType = accumulatorType(resultType.getElementType());
    Window window = readWindow(op, spatial);
    SmallVector<int64_t> &strides = window.strides,
                         &dilations = window.dilations,
                         &padding = window.padding;

    // With groups, input is viewed as [N, G, C/G, D...], filter as
    // [G, F/G, C/G, K...] and the output as [N, G, F/G, O...], so that every
    // output map stays a projected permutation (needed for tiling). The
    // padding applies to the grouped view: a pad below the reshape could
    // not be fused into the workgroups that split the groups.
    for (int64_t i = 2; i < resultType.getRank(); ++i)
      if (resultType.isDynamicDim(i) && filterType.isDynamicDim(i))
        return rewriter.notifyMatchFailure(op, "dynamic spatial size and "
                                               "dynamic kernel size");
    bool grouped = groups > 1;
    Value input = adaptor.getInput();
    if (grouped)
      input = splitGroups(rewriter, loc, input, 1, groups);
    SmallVector<int64_t> low(grouped ? 3 : 2, 0), high(grouped ? 3 : 2, 0);
    for (int64_t i = 0; i < spatial; ++i) {
      low.push_back(padding[i]);
      high.push_back(padding[spatial + i]);
    }
    input = padTensor(rewriter, loc, input, low, high,
                      scalarConstant(rewriter, loc,
                                     resultType.getElementType(), 0));

    // Output init: the bias broadcast over batch and space, or zeros.
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(dimValue(rewriter, loc, adaptor.getInput(), 0));
    for (int64_t i = 0; i < spatial; ++i)
      if (resultType.isDynamicDim(2 + i))
        dynamicSizes.push_back(windowedOutputSize(
            rewriter, loc, op, adaptor.getInput(), i,
            filterType.getDimSize(2 + i), strides[i], dilations[i], padding[i],
            padding[spatial + i], /*ceilMode=*/false, "kernel window"));
    RankedTensorType accTensor = resultType.clone(accType);
    Value init = biasOrZeros(rewriter, loc, accTensor, dynamicSizes,
                             adaptor.getBias(), tcType);

    // A 1x1 convolution without padding is a matmul over the flattened
    // spatial positions: views [N, C, P] and [F, C] keep the innermost loop
    // as long as the whole image, instead of one row. With strides (ResNet's
    // downsampling), the positions it reads are first copied into a dense
    // [N, C, O...] (a quarter of the input, read once; only with
    // denseStridedPointwise, the CPU's choice): a windowed
    // convolution would read every other column into its lanes with a
    // shuffle per reduction step, at two thirds of the matmul's speed.
    bool unitStrides = strides == SmallVector<int64_t>(spatial, 1);
    bool pointwise =
        groups == 1 && padding == SmallVector<int64_t>(2 * spatial, 0) &&
        llvm::all_of(filterType.getShape().drop_front(2),
                     [](int64_t k) { return k == 1; }) &&
        spatial > 1 &&
        (unitStrides ||
         (denseStridedPointwise && llvm::all_of(resultType.getShape().drop_front(2),
                      [](int64_t size) { return !ShapedType::isDynamic(size); })));
    if (pointwise) {
      Value dense = adaptor.getInput();
      if (!unitStrides) {
        auto inputType = cast<RankedTensorType>(dense.getType());
        SmallVector<int64_t> shape = {inputType.getDimSize(0),
                                      inputType.getDimSize(1)};
        SmallVector<AffineExpr> reads = {getAffineDimExpr(0, ctx),
                                         getAffineDimExpr(1, ctx)};
        for (int64_t i = 0; i < spatial; ++i) {
          shape.push_back(resultType.getDimSize(2 + i));
          reads.push_back(getAffineDimExpr(2 + i, ctx) * strides[i]);
        }
        SmallVector<Value> batch;
        if (inputType.isDynamicDim(0))
          batch.push_back(dimValue(rewriter, loc, dense, 0));
        dense = buildParallelGeneric(
            rewriter, loc, inputType.clone(shape), batch, dense,
            AffineMap::get(spatial + 2, 0, reads, ctx),
            [](OpBuilder &, Location, ValueRange args) { return args[0]; });
      }
      ReassociationIndices space;
      for (int64_t i = 0; i < spatial; ++i)
        space.push_back(2 + i);
      SmallVector<ReassociationIndices> flatten = {{0}, {1}, space};
      Value flatInput =
          tensor::CollapseShapeOp::create(rewriter, loc, dense, flatten);
      ReassociationIndices filterTail = {1};
      for (int64_t i = 0; i < spatial; ++i)
        filterTail.push_back(2 + i);
      Value flatFilter = tensor::CollapseShapeOp::create(
          rewriter, loc, adaptor.getFilter(),
          SmallVector<ReassociationIndices>{{0}, filterTail});
      Value flatInit =
          tensor::CollapseShapeOp::create(rewriter, loc, init, flatten);
      auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
      // Loops: n, f, p, c.
      SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {d(0), d(3), d(2)}, ctx),
                                     AffineMap::get(4, 0, {d(1), d(3)}, ctx),
                                     AffineMap::get(4, 0, {d(0), d(1), d(2)}, ctx)};
      SmallVector<utils::IteratorType> iterators = parallelIterators(3);
      iterators.push_back(utils::IteratorType::reduction);
      Value acc = contractionGeneric(rewriter, loc, flatInput, flatFilter,
                                     flatInit, maps, iterators, tcType, op);
      acc = tensor::ExpandShapeOp::create(rewriter, loc, accTensor, acc, flatten,
                                          mixedSizes(rewriter, loc, init));
      rewriter.replaceOp(op, finishAccumulation(rewriter, loc, acc, tcType));
      return success();
    }

    Value filter = adaptor.getFilter();
    Value output = init;
    if (grouped) {
      filter = splitGroups(rewriter, loc, filter, 0, groups);
      output = splitGroups(rewriter, loc, init, 1, groups);
    }
    // Loops: n, [g], f, o_1..o_S, c, k_1..k_S.
    int64_t g = grouped ? 1 : -1;
    int64_t f = grouped ? 2 : 1;
    int64_t o = f + 1, c = o + spatial, k = c + 1;
    int64_t loops = k + spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> inputExprs = {d(0)}, filterExprs, outExprs = {d(0)};
    if (grouped) {
      inputExprs.push_back(d(g));
      filterExprs.push_back(d(g));
      outExprs.push_back(d(g));
    }
    inputExprs.push_back(d(c));
    filterExprs.append({d(f), d(c)});
    outExprs.push_back(d(f));
    for (int64_t i = 0; i < spatial; ++i) {
      inputExprs.push_back(d(o + i) * strides[i] + d(k + i) * dilations[i]);
      filterExprs.push_back(d(k + i));
      outExprs.push_back(d(o + i));
    }
    SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inputExprs, ctx),
                                   AffineMap::get(loops, 0, filterExprs, ctx),
                                   AffineMap::get(loops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators = parallelIterators(c);
    iterators.append(spatial + 1, utils::IteratorType::reduction);
    Value acc = contractionGeneric(rewriter, loc, input, filter, output, maps,
                                   iterators, tcType, op);
    if (grouped) {
      SmallVector<ReassociationIndices> reassociation = {{0}, {1, 2}};
      for (int64_t i = 0; i < spatial; ++i)
        reassociation.push_back({3 + i});
      acc = tensor::CollapseShapeOp::create(rewriter, loc, accTensor, acc,
                                            reassociation);
    }
    rewriter.replaceOp(op, finishAccumulation(rewriter, loc, acc, tcType));
    return success();
  }
};

/// out[n, f, o] = bias[f] + sum_{c, k} x[n, c, i] * w[c, f, k] over the
/// input positions i with i * stride + k * dilation = o + pad_begin. The
/// input is read with tensor.extract (the inverse map is not affine); the
/// filter and output keep affine maps, split by group as in ConvPattern.
struct ConvTransposePattern : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto filterType = cast<RankedTensorType>(adaptor.getFilter().getType());
    int64_t spatial = resultType.getRank() - 2;
    int64_t groups = op.getGroups();
    if (!filterType.hasStaticShape() || ShapedType::isDynamic(inputType.getDimSize(1)))
      return rewriter.notifyMatchFailure(op, "dynamic channels or kernel");
    for (int64_t i = 2; i < resultType.getRank(); ++i)
      if (resultType.isDynamicDim(i) || inputType.isDynamicDim(i))
        return rewriter.notifyMatchFailure(op, "dynamic spatial size");
    Type tcType = elementTypeOf(op.getInput());
    Type accType = accumulatorType(resultType.getElementType());
    Window window = readWindow(op, spatial);
    SmallVector<int64_t> &strides = window.strides,
                         &dilations = window.dilations,
                         &padding = window.padding;
    int64_t channelsPerGroup = inputType.getDimSize(1) / groups;

    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(dimValue(rewriter, loc, input, 0));
    RankedTensorType accTensor = resultType.clone(accType);
    Value init = biasOrZeros(rewriter, loc, accTensor, dynamicSizes,
                             adaptor.getBias(), tcType);
    // Filter [C, F/G, K...] viewed as [G, C/G, F/G, K...]; output as
    // [N, G, F/G, O...]. Loops: n, g, f, o..., c, k...
    Value filter = splitGroups(rewriter, loc, adaptor.getFilter(), 0, groups);
    Value output = splitGroups(rewriter, loc, init, 1, groups);
    int64_t o = 3, c = o + spatial, k = c + 1, loops = k + spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> filterExprs = {d(1), d(c), d(2)},
                            outExprs = {d(0), d(1), d(2)};
    for (int64_t i = 0; i < spatial; ++i) {
      filterExprs.push_back(d(k + i));
      outExprs.push_back(d(o + i));
    }
    SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, filterExprs, ctx),
                                   AffineMap::get(loops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators = parallelIterators(c);
    iterators.append(spatial + 1, utils::IteratorType::reduction);
    Value acc =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{output.getType()}, ValueRange{filter},
            ValueRange{output}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              auto idx = [&](int64_t v) {
                return arith::ConstantIndexOp::create(b, l, v);
              };
              Value channel = arith::AddIOp::create(
                  b, l,
                  arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, 1),
                                        idx(channelsPerGroup)),
                  linalg::IndexOp::create(b, l, c));
              SmallVector<Value> position = {linalg::IndexOp::create(b, l, 0),
                                             channel};
              Value valid = arith::ConstantIntOp::create(b, l, 1, 1);
              for (int64_t i = 0; i < spatial; ++i) {
                // num = o + pad_begin - k * dilation; i = num / stride.
                Value num = arith::SubIOp::create(
                    b, l,
                    arith::AddIOp::create(b, l, linalg::IndexOp::create(b, l, o + i),
                                          idx(padding[i])),
                    arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, k + i),
                                          idx(dilations[i])));
                Value quotient = arith::FloorDivSIOp::create(b, l, num, idx(strides[i]));
                Value exact = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq,
                    arith::MulIOp::create(b, l, quotient, idx(strides[i])), num);
                Value low = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                                  quotient, idx(0));
                Value high = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::slt, quotient,
                    idx(inputType.getDimSize(i + 2)));
                valid = arith::AndIOp::create(
                    b, l, valid,
                    arith::AndIOp::create(b, l, exact,
                                          arith::AndIOp::create(b, l, low, high)));
                position.push_back(quotient);
              }
              for (int64_t i = 2; i < static_cast<int64_t>(position.size()); ++i)
                position[i] = arith::SelectOp::create(b, l, valid, position[i], idx(0));
              Value x = tensor::ExtractOp::create(b, l, input, position);
              Value sum =
                  multiplyAccumulate(b, l, x, args[0], args[1], tcType);
              linalg::YieldOp::create(
                  b, l, ValueRange{arith::SelectOp::create(b, l, valid, sum, args[1])});
            })
            .getResult(0);
    SmallVector<ReassociationIndices> reassociation = {{0}, {1, 2}};
    for (int64_t i = 0; i < spatial; ++i)
      reassociation.push_back({3 + i});
    acc = tensor::CollapseShapeOp::create(rewriter, loc, accTensor, acc,
                                          reassociation);
    rewriter.replaceOp(op, finishAccumulation(rewriter, loc, acc, tcType));
    return success();
  }
};

} // namespace

void populateContractionPatterns(TcTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 bool collapseSharedWeightBatch,
                                 bool denseStridedPointwise) {
  patterns.add<MatmulPattern, ConvTransposePattern>(converter,
                                                    patterns.getContext());
  patterns.add<ConvPattern>(converter, patterns.getContext(),
                            denseStridedPointwise);
  patterns.add<BatchMatmulPattern>(converter, patterns.getContext(),
                                   collapseSharedWeightBatch);
}

} // namespace mlir::tc::to_linalg
