//===- ShapeHandlers.cpp - ONNX shape and data-movement ops to tc ---------===//
//
// Reshape, Expand, Slice, Squeeze and friends take their shapes and indices
// as inputs. Exporters compute those with Shape/Gather/Concat chains, which
// fold to constants while importing when sizes are static; what is still not
// constant here is reported as unsupported rather than guessed.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/ShapeUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/FormatVariadic.h"
#include <limits>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

Value mlir::tc::onnx::compareValues(NodeContext &ctx,
                                    ComparePredicate predicate, Value lhs,
                                    Value rhs) {
  if (!lhs || !rhs)
    return nullptr;
  return ctx.build<CompareOp>(
      {lhs, rhs},
      {ctx.namedAttr("predicate", ComparePredicateAttr::get(
                                      ctx.builder.getContext(), predicate))});
}

LogicalResult mlir::tc::onnx::checkMaterializedSize(NodeContext &ctx,
                                                   ArrayRef<int64_t> factors) {
  if (llvm::any_of(factors, [](int64_t f) { return f < 0; }))
    return ctx.unsupported("it would need a constant of negative or dynamic size");
  // A zero factor does not make it pass: loops over the other factors
  // (rows of an empty matrix) still run. Both sides of each product are at
  // most the limit: no overflow.
  int64_t elements = 1;
  for (int64_t f : factors)
    if (f > kMaxMaterializedElements ||
        (elements *= std::max<int64_t>(f, 1)) > kMaxMaterializedElements)
      return ctx.unsupported(llvm::formatv(
          "it would need a constant of more than the limit of {0} elements",
          kMaxMaterializedElements));
  return success();
}

Value mlir::tc::onnx::shapeOf(NodeContext &ctx, Value v) {
  return ctx.build<ShapeOfOp>({v});
}

namespace {
constexpr int64_t kDyn = ShapedType::kDynamic;

/// A 1-D i64 shape vector as i64 (casting other integer types).
Value asI64Shape(NodeContext &ctx, Value shape) {
  auto type = NodeContext::typeOf(shape);
  if (type.getElementType().isInteger(64))
    return shape;
  return ctx.build<CastOp>({shape}, {}, {type.clone(ctx.builder.getI64Type())});
}

/// `shape` prefixed with ones to length `rank` (numpy alignment).
Value padShapeFront(NodeContext &ctx, Value shape, int64_t rank) {
  if (!shape)
    return nullptr;
  int64_t length = NodeContext::typeOf(shape).getDimSize(0);
  if (length >= rank)
    return shape;
  Value ones = ctx.constantI64(SmallVector<int64_t>(rank - length, 1));
  return ctx.build<ConcatOp>(
      {ones, shape}, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))});
}

