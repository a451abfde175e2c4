//===- LayoutExtraHandlers.cpp - ReverseSequence, MaxUnpool, Col2Im -------===//
//
// Ops that move elements to computed positions, composed from gather and
// scatter: the positions are an index map built at import time from the
// static shapes, or index arithmetic in tc ops on run-time lengths and
// shape parameters.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
Value i64Constant(NodeContext &ctx, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, ctx.builder.getI64Type());
  return ctx.constant(DenseIntElementsAttr::get(type, values));
}

Value zerosOf(NodeContext &ctx, ArrayRef<int64_t> shape, Type element) {
  auto type = RankedTensorType::get(shape, element);
  return ctx.constant(
      DenseElementsAttr::get(type, ctx.builder.getZeroAttr(element)));
}

/// ReverseSequence: along the time axis, the first sequence_lens[b]
/// elements of batch entry b in reverse order, the rest unchanged. A
/// gather_elements whose index is len - 1 - t where t < len, else t.
LogicalResult reverseSequence(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), lens = ctx.requireInput(1);
  if (failed(x) || failed(lens))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  if (rank < 2)
    return ctx.invalid("input must have rank >= 2");
  FailureOr<int64_t> timeAxis = ctx.normalizeAxis(ctx.getInt("time_axis", 0), rank,
                                                  "time_axis");
  FailureOr<int64_t> batchAxis = ctx.normalizeAxis(ctx.getInt("batch_axis", 1),
                                                   rank, "batch_axis");
  if (failed(timeAxis) || failed(batchAxis))
    return failure();
  if (*timeAxis > 1 || *batchAxis > 1 || *timeAxis == *batchAxis)
    return ctx.invalid("time_axis and batch_axis must be 0 and 1");
  if (!type.hasStaticShape())
    return ctx.unsupported("a dynamically shaped input");
  if (failed(checkMaterializedSize(ctx, type.getShape())))
    return failure();
  int64_t steps = type.getDimSize(*timeAxis), batch = type.getDimSize(*batchAxis);
  auto lt = NodeContext::typeOf(*lens);
  if (lt.getRank() != 1 || lt.getDimSize(0) != batch)
    return ctx.invalid("sequence_lens must be [batch]");
  // t laid along the time axis, lengths along the batch axis, as i64.
  SmallVector<int64_t> iota = llvm::to_vector(llvm::seq<int64_t>(0, steps));
  SmallVector<int64_t> tShape = {1, 1}, lShape = {1, 1};
  tShape[*timeAxis] = steps;
  lShape[*batchAxis] = batch;
  Value t = i64Constant(ctx, tShape, iota);
  Value len = *lens;
  if (!lt.getElementType().isInteger(64))
    len = ctx.build<CastOp>({len}, {}, {lt.clone(ctx.builder.getI64Type())});
  len = len ? reshapeTo(ctx, len, lShape) : nullptr;
  if (!len)
    return failure();
  Value inside = compareValues(ctx, ComparePredicate::lt, t, len);
  Value last = ctx.build<SubOp>({len, ctx.constantI64({1}, true)});
  Value reversed = last ? ctx.build<SubOp>({last, t}) : nullptr;
  Value index = inside && reversed ? ctx.build<SelectOp>({inside, reversed, t})
                                   : nullptr; // [T, B] or [B, T]
  if (!index)
    return failure();
  // Every trailing element of a (time, batch) position moves together.
  SmallVector<int64_t> withUnits(NodeContext::typeOf(index).getShape());
  withUnits.resize(rank, 1);
  index = reshapeTo(ctx, index, withUnits);
  index = index ? ctx.build<BroadcastOp>({index}, {},
                                         {type.clone(ctx.builder.getI64Type())})
                : nullptr;
  results.push_back(index ? ctx.build<GatherElementsOp>(
                                {*x, index},
                                {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(
                                                           *timeAxis))})
                          : nullptr);
  return success(results.back() != nullptr);
}

