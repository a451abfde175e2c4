//===- LayoutHandlers.cpp - Split, Pad, Tile, DepthToSpace, SpaceToDepth --===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

LogicalResult mlir::tc::onnx::buildDynamicPad(NodeContext &ctx, Value x,
                                              ArrayRef<Value> pads,
                                              ArrayRef<int64_t> shape,
                                              PadMode mode, Value value,
                                              SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  b.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  auto type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  for (int64_t d = 0; d < rank; ++d) {
    Value size = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                            tensor::DimOp::create(b, loc, x, d));
    Value extent = arith::AddIOp::create(
        b, loc, size, arith::AddIOp::create(b, loc, pads[d], pads[rank + d]));
    valid = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, extent, zero));
  }
  assertAtRunTime(ctx, valid,
                  "the pads computed at run time crop a dimension below size 0");
  SmallVector<Value> operands = {x, tensor::FromElementsOp::create(b, loc, pads)};
  if (value)
    operands.push_back(value);
  results.push_back(ctx.build<DynamicPadOp>(
      operands, {ctx.namedAttr("mode", PadModeAttr::get(b.getContext(), mode))},
      {RankedTensorType::get(shape, type.getElementType())}));
  return success(results.back() != nullptr);
}

namespace {
/// Split whose sizes are known only at run time: output i is the run-time
/// slice [sum of sizes[:i], + sizes[i]) along `axis` (tc.dynamic_slice),
/// after a check that the sizes are non-negative and cover the dimension.
LogicalResult runtimeSplit(NodeContext &ctx, Value x, int64_t axis,
                           Value sizes, SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  b.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  RankedTensorType sizesType = NodeContext::typeOf(sizes);
  int64_t outputs = ctx.node.output_size();
  if (sizesType.getRank() != 1 || sizesType.getDimSize(0) != outputs ||
      !sizesType.getElementType().isInteger(64))
    return ctx.invalid(llvm::formatv("split needs {0} int64 sizes, one per output",
                                     outputs));
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  auto oneElement = [&](Value v) {
    return tensor::FromElementsOp::create(b, loc, ValueRange{v}).getResult();
  };
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  Value offset = i64(0);
  SmallVector<std::pair<Value, Value>> bounds;
  for (int64_t i = 0; i < outputs; ++i) {
    Value index = arith::ConstantIndexOp::create(b, loc, i);
    Value size = tensor::ExtractOp::create(b, loc, sizes, ValueRange{index});
    valid = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, size, i64(0)));
    Value end = arith::AddIOp::create(b, loc, offset, size);
    bounds.push_back({offset, end});
    offset = end;
  }
  Value extent = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), tensor::DimOp::create(b, loc, x, axis));
  valid = arith::AndIOp::create(
      b, loc, valid,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, offset, extent));
  assertAtRunTime(ctx, valid,
                  llvm::formatv("the split sizes computed at run time must be "
                                "non-negative and add up to dimension {0}",
                                axis));
  for (auto [start, end] : bounds) {
    results.push_back(ctx.build<DynamicSliceOp>(
        {x, oneElement(start), oneElement(end)},
        {ctx.namedAttr("axes", ctx.i64Array({axis})),
         ctx.namedAttr("steps", ctx.i64Array({1}))}));
    if (!results.back())
      return failure();
  }
  return success();
}

