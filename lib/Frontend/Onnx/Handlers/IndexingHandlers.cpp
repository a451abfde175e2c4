//===- IndexingHandlers.cpp - TopK, NonZero, Compress, Gather/ScatterND ---===//

#include "HandlerUtils.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// TopK-1 takes k as an attribute, TopK-10+ as a constant input.
LogicalResult topK(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  int64_t k;
  if (ctx.opset < 10) {
    k = ctx.getInt("k", -1);
  } else {
    std::optional<SmallVector<int64_t>> kv =
        ctx.input(1) ? ctx.getConstantInts(ctx.input(1)) : std::nullopt;
    if (!kv || kv->size() != 1)
      return ctx.unsupported("k computed at run time");
    k = (*kv)[0];
  }
  FailureOr<int64_t> axis = ctx.normalizeAxis(
      ctx.getInt("axis", -1), NodeContext::typeOf(*x).getRank());
  if (failed(axis))
    return failure();
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("k", ctx.builder.getI64IntegerAttr(k)),
      ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis))};
  if (ctx.getInt("largest", 1) == 0)
    attrs.push_back(ctx.namedAttr("smallest", ctx.builder.getUnitAttr()));
  if (ctx.getInt("sorted", 1) == 0)
    attrs.push_back(ctx.namedAttr("unsorted", ctx.builder.getUnitAttr()));
  // Two results: build the op directly and hand both out.
  OperationState state(ctx.loc, TopKOp::getOperationName());
  state.addOperands({*x});
  state.addAttributes(attrs);
  SmallVector<Type, 2> types;
  // Inference reports a bad k against the node.
  auto type = NodeContext::typeOf(*x);
  int64_t size = type.getDimSize(*axis);
  if (k < 0 || (!ShapedType::isDynamic(size) && k > size))
    return ctx.invalid(llvm::formatv("k = {0} does not fit dimension {1} of "
                                     "size {2}",
                                     k, *axis, size));
  SmallVector<int64_t> shape(type.getShape());
  shape[*axis] = k;
  state.addTypes({RankedTensorType::get(shape, type.getElementType()),
                  RankedTensorType::get(shape, ctx.builder.getI64Type())});
  Operation *op = ctx.builder.create(state);
  results.append({op->getResult(0), op->getResult(1)});
  return success();
}

LogicalResult cumSum(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), axisIn = ctx.requireInput(1);
  if (failed(x) || failed(axisIn))
    return failure();
  std::optional<SmallVector<int64_t>> a = ctx.getConstantInts(*axisIn);
  if (!a || a->size() != 1)
    return ctx.unsupported("an axis computed at run time");
  FailureOr<int64_t> axis =
      ctx.normalizeAxis((*a)[0], NodeContext::typeOf(*x).getRank());
  if (failed(axis))
    return failure();
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis))};
  if (ctx.getInt("exclusive", 0))
    attrs.push_back(ctx.namedAttr("exclusive", ctx.builder.getUnitAttr()));
  if (ctx.getInt("reverse", 0))
    attrs.push_back(ctx.namedAttr("reverse", ctx.builder.getUnitAttr()));
  results.push_back(ctx.build<CumSumOp>({*x}, attrs));
  return success(results.back() != nullptr);
}

LogicalResult gatherND(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), indices = ctx.requireInput(1);
  if (failed(x) || failed(indices))
    return failure();
  results.push_back(ctx.build<GatherNDOp>(
      {*x, *indices}, {ctx.namedAttr("batch_dims", ctx.builder.getI64IntegerAttr(
                                                       ctx.getInt("batch_dims", 0)))}));
  return success(results.back() != nullptr);
}

template <typename OpTy, bool hasAxis>
LogicalResult scatter(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), indices = ctx.requireInput(1),
                   updates = ctx.requireInput(2);
  if (failed(x) || failed(indices) || failed(updates))
    return failure();
  SmallVector<NamedAttribute> attrs = {ctx.namedAttr(
      "reduction", ctx.builder.getStringAttr(ctx.getString("reduction", "none")))};
  if (hasAxis) {
    FailureOr<int64_t> axis = ctx.normalizeAxis(
        ctx.getInt("axis", 0), NodeContext::typeOf(*x).getRank());
    if (failed(axis))
      return failure();
    attrs.push_back(ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis)));
  }
  results.push_back(ctx.build<OpTy>({*x, *indices, *updates}, attrs));
  return success(results.back() != nullptr);
}
} // namespace

