//===- IndexingHandlers.cpp - TopK, NonZero, Compress, Gather/ScatterND ---===//

#include "HandlerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// The first `k` (a 1-element i64 tensor read at run time) of each sorted
/// result along `axis`, after a check that k fits the dimension.
LogicalResult firstK(NodeContext &ctx, ArrayRef<Value> sorted, int64_t axis,
                     Value k, SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  b.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  int64_t size = NodeContext::typeOf(sorted[0]).getDimSize(axis);
  Value count = tensor::ExtractOp::create(
      b, loc, k, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  Value valid = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, count, i64(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, count, i64(size)));
  assertAtRunTime(ctx, valid,
                  llvm::formatv("the k computed at run time must be in [0, {0}]",
                                size));
  Value start = tensor::FromElementsOp::create(b, loc, ValueRange{i64(0)});
  Value end = tensor::FromElementsOp::create(b, loc, ValueRange{count});
  for (Value v : sorted) {
    results.push_back(ctx.build<DynamicSliceOp>(
        {v, start, end}, {ctx.namedAttr("axes", ctx.i64Array({axis})),
                          ctx.namedAttr("steps", ctx.i64Array({1}))}));
    if (!results.back())
      return failure();
  }
  return success();
}

/// TopK-1 takes k as an attribute, TopK-10+ as a constant input.
LogicalResult topK(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  FailureOr<int64_t> axis = ctx.normalizeAxis(
      ctx.getInt("axis", -1), NodeContext::typeOf(*x).getRank());
  if (failed(axis))
    return failure();
  int64_t k;
  Value runtimeK;
  if (ctx.opset < 10) {
    k = ctx.getInt("k", -1);
  } else {
    FailureOr<Value> kIn = ctx.requireInput(1, 1, 1);
    if (failed(kIn))
      return failure();
    std::optional<SmallVector<int64_t>> kv = ctx.getConstantInts(*kIn);
    if (kv && kv->size() != 1)
      return ctx.invalid("k needs one value");
    // k read at run time: every element sorted (k = the whole axis), then
    // the first k kept by run-time slices.
    int64_t size = NodeContext::typeOf(*x).getDimSize(*axis);
    if (!kv && ShapedType::isDynamic(size))
      return ctx.unsupported("k computed at run time over a dynamic dimension");
    if (!kv && NodeContext::typeOf(*kIn).getDimSize(0) != 1)
      return ctx.invalid("k needs one value");
    if (!kv)
      runtimeK = *kIn;
    k = kv ? (*kv)[0] : size;
  }
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("k", ctx.builder.getI64IntegerAttr(k)),
      ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis))};
  if (ctx.getInt("largest", 1) == 0)
    attrs.push_back(ctx.namedAttr("smallest", ctx.builder.getUnitAttr()));
  // A run-time k keeps a prefix of the order, which must be sorted.
  if (ctx.getInt("sorted", 1) == 0 && !runtimeK)
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
  if (!runtimeK) {
    results.append({op->getResult(0), op->getResult(1)});
    return success();
  }
  return firstK(ctx, {op->getResult(0), op->getResult(1)}, *axis, runtimeK,
                results);
}

LogicalResult cumSum(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), axisIn = ctx.requireInput(1);
  if (failed(x) || failed(axisIn))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  auto build = [&](int64_t axis) -> Value {
    SmallVector<NamedAttribute> attrs = {
        ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(axis))};
    if (ctx.getInt("exclusive", 0))
      attrs.push_back(ctx.namedAttr("exclusive", ctx.builder.getUnitAttr()));
    if (ctx.getInt("reverse", 0))
      attrs.push_back(ctx.namedAttr("reverse", ctx.builder.getUnitAttr()));
    return ctx.build<CumSumOp>({*x}, attrs);
  };
  std::optional<SmallVector<int64_t>> a = ctx.getConstantInts(*axisIn);
  if (a) {
    if (a->size() != 1)
      return ctx.invalid("axis needs one value");
    FailureOr<int64_t> axis = ctx.normalizeAxis((*a)[0], rank);
    if (failed(axis))
      return failure();
    results.push_back(build(*axis));
    return success(results.back() != nullptr);
  }
  // An axis read at run time: one scan per dimension, each under an scf.if
  // on whether the (checked) axis names it; exactly one does.
  OpBuilder &b = ctx.builder;
  RankedTensorType axisType = NodeContext::typeOf(*axisIn);
  if (axisType.getNumElements() != 1 || !axisType.getElementType().isInteger())
    return ctx.invalid("axis needs one integer value");
  // As a 1-element i64 vector (the axis may be an int32 scalar).
  SmallVector<Value> flags =
      runtimeAxisFlags(ctx, runtimeSingleAxis(ctx, *axisIn), rank);
  b.getContext()->getOrLoadDialect<scf::SCFDialect>();
  Value result = *x;
  for (int64_t d = rank - 1; d >= 0; --d) {
    auto branch = scf::IfOp::create(b, ctx.loc, TypeRange{result.getType()},
                                    flags[d], /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value scanned = build(d);
    if (!scanned)
      return failure();
    scf::YieldOp::create(b, ctx.loc, scanned);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    scf::YieldOp::create(b, ctx.loc, result);
    result = branch.getResult(0);
  }
  results.push_back(result);
  return success();
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
