//===- BlockConvChannels.cpp - --tc-cpu-block-conv-channels ---------------===//
//
// A convolution's register tile puts the output's last dimension (the image
// width) in vector lanes. On a small image (ResNet's last stage: 7x7 with
// 512 channels) that width is below kMinLanes, no tile forms,
// and the loop nest ran at a twentieth of the other stages' speed; a
// strided convolution to a 14-column image (ResNet's stride-2 3x3 ones)
// gets lanes that fill one and a half vectors from every other input
// column. Such a convolution computes its output in a channel-blocked
// layout instead, [N, F / L, O..., L] with L = the register tile's 32
// lanes (NCHW32c), so that the lanes are output channels and the tile's
// rows are image columns:
// each reduction step broadcasts a few input values and reads L contiguous
// filter values. The filter, a constant, is stored at compile time as
// [F / L, C, K..., L]; the init (bias or zeros) is read into the blocked
// layout and the result unpacked back to [N, F, O...] by an elementwise
// generic (through [N, F / L, L, O...], collapsed; an activation after it
// joins that generic, --tc-cpu-fuse-elementwise), into whose workgroups
// the convolution is fused. A wider strided convolution (ResNet's 56x56 to
// 28x28) is blocked too, reading a channels-last copy of its input
// [N, I..., C], so that its broadcasts walk contiguous channels. So is a
// pointwise convolution over fewer than 64 pixels (ResNet-50's last stage,
// MobileNetV2's last layers), which --convert-tc-to-linalg gives as a
// matmul over the collapsed image: its 49 pixels in lanes fill 32 + 16 + 1,
// the last column in scalars. ResNet-50's fourth stage took 19.3 instead of
// 21.8 ms blocked (1 thread, `tc-run --profile-json`, the kernels of
// layer4, medians of 8 alternating runs).
//
// Runs on tensors, after --convert-tc-to-linalg and before
// --tc-cpu-pack-weights.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"


namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUBLOCKCONVCHANNELSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// A convolution from --convert-tc-to-linalg (ungrouped): loops (n, f,
/// o_1..o_S, c, k_1..k_S), input (n, c, o*s + k*d...), filter (f, c, k...),
/// output (n, f, o...).
struct Candidate {
  linalg::GenericOp op;
  unsigned spatial;
  /// The window's dimensions: `spatial`, or 0 for a pointwise (1x1)
  /// convolution in the matmul form --convert-tc-to-linalg gives it
  /// (loops (n, f, p, c), the image collapsed to p).
  unsigned window;
  ConstantWeight filter;
  /// The convolution reads a channels-last copy of its input.
  bool channelsLast = false;
};

/// Whether the input expression `e` (`o * s + k * d`, `o * s` or `o + k`)
/// steps by more than 1 along the output loop `dim`.
bool stridesAlong(AffineExpr e, unsigned dim) {
  SmallVector<AffineExpr, 2> terms = {e};
  if (auto add = dyn_cast<AffineBinaryOpExpr>(e);
      add && add.getKind() == AffineExprKind::Add)
    terms = {add.getLHS(), add.getRHS()};
  return llvm::any_of(terms, [&](AffineExpr term) {
    std::optional<std::pair<unsigned, int64_t>> strided = stridedDim(term);
    return strided && strided->first == dim;
  });
}

/// Whether a pointwise convolution over `pixels` positions (the image
/// collapsed) computes faster blocked than as a matmul with the pixels in
/// lanes: below 64 pixels (7x7, 6x6 ...) the lanes fill one or two vectors
/// and leave a partial one, often a single column computed in scalars;
/// blocked, the register tile's rows are pixels in rows that divide them.
bool blockPointwise(int64_t pixels) {
  return pixels >= kMinLanes && pixels < 2 * kRegisterLanes &&
         pixels % registerRows(pixels) == 0 && pixels % 16 != 0;
}

/// Input channels from which a wide strided convolution is blocked
/// channels-last (blockChannelsLast).
constexpr int64_t kMinChannelsLast = 16;

