//===- AttentionHandlers.cpp - ONNX Attention (opset 23) to tc ------------===//
//
// softmax(Q K^T * scale + bias) V with the spec's options: 3-D inputs split
// into heads, boolean or additive masks, padded keys (nonpad_kv_seqlen),
// causal masking after a KV cache, grouped-query attention (K/V heads
// repeated), softcap, and the optional present_key/present_value/qk
// outputs. Composed from tc ops; the fusion
// pass recognizes the matmul-softmax-matmul pattern as one kernel. Also
// RotaryEmbedding (opset 23), composed from slices and elementwise ops.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
Value transposeTo(NodeContext &ctx, Value v, ArrayRef<int64_t> perm) {
  return v ? ctx.build<TransposeOp>(
                 {v}, {ctx.namedAttr("permutation", ctx.i64Array(perm))})
           : nullptr;
}

/// [B, S, heads * H] -> [B, heads, S, H].
Value splitHeads(NodeContext &ctx, Value v, int64_t heads) {
  auto t = NodeContext::typeOf(v);
  int64_t hidden = t.getDimSize(2);
  if (heads <= 0 || hidden % heads != 0) {
    (void)ctx.invalid(llvm::formatv("hidden size {0} does not split into {1} "
                                    "heads",
                                    hidden, heads));
    return nullptr;
  }
  Value r = reshapeTo(ctx, v, {t.getDimSize(0), t.getDimSize(1), heads, hidden / heads});
  return transposeTo(ctx, r, {0, 2, 1, 3});
}

/// [B, kvHeads, T, H] -> [B, kvHeads * reps, T, H], each head repeated
/// `reps` times in place (numpy.repeat along axis 1).
Value repeatHeads(NodeContext &ctx, Value v, int64_t reps) {
  if (reps == 1)
    return v;
  auto t = NodeContext::typeOf(v);
  int64_t b = t.getDimSize(0), h = t.getDimSize(1), s = t.getDimSize(2),
          d = t.getDimSize(3);
  Value r = reshapeTo(ctx, v, {b, h, 1, s, d});
  r = r ? ctx.build<BroadcastOp>(
              {r}, {}, RankedTensorType::get({b, h, reps, s, d}, t.getElementType()))
        : nullptr;
  return r ? reshapeTo(ctx, r, {b, h * reps, s, d}) : nullptr;
}