/// Split into static pieces: sizes from the `split` attribute (< 13) or
/// input (>= 13), or equal parts (num_outputs at >= 18); sizes computed at
/// run time go to runtimeSplit.
LogicalResult split(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", 0), type.getRank());
  if (failed(axis))
    return failure();
  int64_t size = type.getDimSize(*axis);
  std::optional<SmallVector<int64_t>> sizes;
  if (ctx.opset >= 13 && ctx.input(1)) {
    sizes = ctx.getConstantInts(ctx.input(1));
    if (!sizes)
      return runtimeSplit(ctx, *x, *axis, ctx.input(1), results);
  }
  if (ShapedType::isDynamic(size))
    return ctx.unsupported("splitting a dynamic dimension");
  if (ctx.opset < 13) {
    sizes = ctx.getInts("split");
  }
  int64_t outputs = ctx.node.output_size();
  if (!sizes) {
    int64_t parts = ctx.opset >= 18 ? ctx.getInt("num_outputs", outputs) : outputs;
    if (parts <= 0)
      return ctx.invalid("nothing to split into");
    if (parts != outputs)
      return ctx.invalid(llvm::formatv("num_outputs is {0} but the node has "
                                       "{1} outputs",
                                       parts, outputs));
    // Equal parts, the last one smaller when the size does not divide.
    int64_t chunk = (size + parts - 1) / parts;
    sizes.emplace();
    for (int64_t start = 0; start < size; start += chunk)
      sizes->push_back(std::min(chunk, size - start));
    while (static_cast<int64_t>(sizes->size()) < parts)
      sizes->push_back(0);
  }
  if (llvm::any_of(*sizes, [](int64_t s) { return s < 0; }))
    return ctx.invalid("a split size is negative");
  int64_t total = 0;
  for (int64_t s : *sizes)
    if (llvm::AddOverflow(total, s, total))
      return ctx.invalid("the split sizes overflow");
  if (total != size || static_cast<int64_t>(sizes->size()) != outputs)
    return ctx.invalid(llvm::formatv("split sizes do not cover dimension {0} "
                                     "of size {1} in {2} outputs",
                                     *axis, size, outputs));
  SmallVector<int64_t> starts(type.getRank(), 0), steps(type.getRank(), 1);
  SmallVector<int64_t> ends = wholeSliceEnds(type);
  int64_t offset = 0;
  for (int64_t s : *sizes) {
    starts[*axis] = offset;
    ends[*axis] = offset + s;
    offset += s;
    results.push_back(ctx.build<SliceOp>(
        {*x}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
               ctx.namedAttr("ends", ctx.i64Array(ends)),
               ctx.namedAttr("steps", ctx.i64Array(steps))}));
    if (!results.back())
      return failure();
  }
  return success();
}

/// Pad's fill value as a scalar tensor (constant mode only), or null.
FailureOr<Value> padValue(NodeContext &ctx, Value value, PadMode mode) {
  if (!value || mode != PadMode::constant)
    return Value();
  if (NodeContext::typeOf(value).getRank() != 0)
    value = reshapeTo(ctx, value, {});
  if (!value)
    return failure();
  return value;
}

/// Pad whose pads, or axes, are known only at run time: every dimension's
/// begin and end amounts as an i64 vector (zero for the dimensions the
/// axes do not name) into tc.dynamic_pad, after a check that no extent
/// goes negative. `axes` are the constant axes, if any, else `axesIn` is
/// read at run time (checked like every run-time axes input).
LogicalResult runtimePad(NodeContext &ctx, Value x, Value padsIn,
                         std::optional<SmallVector<int64_t>> axes,
                         Value axesIn, PadMode mode, Value value,
                         SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  b.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  auto type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  RankedTensorType padsType = NodeContext::typeOf(padsIn);
  if (padsType.getRank() != 1 || padsType.isDynamicDim(0) ||
      !padsType.getElementType().isInteger(64))
    return ctx.unsupported("pads of unknown length");
  int64_t length = padsType.getDimSize(0);
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  auto read = [&](Value tensor, int64_t i) -> Value {
    return tensor::ExtractOp::create(
        b, loc, tensor, ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
  };
  SmallVector<Value> full(2 * rank, i64(0));
  SmallVector<int64_t> shape(type.getShape());
  if (!axes && !axesIn)
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (axes) {
    if (length != 2 * static_cast<int64_t>(axes->size()))
      return ctx.invalid(llvm::formatv("pads has {0} values, expected {1}",
                                       length, 2 * axes->size()));
    for (auto [i, a] : llvm::enumerate(*axes)) {
      full[a] = read(padsIn, i);
      full[rank + a] = read(padsIn, axes->size() + i);
      shape[a] = ShapedType::kDynamic;
    }
  } else {
    Value runtimeAxes = runtimeAxesInput(ctx, axesIn);
    if (!runtimeAxes)
      return ctx.unsupported("axes of unknown length");
    int64_t n = NodeContext::typeOf(runtimeAxes).getDimSize(0);
    if (length != 2 * n)
      return ctx.invalid(llvm::formatv("pads has {0} values, expected {1}",
                                       length, 2 * n));
    SmallVector<Value> normalized = normalizedRuntimeAxes(ctx, runtimeAxes, rank);
    for (auto [i, axis] : llvm::enumerate(normalized)) {
      for (int64_t d = 0; d < rank; ++d) {
        Value named =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, axis, i64(d));
        full[d] = arith::SelectOp::create(b, loc, named, read(padsIn, i), full[d]);
        full[rank + d] = arith::SelectOp::create(b, loc, named,
                                                 read(padsIn, n + i), full[rank + d]);
      }
    }
    shape.assign(rank, ShapedType::kDynamic);
  }
  return buildDynamicPad(ctx, x, full, shape, mode, value, results);
}