/// Whether the convolution steps by more than 1 along an image dimension
/// (its input map) and has a window wider than 1 along one.
bool stridedWindow(linalg::GenericOp op, unsigned spatial) {
  AffineMap input = op.getIndexingMapsArray()[0];
  auto filter = cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  bool strided = false, window = false;
  for (unsigned i = 0; i < spatial; ++i) {
    strided |= stridesAlong(input.getResult(2 + i), 2 + i);
    window |= filter.getDimSize(2 + i) > 1;
  }
  return strided && window;
}

/// Whether a convolution wide enough for the image-width tile is still
/// faster blocked: a strided one with fewer than 2 * kMinLanes output
/// columns (ResNet's 14-column stride-2 convolutions) reads every s-th
/// input column into lanes that fill one and a half vectors, with a
/// shuffle per reduction step, where the blocked tile broadcasts input
/// values whatever the stride (about a quarter faster), in rows that
/// divide the width (a partial tile's strided window would not
/// vectorize). Wider strided convolutions would stream a large NCHW input
/// channel by channel (a page per reduction step): they are blocked from a
/// channels-last copy instead (blockChannelsLast). Not 1x1 ones:
/// --convert-tc-to-linalg
/// gathers their strided input into a dense one first (a cheap copy), and
/// the matmul on it keeps the input's image in lanes.
bool blockStrided(linalg::GenericOp op, unsigned spatial, int64_t width) {
  return stridedWindow(op, spatial) && width < 2 * kMinLanes &&
         width % registerRows(width) == 0;
}

/// Whether a wider strided convolution computes blocked from a
/// channels-last copy of its input ([N, I..., C], one transposing copy
/// before the convolution): each reduction step then broadcasts input
/// values that lie next to each other, channel after channel, instead of
/// one per NCHW plane, and the strided columns cost nothing more than
/// unit ones. ResNet-50's stride-2 3x3 convolution from 56x56 to 28x28
/// with 128 channels went from 3.08 to 2.95 ms, its copy included (1
/// thread, medians of 8 alternating runs of `tc-run --profile-json`).
/// Not for few input channels (an RGB stem), whose image-width tile is
/// kept.
bool blockChannelsLast(linalg::GenericOp op, unsigned spatial, int64_t width) {
  auto input = cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  return stridedWindow(op, spatial) && width % registerRows(width) == 0 &&
         !input.isDynamicDim(1) && input.getDimSize(1) >= kMinChannelsLast;
}

std::optional<Candidate> match(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || !hasMultiplyAddBody(op) ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  auto outType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  // Static but for the batch (an export with a dynamic batch axis).
  if (!outType || !outType.getElementType().isF32() ||
      llvm::any_of(outType.getShape().drop_front(), ShapedType::isDynamic) ||
      outType.getRank() < 3)
    return std::nullopt;
  unsigned spatial = outType.getRank() - 2;
  unsigned loops = op.getNumLoops();
  if (loops != 2 * spatial + 3 && loops != spatial + 3)
    return std::nullopt;
  unsigned window = loops - spatial - 3;
  MLIRContext *ctx = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  // The output reads loops 0..spatial+1 in order, the filter (f, c, k...).
  SmallVector<AffineExpr> outExprs, filterExprs = {d(1), d(spatial + 2)};
  for (unsigned i = 0; i < spatial + 2; ++i)
    outExprs.push_back(d(i));
  for (unsigned i = 0; i < window; ++i)
    filterExprs.push_back(d(spatial + 3 + i));
  if (op.getIndexingMapsArray()[2] != AffineMap::get(loops, 0, outExprs, ctx) ||
      op.getIndexingMapsArray()[1] != AffineMap::get(loops, 0, filterExprs, ctx))
    return std::nullopt;
  // The input must not read the output channel.
  if (op.getIndexingMapsArray()[0].isFunctionOfDim(1))
    return std::nullopt;
  // Only where the width is too narrow for the image-width tile (which is
  // faster from 8 columns on: 14 of ResNet's third stage ran in half the
  // time that way) and the channels fill whole lane blocks.
  int64_t width = outType.getShape().back();
  int64_t channels = outType.getDimSize(1);
  if (channels % kRegisterLanes != 0)
    return std::nullopt;
  bool channelsLast = false;
  if (window == 0) {
    // A pointwise convolution over a small image (its pixels, p, in one
    // dimension): blocked when the pixels fill under two register tiles.
    if (spatial != 1 || !blockPointwise(width))
      return std::nullopt;
  } else {
    bool narrow = width < kMinLanes || blockStrided(op, spatial, width);
    channelsLast = !narrow && blockChannelsLast(op, spatial, width);
    if (!narrow && !channelsLast)
      return std::nullopt;
  }
  // A pointwise filter [F, C, 1, 1] reaches the matmul form collapsed to
  // [F, C]: the same bytes.
  Value filterValue = op.getDpsInputOperand(1)->get();
  if (auto collapse = filterValue.getDefiningOp<tensor::CollapseShapeOp>();
      collapse && window == 0 && collapse->hasOneUse())
    filterValue = collapse.getSrc();
  std::optional<ConstantWeight> filter = constantWeight(filterValue);
  if (!filter)
    return std::nullopt;
  return Candidate{op, spatial, window, *filter, channelsLast};
}