LogicalResult attention(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> qIn = ctx.requireInput(0, 3, 4);
  if (failed(qIn))
    return failure();
  // K and V have Q's rank; the KV cache is 4-D; the mask's last dimension
  // is the total sequence length.
  int64_t rank = NodeContext::typeOf(*qIn).getRank();
  FailureOr<Value> kIn = ctx.requireInput(1, rank, rank),
                   vIn = ctx.requireInput(2, rank, rank);
  if (failed(kIn) || failed(vIn) || failed(ctx.requireRank(3, 1, 4)) ||
      failed(ctx.requireRank(4, 4, 4)) || failed(ctx.requireRank(5, 4, 4)) ||
      failed(ctx.requireRank(6, 1, 1)))
    return failure();
  Value q = *qIn, k = *kIn, v = *vIn;
  for (Value x : {q, k, v})
    if (!NodeContext::typeOf(x).hasStaticShape())
      return ctx.unsupported("dynamically shaped attention");
  auto qt = NodeContext::typeOf(q);
  Type element = qt.getElementType();
  auto floatType = dyn_cast<FloatType>(element);
  if (!floatType)
    return ctx.invalid("Q must be floating-point");
  bool threeD = qt.getRank() == 3;
  if (threeD) {
    int64_t qHeads = ctx.getInt("q_num_heads", 0);
    int64_t kvHeads = ctx.getInt("kv_num_heads", 0);
    q = splitHeads(ctx, q, qHeads);
    k = splitHeads(ctx, k, kvHeads);
    v = splitHeads(ctx, v, kvHeads);
    if (!q || !k || !v)
      return failure();
  }
  auto q4 = NodeContext::typeOf(q);
  int64_t qHeads = q4.getDimSize(1), qSeq = q4.getDimSize(2),
          headSize = q4.getDimSize(3);

  // The KV cache goes in front of the new keys and values.
  int64_t past = 0;
  auto cat = [&](Value a, Value b) {
    return ctx.build<ConcatOp>(
        {a, b}, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(2))});
  };
  if (Value pastKey = ctx.input(4)) {
    past = NodeContext::typeOf(pastKey).getDimSize(2);
    k = cat(pastKey, k);
  }
  if (Value pastValue = ctx.input(5))
    v = cat(pastValue, v);
  if (!k || !v)
    return failure();
  Value presentKey = k, presentValue = v;
  int64_t kvHeads = NodeContext::typeOf(k).getDimSize(1);
  int64_t total = NodeContext::typeOf(k).getDimSize(2);
  if (kvHeads <= 0 || qHeads % kvHeads != 0)
    return ctx.invalid("q heads are not a multiple of kv heads");

  // Additive bias: the mask (boolean: false -> -inf) plus the causal part.
  APFloat negInf = APFloat::getInf(floatType.getFloatSemantics(), true);
  Value bias;
  if (Value mask = ctx.input(3)) {
    auto mt = NodeContext::typeOf(mask);
    int64_t maskLen = mt.getDimSize(mt.getRank() - 1);
    if (ShapedType::isDynamic(maskLen))
      return ctx.unsupported("a mask of dynamic length");
    bool isBool = mt.getElementType().isInteger(1);
    if (maskLen < total) {
      // Positions past the mask are masked out.
      SmallVector<int64_t> pads(2 * mt.getRank(), 0);
      pads.back() = total - maskLen;
      Value fill = isBool ? ctx.constant(DenseElementsAttr::get(
                                RankedTensorType::get({}, mt.getElementType()), false))
                          : ctx.constant(DenseElementsAttr::get(
                                RankedTensorType::get({}, element), negInf));
      mask = ctx.build<PadOp>({mask, fill},
                              {ctx.namedAttr("padding", ctx.i64Array(pads))});
    }
    if (mask && isBool)
      mask = ctx.build<SelectOp>(
          {mask, ctx.scalar(element, 0),
           ctx.constant(DenseElementsAttr::get(RankedTensorType::get({}, element),
                                               negInf))});
    bias = mask;
    if (!bias)
      return failure();
  }
  if (Value lengths = ctx.input(6)) {
    // nonpad_kv_seqlen: key j of batch b is padding when j >= lengths[b].
    int64_t batch = NodeContext::typeOf(k).getDimSize(0);
    if (failed(checkMaterializedSize(ctx, {total})))
      return failure();
    SmallVector<int64_t> positions(total);
    for (int64_t j = 0; j < total; ++j)
      positions[j] = j;
    Value iota = reshapeTo(ctx, ctx.constantI64(positions), {1, 1, 1, total});
    Value perBatch = reshapeTo(ctx, lengths, {batch, 1, 1, 1});
    Value valid = iota && perBatch
                      ? compareValues(ctx, ComparePredicate::lt, iota, perBatch)
                      : nullptr;
    Value padding =
        valid ? ctx.build<SelectOp>(
                    {valid, ctx.scalar(element, 0),
                     ctx.constant(DenseElementsAttr::get(
                         RankedTensorType::get({}, element), negInf))})
              : nullptr;
    bias = bias && padding ? ctx.build<AddOp>({bias, padding}) : padding;
    if (!bias)
      return failure();
  }
  if (ctx.getInt("is_causal", 0)) {
    if (failed(checkMaterializedSize(ctx, {qSeq, total})))
      return failure();
    // Query i sees keys up to past + i.
    SmallVector<APFloat> causal;
    APFloat zero = APFloat::getZero(floatType.getFloatSemantics());
    for (int64_t i = 0; i < qSeq; ++i)
      for (int64_t j = 0; j < total; ++j)
        causal.push_back(j > past + i ? negInf : zero);
    Value c = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({qSeq, total}, element), causal));
    bias = bias ? ctx.build<AddOp>({bias, c}) : c;
    if (!bias)
      return failure();
  }

  k = repeatHeads(ctx, k, qHeads / kvHeads);
  v = repeatHeads(ctx, v, qHeads / kvHeads);
  float scale = ctx.hasAttr("scale") ? ctx.getFloat("scale", 1.0f)
                                     : 1.0f / std::sqrt(static_cast<float>(headSize));
  Value scaled = ctx.build<MulOp>({q, ctx.scalar(element, scale)});
  Value kT = transposeTo(ctx, k, {0, 1, 3, 2});
  Value qk = scaled && kT ? ctx.build<BatchMatmulOp>({scaled, kT}) : nullptr;
  if (!qk)
    return failure();
  int64_t mode = ctx.getInt("qk_matmul_output_mode", 0);
  Value qkOut = qk;
  Value logits = bias ? ctx.build<AddOp>({qk, bias}, {}, {qk.getType()}) : qk;
  if (mode == 1)
    qkOut = logits;
  float softcap = ctx.getFloat("softcap", 0.0f);
  if (logits && softcap > 0) {
    Value c = ctx.scalar(element, softcap);
    Value t = ctx.build<DivOp>({logits, c});
    t = t ? ctx.build<TanhOp>({t}) : nullptr;
    logits = t ? ctx.build<MulOp>({t, c}) : nullptr;
    if (mode == 2)
      qkOut = logits;
  }
  if (ctx.hasAttr("softmax_precision") &&
      ctx.getInt("softmax_precision", 1) != ::onnx::TensorProto::FLOAT &&
      !element.isF32())
    return ctx.unsupported("softmax_precision other than the input's");
  Value probs = logits ? ctx.build<SoftmaxOp>(
                             {logits}, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(3))})
                       : nullptr;
  if (mode == 3)
    qkOut = probs;
  Value y = probs && v ? ctx.build<BatchMatmulOp>({probs, v}) : nullptr;
  if (y && threeD) {
    auto yt = NodeContext::typeOf(y);
    y = transposeTo(ctx, y, {0, 2, 1, 3});
    y = y ? reshapeTo(ctx, y, {yt.getDimSize(0), yt.getDimSize(2),
                               yt.getDimSize(1) * yt.getDimSize(3)})
          : nullptr;
  }
  if (!y || !qkOut)
    return failure();
  results.append({y, presentKey, presentValue, qkOut});
  return success();
}
/// v[start:end:step] along the last axis.
Value sliceLast(NodeContext &ctx, Value v, int64_t start, int64_t end,
                int64_t step = 1) {
  if (!v)
    return nullptr;
  auto t = NodeContext::typeOf(v);
  int64_t rank = t.getRank();
  SmallVector<int64_t> starts(rank, 0), ends = wholeSliceEnds(t),
                       steps(rank, 1);
  starts.back() = start;
  ends.back() = end;
  steps.back() = step;
  return ctx.build<SliceOp>({v}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                  ctx.namedAttr("ends", ctx.i64Array(ends)),
                                  ctx.namedAttr("steps", ctx.i64Array(steps))});
}