/// Reshape with a shape known only at run time: 0 copies the input's size
/// (unless allowzero), -1 takes what is left. The result's rank is the
/// shape vector's length and every size is dynamic.
Value runtimeReshape(NodeContext &ctx, Value x, Value shape, bool allowZero) {
  auto type = NodeContext::typeOf(x);
  int64_t length = NodeContext::typeOf(shape).getDimSize(0);
  if (ShapedType::isDynamic(length)) {
    (void)ctx.unsupported("a target shape of unknown length");
    return nullptr;
  }
  if (length > kMaxShapeLength) {
    (void)ctx.unsupported(llvm::formatv("a target shape of {0} sizes (at most "
                                        "{1})",
                                        length, kMaxShapeLength));
    return nullptr;
  }
  Value target = asI64Shape(ctx, shape);
  Value in = shapeOf(ctx, x);
  // The input's sizes aligned with the target's positions: truncated, or
  // padded with ones where the input has fewer dimensions.
  if (type.getRank() > length)
    in = ctx.build<SliceOp>({in}, {ctx.namedAttr("starts", ctx.i64Array({0})),
                                   ctx.namedAttr("ends", ctx.i64Array({length})),
                                   ctx.namedAttr("steps", ctx.i64Array({1}))});
  else if (type.getRank() < length)
    in = ctx.build<ConcatOp>(
        {in, ctx.constantI64(SmallVector<int64_t>(length - type.getRank(), 1))},
        {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))});
  Value zero = ctx.constantI64({0}, true), one = ctx.constantI64({1}, true),
        minusOne = ctx.constantI64({-1}, true);
  Value sizes = target;
  if (!allowZero) {
    Value isZero = compareValues(ctx, ComparePredicate::eq, target, zero);
    sizes = isZero ? ctx.build<SelectOp>({isZero, in, target}) : nullptr;
  }
  Value isInfer = compareValues(ctx, ComparePredicate::eq, sizes, minusOne);
  Value known = isInfer ? ctx.build<SelectOp>({isInfer, one, sizes}) : nullptr;
  auto prod = [&](Value v) {
    return v ? ctx.build<ReduceProdOp>({v}, {ctx.namedAttr("axes", ctx.i64Array({0}))})
             : nullptr;
  };
  Value total = prod(shapeOf(ctx, x)), knownProd = prod(known);
  Value inferred = total && knownProd ? ctx.build<DivOp>({total, knownProd}) : nullptr;
  Value resolved =
      inferred ? ctx.build<SelectOp>({isInfer, inferred, sizes}) : nullptr;
  if (!resolved)
    return nullptr;
  auto resultType = RankedTensorType::get(SmallVector<int64_t>(length, kDyn),
                                          type.getElementType());
  return ctx.build<ReshapeOp>({x, resolved}, {}, resultType);
}

LogicalResult reshape(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  std::optional<SmallVector<int64_t>> target;
  if (ctx.opset < 5) {
    target = ctx.getInts("shape");
    if (!target)
      return ctx.invalid("the shape attribute is required");
  } else {
    FailureOr<Value> shapeIn = ctx.requireInput(1, 1, 1);
    if (failed(shapeIn))
      return failure();
    target = ctx.getConstantInts(*shapeIn);
  }
  bool allowZero = ctx.getInt("allowzero", 0) != 0;
  if (!target) {
    results.push_back(runtimeReshape(ctx, *x, ctx.input(1), allowZero));
    return success(results.back() != nullptr);
  }
  auto type = NodeContext::typeOf(*x);
  SmallVector<int64_t> shape;
  int64_t inferIndex = -1;
  for (auto [i, size] : llvm::enumerate(*target)) {
    if (size == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= type.getRank())
        return ctx.invalid("a 0 in the shape copies a dimension the input "
                           "lacks");
      shape.push_back(type.getDimSize(i));
    } else if (size == -1) {
      if (inferIndex >= 0)
        return ctx.invalid("the shape has more than one -1");
      inferIndex = i;
      shape.push_back(kDyn);
    } else if (size < 0) {
      return ctx.invalid(llvm::formatv("shape value {0} is negative", size));
    } else {
      shape.push_back(size);
    }
  }
  if (inferIndex >= 0) {
    std::optional<int64_t> total = getStaticElementCount(type.getShape());
    int64_t known = 1;
    bool knownStatic = true;
    for (auto [i, size] : llvm::enumerate(shape))
      if (static_cast<int64_t>(i) != inferIndex) {
        knownStatic &= !ShapedType::isDynamic(size);
        if (!ShapedType::isDynamic(size))
          known *= size;
      }
    if (total && knownStatic) {
      if (known == 0 || *total % known != 0)
        return ctx.invalid(llvm::formatv(
            "cannot reshape {0} elements into [{1}]", *total,
            formatShape(shape)));
      shape[inferIndex] = *total / known;
    }
  }
  int64_t dynamic = llvm::count_if(shape, ShapedType::isDynamic);
  if (dynamic > 1)
    return ctx.unsupported("a reshape that leaves several sizes dynamic");
  results.push_back(reshapeTo(ctx, *x, shape));
  return success(results.back() != nullptr);
}