/// NonZero: indices of the non-zero elements; their count is data.
static LogicalResult nonZero(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  results.push_back(ctx.build<NonZeroOp>({*x}, {}));
  return success(results.back() != nullptr);
}

/// Compress keeps the slices along `axis` (of the flattened input without
/// one) whose condition is true: a Gather at the condition's non-zero
/// positions. Slices past the condition's end are dropped, as in the spec.
static LogicalResult compress(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), condition = ctx.requireInput(1, 1, 1);
  if (failed(x) || failed(condition))
    return failure();
  Value data = *x;
  int64_t axis = 0;
  if (ctx.hasAttr("axis")) {
    FailureOr<int64_t> a = ctx.normalizeAxis(ctx.getInt("axis", 0),
                                             NodeContext::typeOf(data).getRank());
    if (failed(a))
      return failure();
    axis = *a;
  } else {
    auto type = NodeContext::typeOf(data);
    data = reshapeTo(ctx, data,
                     {type.hasStaticShape() ? type.getNumElements()
                                            : ShapedType::kDynamic});
    if (!data)
      return failure();
  }
  int64_t size = NodeContext::typeOf(data).getDimSize(axis);
  int64_t length = NodeContext::typeOf(*condition).getDimSize(0);
  if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(length) &&
      length > size)
    return ctx.invalid(llvm::formatv("the condition has {0} elements, the "
                                     "axis only {1}",
                                     length, size));
  Value positions = ctx.build<NonZeroOp>({*condition}, {});
  Value indices =
      positions ? reshapeTo(ctx, positions, {ShapedType::kDynamic}) : Value();
  results.push_back(ctx.build<GatherOp>(
      {data, indices},
      {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(axis))}));
  return success(results.back() != nullptr);
}

/// Unique: up to four outputs (values, first-occurrence indices, inverse
/// indices, counts), all produced by one tc.unique.
static LogicalResult unique(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (ctx.hasAttr("axis")) {
    FailureOr<int64_t> axis = ctx.normalizeAxis(
        ctx.getInt("axis", 0), NodeContext::typeOf(*x).getRank());
    if (failed(axis))
      return failure();
    attrs.push_back(ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis)));
  }
  if (ctx.getInt("sorted", 1) == 0)
    attrs.push_back(ctx.namedAttr("unsorted", ctx.builder.getUnitAttr()));
  Value values = ctx.build<UniqueOp>({*x}, attrs);
  if (!values)
    return failure();
  for (Value v : values.getDefiningOp()->getResults())
    results.push_back(v);
  return success();
}

/// TensorScatter (opset 24): a KV-cache update at per-batch positions.
static LogicalResult tensorScatter(NodeContext &ctx,
                                   SmallVectorImpl<Value> &results) {
  FailureOr<Value> cache = ctx.requireInput(0), update = ctx.requireInput(1);
  if (failed(cache) || failed(update) || failed(ctx.requireRank(2, 1, 1)))
    return failure();
  FailureOr<int64_t> axis = ctx.normalizeAxis(
      ctx.getInt("axis", -2), NodeContext::typeOf(*cache).getRank());
  if (failed(axis))
    return failure();
  if (*axis == 0)
    return ctx.invalid("axis 0 is the batch axis, not a sequence axis");
  std::string mode = ctx.getString("mode", "linear");
  if (mode != "linear" && mode != "circular")
    return ctx.invalid("unknown mode '" + mode + "'");
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis))};
  if (mode == "circular")
    attrs.push_back(ctx.namedAttr("circular", ctx.builder.getUnitAttr()));
  SmallVector<Value> operands = {*cache, *update};
  if (Value w = ctx.input(2))
    operands.push_back(w);
  results.push_back(ctx.build<TensorScatterOp>(operands, attrs));
  return success(results.back() != nullptr);
}

void mlir::tc::onnx::registerIndexingHandlers(OpRegistry &r) {
  r.add("Unique", 11, unique);
  r.add("TensorScatter", 24, tensorScatter);
  r.add("Compress", 9, compress);
  r.add("TopK", 1, topK);
  r.add("NonZero", 9, nonZero);
  r.add("CumSum", 11, cumSum);
  r.add("GatherND", 11, gatherND);
  r.add("ScatterElements", 11, scatter<ScatterElementsOp, true>);
  r.add("Scatter", 9, scatter<ScatterElementsOp, true>);
  r.add("ScatterND", 11, scatter<ScatterNDOp, false>);
}