Value concatLast(NodeContext &ctx, ValueRange parts) {
  if (llvm::any_of(parts, [](Value v) { return !v; }))
    return nullptr;
  int64_t axis = NodeContext::typeOf(parts.front()).getRank() - 1;
  return ctx.build<ConcatOp>(
      parts, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(axis))});
}

/// RotaryEmbedding (opset 23): the first rotary_embedding_dim features of
/// each head are rotated pairwise by the cached angles of the token's
/// position: (x1, x2) -> (x1 cos - x2 sin, x1 sin + x2 cos), the pairs
/// being the two halves or (interleaved) adjacent features. Works in the
/// input's own layout: 4-D [B, heads, S, H] with the caches as
/// [B, 1, S, H/2], 3-D [B, S, heads * H] split to [B, S, heads, H] with the
/// caches as [B, S, 1, H/2].
LogicalResult rotaryEmbedding(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> xIn = ctx.requireInput(0, 3, 4), cosIn = ctx.requireInput(1),
                   sinIn = ctx.requireInput(2);
  if (failed(xIn) || failed(cosIn) || failed(sinIn))
    return failure();
  auto xt = NodeContext::typeOf(*xIn);
  if (!xt.hasStaticShape())
    return ctx.unsupported("dynamically shaped input");
  bool fourD = xt.getRank() == 4;
  int64_t batch = xt.getDimSize(0), seq = xt.getDimSize(fourD ? 2 : 1);
  Value x = *xIn;
  if (!fourD) {
    int64_t heads = ctx.getInt("num_heads", 0), hidden = xt.getDimSize(2);
    if (heads <= 0 || hidden % heads != 0)
      return ctx.invalid("num_heads must divide the hidden size of a 3-D input");
    x = reshapeTo(ctx, x, {batch, seq, heads, hidden / heads});
    if (!x)
      return failure();
  }
  int64_t head = NodeContext::typeOf(x).getDimSize(3);
  int64_t dim = ctx.getInt("rotary_embedding_dim", 0);
  dim = dim == 0 ? head : dim;
  if (dim <= 0 || dim > head || dim % 2 != 0)
    return ctx.invalid("rotary_embedding_dim must be even and at most the head size");
  int64_t half = dim / 2;

  // The caches per token: [B, S, half], gathered by position when given.
  auto perToken = [&](Value cache) -> Value {
    if (Value ids = ctx.input(3))
      cache = ctx.build<GatherOp>(
          {cache, ids}, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))});
    if (!cache)
      return nullptr;
    auto ct = NodeContext::typeOf(cache);
    if (ct.getRank() != 3 || ct.getDimSize(2) != half) {
      (void)ctx.invalid("the caches must give rotary_embedding_dim / 2 values per token");
      return nullptr;
    }
    return reshapeTo(ctx, cache, fourD ? SmallVector<int64_t>{batch, 1, seq, half}
                                       : SmallVector<int64_t>{batch, seq, 1, half});
  };
  Value cos = perToken(*cosIn), sin = perToken(*sinIn);
  if (!cos || !sin)
    return failure();

  Value rotated = sliceLast(ctx, x, 0, dim);
  Value x1, x2;
  bool interleaved = ctx.getInt("interleaved", 0) != 0;
  if (interleaved) {
    x1 = sliceLast(ctx, rotated, 0, dim, 2);
    x2 = sliceLast(ctx, rotated, 1, dim, 2);
  } else {
    x1 = sliceLast(ctx, rotated, 0, half);
    x2 = sliceLast(ctx, rotated, half, dim);
  }
  auto mul = [&](Value a, Value b) { return a && b ? ctx.build<MulOp>({a, b}) : nullptr; };
  Value c1 = mul(cos, x1), s2 = mul(sin, x2), s1 = mul(sin, x1), c2 = mul(cos, x2);
  Value real = c1 && s2 ? ctx.build<SubOp>({c1, s2}) : nullptr;
  Value imag = s1 && c2 ? ctx.build<AddOp>({s1, c2}) : nullptr;
  if (!real || !imag)
    return failure();
  Value out;
  if (interleaved) {
    // [..., half] pairs back to [..., half, 2] -> [..., dim].
    SmallVector<int64_t> pairShape(NodeContext::typeOf(real).getShape());
    pairShape.push_back(1);
    Value pairs = concatLast(ctx, {reshapeTo(ctx, real, pairShape),
                                   reshapeTo(ctx, imag, pairShape)});
    SmallVector<int64_t> shape(NodeContext::typeOf(rotated).getShape());
    out = pairs ? reshapeTo(ctx, pairs, shape) : nullptr;
  } else {
    out = concatLast(ctx, {real, imag});
  }
  if (out && dim < head)
    out = concatLast(ctx, {out, sliceLast(ctx, x, dim, head)});
  out = out ? reshapeTo(ctx, out, xt.getShape()) : nullptr;
  results.push_back(out);
  return success(out != nullptr);
}
} // namespace

void mlir::tc::onnx::registerAttentionHandlers(OpRegistry &r) {
  r.add("Attention", 23, attention);
  r.add("RotaryEmbedding", 23, rotaryEmbedding);
}
