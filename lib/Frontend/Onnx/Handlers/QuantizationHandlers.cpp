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
  results.push_back(v ? castTo(ctx, v, target) : nullptr);
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerQuantizationHandlers(OpRegistry &r) {
  r.add("DequantizeLinear", 10, dequantize);
  r.add("QuantizeLinear", 10, quantize);
}
