//===- BlockDepthwiseConvs.cpp - --tc-cpu-block-depthwise-convs -----------===//
//
// A depthwise convolution's register tile puts image columns in vector
// lanes. On a narrow image (28, 14 or 7 columns: the later stages of
// MobileNetV2 and EfficientNet) a row fills vectors only partly, and LLVM
// assembles every 14-wide row from an 8-, a 4- and a 2-wide piece: the
// kernels spent more time inserting vector parts than multiplying, and ran
// at half ONNX Runtime's speed or less, which computes them channel-blocked.
//
// Such a convolution here computes in a channel-blocked layout too: the
// lanes are L channels (NCHW32c, or NCHW16c when the channels are not a
// multiple of 32), each reduction step multiplies L contiguous input values
// by L contiguous filter values, and the tile's rows are output columns.
// The padded input is packed to [N, C / L, H, W, L] by a layout copy (which
// --tc-cpu-distribute fuses into each workgroup, with the padding: a small
// image's block is a few KB), the filter, a constant, is stored at compile
// time as [C / L, K..., L], the init (bias or zeros) is read into the
// blocked layout, and the result is unpacked to [N, C, 1, O...] by a layout
// copy into whose workgroups the convolution is fused (an activation after
// it joins that copy, --tc-cpu-fuse-elementwise).
//
// Runs on tensors, after --convert-tc-to-linalg, beside
// --tc-cpu-block-conv-channels (which blocks dense convolutions).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"


namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUBLOCKDEPTHWISECONVSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// A depthwise convolution is blocked when its output rows are not whole
/// 16-lane vectors and narrower than kRowVector columns (14, 7), or than
/// kNarrowWidth (28) if it has enough work per packed element to pay for
/// the packing: a stride (whose rows read every other column, shuffled) or
/// a window of at least kWideWindow taps. Measured on single convolutions
/// with their activation: a 5x5 stride-2 one to 28 columns ran in 0.18 ms
/// blocked against 0.29 ms in rows, a 3x3 stride-1 one on 28x28 about 10 %
/// slower, and a 56-wide one (stride 2 from 112x112) in 0.46 against
/// 0.37 ms, its large input's packing costing more than the rows' partial
/// vectors.
constexpr int64_t kRowVector = 16;
constexpr int64_t kNarrowWidth = 32;
constexpr int64_t kWideWindow = 25;

/// Whether the convolution's last spatial input expression steps by more
/// than one input column per output column.
bool isStrided(AffineExpr e, unsigned outputLoop, unsigned loops) {
  MLIRContext *ctx = e.getContext();
  SmallVector<AffineExpr> values(loops, getAffineConstantExpr(0, ctx));
  values[outputLoop] = getAffineConstantExpr(1, ctx);
  auto step = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(e.replaceDimsAndSymbols(values, {}), 0, 0));
  return !step || step.getValue() > 1;
}

/// A depthwise convolution from --convert-tc-to-linalg: loops (n, g, f,
/// o_1..o_S, c, k_1..k_S) with f and c of extent 1; input (n, g, c,
/// o*s + k*d...), filter (g, f, c, k...), output (n, g, f, o...).
struct Candidate {
  linalg::GenericOp op;
  unsigned spatial;
  int64_t lanes;
  ConstantWeight filter;
};