LogicalResult flatten(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  int64_t axis = ctx.getInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return ctx.invalid(llvm::formatv("axis {0} is out of range", axis));
  auto product = [&](int64_t from, int64_t to) {
    int64_t p = 1;
    for (int64_t d = from; d < to; ++d) {
      if (type.isDynamicDim(d))
        return kDyn;
      p *= type.getDimSize(d);
    }
    return p;
  };
  SmallVector<int64_t> shape = {product(0, axis), product(axis, rank)};
  if (llvm::count_if(shape, ShapedType::isDynamic) > 1)
    return ctx.unsupported("flattening with dynamic sizes on both sides");
  results.push_back(reshapeTo(ctx, *x, shape));
  return success(results.back() != nullptr);
}

/// Squeeze-1/11 and Unsqueeze-1/11 take `axes` as an attribute, -13 as an
/// input.
LogicalResult squeeze(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (Value runtime = runtimeAxesInput(ctx, ctx.opset >= 13 ? ctx.input(1)
                                                             : Value())) {
    // The named dimensions must be 1, checked at run time, and are dropped.
    SmallVector<Value> flags = runtimeAxisFlags(ctx, runtime, type.getRank());
    OpBuilder &b = ctx.builder;
    Value unit = arith::ConstantIntOp::create(b, ctx.loc, b.getI1Type(), 1);
    for (auto [d, flag] : llvm::enumerate(flags)) {
      Value extent = tensor::DimOp::create(
          b, ctx.loc, *x, arith::ConstantIndexOp::create(b, ctx.loc, d));
      Value one = arith::CmpIOp::create(
          b, ctx.loc, arith::CmpIPredicate::eq, extent,
          arith::ConstantIndexOp::create(b, ctx.loc, 1));
      Value fine = arith::OrIOp::create(
          b, ctx.loc, arith::XOrIOp::create(b, ctx.loc, flag, unit), one);
      unit = arith::AndIOp::create(b, ctx.loc, unit, fine);
    }
    assertAtRunTime(ctx, unit,
                    "a dimension the axes computed at run time name is not of "
                    "size 1");
    results.push_back(dropFlaggedDims(
        ctx, *x, flags,
        type.getRank() - NodeContext::typeOf(runtime).getDimSize(0)));
    return success(results.back() != nullptr);
  }
  auto axes = readAxes(ctx, ctx.opset >= 13, 1, type.getRank());
  if (failed(axes))
    return failure();
  SmallVector<int64_t> shape, sources;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t size = type.getDimSize(d);
    bool listed = *axes && llvm::is_contained(**axes, d);
    if (listed && size != 1 && !ShapedType::isDynamic(size))
      return ctx.invalid(llvm::formatv("dimension {0} has size {1}, not 1",
                                       d, size));
    if (!*axes && ShapedType::isDynamic(size))
      return ctx.unsupported("squeezing all unit dims of a dynamic shape");
    if (listed || (!*axes && size == 1))
      continue;
    shape.push_back(size);
    sources.push_back(d);
  }
  results.push_back(reshapeKeeping(ctx, *x, shape, sources));
  return success(results.back() != nullptr);
}

/// `x` with a unit dimension at each of the output axes `axes` names (read
/// at run time): output extent j is 1 where named, else the extent of the
/// next dimension of `x`; a tc.reshape to extents computed at run time.
Value insertFlaggedDims(NodeContext &ctx, Value x, Value axes) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  RankedTensorType type = NodeContext::typeOf(x);
  int64_t rank = type.getRank() + NodeContext::typeOf(axes).getDimSize(0);
  SmallVector<Value> flags = runtimeAxisFlags(ctx, axes, rank);
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        tensor::DimOp::create(b, loc, x, arith::ConstantIndexOp::create(b, loc, d))));
  SmallVector<Value> extents;
  Value next = i64(0); // dimensions of x placed before j
  for (Value flag : flags) {
    Value extent = i64(1);
    for (auto [d, size] : llvm::enumerate(sizes)) {
      Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                         i64(d));
      extent = arith::SelectOp::create(b, loc, here, size, extent);
    }
    extents.push_back(arith::SelectOp::create(b, loc, flag, i64(1), extent));
    next = arith::AddIOp::create(b, loc, next,
                                 arith::SelectOp::create(b, loc, flag, i64(0), i64(1)));
  }
  Value shape = tensor::FromElementsOp::create(b, loc, extents);
  auto result = type.clone(SmallVector<int64_t>(rank, ShapedType::kDynamic));
  return ctx.build<ReshapeOp>({x, shape}, {}, {result});
}