/// Pad-2 takes `pads`/`value` attributes (Pad-1 calls them `paddings`);
/// Pad-11 takes pads and the constant as inputs; Pad-18 adds `axes`.
/// Negative pads crop. Pads or axes computed at run time go to runtimePad.
LogicalResult pad(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  std::string modeName = ctx.getString("mode", "constant");
  std::optional<PadMode> padMode = symbolizePadMode(modeName);
  if (!padMode)
    return ctx.unsupported("mode='" + modeName + "'");
  std::optional<SmallVector<int64_t>> pads;
  Value value;
  if (ctx.opset < 11) {
    pads = ctx.getInts(ctx.opset < 2 ? "paddings" : "pads");
    if (ctx.hasAttr("value"))
      value = ctx.scalar(type.getElementType(), ctx.getFloat("value", 0));
  } else {
    if (!ctx.input(1))
      return ctx.invalid("pads input is required");
    pads = ctx.getConstantInts(ctx.input(1));
    value = ctx.input(2);
  }
  FailureOr<Value> fill = padValue(ctx, value, *padMode);
  if (failed(fill))
    return failure();
  Value axesIn = ctx.opset >= 18 ? ctx.input(3) : Value();
  std::optional<SmallVector<int64_t>> axes;
  if (axesIn) {
    axes = ctx.getConstantInts(axesIn);
    if (axes)
      for (int64_t &a : *axes) {
        FailureOr<int64_t> axis = ctx.normalizeAxis(a, rank);
        if (failed(axis))
          return failure();
        a = *axis;
      }
  }
  if (ctx.opset >= 11 && (!pads || (axesIn && !axes)))
    return runtimePad(ctx, *x, ctx.input(1), axes, axesIn, *padMode, *fill,
                      results);
  if (!pads)
    return ctx.invalid("pads is required");
  SmallVector<int64_t> full(2 * rank, 0);
  if (axes) {
    if (pads->size() != 2 * axes->size())
      return ctx.invalid("pads needs two values per axis");
    for (auto [i, axis] : llvm::enumerate(*axes)) {
      full[axis] = (*pads)[i];
      full[rank + axis] = (*pads)[axes->size() + i];
    }
  } else {
    if (static_cast<int64_t>(pads->size()) != 2 * rank)
      return ctx.invalid(llvm::formatv("pads has {0} values, expected {1}",
                                       pads->size(), 2 * rank));
    full = *pads;
  }

  // Negative pads remove elements: slice first, then pad what is left.
  Value input = *x;
  if (llvm::any_of(full, [](int64_t p) { return p < 0; })) {
    SmallVector<int64_t> starts(rank), ends(rank), steps(rank, 1);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (ShapedType::isDynamic(size) && (full[d] < 0 || full[rank + d] < 0))
        return ctx.unsupported("cropping a dynamic dimension");
      starts[d] = std::max<int64_t>(0, -full[d]);
      ends[d] = ShapedType::isDynamic(size)
                    ? std::numeric_limits<int64_t>::max()
                    : size - std::max<int64_t>(0, -full[rank + d]);
      full[d] = std::max<int64_t>(0, full[d]);
      full[rank + d] = std::max<int64_t>(0, full[rank + d]);
    }
    input = ctx.build<SliceOp>({input},
                               {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                ctx.namedAttr("ends", ctx.i64Array(ends)),
                                ctx.namedAttr("steps", ctx.i64Array(steps))});
    if (!input)
      return failure();
  }
  SmallVector<Value> operands = {input};
  if (*fill)
    operands.push_back(*fill);
  results.push_back(ctx.build<PadOp>(
      operands, {ctx.namedAttr("padding", ctx.i64Array(full)),
                 ctx.namedAttr("mode", PadModeAttr::get(ctx.builder.getContext(),
                                                        *padMode))}));
  return success(results.back() != nullptr);
}