/// MaxUnpool: the values scattered to their flat indices (over the whole
/// output, as MaxPool's Indices give them) in a zero tensor of the inferred
/// shape, which is then zero-padded at the end up to output_shape.
LogicalResult maxUnpool(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), indices = ctx.requireInput(1);
  if (failed(x) || failed(indices))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (!type.hasStaticShape() || type.getRank() < 3)
    return ctx.unsupported("only static inputs of rank >= 3");
  if (NodeContext::typeOf(*indices).getShape() != type.getShape())
    return ctx.invalid("I must have the shape of X");
  std::optional<SmallVector<int64_t>> kernel = ctx.getInts("kernel_shape");
  int64_t spatial = type.getRank() - 2;
  if (!kernel || static_cast<int64_t>(kernel->size()) != spatial)
    return ctx.invalid("kernel_shape needs one value per spatial dimension");
  SmallVector<int64_t> strides =
      ctx.getInts("strides").value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> pads =
      ctx.getInts("pads").value_or(SmallVector<int64_t>(2 * spatial, 0));
  if (static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial)
    return ctx.invalid("strides and pads must match the spatial rank");
  if (llvm::any_of(*kernel, [](int64_t k) { return k < 1; }) ||
      llvm::any_of(strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return ctx.invalid("kernel_shape and strides must be >= 1, pads >= 0");
  SmallVector<int64_t> inferred(type.getShape().take_front(2));
  for (int64_t d = 0; d < spatial; ++d)
    inferred.push_back((type.getDimSize(d + 2) - 1) * strides[d] -
                       (pads[d] + pads[spatial + d]) + (*kernel)[d]);
  SmallVector<int64_t> outShape = inferred;
  Value runtimeShape;
  if (Value shapeIn = ctx.input(2)) {
    std::optional<SmallVector<int64_t>> given = ctx.getConstantInts(shapeIn);
    auto shapeType = NodeContext::typeOf(shapeIn);
    if (!given && (shapeType.getRank() != 1 ||
                   shapeType.getDimSize(0) != static_cast<int64_t>(inferred.size())))
      return ctx.invalid("output_shape must have the input's rank");
    if (!given)
      runtimeShape = shapeIn;
    else
      outShape = *given;
    if (outShape.size() != inferred.size())
      return ctx.invalid("output_shape must have the input's rank");
    for (auto [want, have] : llvm::zip(outShape, inferred))
      if (want < have)
        return ctx.unsupported("an output_shape smaller than the inferred one");
  }
  if (llvm::any_of(inferred, [](int64_t d) { return d <= 0; }))
    return ctx.invalid("the inferred output shape is empty");
  if (failed(checkMaterializedSize(ctx, inferred)) ||
      failed(checkMaterializedSize(ctx, outShape)))
    return failure();
  int64_t total = computeProduct(inferred);
  // Indices are flat over the inferred shape; scatter into it flattened.
  Value flatX = reshapeTo(ctx, *x, {type.getNumElements()});
  Value flatI = reshapeTo(ctx, *indices, {type.getNumElements()});
  Value scattered =
      flatX && flatI
          ? ctx.build<ScatterElementsOp>(
                {zerosOf(ctx, {total}, type.getElementType()), flatI, flatX},
                {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))})
          : nullptr;
  Value y = scattered ? reshapeTo(ctx, scattered, inferred) : nullptr;
  if (y && runtimeShape) {
    // An output_shape read at run time: padded at the end of each dimension
    // up to it, which must not be smaller than the inferred shape.
    OpBuilder &b = ctx.builder;
    Location loc = ctx.loc;
    int64_t rank = inferred.size();
    SmallVector<Value> pads(2 * rank);
    Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    for (int64_t d = 0; d < rank; ++d) {
      pads[d] = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
      Value want = tensor::ExtractOp::create(
          b, loc, runtimeShape, ValueRange{arith::ConstantIndexOp::create(b, loc, d)});
      pads[rank + d] = arith::SubIOp::create(
          b, loc, want, arith::ConstantIntOp::create(b, loc, b.getI64Type(), inferred[d]));
      valid = arith::AndIOp::create(
          b, loc, valid,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, pads[rank + d], pads[d]));
    }
    assertAtRunTime(ctx, valid,
                    "the output_shape computed at run time is smaller than the "
                    "inferred shape");
    return buildDynamicPad(ctx, y, pads, SmallVector<int64_t>(rank, ShapedType::kDynamic),
                           PadMode::constant, Value(), results);
  }
  if (y && outShape != inferred) {
    SmallVector<int64_t> padding(inferred.size(), 0);
    for (auto [want, have] : llvm::zip(outShape, inferred))
      padding.push_back(want - have);
    y = ctx.build<PadOp>({y}, {ctx.namedAttr("padding", ctx.i64Array(padding))});
  }
  results.push_back(y);
  return success(y != nullptr);
}