std::optional<Candidate> match(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || !hasMultiplyAddBody(op) ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  auto outType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  auto inType = dyn_cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  // Static but for the batch (an export with a dynamic batch axis).
  if (!outType || !inType || !outType.getElementType().isF32() ||
      outType.getRank() < 4 ||
      llvm::any_of(outType.getShape().drop_front(), ShapedType::isDynamic) ||
      llvm::any_of(inType.getShape().drop_front(), ShapedType::isDynamic))
    return std::nullopt;
  unsigned s = outType.getRank() - 3;
  if (op.getNumLoops() != 2 * s + 4)
    return std::nullopt;
  MLIRContext *ctx = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  unsigned c = s + 3;
  SmallVector<AffineExpr> outExprs, filterExprs = {d(1), d(2), d(c)};
  for (unsigned i = 0; i < s + 3; ++i)
    outExprs.push_back(d(i));
  for (unsigned i = 0; i < s; ++i)
    filterExprs.push_back(d(c + 1 + i));
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[2] != AffineMap::get(op.getNumLoops(), 0, outExprs, ctx) ||
      maps[1] != AffineMap::get(op.getNumLoops(), 0, filterExprs, ctx))
    return std::nullopt;
  // The input: (n, g, c, then each spatial dim from its output loop and its
  // window loop only).
  AffineMap input = maps[0];
  if (input.getNumResults() != s + 3 || input.getResult(0) != d(0) ||
      input.getResult(1) != d(1) || input.getResult(2) != d(c))
    return std::nullopt;
  for (unsigned i = 0; i < s; ++i)
    for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
      if (loop != 3 + i && loop != c + 1 + i &&
          input.getResult(3 + i).isFunctionOfDim(loop))
        return std::nullopt;
  // One input and one output channel per group, channels in whole blocks,
  // and a narrow image.
  auto filterType = cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  int64_t groups = outType.getDimSize(1);
  if (outType.getDimSize(2) != 1 || inType.getDimSize(2) != 1 ||
      filterType.getDimSize(1) != 1 || filterType.getDimSize(2) != 1 ||
      groups % 16 != 0)
    return std::nullopt;
  int64_t width = outType.getShape().back();
  int64_t taps = filterType.getNumElements() / groups;
  bool worthIt = isStrided(input.getResult(2 + s), 2 + s, op.getNumLoops()) ||
                 taps >= kWideWindow;
  if (width % kRowVector == 0 || width >= kNarrowWidth ||
      (width > kRowVector && !worthIt))
    return std::nullopt;
  int64_t lanes = groups % kRegisterLanes == 0 ? kRegisterLanes : 16;
  std::optional<ConstantWeight> filter =
      constantWeight(op.getDpsInputOperand(1)->get());
  if (!filter)
    return std::nullopt;
  return Candidate{op, s, lanes, *filter};
}

/// The filter, seen as `type` = [G, 1, 1, K...], as [G / L, K..., L] (a
/// splat stays one).
ElementsAttr blockFilter(const Candidate &c, RankedTensorType type) {
  int64_t lanes = c.lanes;
  SmallVector<int64_t> shape = {type.getDimSize(0) / lanes};
  for (int64_t size : type.getShape().drop_front(3))
    shape.push_back(size);
  shape.push_back(lanes);
  return blockLeadingDim(
      c.filter, RankedTensorType::get(shape, type.getElementType()), lanes);
}

/// The init [N, G, 1, O...] written directly in the blocked layout `shape`
/// when it is a fill or a broadcast of a per-channel vector (a bias,
/// possibly through an expand_shape): computed there, it fuses into the
/// convolution's workgroups, where a layout copy of it behind reshapes
/// would be a kernel of its own. Null otherwise.
Value blockedInit(RewriterBase &rewriter, Location loc, Value init,
                  ArrayRef<int64_t> shape, int64_t lanes, ValueRange batch) {
  if (auto expand = init.getDefiningOp<tensor::ExpandShapeOp>())
    init = expand.getSrc();
  auto producer = init.getDefiningOp<linalg::LinalgOp>();
  if (!producer || producer.getNumDpsInits() != 1 ||
      producer.getNumDpsInputs() != 1 ||
      producer.getNumLoops() != producer.getNumParallelLoops() ||
      producer.payloadUsesValueFromOperand(producer.getDpsInitOperand(0)))
    return nullptr;
  Type element = cast<ShapedType>(init.getType()).getElementType();
  MLIRContext *ctx = rewriter.getContext();
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element, batch);
  if (auto fill = dyn_cast<linalg::FillOp>(producer.getOperation()))
    return linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
        .getResult(0);
  // A broadcast of [G] along the other loops: (n, g, o...) -> (g).
  auto generic = dyn_cast<linalg::GenericOp>(producer.getOperation());
  OpOperand *in = producer.getDpsInputOperand(0);
  auto inType = dyn_cast<RankedTensorType>(in->get().getType());
  auto yield = generic ? cast<linalg::YieldOp>(generic.getBody()->getTerminator())
                       : nullptr;
  if (!yield || !inType || inType.getRank() != 1 ||
      producer.getMatchingIndexingMap(in) !=
          AffineMap::get(producer.getNumLoops(), 0, getAffineDimExpr(1, ctx)) ||
      yield.getOperand(0) != generic.getBody()->getArgument(0) ||
      inType.getDimSize(0) % lanes != 0)
    return nullptr;
  Value bias = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({inType.getDimSize(0) / lanes, lanes}, element),
      in->get(), SmallVector<ReassociationIndices>{{0, 1}});
  unsigned loops = shape.size();
  AffineMap read = AffineMap::get(
      loops, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(loops - 1, ctx)}, ctx);
  return layoutCopy(rewriter, loc, bias, read, empty,
                    AffineMap::getMultiDimIdentityMap(loops, ctx));
}