LogicalResult unsqueeze(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  std::optional<SmallVector<int64_t>> raw =
      ctx.opset >= 13 ? (ctx.input(1) ? ctx.getConstantInts(ctx.input(1))
                                      : std::nullopt)
                      : ctx.getInts("axes");
  if (Value runtime = runtimeAxesInput(ctx, ctx.opset >= 13 ? ctx.input(1)
                                                             : Value());
      !raw && runtime) {
    results.push_back(insertFlaggedDims(ctx, *x, runtime));
    return success(results.back() != nullptr);
  }
  if (!raw)
    return ctx.unsupported("Unsqueeze needs constant axes");
  int64_t rank = type.getRank() + raw->size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t axis : *raw) {
    FailureOr<int64_t> a = ctx.normalizeAxis(axis, rank);
    if (failed(a))
      return failure();
    if (inserted[*a])
      return ctx.invalid("an axis is repeated");
    inserted[*a] = true;
  }
  SmallVector<int64_t> shape, sources;
  int64_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    sources.push_back(inserted[d] ? -1 : next);
    shape.push_back(inserted[d] ? 1 : type.getDimSize(next++));
  }
  results.push_back(reshapeKeeping(ctx, *x, shape, sources));
  return success(results.back() != nullptr);
}

LogicalResult transpose(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  SmallVector<int64_t> perm = ctx.getInts("perm").value_or(
      llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank))));
  results.push_back(ctx.build<TransposeOp>(
      {*x}, {ctx.namedAttr("permutation", ctx.i64Array(perm))}));
  return success(results.back() != nullptr);
}

LogicalResult concat(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  if (ctx.numInputs() == 0 || llvm::is_contained(ctx.allInputs(), Value()))
    return ctx.invalid("expects one or more inputs");
  int64_t rank = NodeContext::typeOf(ctx.input(0)).getRank();
  // Concat-1 defaulted to axis 1.
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", ctx.opset < 4 ? 1 : 0), rank);
  if (failed(axis))
    return failure();
  results.push_back(ctx.build<ConcatOp>(
      ctx.allInputs(),
      {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis))}));
  return success(results.back() != nullptr);
}

/// Slice whose starts or ends are known only at run time (or whose
/// negative step runs over a dynamic dimension): tc.dynamic_slice over the
/// listed axes (all of them by default) with the constant steps, or with
/// `stepValues` read at run time when given.
LogicalResult dynamicSlice(NodeContext &ctx, Value x,
                           std::optional<SmallVector<int64_t>> axes,
                           std::optional<SmallVector<int64_t>> steps,
                           SmallVectorImpl<Value> &results,
                           Value stepValues = {}) {
  FailureOr<Value> starts = ctx.requireInput(1, 1, 1),
                   ends = ctx.requireInput(2, 1, 1);
  if (failed(starts) || failed(ends))
    return failure();
  int64_t n = NodeContext::typeOf(*starts).getDimSize(0);
  if (ShapedType::isDynamic(n))
    return ctx.unsupported("slice bounds of unknown length");
  if (!axes)
    axes = llvm::to_vector(llvm::seq<int64_t>(0, n));
  if (stepValues)
    steps = SmallVector<int64_t>(); // read at run time
  else if (!steps)
    steps = SmallVector<int64_t>(n, 1);
  int64_t stepCount = stepValues ? NodeContext::typeOf(stepValues).getDimSize(0)
                                 : static_cast<int64_t>(steps->size());
  if (static_cast<int64_t>(axes->size()) != n || stepCount != n)
    return ctx.invalid("starts, ends, axes and steps differ in length");
  int64_t rank = NodeContext::typeOf(x).getRank();
  for (int64_t &axis : *axes) {
    FailureOr<int64_t> a = ctx.normalizeAxis(axis, rank);
    if (failed(a))
      return failure();
    axis = *a;
  }
  SmallVector<Value> operands = {x, *starts, *ends};
  if (stepValues)
    operands.push_back(stepValues);
  results.push_back(ctx.build<DynamicSliceOp>(
      operands, {ctx.namedAttr("axes", ctx.i64Array(*axes)),
                 ctx.namedAttr("steps", ctx.i64Array(*steps))}));
  return success(results.back() != nullptr);
}