/// Tile with constant repeats: insert a unit dimension before each one,
/// broadcast it to the repeat count, and fold the pairs together.
/// Tile with repeats read at run time, or of a dynamically shaped input: the
/// reshape, broadcast and reshape of `tile` below, with each shape a tensor
/// of per-dimension scalars ([1, d0, 1, d1, ...], [r0, d0, r1, d1, ...],
/// [r0 * d0, r1 * d1, ...]) and the repeats checked to be non-negative.
LogicalResult runtimeTile(NodeContext &ctx, Value x, Value repeatsIn,
                          SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  auto type = NodeContext::typeOf(x);
  auto repeatsType = NodeContext::typeOf(repeatsIn);
  int64_t rank = type.getRank();
  if (repeatsType.getRank() != 1 || !repeatsType.getElementType().isInteger(64))
    return ctx.invalid("repeats must be a 1-D int64 tensor");
  if (repeatsType.isDynamicDim(0))
    return ctx.unsupported("repeats of a length known only at run time");
  if (repeatsType.getDimSize(0) != rank)
    return ctx.invalid("repeats needs one value per dimension");
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  SmallVector<Value> interleaved, broadcast, out;
  SmallVector<int64_t> broadcastShape;
  for (int64_t d = 0; d < rank; ++d) {
    Value r = tensor::ExtractOp::create(
        b, loc, repeatsIn, ValueRange{arith::ConstantIndexOp::create(b, loc, d)});
    valid = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, r, i64(0)));
    Value size = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                            tensor::DimOp::create(b, loc, x, d));
    interleaved.append({i64(1), size});
    broadcast.append({r, size});
    out.push_back(arith::MulIOp::create(b, loc, r, size));
    broadcastShape.append({ShapedType::kDynamic, type.getDimSize(d)});
  }
  assertAtRunTime(ctx, valid, "a repeat count is negative");
  if (rank == 0) {
    results.push_back(x);
    return success();
  }
  SmallVector<int64_t> interleavedShape;
  for (int64_t size : type.getShape())
    interleavedShape.append({1, size});
  Type element = type.getElementType();
  auto shapeValue = [&](ArrayRef<Value> sizes) {
    return tensor::FromElementsOp::create(b, loc, sizes).getResult();
  };
  Value v = ctx.build<ReshapeOp>({x, shapeValue(interleaved)}, {},
                                 RankedTensorType::get(interleavedShape, element));
  if (v)
    v = ctx.build<BroadcastOp>({v, shapeValue(broadcast)}, {},
                               RankedTensorType::get(broadcastShape, element));
  if (v)
    v = ctx.build<ReshapeOp>(
        {v, shapeValue(out)}, {},
        RankedTensorType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                              element));
  results.push_back(v);
  return success(v != nullptr);
}

LogicalResult tile(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), repeatsIn = ctx.requireInput(1);
  if (failed(x) || failed(repeatsIn))
    return failure();
  std::optional<SmallVector<int64_t>> repeats = ctx.getConstantInts(*repeatsIn);
  auto type = NodeContext::typeOf(*x);
  if (!repeats || !type.hasStaticShape())
    return runtimeTile(ctx, *x, *repeatsIn, results);
  if (static_cast<int64_t>(repeats->size()) != type.getRank())
    return ctx.invalid("repeats needs one value per dimension");
  SmallVector<int64_t> interleaved, broadcast, out;
  for (auto [size, r] : llvm::zip(type.getShape(), *repeats)) {
    if (r < 0)
      return ctx.invalid("a repeat count is negative");
    interleaved.append({1, size});
    broadcast.append({r, size});
    out.push_back(r * size);
  }
  Value v = reshapeTo(ctx, *x, interleaved);
  if (v)
    v = ctx.build<BroadcastOp>(
        {v}, {}, RankedTensorType::get(broadcast, type.getElementType()));
  results.push_back(v ? reshapeTo(ctx, v, out) : nullptr);
  return success(results.back() != nullptr);
}

