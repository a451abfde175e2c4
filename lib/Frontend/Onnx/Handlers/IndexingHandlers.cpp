//===- IndexingHandlers.cpp - TopK, CumSum, GatherND, ScatterElements/ND --===//

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

void mlir::tc::onnx::registerIndexingHandlers(OpRegistry &r) {
  r.add("TopK", 1, topK);
  r.add("NonZero", 9, nonZero);
  r.add("CumSum", 11, cumSum);
  r.add("GatherND", 11, gatherND);
  r.add("ScatterElements", 11, scatter<ScatterElementsOp, true>);
  r.add("Scatter", 9, scatter<ScatterElementsOp, true>);
  r.add("ScatterND", 11, scatter<ScatterNDOp, false>);
}