/// Slice whose axes or steps are known only at run time. Run-time steps
/// with known axes go to tc.dynamic_slice as step values; run-time axes
/// make every dimension's start, end and step a selection among the listed
/// ones (by the normalized axis, checked like every run-time axes input),
/// the whole dimension where none names it.
LogicalResult runtimeStepsSlice(NodeContext &ctx, Value x,
                                std::optional<SmallVector<int64_t>> axes,
                                std::optional<SmallVector<int64_t>> steps,
                                SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  FailureOr<Value> starts = ctx.requireInput(1, 1, 1),
                   ends = ctx.requireInput(2, 1, 1);
  if (failed(starts) || failed(ends))
    return failure();
  int64_t n = NodeContext::typeOf(*starts).getDimSize(0);
  if (ShapedType::isDynamic(n))
    return ctx.unsupported("slice bounds of unknown length");
  int64_t rank = NodeContext::typeOf(x).getRank();
  Value stepsIn = ctx.input(4), axesIn = ctx.input(3);
  for (Value v : {stepsIn, axesIn})
    if (v && NodeContext::typeOf(v).getDimSize(0) != n)
      return ctx.invalid("starts, ends, axes and steps differ in length");
  if (!axesIn || axes)
    return dynamicSlice(ctx, x, axes, std::nullopt, results, stepsIn);
  Value runtimeAxes = runtimeAxesInput(ctx, axesIn);
  if (!runtimeAxes)
    return ctx.unsupported("slice axes of unknown length or type");
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  auto read = [&](Value tensor, int64_t i) -> Value {
    Value v = tensor::ExtractOp::create(
        b, loc, tensor, ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
    if (v.getType().getIntOrFloatBitWidth() < 64)
      v = arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
    return v;
  };
  SmallVector<Value> first(rank, i64(0)),
      last(rank, i64(std::numeric_limits<int64_t>::max())), step(rank, i64(1));
  for (auto [i, axis] : llvm::enumerate(normalizedRuntimeAxes(ctx, runtimeAxes, rank))) {
    Value s = stepsIn ? read(stepsIn, i) : i64(steps ? (*steps)[i] : 1);
    Value begin = read(*starts, i), end = read(*ends, i);
    for (int64_t d = 0; d < rank; ++d) {
      Value named =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, axis, i64(d));
      first[d] = arith::SelectOp::create(b, loc, named, begin, first[d]);
      last[d] = arith::SelectOp::create(b, loc, named, end, last[d]);
      step[d] = arith::SelectOp::create(b, loc, named, s, step[d]);
    }
  }
  results.push_back(ctx.build<DynamicSliceOp>(
      {x, tensor::FromElementsOp::create(b, loc, first),
       tensor::FromElementsOp::create(b, loc, last),
       tensor::FromElementsOp::create(b, loc, step)},
      {ctx.namedAttr("axes", ctx.i64Array(llvm::to_vector(llvm::seq<int64_t>(0, rank)))),
       ctx.namedAttr("steps", ctx.i64Array({}))}));
  return success(results.back() != nullptr);
}