/// DepthToSpace / SpaceToDepth are a reshape, a transpose and a reshape.
template <bool toSpace>
LogicalResult depthSpace(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (type.getRank() != 4 || !type.hasStaticShape())
    return ctx.unsupported("only static 4-D NCHW inputs");
  int64_t b = ctx.getInt("blocksize", 0);
  if (b <= 0)
    return ctx.invalid("blocksize must be positive");
  int64_t n = type.getDimSize(0), c = type.getDimSize(1),
          h = type.getDimSize(2), w = type.getDimSize(3);
  SmallVector<int64_t> first, perm, last;
  if (toSpace) {
    // c / b / b rather than c / (b * b): b * b may overflow.
    if (c % b != 0 || (c / b) % b != 0)
      return ctx.invalid("channels are not divisible by blocksize^2");
    bool crd = ctx.getString("mode", "DCR") == "CRD";
    first = crd ? SmallVector<int64_t>{n, c / b / b, b, b, h, w}
                : SmallVector<int64_t>{n, b, b, c / b / b, h, w};
    perm = crd ? SmallVector<int64_t>{0, 1, 4, 2, 5, 3}
               : SmallVector<int64_t>{0, 3, 4, 1, 5, 2};
    last = {n, c / b / b, h * b, w * b};
  } else {
    if (h % b != 0 || w % b != 0)
      return ctx.invalid("height and width are not divisible by blocksize");
    first = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    last = {n, c * b * b, h / b, w / b};
  }
  Value v = reshapeTo(ctx, *x, first);
  if (v)
    v = ctx.build<TransposeOp>({v},
                               {ctx.namedAttr("permutation", ctx.i64Array(perm))});
  results.push_back(v ? reshapeTo(ctx, v, last) : nullptr);
  return success(results.back() != nullptr);
}
/// Trilu keeps the upper (or lower) triangle of the last two dimensions
/// from diagonal k on: column - row >= k (or <= k).
LogicalResult trilu(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  if (rank < 2)
    return ctx.invalid("input must have rank >= 2");
  int64_t n = type.getDimSize(rank - 2), m = type.getDimSize(rank - 1);
  // Static index vectors are constants, and with both static the mask
  // folds into an n x m constant: each must stay within the limit.
  SmallVector<int64_t> materialized;
  for (int64_t size : {n, m})
    if (!ShapedType::isDynamic(size))
      materialized.push_back(size);
  if (failed(checkMaterializedSize(ctx, materialized)) ||
      failed(ctx.requireRank(1, 0, 1)))
    return failure();
  Value k = ctx.input(1) ? ctx.input(1) : ctx.constantI64({0}, true);
  if (NodeContext::typeOf(k).getRank() != 0)
    k = reshapeTo(ctx, k, {});
  if (k && !NodeContext::typeOf(k).getElementType().isInteger(64))
    k = ctx.build<CastOp>({k}, {}, {NodeContext::typeOf(k).clone(ctx.builder.getI64Type())});
  // Row and column indices: constants, or ranges up to the run-time sizes
  // (a causal mask built for the sequence length a dynamic-axis export
  // sees only when it runs).
  auto indices = [&](int64_t dim) -> Value {
    int64_t size = type.getDimSize(dim);
    if (!ShapedType::isDynamic(size))
      return ctx.constantI64(llvm::to_vector(llvm::seq<int64_t>(0, size)));
    Value extent = ctx.build<GatherOp>(
        {ctx.build<ShapeOfOp>({*x}), ctx.constantI64({dim}, true)},
        {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))});
    return extent ? ctx.build<RangeOp>(
                        {ctx.constantI64({0}, true), extent,
                         ctx.constantI64({1}, true)},
                        {}, {RankedTensorType::get({ShapedType::kDynamic},
                                                   ctx.builder.getI64Type())})
                  : nullptr;
  };
  Value rowIndices = indices(rank - 2), cols = indices(rank - 1);
  Value r = rowIndices ? reshapeTo(ctx, rowIndices, {n, 1}) : nullptr;
  Value diff = r && cols ? ctx.build<SubOp>({cols, r}) : nullptr;
  bool upper = ctx.getInt("upper", 1) != 0;
  Value keep = compareValues(ctx, upper ? ComparePredicate::ge : ComparePredicate::le,
                             diff, k);
  Value zero = ctx.scalar(type.getElementType(), 0);
  results.push_back(keep ? ctx.build<SelectOp>({keep, *x, zero}, {}, {type}) : nullptr);
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerLayoutHandlers(OpRegistry &r) {
  r.add("Trilu", 14, trilu);
  r.add("Split", 1, split);
  r.add("Pad", 1, pad);
  r.add("Tile", 6, tile);
  r.add("DepthToSpace", 1, depthSpace<true>);
  r.add("SpaceToDepth", 1, depthSpace<false>);
}
