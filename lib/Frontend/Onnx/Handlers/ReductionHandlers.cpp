//===- ReductionHandlers.cpp - ONNX Reduce*, ArgMax/ArgMin to tc ----------===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
      // An axes input of no elements needs no values.
      RankedTensorType type = NodeContext::typeOf(axes);
      if (!raw && type.getRank() == 1 && type.getDimSize(0) == 0)
        raw = SmallVector<int64_t>();
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

/// The axes input, when its values are known only at run time but its
/// length is static and not zero (what the chain needs).
Value mlir::tc::onnx::runtimeAxesInput(NodeContext &ctx, Value axes) {
  if (!axes || ctx.getConstantInts(axes))
    return nullptr;
  RankedTensorType type = NodeContext::typeOf(axes);
  if (type.getRank() != 1 || type.isDynamicDim(0) || type.getDimSize(0) == 0 ||
      !type.getElementType().isInteger(64))
    return nullptr;
  return axes;
}

/// The axes read at run time, each in [0, rank), after the check that
/// every axis is in [-rank, rank) and none repeats.
SmallVector<Value> mlir::tc::onnx::normalizedRuntimeAxes(NodeContext &ctx,
                                                        Value axes,
                                                        int64_t rank) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  b.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  int64_t n = NodeContext::typeOf(axes).getDimSize(0);
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y).getResult();
  };
  SmallVector<Value> normalized;
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  for (int64_t i = 0; i < n; ++i) {
    Value index = arith::ConstantIndexOp::create(b, loc, i);
    Value axis = tensor::ExtractOp::create(b, loc, axes, ValueRange{index});
    Value negative = cmp(arith::CmpIPredicate::slt, axis, i64(0));
    Value shifted = arith::AddIOp::create(b, loc, axis, i64(rank));
    Value norm = arith::SelectOp::create(b, loc, negative, shifted, axis);
    Value inRange =
        arith::AndIOp::create(b, loc, cmp(arith::CmpIPredicate::sge, norm, i64(0)),
                              cmp(arith::CmpIPredicate::slt, norm, i64(rank)));
    valid = arith::AndIOp::create(b, loc, valid, inRange);
    for (Value earlier : normalized)
      valid = arith::AndIOp::create(b, loc, valid,
                                    cmp(arith::CmpIPredicate::ne, norm, earlier));
    normalized.push_back(norm);
  }
  assertAtRunTime(ctx, valid,
                  llvm::formatv("the axes computed at run time must be in "
                                "[-{0}, {0}) and distinct",
                                rank));
  return normalized;
}

void mlir::tc::onnx::assertAtRunTime(NodeContext &ctx, Value holds,
                                     const llvm::Twine &message) {
  ctx.builder.getContext()->getOrLoadDialect<cf::ControlFlowDialect>();
  cf::AssertOp::create(ctx.builder, ctx.loc, holds,
                       llvm::formatv("node '{0}' ({1}): {2}", ctx.node.name(),
                                     ctx.node.op_type(), message.str())
                           .str());
}

std::pair<Value, Value> mlir::tc::onnx::runtimeI64Scalar(NodeContext &ctx,
                                                         Value in) {
  OpBuilder &b = ctx.builder;
  Value scalar = reshapeTo(ctx, in, {});
  if (scalar && NodeContext::typeOf(scalar).getElementType() != b.getI64Type())
    scalar = ctx.build<CastOp>({scalar}, {},
                               {RankedTensorType::get({}, b.getI64Type())});
  if (!scalar)
    return {};
  return {scalar, tensor::ExtractOp::create(b, ctx.loc, scalar, ValueRange{})};
}

Value mlir::tc::onnx::runtimeSingleAxis(NodeContext &ctx, Value axisIn) {
  OpBuilder &b = ctx.builder;
  RankedTensorType axisType = NodeContext::typeOf(axisIn);
  Value axis = tensor::ExtractOp::create(
      b, ctx.loc, axisIn,
      SmallVector<Value>(axisType.getRank(),
                         arith::ConstantIndexOp::create(b, ctx.loc, 0)));
  if (axis.getType().getIntOrFloatBitWidth() < 64)
    axis = arith::ExtSIOp::create(b, ctx.loc, b.getI64Type(), axis);
  return tensor::FromElementsOp::create(b, ctx.loc, ValueRange{axis});
}

