//===- QuantizationHandlers.cpp - QuantizeLinear, DequantizeLinear to tc --===//
//
// Linear (de)quantization composed from tc ops in the scale's float type:
// y = (x - zero_point) * scale and y = saturate(round(x / scale) +
// zero_point), per tensor or per axis. Blocked quantization (block_size) is
// not supported yet.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "../TensorImport.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// A per-axis parameter [C] reshaped to line up with `axis` of a rank-`rank`
/// tensor; scalars and 1-element vectors stay as they are.
Value alignParam(NodeContext &ctx, Value p, int64_t axis, int64_t rank) {
  auto t = NodeContext::typeOf(p);
  if (t.getRank() == 0 || (t.getRank() == 1 && t.getDimSize(0) == 1))
    return t.getRank() == 0 ? p : reshapeTo(ctx, p, {});
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = t.getDimSize(0);
  return reshapeTo(ctx, p, shape);
}

Value castTo(NodeContext &ctx, Value v, Type element) {
  auto t = NodeContext::typeOf(v);
  if (!v || t.getElementType() == element)
    return v;
  return ctx.build<CastOp>({v}, {}, {t.clone(element)});
}

LogicalResult dequantize(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), scale = ctx.requireInput(1);
  if (failed(x) || failed(scale))
    return failure();
  if (ctx.getInt("block_size", 0) != 0)
    return ctx.unsupported("blocked quantization (block_size)");
  int64_t rank = NodeContext::typeOf(*x).getRank();
  int64_t axisAttr = ctx.getInt("axis", 1);
  int64_t axis = rank == 0 ? 0 : (axisAttr < 0 ? axisAttr + rank : axisAttr);
  Type fp = NodeContext::typeOf(*scale).getElementType();
  Value s = alignParam(ctx, *scale, axis, rank);
  Value v = castTo(ctx, *x, fp);
  if (Value zp = ctx.input(2)) {
    Value z = castTo(ctx, alignParam(ctx, zp, axis, rank), fp);
    v = v && z ? ctx.build<SubOp>({v, z}, {}, {v.getType()}) : nullptr;
  }
  results.push_back(v && s ? ctx.build<MulOp>({v, s}, {}, {v.getType()}) : nullptr);
  return success(results.back() != nullptr);
}

LogicalResult quantize(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), scale = ctx.requireInput(1);
  if (failed(x) || failed(scale))
    return failure();
  if (ctx.getInt("block_size", 0) != 0)
    return ctx.unsupported("blocked quantization (block_size)");
  auto xt = NodeContext::typeOf(*x);
  int64_t rank = xt.getRank();
  int64_t axisAttr = ctx.getInt("axis", 1);
  int64_t axis = rank == 0 ? 0 : (axisAttr < 0 ? axisAttr + rank : axisAttr);
  Value zp = ctx.input(2);
  Type target = zp ? NodeContext::typeOf(zp).getElementType()
                   : IntegerType::get(ctx.builder.getContext(), 8,
                                      IntegerType::Unsigned);
  if (ctx.hasAttr("output_dtype") && ctx.getInt("output_dtype", 0) != 0) {
    std::string why;
    target = convertElementType(ctx.builder.getContext(),
                                static_cast<int32_t>(ctx.getInt("output_dtype", 0)), why);
    if (!target)
      return ctx.unsupported("output " + why);
  }
  Type fp = xt.getElementType();
  Value s = castTo(ctx, alignParam(ctx, *scale, axis, rank), fp);
  Value v = s ? ctx.build<DivOp>({*x, s}, {}, {xt}) : nullptr;
  if (auto intType = dyn_cast<IntegerType>(target)) {
    v = v ? ctx.build<RoundOp>({v}) : nullptr;
    if (zp) {
      Value z = castTo(ctx, alignParam(ctx, zp, axis, rank), fp);
      v = v && z ? ctx.build<AddOp>({v, z}, {}, {xt}) : nullptr;
    }
    // Saturate to the integer type's range before converting.
    unsigned width = intType.getWidth();
    bool isUnsigned = intType.isUnsigned();
    double lo = isUnsigned ? 0 : -std::ldexp(1.0, width - 1);
    double hi = isUnsigned ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
    v = v ? ctx.build<ClampOp>({v, ctx.scalar(fp, lo), ctx.scalar(fp, hi)}) : nullptr;
  } else if (zp) {
    Value z = castTo(ctx, alignParam(ctx, zp, axis, rank), fp);
    v = v && z ? ctx.build<AddOp>({v, z}, {}, {xt}) : nullptr;
  }
  // ONNX's `saturate` (opset 19+, default 1) governs float8 results as in
  // Cast.
  if (v && isa<FloatType>(target) && target.getIntOrFloatBitWidth() == 8 &&
      NodeContext::typeOf(v).getElementType() != target) {
    SmallVector<NamedAttribute> attrs;
    if (ctx.getInt("saturate", 1) != 0)
      attrs.push_back(ctx.namedAttr("saturate", ctx.builder.getUnitAttr()));
    v = ctx.build<CastOp>({v}, attrs, {NodeContext::typeOf(v).clone(target)});
  }
  results.push_back(v ? castTo(ctx, v, target) : nullptr);
  return success(results.back() != nullptr);
}
/// (x - zero_point) in i32, the zero point per tensor or, for per-channel
/// weights, reshaped along `axis`.
Value centered(NodeContext &ctx, Value x, Value zp, int64_t axis) {
  Type i32 = ctx.builder.getI32Type();
  Value v = castTo(ctx, x, i32);
  if (!zp || !v)
    return v;
  Value z = castTo(ctx, alignParam(ctx, zp, axis, NodeContext::typeOf(x).getRank()), i32);
  return z ? ctx.build<SubOp>({v, z}, {}, {v.getType()}) : nullptr;
}

