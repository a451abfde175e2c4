//===- ReductionHandlers.cpp - ONNX Reduce*, ArgMax/ArgMin to tc ----------===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

FailureOr<std::optional<SmallVector<int64_t>>>
mlir::tc::onnx::readAxes(NodeContext &ctx, bool fromInput, size_t inputIndex,
                         int64_t rank) {
  std::optional<SmallVector<int64_t>> raw;
  if (fromInput) {
    if (Value axes = ctx.input(inputIndex)) {
      raw = ctx.getConstantInts(axes);
      if (!raw)
        return ctx.unsupported("axes computed at run time");
    }
  } else {
    raw = ctx.getInts("axes");
  }
  if (!raw)
    return std::optional<SmallVector<int64_t>>();
  SmallVector<int64_t> axes;
  for (int64_t axis : *raw) {
    FailureOr<int64_t> normalized = ctx.normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    axes.push_back(*normalized);
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return ctx.invalid("an axis is repeated");
  return std::optional<SmallVector<int64_t>>(axes);
}

namespace {
/// The axes of a reduction: the attribute until `inputSince`, the optional
/// second input from then on. No axes means all of them, unless
/// noop_with_empty_axes (input form only) asks for the identity.
FailureOr<SmallVector<int64_t>> reductionAxes(NodeContext &ctx,
                                              int inputSince, int64_t rank) {
  bool fromInput = ctx.opset >= inputSince;
  auto axes = readAxes(ctx, fromInput, 1, rank);
  if (failed(axes))
    return failure();
  if (*axes && !(*axes)->empty())
    return **axes;
  if (fromInput && ctx.getInt("noop_with_empty_axes", 0))
    return SmallVector<int64_t>();
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

template <typename OpTy>
Value reduce(NodeContext &ctx, Value x, ArrayRef<int64_t> axes, bool keep) {
  SmallVector<NamedAttribute> attrs = {ctx.namedAttr("axes", ctx.i64Array(axes))};
  if (keep)
    attrs.push_back(ctx.namedAttr("keepdims", ctx.builder.getUnitAttr()));
  return ctx.build<OpTy>({x}, attrs);
}

enum class Composite { None, L1, L2, LogSum, LogSumExp, SumSquare };

template <typename OpTy, int inputSince, Composite composite = Composite::None>
LogicalResult reduction(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> xOr = ctx.requireInput(0);
  if (failed(xOr))
    return failure();
  Value x = *xOr;
  FailureOr<SmallVector<int64_t>> axes =
      reductionAxes(ctx, inputSince, NodeContext::typeOf(x).getRank());
  if (failed(axes))
    return failure();
  bool keep = ctx.getInt("keepdims", 1) != 0;
  Value r;
  switch (composite) {
  case Composite::None:
    r = reduce<OpTy>(ctx, x, *axes, keep);
    break;
  case Composite::L1:
    r = reduce<ReduceSumOp>(ctx, ctx.build<AbsOp>({x}), *axes, keep);
    break;
  case Composite::L2:
  case Composite::SumSquare: {
    Value squares = ctx.build<MulOp>({x, x});
    r = squares ? reduce<ReduceSumOp>(ctx, squares, *axes, keep) : nullptr;
    if (r && composite == Composite::L2)
      r = ctx.build<SqrtOp>({r});
    break;
  }
  case Composite::LogSum: {
    Value sum = reduce<ReduceSumOp>(ctx, x, *axes, keep);
    r = sum ? ctx.build<LogOp>({sum}) : nullptr;
    break;
  }
  case Composite::LogSumExp: {
    // max + log(sum(exp(x - max))): stays finite for large inputs.
    Value max = reduce<ReduceMaxOp>(ctx, x, *axes, /*keep=*/true);
    Value shifted = max ? ctx.build<SubOp>({x, max}, {}, {x.getType()}) : nullptr;
    Value exp = shifted ? ctx.build<ExpOp>({shifted}) : nullptr;
    Value sum = exp ? reduce<ReduceSumOp>(ctx, exp, *axes, /*keep=*/true) : nullptr;
    Value log = sum ? ctx.build<LogOp>({sum}) : nullptr;
    Value lse = log ? ctx.build<AddOp>({log, max}) : nullptr;
    r = lse;
    if (lse && !keep) {
      SmallVector<int64_t> shape;
      for (auto [d, size] : llvm::enumerate(NodeContext::typeOf(lse).getShape()))
        if (!llvm::is_contained(*axes, static_cast<int64_t>(d)))
          shape.push_back(size);
      r = reshapeTo(ctx, lse, shape);
    }
    break;
  }
  }
  results.push_back(r);
  return success(r != nullptr);
}

template <typename OpTy>
LogicalResult argReduce(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  FailureOr<int64_t> axis = ctx.normalizeAxis(
      ctx.getInt("axis", 0), NodeContext::typeOf(*x).getRank());
  if (failed(axis))
    return failure();
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis))};
  if (ctx.getInt("keepdims", 1))
    attrs.push_back(ctx.namedAttr("keepdims", ctx.builder.getUnitAttr()));
  if (ctx.getInt("select_last_index", 0))
    attrs.push_back(
        ctx.namedAttr("select_last_index", ctx.builder.getUnitAttr()));
  results.push_back(ctx.build<OpTy>({*x}, attrs));
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerReductionHandlers(OpRegistry &r) {
  // ReduceSum took its axes as an input from opset 13, the others from 18.
  r.add("ReduceSum", 1, reduction<ReduceSumOp, 13>);
  r.add("ReduceMean", 1, reduction<ReduceMeanOp, 18>);
  r.add("ReduceMax", 1, reduction<ReduceMaxOp, 18>);
  r.add("ReduceMin", 1, reduction<ReduceMinOp, 18>);
  r.add("ReduceProd", 1, reduction<ReduceProdOp, 18>);
  r.add("ReduceL1", 1, reduction<ReduceSumOp, 18, Composite::L1>);
  r.add("ReduceL2", 1, reduction<ReduceSumOp, 18, Composite::L2>);
  r.add("ReduceLogSum", 1, reduction<ReduceSumOp, 18, Composite::LogSum>);
  r.add("ReduceLogSumExp", 1,
        reduction<ReduceSumOp, 18, Composite::LogSumExp>);
  r.add("ReduceSumSquare", 1,
        reduction<ReduceSumOp, 18, Composite::SumSquare>);
  r.add("ArgMax", 1, argReduce<ArgMaxOp>);
  r.add("ArgMin", 1, argReduce<ArgMinOp>);
}