/// One i1 per dimension of a rank-`rank` input: whether `axes` names it.
SmallVector<Value> mlir::tc::onnx::runtimeAxisFlags(NodeContext &ctx,
                                                   Value axes, int64_t rank) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<Value> normalized = normalizedRuntimeAxes(ctx, axes, rank);
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y).getResult();
  };
  SmallVector<Value> flags;
  for (int64_t k = 0; k < rank; ++k) {
    Value named = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    for (Value norm : normalized)
      named = arith::OrIOp::create(b, loc, named,
                                   cmp(arith::CmpIPredicate::eq, norm, i64(k)));
    flags.push_back(named);
  }
  return flags;
}

/// `x` (a reduction's result with keepdims) without the dimensions `flags`
/// marks; `kept` of them remain.
Value mlir::tc::onnx::dropFlaggedDims(NodeContext &ctx, Value x,
                                      ArrayRef<Value> flags, int64_t kept) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  if (kept == 0)
    return reshapeTo(ctx, x, {});
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  // Output extent j is the extent of the j-th unmarked dimension.
  SmallVector<Value> extents(kept, i64(0));
  Value position = i64(0); // unmarked dimensions before k
  for (auto [k, flag] : llvm::enumerate(flags)) {
    Value index = arith::ConstantIndexOp::create(b, loc, k);
    Value extent = arith::IndexCastOp::create(
        b, loc, b.getI64Type(), tensor::DimOp::create(b, loc, x, index));
    Value one = i64(1);
    Value isKept = arith::XOrIOp::create(
        b, loc, flag, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    for (int64_t j = 0; j < kept; ++j) {
      Value here = arith::AndIOp::create(
          b, loc, isKept,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, position, i64(j)));
      extents[j] = arith::SelectOp::create(b, loc, here, extent, extents[j]);
    }
    position = arith::AddIOp::create(
        b, loc, position, arith::SelectOp::create(b, loc, isKept, one, i64(0)));
  }
  Value shape = tensor::FromElementsOp::create(b, loc, extents);
  RankedTensorType type = NodeContext::typeOf(x);
  auto result = type.clone(SmallVector<int64_t>(kept, ShapedType::kDynamic));
  return ctx.build<ReshapeOp>({x, shape}, {}, {result});
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

//===--- Axes known only at run time ----------------------------------------===//
//
// A reduction over axes read from data is a chain of single-axis reductions,
// one per dimension k of the input, each under an scf.if on whether k is
// among the axes: the rank and the kernels stay static, only extents become
// dynamic. Every reduction here (sum, mean, max, min, product) composes
// axis by axis. Without keepdims the reduced unit dimensions are dropped by
// a tc.reshape to the extents computed at run time.