/// MatMulInteger: (A - a_zero_point) x (B - b_zero_point) in i32; a per-row
/// A zero point lines up with A's rows, a per-column B one with B's columns.
LogicalResult matmulInteger(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> a = ctx.requireInput(0), b = ctx.requireInput(1);
  if (failed(a) || failed(b))
    return failure();
  auto at = NodeContext::typeOf(*a), bt = NodeContext::typeOf(*b);
  if (at.getRank() != 2 || bt.getRank() != 2)
    return ctx.unsupported("MatMulInteger on operands other than 2-D");
  Value lhs = centered(ctx, *a, ctx.input(2), 0);
  Value rhs = centered(ctx, *b, ctx.input(3), 1);
  results.push_back(lhs && rhs ? ctx.build<MatmulOp>({lhs, rhs}) : nullptr);
  return success(results.back() != nullptr);
}

/// ConvInteger: a convolution of the centered operands in i32.
LogicalResult convInteger(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), w = ctx.requireInput(1);
  if (failed(x) || failed(w))
    return failure();
  Value input = centered(ctx, *x, ctx.input(2), 1);
  Value filter = centered(ctx, *w, ctx.input(3), 0);
  results.push_back(input && filter ? buildConv(ctx, input, filter, Value())
                                    : nullptr);
  return success(results.back() != nullptr);
}

/// DynamicQuantizeLinear: uint8 quantization with a scale and zero point
/// computed from the data's range (which always includes 0).
LogicalResult dynamicQuantize(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  auto xt = NodeContext::typeOf(*x);
  Type fp = xt.getElementType();
  if (!fp.isF32())
    return ctx.invalid("DynamicQuantizeLinear takes float32");
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, xt.getRank()));
  auto reduce = [&](bool isMax) -> Value {
    SmallVector<NamedAttribute> attrs = {ctx.namedAttr("axes", ctx.i64Array(all))};
    return isMax ? ctx.build<ReduceMaxOp>({*x}, attrs) : ctx.build<ReduceMinOp>({*x}, attrs);
  };
  Value zero = ctx.scalar(fp, 0.0);
  Value lo = reduce(false), hi = reduce(true);
  lo = lo ? ctx.build<MinOp>({lo, zero}) : nullptr;
  hi = hi ? ctx.build<MaxOp>({hi, zero}) : nullptr;
  Value range = lo && hi ? ctx.build<SubOp>({hi, lo}) : nullptr;
  Value scale = range ? ctx.build<DivOp>({range, ctx.scalar(fp, 255.0)}) : nullptr;
  Value ratio = scale ? ctx.build<DivOp>({lo, scale}) : nullptr;
  Value zpf = ratio ? ctx.build<NegOp>({ratio}) : nullptr;
  zpf = zpf ? ctx.build<RoundOp>({zpf}) : nullptr;
  auto saturate = [&](Value v) {
    return v ? ctx.build<ClampOp>({v, zero, ctx.scalar(fp, 255.0)}) : nullptr;
  };
  zpf = saturate(zpf);
  Type u8 = IntegerType::get(ctx.builder.getContext(), 8, IntegerType::Unsigned);
  Value q = scale ? ctx.build<DivOp>({*x, scale}, {}, {xt}) : nullptr;
  q = q ? ctx.build<RoundOp>({q}) : nullptr;
  q = q && zpf ? ctx.build<AddOp>({q, zpf}, {}, {xt}) : nullptr;
  q = saturate(q);
  Value y = q ? castTo(ctx, q, u8) : nullptr;
  Value zp = zpf ? castTo(ctx, zpf, u8) : nullptr;
  if (!y || !zp)
    return failure();
  results.append({y, scale, zp});
  return success();
}
} // namespace

void mlir::tc::onnx::registerQuantizationHandlers(OpRegistry &r) {
  r.add("MatMulInteger", 10, matmulInteger);
  r.add("ConvInteger", 10, convInteger);
  r.add("DynamicQuantizeLinear", 11, dynamicQuantize);
  r.add("DequantizeLinear", 10, dequantize);
  r.add("QuantizeLinear", 10, quantize);
}