/// Col2Im's window attributes for an `n`-D image: defaults filled in,
/// checked to match it, strides and dilations positive and pads
/// non-negative (all at most 2^32, so that sums of them stay exact).
struct Col2ImWindow {
  SmallVector<int64_t> dilations, strides, pads;
};
FailureOr<Col2ImWindow> readCol2ImWindow(NodeContext &ctx, int64_t n) {
  Col2ImWindow w{ctx.getInts("dilations").value_or(SmallVector<int64_t>(n, 1)),
                 ctx.getInts("strides").value_or(SmallVector<int64_t>(n, 1)),
                 ctx.getInts("pads").value_or(SmallVector<int64_t>(2 * n, 0))};
  if (static_cast<int64_t>(w.dilations.size()) != n ||
      static_cast<int64_t>(w.strides.size()) != n ||
      static_cast<int64_t>(w.pads.size()) != 2 * n)
    return ctx.invalid("dilations, strides and pads must match image_shape");
  constexpr int64_t limit = int64_t(1) << 32;
  auto within = [&](int64_t v, int64_t low) { return v >= low && v <= limit; };
  for (int64_t d = 0; d < n; ++d)
    if (!within(w.strides[d], 1) || !within(w.dilations[d], 1) || !within(w.pads[d], 0) ||
        !within(w.pads[n + d], 0))
      return ctx.invalid("strides and dilations must be positive, pads non-negative "
                         "(and at most 2^32)");
  return w;
}