/// `x` reduced by OpTy over the dimensions `flags` marks, keeping them
/// (extent 1); every dimension of the result is dynamic.
template <typename OpTy>
Value reduceFlagged(NodeContext &ctx, Value x, ArrayRef<Value> flags) {
  OpBuilder &b = ctx.builder;
  for (auto [k, flag] : llvm::enumerate(flags)) {
    if (!x)
      return nullptr;
    RankedTensorType type = NodeContext::typeOf(x);
    SmallVector<int64_t> shape(type.getShape());
    shape[k] = ShapedType::kDynamic;
    auto joined = type.clone(shape);
    auto branch = scf::IfOp::create(b, ctx.loc, TypeRange{joined}, flag,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value reduced = reduce<OpTy>(ctx, x, {static_cast<int64_t>(k)}, true);
    if (!reduced)
      return nullptr;
    scf::YieldOp::create(
        b, ctx.loc, tensor::CastOp::create(b, ctx.loc, joined, reduced).getResult());
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    scf::YieldOp::create(
        b, ctx.loc, tensor::CastOp::create(b, ctx.loc, joined, x).getResult());
    x = branch.getResult(0);
  }
  return x;
}

/// The maximum of `x` over the dimensions `flags` marks, broadcast back to
/// `x`'s shape (static, so that it combines with `x` elementwise): each
/// step takes max(reduce_max_k(x), x), which is the reduced maximum
/// repeated along k.
Value spreadMax(NodeContext &ctx, Value x, ArrayRef<Value> flags) {
  OpBuilder &b = ctx.builder;
  Type type = x.getType();
  for (auto [k, flag] : llvm::enumerate(flags)) {
    if (!x)
      return nullptr;
    auto branch = scf::IfOp::create(b, ctx.loc, TypeRange{type}, flag,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value reduced = reduce<ReduceMaxOp>(ctx, x, {static_cast<int64_t>(k)}, true);
    Value spread = reduced ? ctx.build<MaxOp>({reduced, x}, {}, {type}) : nullptr;
    if (!spread)
      return nullptr;
    scf::YieldOp::create(b, ctx.loc, spread);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    scf::YieldOp::create(b, ctx.loc, x);
    x = branch.getResult(0);
  }
  return x;
}

/// The reduction when its axes are known only at run time.
template <typename OpTy, Composite composite>
Value reduceRuntimeAxes(NodeContext &ctx, Value x, Value axes, bool keep) {
  int64_t rank = NodeContext::typeOf(x).getRank();
  SmallVector<Value> flags = runtimeAxisFlags(ctx, axes, rank);
  Value r;
  switch (composite) {
  case Composite::None:
    r = reduceFlagged<OpTy>(ctx, x, flags);
    break;
  case Composite::L1:
    r = reduceFlagged<ReduceSumOp>(ctx, ctx.build<AbsOp>({x}), flags);
    break;
  case Composite::L2:
  case Composite::SumSquare:
    r = reduceFlagged<ReduceSumOp>(ctx, ctx.build<MulOp>({x, x}), flags);
    if (r && composite == Composite::L2)
      r = ctx.build<SqrtOp>({r});
    break;
  case Composite::LogSum:
    r = reduceFlagged<ReduceSumOp>(ctx, x, flags);
    r = r ? ctx.build<LogOp>({r}) : nullptr;
    break;
  case Composite::LogSumExp: {
    // max + log(sum(exp(x - max))), stable for large inputs; the maximum
    // is spread over x's shape, so the shift broadcasts nothing.
    Value max = spreadMax(ctx, x, flags);
    Value shifted = max ? ctx.build<SubOp>({x, max}) : nullptr;
    Value exp = shifted ? ctx.build<ExpOp>({shifted}) : nullptr;
    Value sum = exp ? reduceFlagged<ReduceSumOp>(ctx, exp, flags) : nullptr;
    Value log = sum ? ctx.build<LogOp>({sum}) : nullptr;
    // The maximum once per group: reducing the spread copy changes nothing.
    Value groupMax = max ? reduceFlagged<ReduceMaxOp>(ctx, max, flags) : nullptr;
    r = log && groupMax ? ctx.build<AddOp>({log, groupMax}) : nullptr;
    break;
  }
  }
  if (!r || keep)
    return r;
  return dropFlaggedDims(ctx, r, flags,
                     rank - NodeContext::typeOf(axes).getDimSize(0));
}

template <typename OpTy, int inputSince, Composite composite = Composite::None>
LogicalResult reduction(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> xOr = ctx.requireInput(0);
  if (failed(xOr))
    return failure();
  Value x = *xOr;
  if (Value runtime = runtimeAxesInput(
          ctx, ctx.opset >= inputSince ? ctx.input(1) : Value());
      runtime && NodeContext::typeOf(x).getRank() > 0) {
    results.push_back(reduceRuntimeAxes<OpTy, composite>(
        ctx, x, runtime, ctx.getInt("keepdims", 1) != 0));
    return success(results.back() != nullptr);
  }
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