/// The filter [F, C, K...] as [F / L, C, K..., L] (a splat stays one).
ElementsAttr blockFilter(const Candidate &c, RankedTensorType type) {
  int64_t lanes = kRegisterLanes;
  SmallVector<int64_t> shape = {type.getDimSize(0) / lanes};
  shape.append(type.getShape().begin() + 1, type.getShape().end());
  shape.push_back(lanes);
  return blockLeadingDim(
      c.filter, RankedTensorType::get(shape, type.getElementType()), lanes);
}

void rewrite(RewriterBase &rewriter, Candidate &c) {
  linalg::GenericOp op = c.op;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  int64_t lanes = kRegisterLanes;
  unsigned s = c.spatial;
  auto outType = cast<RankedTensorType>(op.getResult(0).getType());
  int64_t channels = outType.getDimSize(1);
  rewriter.setInsertionPoint(op);
  auto filterType =
      cast<RankedTensorType>(c.op.getDpsInputOperand(1)->get().getType());
  Value filter = arith::ConstantOp::create(
      rewriter, loc, cast<TypedAttr>(blockFilter(c, filterType)));

  // New loops: (n, fb, o_1..o_S, fl, c, k_1..k_S); old loop d >= S + 2 (a
  // reduction) moves one up, and f becomes fb * L + fl.
  unsigned loops = op.getNumLoops() + 1;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  unsigned fl = s + 2;
  SmallVector<AffineExpr> replacements;
  for (unsigned old = 0; old < op.getNumLoops(); ++old)
    replacements.push_back(old == 1 ? d(1) * lanes + d(fl)
                                    : d(old < s + 2 ? old : old + 1));
  AffineMap inputMap = op.getIndexingMapsArray()[0].replaceDimsAndSymbols(
      replacements, {}, loops, 0);
  Value input = op.getDpsInputOperand(0)->get();
  if (c.channelsLast) {
    // [N, C, I...] -> [N, I..., C]
    auto inType = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> lastShape = {inType.getDimSize(0)};
    for (unsigned i = 0; i < s; ++i)
      lastShape.push_back(inType.getDimSize(2 + i));
    lastShape.push_back(inType.getDimSize(1));
    SmallVector<Value> inBatch;
    if (inType.isDynamicDim(0))
      inBatch.push_back(tensor::DimOp::create(rewriter, loc, input, 0));
    Value lastEmpty = tensor::EmptyOp::create(rewriter, loc, lastShape,
                                              inType.getElementType(), inBatch);
    SmallVector<AffineExpr> lastExprs = {d(0)};
    for (unsigned i = 0; i < s; ++i)
      lastExprs.push_back(d(2 + i));
    lastExprs.push_back(d(1));
    input = layoutCopy(rewriter, loc, input,
                       AffineMap::getMultiDimIdentityMap(s + 2, ctx), lastEmpty,
                       AffineMap::get(s + 2, 0, lastExprs, ctx));
    SmallVector<AffineExpr> permuted = {inputMap.getResult(0)};
    for (unsigned i = 0; i < s; ++i)
      permuted.push_back(inputMap.getResult(2 + i));
    permuted.push_back(inputMap.getResult(1));
    inputMap = AffineMap::get(loops, 0, permuted, ctx);
  }
  SmallVector<AffineExpr> filterExprs = {d(1), d(fl + 1)};
  for (unsigned i = 0; i < c.window; ++i)
    filterExprs.push_back(d(fl + 2 + i));
  filterExprs.push_back(d(fl));
  SmallVector<AffineExpr> blockedExprs; // (n, fb, o..., fl)
  for (unsigned i = 0; i <= fl; ++i)
    blockedExprs.push_back(d(i));

  // The blocked init: the old init read as [N, F / L, O..., L].
  SmallVector<int64_t> blockedShape = {outType.getDimSize(0), channels / lanes};
  for (unsigned i = 0; i < s; ++i)
    blockedShape.push_back(outType.getDimSize(2 + i));
  blockedShape.push_back(lanes);
  auto blockedType = RankedTensorType::get(blockedShape, outType.getElementType());
  // Copies between the layouts run over (n, fb, o..., fl).
  SmallVector<AffineExpr> plainExprs = {d(0), d(1) * lanes + d(s + 2)};
  for (unsigned i = 0; i < s; ++i)
    plainExprs.push_back(d(2 + i));
  AffineMap blockedIdentity = AffineMap::getMultiDimIdentityMap(s + 3, ctx);
  // The batch, when dynamic, read off the convolution's init.
  SmallVector<Value> batch;
  if (outType.isDynamicDim(0))
    batch.push_back(tensor::DimOp::create(
        rewriter, loc, op.getDpsInitOperand(0)->get(), 0));
  Value empty = tensor::EmptyOp::create(rewriter, loc, blockedShape,
                                        outType.getElementType(), batch);
  Value init = layoutCopy(rewriter, loc, op.getDpsInitOperand(0)->get(),
                           AffineMap::get(s + 3, 0, plainExprs, ctx), empty,
                           blockedIdentity);

  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.insert(iterators.begin() + fl, utils::IteratorType::parallel);
  auto conv = linalg::GenericOp::create(
      rewriter, loc, TypeRange{blockedType},
      ValueRange{input, filter}, ValueRange{init},
      ArrayRef<AffineMap>{inputMap, AffineMap::get(loops, 0, filterExprs, ctx),
                          AffineMap::get(loops, 0, blockedExprs, ctx)},
      iterators);
  rewriter.cloneRegionBefore(op->getRegion(0), conv.getRegion(),
                             conv.getRegion().begin());

  // Unpacked through [N, F / L, L, O...] (a permutation of the blocked
  // loops), then collapsed to [N, F, O...].
  SmallVector<int64_t> splitShape = {outType.getDimSize(0), channels / lanes, lanes};
  for (unsigned i = 0; i < s; ++i)
    splitShape.push_back(outType.getDimSize(2 + i));
  SmallVector<AffineExpr> splitExprs = {d(0), d(1), d(s + 2)};
  for (unsigned i = 0; i < s; ++i)
    splitExprs.push_back(d(2 + i));
  Value splitEmpty =
      tensor::EmptyOp::create(rewriter, loc, splitShape, outType.getElementType(),
                              batch);
  Value split = layoutCopy(rewriter, loc, conv.getResult(0), blockedIdentity,
                            splitEmpty, AffineMap::get(s + 3, 0, splitExprs, ctx));
  SmallVector<ReassociationIndices> reassociation = {{0}, {1, 2}};
  for (unsigned i = 0; i < s; ++i)
    reassociation.push_back({static_cast<int64_t>(3 + i)});
  rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, outType, split,
                                                       reassociation);
}

struct CpuBlockConvChannelsPass
    : impl::CpuBlockConvChannelsPassBase<CpuBlockConvChannelsPass> {
  using Base::Base;

  void runOnOperation() override {
    rewriteWeightCandidates<Candidate>(getOperation(), releaseReplaced, match,
                                       rewrite);
  }
};

} // namespace
} // namespace mlir::tc::cpu