void rewrite(RewriterBase &rewriter, Candidate &c) {
  linalg::GenericOp op = c.op;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  int64_t lanes = c.lanes;
  unsigned s = c.spatial;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto outType = cast<RankedTensorType>(op.getResult(0).getType());
  Value input = op.getDpsInputOperand(0)->get();
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t groups = outType.getDimSize(1);
  Type element = outType.getElementType();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> batch;
  if (outType.isDynamicDim(0))
    batch.push_back(tensor::DimOp::create(rewriter, loc, input, 0));

  // Layout copies run over (n, gb, spatial..., l) and read the plain
  // tensor [N, G, 1, spatial...] as [N, G / L, L, spatial...] at (n, gb, l,
  // spatial...): plain dims, which --tc-cpu-vectorize-transposes tiles.
  unsigned l = s + 2;
  SmallVector<AffineExpr> plainExprs = {d(0), d(1), d(l)};
  for (unsigned i = 0; i < s; ++i)
    plainExprs.push_back(d(2 + i));
  AffineMap plain = AffineMap::get(s + 3, 0, plainExprs, ctx);
  AffineMap blocked = AffineMap::getMultiDimIdentityMap(s + 3, ctx);
  // [N, G, 1, spatial...] -> [N, G, spatial...] and [N, G / L, L,
  // spatial...] -> [N, G, spatial...].
  SmallVector<ReassociationIndices> dropUnit = {{0}, {1, 2}}, splitGroups = {{0}, {1, 2}};
  for (unsigned i = 0; i < s; ++i) {
    dropUnit.push_back({static_cast<int64_t>(3 + i)});
    splitGroups.push_back({static_cast<int64_t>(3 + i)});
  }
  // (The input may be narrower than the output: an f16 or bf16 input that
  // the convolution widens to accumulate in f32, --precision.)
  auto split = [&](Value value) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape = {type.getDimSize(0), groups / lanes, lanes};
    llvm::append_range(shape, type.getShape().drop_front(3));
    Value flat = tensor::CollapseShapeOp::create(rewriter, loc, value, dropUnit);
    return tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
        flat, splitGroups);
  };
  auto blockedShape = [&](RankedTensorType type) {
    SmallVector<int64_t> shape = {type.getDimSize(0), groups / lanes};
    for (unsigned i = 0; i < s; ++i)
      shape.push_back(type.getDimSize(3 + i));
    shape.push_back(lanes);
    return shape;
  };
  auto pack = [&](Value plainValue) {
    auto type = cast<RankedTensorType>(plainValue.getType());
    return layoutCopy(rewriter, loc, split(plainValue), plain,
                      tensor::EmptyOp::create(rewriter, loc, blockedShape(type),
                                              type.getElementType(), batch),
                      blocked);
  };
  // A padded input is packed, then padded: both fuse into the workgroups
  // (a pad before the reshapes of the packing would not).
  Value packed;
  auto pad = input.getDefiningOp<tensor::PadOp>();
  Value padValue = pad ? pad.getConstantPaddingValue() : Value();
  if (pad && padValue &&
      !llvm::is_contained(pad.getStaticLow(), ShapedType::kDynamic) &&
      !llvm::is_contained(pad.getStaticHigh(), ShapedType::kDynamic) &&
      llvm::all_of(pad.getStaticLow().take_front(3), [](int64_t v) { return v == 0; }) &&
      llvm::all_of(pad.getStaticHigh().take_front(3), [](int64_t v) { return v == 0; })) {
    SmallVector<OpFoldResult> low = {rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> high = low;
    for (unsigned i = 0; i < s; ++i) {
      low.push_back(rewriter.getIndexAttr(pad.getStaticLow()[3 + i]));
      high.push_back(rewriter.getIndexAttr(pad.getStaticHigh()[3 + i]));
    }
    low.push_back(rewriter.getIndexAttr(0));
    high.push_back(rewriter.getIndexAttr(0));
    packed = tensor::PadOp::create(
        rewriter, loc,
        RankedTensorType::get(blockedShape(inType), inType.getElementType()),
        pack(pad.getSource()), low, high, padValue);
  } else {
    packed = pack(input);
  }
  Value init = blockedInit(rewriter, loc, op.getDpsInitOperand(0)->get(),
                           blockedShape(outType), lanes, batch);
  if (!init)
    init = pack(op.getDpsInitOperand(0)->get());
  // The convolution's view of the filter, [G, 1, 1, K...] (the constant
  // may be [G, 1, K...]: the same bytes).
  auto filterType =
      cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  Value filter = arith::ConstantOp::create(
      rewriter, loc, cast<TypedAttr>(blockFilter(c, filterType)));

  // The convolution over (n, gb, o_1..o_S, l, k_1..k_S): old loop 3 + i
  // (o_i) is 2 + i, old loop s + 4 + i (k_i) is s + 3 + i.
  unsigned loops = 2 * s + 3;
  SmallVector<AffineExpr> replacements(op.getNumLoops(), getAffineConstantExpr(0, ctx));
  replacements[0] = d(0);
  for (unsigned i = 0; i < s; ++i) {
    replacements[3 + i] = d(2 + i);
    replacements[s + 4 + i] = d(s + 3 + i);
  }
  AffineMap oldInput = op.getIndexingMapsArray()[0];
  SmallVector<AffineExpr> inputExprs = {d(0), d(1)}, filterExprs = {d(1)},
                          outExprs;
  for (unsigned i = 0; i < s; ++i) {
    inputExprs.push_back(
        oldInput.getResult(3 + i).replaceDimsAndSymbols(replacements, {}));
    filterExprs.push_back(d(s + 3 + i));
  }
  inputExprs.push_back(d(l));
  filterExprs.push_back(d(l));
  for (unsigned i = 0; i <= l; ++i)
    outExprs.push_back(d(i));
  SmallVector<utils::IteratorType> iterators(s + 3, utils::IteratorType::parallel);
  iterators.append(s, utils::IteratorType::reduction);
  auto conv = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{packed, filter},
      ValueRange{init},
      ArrayRef<AffineMap>{AffineMap::get(loops, 0, inputExprs, ctx),
                          AffineMap::get(loops, 0, filterExprs, ctx),
                          AffineMap::get(loops, 0, outExprs, ctx)},
      iterators);
  rewriter.cloneRegionBefore(op->getRegion(0), conv.getRegion(),
                             conv.getRegion().begin());

  // Unpacked through [N, G / L, L, O...], collapsed to [N, G, O...] and
  // expanded to [N, G, 1, O...].
  SmallVector<int64_t> splitShape = {outType.getDimSize(0), groups / lanes, lanes};
  for (unsigned i = 0; i < s; ++i)
    splitShape.push_back(outType.getDimSize(3 + i));
  Value unpacked = layoutCopy(
      rewriter, loc, conv.getResult(0), blocked,
      tensor::EmptyOp::create(rewriter, loc, splitShape, element, batch), plain);
  Value flat = tensor::CollapseShapeOp::create(rewriter, loc, unpacked, splitGroups);
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, outType, flat, dropUnit);
}

struct CpuBlockDepthwiseConvsPass
    : impl::CpuBlockDepthwiseConvsPassBase<CpuBlockDepthwiseConvsPass> {
  using Base::Base;

  void runOnOperation() override {
    rewriteWeightCandidates<Candidate>(getOperation(), releaseReplaced, match,
                                       rewrite);
  }
};

} // namespace
} // namespace mlir::tc::cpu