/// Col2Im whose image_shape or block_shape is read at run time (their
/// length static): the constant path's index map, computed at run time over
/// tc.range vectors of the kernel offsets [K, 1] and blocks [1, L], and a
/// scatter-add into a padded image of run-time extents, cropped by
/// tc.dynamic_pad. A run-time check rejects what the constant path rejects
/// when importing.
LogicalResult runtimeCol2Im(NodeContext &ctx, Value x, Value imageIn, Value blockIn,
                            SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type i64 = b.getI64Type();
  constexpr int64_t dyn = ShapedType::kDynamic;
  auto imageType = NodeContext::typeOf(imageIn), blockType = NodeContext::typeOf(blockIn);
  if (imageType.getRank() != 1 || blockType.getRank() != 1 || imageType.isDynamicDim(0) ||
      blockType.isDynamicDim(0))
    return ctx.unsupported("image_shape or block_shape of a length known only at run time");
  int64_t n = imageType.getDimSize(0);
  if (n == 0 || blockType.getDimSize(0) != n)
    return ctx.invalid("image_shape and block_shape must have the same length");
  if (!imageType.getElementType().isInteger() || !blockType.getElementType().isInteger())
    return ctx.invalid("image_shape and block_shape must be integers");
  auto type = NodeContext::typeOf(x);
  if (type.getRank() != 3)
    return ctx.invalid("the input must be [N, C * prod(block_shape), L]");
  FailureOr<Col2ImWindow> window = readCol2ImWindow(ctx, n);
  if (failed(window))
    return failure();
  ArrayRef<int64_t> dilations = window->dilations, strides = window->strides,
                    pads = window->pads;

  auto c64 = [&](int64_t v) -> Value { return arith::ConstantIntOp::create(b, loc, i64, v); };
  auto cmp = [&](arith::CmpIPredicate p, Value l, Value r) -> Value {
    return arith::CmpIOp::create(b, loc, p, l, r);
  };
  auto all = [&](Value l, Value r) -> Value { return arith::AndIOp::create(b, loc, l, r); };
  auto dimOf = [&](int64_t d) -> Value {
    return type.isDynamicDim(d)
               ? arith::IndexCastOp::create(b, loc, i64, tensor::DimOp::create(b, loc, x, d))
                     .getResult()
               : c64(type.getDimSize(d));
  };
  auto read = [&](Value t, int64_t d) -> Value {
    Value v = tensor::ExtractOp::create(b, loc, t,
                                        ValueRange{arith::ConstantIndexOp::create(b, loc, d)});
    return v.getType() == i64 ? v : arith::ExtSIOp::create(b, loc, i64, v).getResult();
  };
  // Sizes beyond 2^31 are no sizes: bounding them keeps products exact.
  Value limit = c64(int64_t(1) << 31);
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  SmallVector<Value> image, block, padded, blocks;
  Value kernelSize = c64(1), numBlocks = c64(1);
  for (int64_t d = 0; d < n; ++d) {
    Value img = read(imageIn, d), blk = read(blockIn, d);
    valid = all(valid, all(cmp(arith::CmpIPredicate::sgt, img, c64(0)),
                           cmp(arith::CmpIPredicate::sle, img, limit)));
    valid = all(valid, all(cmp(arith::CmpIPredicate::sgt, blk, c64(0)),
                           cmp(arith::CmpIPredicate::sle, blk, limit)));
    Value pad = arith::AddIOp::create(b, loc, img, c64(pads[d] + pads[n + d]));
    // (padded - dilation * (block - 1) - 1) / stride + 1 blocks, at least one.
    Value span = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, c64(dilations[d]),
                                      arith::SubIOp::create(b, loc, blk, c64(1))),
        c64(1));
    Value room = arith::SubIOp::create(b, loc, pad, span);
    valid = all(valid, cmp(arith::CmpIPredicate::sge, room, c64(0)));
    Value count = arith::AddIOp::create(
        b, loc, arith::DivSIOp::create(b, loc, room, c64(strides[d])), c64(1));
    image.push_back(img);
    block.push_back(blk);
    padded.push_back(pad);
    blocks.push_back(count);
    kernelSize = arith::MulIOp::create(b, loc, kernelSize, blk);
    numBlocks = arith::MulIOp::create(b, loc, numBlocks, count);
  }
  // Garbage sizes are checked below; until then 1 stands in for each, so
  // that extents planned before the check stay sane.
  auto sane = [&](Value v) -> Value { return arith::SelectOp::create(b, loc, valid, v, c64(1)); };
  kernelSize = sane(kernelSize);
  Value columns = dimOf(1);
  Value channels = arith::DivSIOp::create(b, loc, columns, kernelSize);
  valid = all(valid, cmp(arith::CmpIPredicate::eq,
                         arith::RemSIOp::create(b, loc, columns, kernelSize), c64(0)));
  valid = all(valid, cmp(arith::CmpIPredicate::eq, dimOf(2), numBlocks));
  assertAtRunTime(ctx, valid,
                  "image_shape and block_shape do not fit the "
                  "input [N, C * prod(block_shape), number of blocks]");
  for (int64_t d = 0; d < n; ++d) {
    block[d] = sane(block[d]);
    blocks[d] = sane(blocks[d]);
    padded[d] = sane(padded[d]);
  }
  numBlocks = sane(numBlocks);
  channels = sane(channels);

  auto scalar = [&](Value v) { return i64Scalar(ctx, v); };
  auto reshaped = [&](Value v, ArrayRef<Value> sizes, ArrayRef<int64_t> shape) {
    return reshapeToValues(ctx, v, sizes, shape);
  };
  Value zero = ctx.constantI64({0}, true), one = ctx.constantI64({1}, true);
  auto iota = [&](Value size) { return i64Range(ctx, zero, scalar(size), one); };
  // index[k, l]: the flat padded-image position of kernel offset k in block
  // l, digit by digit (row-major over the spatial dimensions).
  Value k = reshaped(iota(kernelSize), {kernelSize, c64(1)}, {dyn, 1});
  Value l = reshaped(iota(numBlocks), {c64(1), numBlocks}, {1, dyn});
  Value index = zero;
  Value blockStride = c64(1), blocksStride = c64(1);
  SmallVector<Value> offsetDigits(n), blockDigits(n);
  for (int64_t d = n - 1; d >= 0; --d) {
    offsetDigits[d] = ctx.build<ModOp>(
        {ctx.build<DivOp>({k, scalar(blockStride)}), scalar(block[d])});
    blockDigits[d] = ctx.build<ModOp>(
        {ctx.build<DivOp>({l, scalar(blocksStride)}), scalar(blocks[d])});
    blockStride = arith::MulIOp::create(b, loc, blockStride, block[d]);
    blocksStride = arith::MulIOp::create(b, loc, blocksStride, blocks[d]);
  }
  for (int64_t d = 0; d < n; ++d) {
    Value position = ctx.build<AddOp>(
        {ctx.build<MulOp>({blockDigits[d], ctx.constantI64({strides[d]}, true)}),
         ctx.build<MulOp>({offsetDigits[d], ctx.constantI64({dilations[d]}, true)})});
    index = ctx.build<AddOp>({ctx.build<MulOp>({index, scalar(padded[d])}), position});
  }
  // [N, C, K * L] updates and their positions in [N, C, prod(padded)].
  Value batch = dimOf(0);
  Value entries = arith::MulIOp::create(b, loc, kernelSize, numBlocks);
  Value area = c64(1);
  for (Value p : padded)
    area = arith::MulIOp::create(b, loc, area, p);
  Value updates = reshaped(x, {batch, channels, entries}, {type.getDimSize(0), dyn, dyn});
  Value map = ctx.build<BroadcastOp>(
      {reshaped(index, {c64(1), c64(1), entries}, {1, 1, dyn}),
       tensor::FromElementsOp::create(b, loc, ValueRange{batch, channels, entries})},
      {}, {RankedTensorType::get({type.getDimSize(0), dyn, dyn}, i64)});
  Type element = type.getElementType();
  Value zeros = ctx.build<BroadcastOp>(
      {ctx.scalar(element, 0), tensor::FromElementsOp::create(b, loc, ValueRange{batch, channels, area})},
      {}, {RankedTensorType::get({type.getDimSize(0), dyn, dyn}, element)});
  Value sum = ctx.build<ScatterElementsOp>(
      {zeros, map, updates},
      {ctx.namedAttr("axis", b.getI64IntegerAttr(2)),
       ctx.namedAttr("reduction", b.getStringAttr("add"))});
  SmallVector<Value> paddedSizes = {batch, channels};
  llvm::append_range(paddedSizes, padded);
  SmallVector<int64_t> paddedShape = {type.getDimSize(0), dyn};
  paddedShape.append(n, dyn);
  Value y = reshaped(sum, paddedSizes, paddedShape);
  if (!y)
    return failure();
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; })) {
    results.push_back(y);
    return success();
  }
  // Crop the padding: negative pads of tc.dynamic_pad.
  SmallVector<Value> crop(2 * (n + 2), c64(0));
  for (int64_t d = 0; d < n; ++d) {
    crop[2 + d] = c64(-pads[d]);
    crop[n + 4 + d] = c64(-pads[n + d]);
  }
  return buildDynamicPad(ctx, y, crop, paddedShape, PadMode::constant, Value(), results);
}