/// Slice-1 takes starts/ends/axes attributes; Slice-10+ takes them, and
/// steps, as inputs. Bounds are clamped the way the spec says.
LogicalResult slice(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  std::optional<SmallVector<int64_t>> starts, ends, axes, steps;
  if (ctx.opset < 10) {
    starts = ctx.getInts("starts");
    ends = ctx.getInts("ends");
    axes = ctx.getInts("axes");
  } else {
    auto constInput = [&](size_t i) -> std::optional<SmallVector<int64_t>> {
      return ctx.input(i) ? ctx.getConstantInts(ctx.input(i)) : std::nullopt;
    };
    starts = constInput(1);
    ends = constInput(2);
    axes = constInput(3);
    steps = constInput(4);
    if ((ctx.input(3) && !axes) || (ctx.input(4) && !steps))
      return runtimeStepsSlice(ctx, *x, axes, steps, results);
    if (!starts || !ends)
      return dynamicSlice(ctx, *x, axes, steps, results);
  }
  if (!starts || !ends || starts->size() != ends->size())
    return ctx.invalid("starts and ends must be given with equal lengths");
  size_t n = starts->size();
  if (!axes)
    axes = llvm::to_vector(llvm::seq<int64_t>(0, n));
  if (!steps)
    steps = SmallVector<int64_t>(n, 1);
  if (axes->size() != n || steps->size() != n)
    return ctx.invalid("starts, ends, axes and steps differ in length");
  SmallVector<int64_t> s(rank, 0), e(rank), st(rank, 1);
  for (int64_t d = 0; d < rank; ++d)
    e[d] = type.isDynamicDim(d) ? std::numeric_limits<int64_t>::max()
                                : type.getDimSize(d);
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < n; ++i) {
    FailureOr<int64_t> axis = ctx.normalizeAxis((*axes)[i], rank);
    if (failed(axis))
      return failure();
    if (seen[*axis])
      return ctx.invalid("an axis is repeated");
    seen[*axis] = true;
    int64_t step = (*steps)[i], start = (*starts)[i], end = (*ends)[i];
    if (step == 0)
      return ctx.invalid("a step is zero");
    int64_t dim = type.getDimSize(*axis);
    if (ShapedType::isDynamic(dim)) {
      // tc.slice clamps a dynamic dimension's bounds when it runs; with a
      // negative step the bounds go to run time instead.
      if (step < 0)
        return dynamicSlice(ctx, *x, axes, steps, results);
      s[*axis] = start;
      e[*axis] = end;
      st[*axis] = step;
      continue;
    }
    if (start < 0)
      start += dim;
    if (end < 0)
      end += dim;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
    } else {
      start = std::clamp<int64_t>(start, 0, std::max<int64_t>(dim - 1, 0));
      end = std::clamp<int64_t>(end, -1, dim - 1);
    }
    s[*axis] = start;
    e[*axis] = end;
    st[*axis] = step;
  }
  results.push_back(ctx.build<SliceOp>(
      {*x}, {ctx.namedAttr("starts", ctx.i64Array(s)),
             ctx.namedAttr("ends", ctx.i64Array(e)),
             ctx.namedAttr("steps", ctx.i64Array(st))}));
  return success(results.back() != nullptr);
}

/// Gather and GatherElements: data, indices and a normalized axis.
template <typename OpTy>
LogicalResult gatherLike(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), indices = ctx.requireInput(1);
  if (failed(x) || failed(indices))
    return failure();
  FailureOr<int64_t> axis = ctx.normalizeAxis(
      ctx.getInt("axis", 0), NodeContext::typeOf(*x).getRank());
  if (failed(axis))
    return failure();
  results.push_back(ctx.build<OpTy>(
      {*x, *indices},
      {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(*axis))}));
  return success(results.back() != nullptr);
}

