//===- QuantizationHandlers.cpp - QuantizeLinear, DequantizeLinear to tc --===//
//
// Linear (de)quantization composed from tc ops in the scale's float type:
// y = (x - zero_point) * scale and y = saturate(round(x / scale) +
// zero_point), per tensor, per axis or per block (block_size: the
// parameters are repeated block_size times along the axis). QLinearMatMul
// and QLinearConv accumulate the centered operands in i32 and requantize
// in double, as the ONNX reference does.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "../TensorImport.h"

#include "llvm/Support/FormatVariadic.h"

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
  if (t.getRank() != 1) {
    (void)ctx.invalid("a per-axis scale or zero point must be 1-D");
    return nullptr;
  }
  if (axis < 0 || axis >= rank) {
    (void)ctx.invalid(llvm::formatv("the quantization axis is out of range "
                                    "for rank {0}",
                                    rank));
    return nullptr;
  }
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = t.getDimSize(0);
  return reshapeTo(ctx, p, shape);
}

/// A blocked parameter (x's shape but ceil(D / block) along `axis`)
/// repeated `block` times along `axis` and cut to x's size `dim` there.
Value expandBlocks(NodeContext &ctx, Value p, int64_t axis, int64_t block,
                   int64_t dim) {
  auto t = NodeContext::typeOf(p);
  if (!t.hasStaticShape() || ShapedType::isDynamic(dim)) {
    (void)ctx.unsupported("blocked quantization with dynamic shapes");
    return nullptr;
  }
  int64_t blocks = t.getDimSize(axis);
  if (blocks * block < dim || (blocks - 1) * block >= dim) {
    (void)ctx.invalid("the blocked parameter does not cover the axis");
    return nullptr;
  }
  SmallVector<int64_t> split(t.getShape()), stretched(t.getShape());
  split.insert(split.begin() + axis + 1, 1);
  stretched.insert(stretched.begin() + axis + 1, block);
  Value v = reshapeTo(ctx, p, split);
  v = v ? ctx.build<BroadcastOp>({v}, {}, {t.clone(stretched)}) : nullptr;
  SmallVector<int64_t> merged(t.getShape());
  merged[axis] = blocks * block;
  v = v ? reshapeTo(ctx, v, merged) : nullptr;
  if (!v || blocks * block == dim)
    return v;
  SmallVector<int64_t> starts(merged.size(), 0), ends(merged), steps(merged.size(), 1);
  ends[axis] = dim;
  return ctx.build<SliceOp>({v}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                  ctx.namedAttr("ends", ctx.i64Array(ends)),
                                  ctx.namedAttr("steps", ctx.i64Array(steps))});
}

/// A scale or zero point of (De)QuantizeLinear lined up with x: per
/// tensor, per axis, or per block when the node has a block_size.
Value quantParam(NodeContext &ctx, Value p, int64_t axis, RankedTensorType x) {
  int64_t block = ctx.getInt("block_size", 0);
  if (block == 0 || NodeContext::typeOf(p).getRank() == 0 ||
      NodeContext::typeOf(p).getNumElements() == 1)
    return alignParam(ctx, p, axis, x.getRank());
  if (block < 0 || NodeContext::typeOf(p).getRank() != x.getRank()) {
    (void)ctx.invalid("a blocked parameter must have the input's rank");
    return nullptr;
  }
  if (axis < 0 || axis >= x.getRank()) {
    (void)ctx.invalid(llvm::formatv("the quantization axis is out of range "
                                    "for rank {0}",
                                    x.getRank()));
    return nullptr;
  }
  return expandBlocks(ctx, p, axis, block, x.getDimSize(axis));
}

Value castTo(NodeContext &ctx, Value v, Type element) {
  if (!v || NodeContext::typeOf(v).getElementType() == element)
    return v;
  auto t = NodeContext::typeOf(v);
  return ctx.build<CastOp>({v}, {}, {t.clone(element)});
}