/// Col2Im: every column entry (channel c, kernel offset k, block l) is
/// added at its image position. A scatter_elements with reduction add into
/// the padded image, through an index map computed here, then the padding
/// sliced off. Positions are exact in the padded image, so no entry falls
/// outside it.
LogicalResult col2im(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), imageIn = ctx.requireInput(1),
                   blockIn = ctx.requireInput(2);
  if (failed(x) || failed(imageIn) || failed(blockIn))
    return failure();
  std::optional<SmallVector<int64_t>> image = ctx.getConstantInts(*imageIn),
                                      block = ctx.getConstantInts(*blockIn);
  if (!image || !block)
    return runtimeCol2Im(ctx, *x, *imageIn, *blockIn, results);
  int64_t n = image->size();
  if (n == 0 || static_cast<int64_t>(block->size()) != n)
    return ctx.invalid("image_shape and block_shape must have the same length");
  auto type = NodeContext::typeOf(*x);
  if (type.getRank() != 3)
    return ctx.invalid("the input must be [N, C * prod(block_shape), L]");
  // An input of dynamic shape takes the run-time path, which checks it
  // against the constant shapes when it runs.
  if (!type.hasStaticShape())
    return runtimeCol2Im(ctx, *x, *imageIn, *blockIn, results);
  FailureOr<Col2ImWindow> window = readCol2ImWindow(ctx, n);
  if (failed(window))
    return failure();
  ArrayRef<int64_t> dilations = window->dilations, strides = window->strides,
                    pads = window->pads;
  for (int64_t d = 0; d < n; ++d)
    if ((*image)[d] <= 0 || (*block)[d] <= 0)
      return ctx.invalid("image_shape and block_shape must be positive");
  // Every constant below is at most an image or a column tensor in size;
  // bounding them first also keeps the products below from overflowing.
  SmallVector<int64_t> padded;
  for (int64_t d = 0; d < n; ++d)
    padded.push_back((*image)[d] + pads[d] + pads[n + d]);
  if (failed(checkMaterializedSize(ctx, type.getShape())) ||
      failed(checkMaterializedSize(ctx, *block)) ||
      failed(checkMaterializedSize(ctx, padded)))
    return failure();
  int64_t kernelSize = computeProduct(*block);
  if (type.getDimSize(1) % kernelSize != 0)
    return ctx.invalid("dimension 1 must be a multiple of prod(block_shape)");
  int64_t batch = type.getDimSize(0), channels = type.getDimSize(1) / kernelSize;
  SmallVector<int64_t> blocks;
  for (int64_t d = 0; d < n; ++d) {
    blocks.push_back((padded[d] - dilations[d] * ((*block)[d] - 1) - 1) / strides[d] + 1);
    if (blocks[d] <= 0)
      return ctx.invalid("no sliding block fits the padded image");
  }
  int64_t numBlocks = computeProduct(blocks);
  if (type.getDimSize(2) != numBlocks)
    return ctx.invalid(llvm::formatv("dimension 2 is {0}, expected {1} blocks",
                                     type.getDimSize(2), numBlocks));
  int64_t entries = kernelSize * numBlocks;
  if (failed(checkMaterializedSize(ctx, {batch, channels, entries})) ||
      failed(checkMaterializedSize(ctx, {batch, channels, computeProduct(padded)})))
    return failure();
  // index[k * L + l]: the flat padded-image position of kernel offset k in
  // block l.
  SmallVector<int64_t> index;
  index.reserve(entries);
  for (int64_t k = 0; k < kernelSize; ++k) {
    SmallVector<int64_t> offset = delinearize(k, computeStrides(*block));
    for (int64_t l = 0; l < numBlocks; ++l) {
      SmallVector<int64_t> at = delinearize(l, computeStrides(blocks));
      int64_t flat = 0;
      for (int64_t d = 0; d < n; ++d)
        flat = flat * padded[d] + at[d] * strides[d] + offset[d] * dilations[d];
      index.push_back(flat);
    }
  }
  Type element = type.getElementType();
  Value updates = reshapeTo(ctx, *x, {batch, channels, entries});
  Value map = ctx.build<BroadcastOp>(
      {i64Constant(ctx, {1, 1, entries}, index)}, {},
      {RankedTensorType::get({batch, channels, entries}, ctx.builder.getI64Type())});
  Value sum = updates && map
                  ? ctx.build<ScatterElementsOp>(
                        {zerosOf(ctx, {batch, channels, computeProduct(padded)}, element),
                         map, updates},
                        {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(2)),
                         ctx.namedAttr("reduction", ctx.builder.getStringAttr("add"))})
                  : nullptr;
  SmallVector<int64_t> paddedShape = {batch, channels};
  llvm::append_range(paddedShape, padded);
  Value y = sum ? reshapeTo(ctx, sum, paddedShape) : nullptr;
  if (y && llvm::any_of(pads, [](int64_t p) { return p != 0; })) {
    SmallVector<int64_t> starts = {0, 0}, ends = {batch, channels}, steps(n + 2, 1);
    for (int64_t d = 0; d < n; ++d) {
      starts.push_back(pads[d]);
      ends.push_back(pads[d] + (*image)[d]);
    }
    y = ctx.build<SliceOp>({y}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                 ctx.namedAttr("ends", ctx.i64Array(ends)),
                                 ctx.namedAttr("steps", ctx.i64Array(steps))});
  }
  results.push_back(y);
  return success(y != nullptr);
}
} // namespace

void mlir::tc::onnx::registerLayoutExtraHandlers(OpRegistry &r) {
  r.add("ReverseSequence", 10, reverseSequence);
  r.add("MaxUnpool", 9, maxUnpool);
  r.add("Col2Im", 18, col2im);
}