/// Expand broadcasts in both directions: the result is the broadcast of the
/// input's shape and the given one.
LogicalResult expand(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), shapeIn = ctx.requireInput(1, 1, 1);
  if (failed(x) || failed(shapeIn))
    return failure();
  std::optional<SmallVector<int64_t>> target = ctx.getConstantInts(*shapeIn);
  if (target && llvm::any_of(*target, [](int64_t size) { return size < 0; }))
    return ctx.invalid("the shape has a negative size");
  auto type = NodeContext::typeOf(*x);
  if (!target) {
    // Known only at run time: out[i] = input[i] where the target says 1,
    // the target's size elsewhere (numpy alignment on both sides).
    int64_t length = NodeContext::typeOf(*shapeIn).getDimSize(0);
    if (ShapedType::isDynamic(length))
      return ctx.unsupported("a target shape of unknown length");
    if (length > kMaxShapeLength)
      return ctx.unsupported(llvm::formatv("a target shape of {0} sizes (at "
                                           "most {1})",
                                           length, kMaxShapeLength));
    int64_t rank = std::max(length, type.getRank());
    Value in = padShapeFront(ctx, shapeOf(ctx, *x), rank);
    Value want = padShapeFront(ctx, asI64Shape(ctx, *shapeIn), rank);
    Value isOne =
        compareValues(ctx, ComparePredicate::eq, want, ctx.constantI64({1}, true));
    Value resolved = isOne ? ctx.build<SelectOp>({isOne, in, want}) : nullptr;
    if (!resolved)
      return failure();
    // A static input size other than 1 is the result's size.
    SmallVector<int64_t> shape(rank, kDyn);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t size = type.getDimSize(d);
      if (!ShapedType::isDynamic(size) && size != 1)
        shape[rank - type.getRank() + d] = size;
    }
    results.push_back(ctx.build<BroadcastOp>(
        {*x, resolved}, {}, RankedTensorType::get(shape, type.getElementType())));
    return success(results.back() != nullptr);
  }
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(type.getShape(), *target);
  if (!shape)
    return ctx.invalid("the input does not broadcast to the given shape");
  // A dynamic input size against a target of 1 stays what it is at run time.
  int64_t offset = shape->size() - type.getRank();
  for (int64_t d = 0; d < static_cast<int64_t>(shape->size()); ++d)
    if (ShapedType::isDynamic((*shape)[d]) &&
        (d < offset || !type.isDynamicDim(d - offset)))
      return ctx.unsupported("expanding to a size known only at run time");
  results.push_back(ctx.build<BroadcastOp>(
      {*x}, {}, RankedTensorType::get(*shape, type.getElementType())));
  return success(results.back() != nullptr);
}

/// Shape-15 takes optional start/end attributes.
LogicalResult shape(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  Value full = ctx.build<ShapeOfOp>({*x});
  if (!full)
    return failure();
  int64_t start = ctx.getInt("start", 0), end = ctx.getInt("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
  end = std::max(start, end);
  if (start == 0 && end == rank) {
    results.push_back(full);
    return success();
  }
  results.push_back(ctx.build<SliceOp>(
      {full}, {ctx.namedAttr("starts", ctx.i64Array({start})),
               ctx.namedAttr("ends", ctx.i64Array({end})),
               ctx.namedAttr("steps", ctx.i64Array({1}))}));
  return success(results.back() != nullptr);
}

LogicalResult size(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  std::optional<int64_t> count =
      getStaticElementCount(NodeContext::typeOf(*x).getShape());
  if (!count)
    return ctx.unsupported("Size of a dynamically shaped tensor");
  results.push_back(ctx.constantI64({*count}, /*scalar=*/true));
  return success();
}
} // namespace

void mlir::tc::onnx::registerShapeHandlers(OpRegistry &r) {
  r.add("Reshape", 1, reshape);
  r.add("Flatten", 1, flatten);
  r.add("Squeeze", 1, squeeze);
  r.add("Unsqueeze", 1, unsqueeze);
  r.add("Transpose", 1, transpose);
  r.add("Concat", 1, concat);
  r.add("Slice", 1, slice);
  r.add("Gather", 1, gatherLike<GatherOp>);
  r.add("GatherElements", 11, gatherLike<GatherElementsOp>);
  r.add("Expand", 8, expand);
  r.add("Shape", 1, shape);
  r.add("Size", 1, size);
}