LogicalResult dequantize(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), scale = ctx.requireInput(1);
  if (failed(x) || failed(scale))
    return failure();
  auto xt = NodeContext::typeOf(*x);
  int64_t rank = xt.getRank();
  int64_t axisAttr = ctx.getInt("axis", 1);
  int64_t axis = rank == 0 ? 0 : (axisAttr < 0 ? axisAttr + rank : axisAttr);
  Type fp = NodeContext::typeOf(*scale).getElementType();
  Value s = quantParam(ctx, *scale, axis, xt);
  Value v = castTo(ctx, *x, fp);
  if (Value zp = ctx.input(2)) {
    Value z = castTo(ctx, quantParam(ctx, zp, axis, xt), fp);
    v = v && z ? ctx.build<SubOp>({v, z}, {}, {v.getType()}) : nullptr;
  }
  results.push_back(v && s ? ctx.build<MulOp>({v, s}, {}, {v.getType()}) : nullptr);
  return success(results.back() != nullptr);
}

LogicalResult quantize(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), scale = ctx.requireInput(1);
  if (failed(x) || failed(scale))
    return failure();
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
  Value s = castTo(ctx, quantParam(ctx, *scale, axis, xt), fp);
  Value v = s ? ctx.build<DivOp>({*x, s}, {}, {xt}) : nullptr;
  if (auto intType = dyn_cast<IntegerType>(target)) {
    v = v ? ctx.build<RoundOp>({v}) : nullptr;
    if (zp) {
      Value z = castTo(ctx, quantParam(ctx, zp, axis, xt), fp);
      v = v && z ? ctx.build<AddOp>({v, z}, {}, {xt}) : nullptr;
    }
    // Saturate to the integer type's range before converting.
    unsigned width = intType.getWidth();
    bool isUnsigned = intType.isUnsigned();
    double lo = isUnsigned ? 0 : -std::ldexp(1.0, width - 1);
    double hi = isUnsigned ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
    v = v ? ctx.build<ClampOp>({v, ctx.scalar(fp, lo), ctx.scalar(fp, hi)}) : nullptr;
  } else if (zp) {
    Value z = castTo(ctx, quantParam(ctx, zp, axis, xt), fp);
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

/// Requantizes an i32 accumulator: round(acc * multiplier + y_zero_point)
/// saturated to `target`. The multiplier (x_scale * w_scale / y_scale,
/// already lined up with acc) is formed in the scales' own type; the rest
/// is in double, as in the ONNX reference, so the rounding matches it
/// bit for bit.
Value requantize(NodeContext &ctx, Value acc, Value multiplier, Value yZeroPoint,
                 int64_t axis, Type target) {
  auto intType = dyn_cast<IntegerType>(target);
  if (!intType || intType.getWidth() > 32) {
    (void)ctx.unsupported("a quantized type other than an integer of up to 32 bits");
    return nullptr;
  }
  Type f64 = ctx.builder.getF64Type();
  Value v = castTo(ctx, acc, f64);
  Value m = castTo(ctx, multiplier, f64);
  v = v && m ? ctx.build<MulOp>({v, m}) : nullptr;
  if (yZeroPoint) {
    Value z = castTo(ctx, alignParam(ctx, yZeroPoint, axis,
                                     NodeContext::typeOf(acc).getRank()),
                     f64);
    v = v && z ? ctx.build<AddOp>({v, z}) : nullptr;
  }
  v = v ? ctx.build<RoundOp>({v}) : nullptr;
  unsigned width = intType.getWidth();
  bool isUnsigned = intType.isUnsigned();
  double lo = isUnsigned ? 0 : -std::ldexp(1.0, width - 1);
  double hi = isUnsigned ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
  v = v ? ctx.build<ClampOp>({v, ctx.scalar(f64, lo), ctx.scalar(f64, hi)}) : nullptr;
  return castTo(ctx, v, target);
}

/// lhs * rhs / out of three scales lined up with a rank-`rank` result
/// (scalars, or vectors along `lhsAxis` / `rhsAxis`), in the scales' type.
Value scaleMultiplier(NodeContext &ctx, Value lhs, int64_t lhsAxis, Value rhs,
                      int64_t rhsAxis, Value out, int64_t rank) {
  Value a = alignParam(ctx, lhs, lhsAxis, rank), b = alignParam(ctx, rhs, rhsAxis, rank);
  Value y = alignParam(ctx, out, 0, rank);
  if (!a || !b || !y)
    return nullptr;
  if (NodeContext::typeOf(y).getRank() != 0) {
    (void)ctx.unsupported("a y_scale that is not per tensor");
    return nullptr;
  }
  Value ab = ctx.build<MulOp>({a, b});
  return ab ? ctx.build<DivOp>({ab, y}) : nullptr;
}

/// The node's first `count` inputs: those listed in `optional` may be
/// absent (null), the others are required (recorded when missing).
FailureOr<SmallVector<Value>> readInputs(NodeContext &ctx, size_t count,
                                         ArrayRef<size_t> optional) {
  SmallVector<Value> in;
  for (size_t i = 0; i < count; ++i) {
    if (llvm::is_contained(optional, i)) {
      in.push_back(ctx.input(i));
      continue;
    }
    FailureOr<Value> v = ctx.requireInput(i);
    if (failed(v))
      return failure();
    in.push_back(*v);
  }
  return in;
}

/// QLinearMatMul: (a - a_zp) x (b - b_zp) in i32 (numpy matmul batching),
/// requantized with a_scale * b_scale / y_scale. a's parameters may be per
/// row, b's per column.
LogicalResult qlinearMatmul(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  // The zero points may be omitted; everything else is required.
  FailureOr<SmallVector<Value>> inputs = readInputs(ctx, 8, {2, 5, 7});
  if (failed(inputs))
    return failure();
  SmallVector<Value> &in = *inputs;
  Value a = in[0], b = in[3];
  auto at = NodeContext::typeOf(a), bt = NodeContext::typeOf(b);
  int64_t ar = at.getRank(), br = bt.getRank();
  if (ar < 2 || br < 2)
    return ctx.unsupported("QLinearMatMul on 1-D operands");
  Value lhs = centered(ctx, a, in[2], ar - 2);
  Value rhs = centered(ctx, b, in[5], br - 1);
  if (!lhs || !rhs)
    return failure();
  Value acc;
  int64_t rank = std::max(ar, br);
  if (rank == 2) {
    acc = ctx.build<MatmulOp>({lhs, rhs});
  } else {
    // Batch matmul wants equal ranks: leading unit dimensions broadcast.
    auto lift = [&](Value v) {
      auto t = NodeContext::typeOf(v);
      SmallVector<int64_t> shape(rank - t.getRank(), 1);
      shape.append(t.getShape().begin(), t.getShape().end());
      return reshapeTo(ctx, v, shape);
    };
    lhs = lift(lhs);
    rhs = lift(rhs);
    acc = lhs && rhs ? ctx.build<BatchMatmulOp>({lhs, rhs}) : nullptr;
  }
  Value m = acc ? scaleMultiplier(ctx, in[1], rank - 2, in[4], rank - 1, in[6], rank)
                : nullptr;
  Type target = in[7] ? NodeContext::typeOf(in[7]).getElementType() : at.getElementType();
  results.push_back(m ? requantize(ctx, acc, m, in[7], 0, target) : nullptr);
  return success(results.back() != nullptr);
}

/// QLinearConv: a convolution of the centered operands in i32 (plus the
/// i32 bias), requantized with x_scale * w_scale / y_scale, w_scale per
/// tensor or per output channel.
LogicalResult qlinearConv(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<SmallVector<Value>> inputs = readInputs(ctx, 9, {2, 5, 7, 8});
  if (failed(inputs))
    return failure();
  SmallVector<Value> &in = *inputs;
  Value bias = in[8];
  if (bias && !NodeContext::typeOf(bias).getElementType().isInteger(32))
    return ctx.invalid("the bias must be int32");
  Value input = centered(ctx, in[0], in[2], 1);
  Value filter = centered(ctx, in[3], in[5], 0);
  Value acc = input && filter ? buildConv(ctx, input, filter, bias) : nullptr;
  if (!acc)
    return failure();
  int64_t rank = NodeContext::typeOf(acc).getRank();
  Value m = scaleMultiplier(ctx, in[1], 1, in[4], 1, in[6], rank);
  Type target = in[7] ? NodeContext::typeOf(in[7]).getElementType()
                      : NodeContext::typeOf(in[0]).getElementType();
  results.push_back(m ? requantize(ctx, acc, m, in[7], 0, target) : nullptr);
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
  r.add("QLinearMatMul", 10, qlinearMatmul);
  r.add("QLinearConv", 10, qlinearConv);
}
