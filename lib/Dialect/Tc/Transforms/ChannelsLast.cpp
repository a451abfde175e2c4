//===- ChannelsLast.cpp - --tc-channels-last
//-------------------------------===//
//
// ONNX convolutions are NCHW: a channel's image is contiguous. A depthwise
// convolution then puts image columns in vector lanes, which a stride of 2
// turns into shuffles and every kernel into a padded copy of its channels,
// and a pointwise convolution on a small image (7x7) fills its lanes with
// 49 pixels, 16 + 16 + 16 + 1. Channels-last (NHWC) puts channels in the
// lanes instead: every tap of a depthwise window is one contiguous vector
// whatever the stride, and a pointwise convolution is a matmul whose lanes
// are its output channels. A layout pays only if it holds from kernel to
// kernel (ONNX Runtime's NCHWc does so for its whole graph), so this pass
// decides it for the graph:
//
// 1. In a function with a depthwise convolution (MobileNet, EfficientNet,
//    ConvNeXt) or with at least 40 % of its convolution multiply-adds in
//    pointwise ones (ResNet-50), every depthwise (channel multiplier 1), every
//    pointwise (1x1, unit strides, no padding) and every stem (at most 4 input
//    channels) convolution with static image sizes becomes
//    `tc.conv {channels_last}` between two transposes: NCHW -> NHWC
//    before it, NHWC -> NCHW after. Other dense convolutions keep NCHW,
//    where the CPU has Winograd and blocked kernels for them.
// 2. The transposes after each convolution sink through elementwise ops
//    (activations, residual adds, squeeze-excitation scales) and spatial
//    means, and a transpose whose dims of extent > 1 stay in order becomes
//    a reshape, until the canonicalizer composes each NHWC -> NCHW with the
//    next convolution's NCHW -> NHWC into nothing. What remains are the
//    transposes at the region's borders (the image's, around other dense
//    convolutions).
//
// The CPU pipeline runs it before kernels are formed; the GPU keeps NCHW.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tc {
#define GEN_PASS_DEF_TCCHANNELSLASTPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// A convolution with groups = C = F > 1 (channel multiplier 1).
bool isDepthwise(ConvOp conv) {
  auto filter = cast<RankedTensorType>(conv.getFilter().getType());
  int64_t groups = conv.getGroups();
  return groups > 1 && filter.getDimSize(1) == 1 &&
         filter.getDimSize(0) == groups;
}

/// A 1x1 convolution with unit strides and no padding.
bool isPointwise(ConvOp conv) {
  auto filter = cast<RankedTensorType>(conv.getFilter().getType());
  auto isOne = [](int64_t v) { return v == 1; };
  auto isZero = [](int64_t v) { return v == 0; };
  return conv.getGroups() == 1 &&
         llvm::all_of(filter.getShape().drop_front(2), isOne) &&
         (!conv.getStrides() || llvm::all_of(*conv.getStrides(), isOne)) &&
         (!conv.getPadding() || llvm::all_of(*conv.getPadding(), isZero));
}

/// An ungrouped convolution of at most 4 input channels: the stem that
/// reads the image. Channels-last, it transposes the image (3 channels)
/// instead of its output (32 to 96), and its tile takes output channels as
/// lanes: ConvNeXt-Tiny's 4x4 stride-4 stem took 0.33 instead of 1.14 ms
/// (1 thread, `tc-run --profile-json`, a loaded machine). Other dense
/// convolutions keep NCHW: ConvNeXt's 2x2 downsampling to 7x7 was slower
/// channels-last.
bool isStem(ConvOp conv) {
  auto filter = cast<RankedTensorType>(conv.getFilter().getType());
  return conv.getGroups() == 1 &&
         !ShapedType::isDynamic(filter.getDimSize(1)) &&
         filter.getDimSize(1) <= 4;
}

/// Whether all of `type`'s dims but the batch (dim 0) are static.
bool staticButBatch(RankedTensorType type) {
  return llvm::none_of(type.getShape().drop_front(), ShapedType::isDynamic);
}

/// Whether `conv` gets the channels_last form: static sizes, the batch
/// aside (an export with a dynamic batch axis).
bool convertible(ConvOp conv) {
  auto input = cast<RankedTensorType>(conv.getInput().getType());
  auto result = cast<RankedTensorType>(conv.getType());
  if (conv.getChannelsLast() || conv.getSpatialRank() < 1 ||
      !staticButBatch(input) || !staticButBatch(result))
    return false;
  return isDepthwise(conv) || isPointwise(conv) || isStem(conv);
}

/// The multiply-adds of one image of `conv` (static sizes but the batch):
/// output elements times the filter's per-output taps.
int64_t multiplyAdds(ConvOp conv) {
  auto result = cast<RankedTensorType>(conv.getType());
  auto filter = cast<RankedTensorType>(conv.getFilter().getType());
  if (!staticButBatch(result) || !filter.hasStaticShape())
    return 0;
  int64_t outputs = 1, taps = 1;
  for (int64_t d : result.getShape().drop_front())
    outputs *= d;
  for (int64_t d : filter.getShape().drop_front())
    taps *= d;
  return outputs * taps;
}

/// The least share of a function's convolution multiply-adds in its
/// pointwise convolutions for which a function without depthwise ones goes
/// channels-last: ResNet-50's bottlenecks have about half of theirs in 1x1
/// convolutions, which run as matmuls over the pixels channels-last, 15-30 %
/// faster per kernel than NCHW in the model (with the transposes around its
/// NCHW 3x3 convolutions, the kernels took 0.95 of their NCHW time at 1
/// thread and whole runs 0.92-0.94 at 2, in most runs on a drifting
/// machine); ResNet-18 has 1 % (its downsampling) and stays NCHW.
constexpr double kPointwiseShare = 0.4;

/// (0, 2, 3, ..., 1): NC(D...) -> N(D...)C; its inverse (0, r-1, 1, ...).
SmallVector<int64_t> toChannelsLast(int64_t rank) {
  SmallVector<int64_t> perm = {0};
  for (int64_t i = 2; i < rank; ++i)
    perm.push_back(i);
  perm.push_back(1);
  return perm;
}
SmallVector<int64_t> inverse(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inv(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inv[p] = i;
  return inv;
}

/// `type` with its dims permuted: dim i is `type`'s dim perm[i].
RankedTensorType permuted(Type type, ArrayRef<int64_t> perm) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(ranked.getDimSize(p));
  return ranked.clone(shape);
}

/// `value` transposed by `perm`.
Value transpose(PatternRewriter &rewriter, Location loc, Value value,
                ArrayRef<int64_t> perm) {
  return TransposeOp::create(rewriter, loc, permuted(value.getType(), perm),
                             value, perm);
}

void convert(ConvOp conv) {
  PatternRewriter rewriter(conv.getContext());
  rewriter.setInsertionPoint(conv);
  Location loc = conv.getLoc();
  int64_t rank = conv.getSpatialRank() + 2;
  SmallVector<int64_t> perm = toChannelsLast(rank);
  Value input = transpose(rewriter, loc, conv.getInput(), perm);
  auto nhwc = cast<ConvOp>(rewriter.clone(*conv));
  nhwc.getInputMutable().assign(input);
  nhwc.setChannelsLast(true);
  nhwc.getResult().setType(permuted(conv.getType(), perm));
  rewriter.replaceOp(conv, transpose(rewriter, loc, nhwc, inverse(perm)));
}

/// Ops whose every result element is computed from the same position of
/// their operands (numpy broadcasting), so that they commute with a
/// transpose of all their operands.
bool commutesWithTranspose(Operation *op) {
  return op->getNumResults() == 1 &&
         (op->hasTrait<::mlir::OpTrait::Elementwise>() ||
          isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, ClampOp, CastOp,
              SelectOp, CompareOp>(op));
}

/// A value that costs nothing or little to transpose: a constant, one
/// whose extents > 1 are at most one dimension, or one broadcast over a
/// result at least 16 times larger (a squeeze-excitation scale
/// [N, C, 1, 1] over [N, C, H, W]).
bool cheapToTranspose(Value value, RankedTensorType result = {}) {
  if (matchPattern(value, m_Constant()))
    return true;
  auto type = cast<RankedTensorType>(value.getType());
  if (type.hasStaticShape() &&
      llvm::count_if(type.getShape(), [](int64_t s) { return s != 1; }) <= 1)
    return true;
  if (!result || result.getRank() != type.getRank())
    return false;
  // The static extents, a dynamic batch that both share aside.
  int64_t small = 1, large = 1;
  for (auto [v, r] : llvm::zip(type.getShape(), result.getShape())) {
    if (ShapedType::isDynamic(v) != ShapedType::isDynamic(r))
      return false;
    if (!ShapedType::isDynamic(v)) {
      small *= v;
      large *= r;
    }
  }
  return small * 16 <= large;
}

/// A transpose of `value` by `perm` in `user`'s block, before it.
Value transposedBefore(Value value, ArrayRef<int64_t> perm, Operation *user) {
  for (Operation *other : value.getUsers())
    if (auto t = dyn_cast<TransposeOp>(other);
        t && t.getPermutation() == perm && t->getBlock() == user->getBlock() &&
        t->isBeforeInBlock(user))
      return t;
  return {};
}

/// E(transpose(a, p), b...) -> transpose(E(a, transpose(b, p^-1)...), p)
/// when at least one operand is such a transpose, the others are rank 0,
/// the same transpose, or cheap to transpose.
struct SinkThroughElementwise : RewritePattern {
  SinkThroughElementwise(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!commutesWithTranspose(op))
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    int64_t rank = resultType.getRank();
    if (rank < 3)
      return failure();
    // Only transposes back to NCHW sink (the other direction would undo
    // this very rewrite), and not the cheap ones this pattern itself puts
    // before the other operands.
    SmallVector<int64_t> inv = toChannelsLast(rank);
    SmallVector<int64_t> perm = inverse(inv);
    if (!llvm::any_of(op->getOperands(), [&](Value operand) {
          auto t = operand.getDefiningOp<TransposeOp>();
          return t && t.getPermutation() == ArrayRef<int64_t>(perm) &&
                 !cheapToTranspose(t.getInput());
        }))
      return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        return failure();
      auto t = operand.getDefiningOp<TransposeOp>();
      if (t && t.getPermutation() == ArrayRef<int64_t>(perm)) {
        operands.push_back(t.getInput());
      } else if (Value existing = transposedBefore(operand, inv, op)) {
        // A residual input that a convolution already reads channels-last.
        operands.push_back(existing);
      } else if (type.getRank() == 0) {
        operands.push_back(operand);
      } else if (type.getRank() <= rank &&
                 cheapToTranspose(operand, resultType)) {
        operands.push_back(Value());
      } else {
        return failure();
      }
    }
    for (auto [index, operand] : llvm::enumerate(operands)) {
      if (operand)
        continue;
      // A lower-rank operand (ConvNeXt's layer scale [C, 1, 1]) first gets
      // the leading unit dims numpy broadcasting gives it.
      Value value = op->getOperand(index);
      auto type = cast<RankedTensorType>(value.getType());
      if (type.getRank() < rank) {
        SmallVector<int64_t> shape(rank - type.getRank(), 1);
        llvm::append_range(shape, type.getShape());
        value =
            ReshapeOp::create(rewriter, op->getLoc(), type.clone(shape), value);
      }
      operand = transpose(rewriter, op->getLoc(), value, inv);
    }
    Operation *sunk = rewriter.clone(*op);
    sunk->setOperands(operands);
    sunk->getResult(0).setType(permuted(resultType, inv));
    rewriter.replaceOp(
        op, transpose(rewriter, op->getLoc(), sunk->getResult(0), perm));
    return success();
  }
};

/// reduce_mean(transpose(a, p), axes, keepdims)
///   -> transpose(reduce_mean(a, p(axes), keepdims), p).
struct SinkThroughMean : OpRewritePattern<ReduceMeanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceMeanOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getInput().getDefiningOp<TransposeOp>();
    if (!t || !op.getKeepdims())
      return failure();
    ArrayRef<int64_t> perm = t.getPermutation();
    int64_t rank = perm.size();
    // Back to NCHW only, as SinkThroughElementwise.
    if (rank < 3 || perm != ArrayRef<int64_t>(inverse(toChannelsLast(rank))))
      return failure();
    SmallVector<int64_t> axes;
    for (int64_t axis : op.getAxes())
      axes.push_back(perm[axis < 0 ? axis + rank : axis]);
    llvm::sort(axes);
    auto sunk = cast<ReduceMeanOp>(rewriter.clone(*op));
    sunk.getInputMutable().assign(t.getInput());
    sunk.setAxes(axes);
    sunk.getResult().setType(permuted(op.getType(), inverse(perm)));
    rewriter.replaceOp(op, transpose(rewriter, op.getLoc(), sunk, perm));
    return success();
  }
};

/// A transpose that keeps the order of the dims of extent > 1 moves no
/// element: a reshape ([N, C, 1, 1] <-> [N, 1, 1, C]).
struct TransposeOfUnitDims : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto input = cast<RankedTensorType>(op.getInput().getType());
    if (!input.hasStaticShape())
      return failure();
    int64_t last = -1;
    for (int64_t p : op.getPermutation()) {
      if (input.getDimSize(p) == 1)
        continue;
      if (p < last)
        return failure();
      last = p;
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

struct ChannelsLastPass : tc::impl::TcChannelsLastPassBase<ChannelsLastPass> {
  using TcChannelsLastPassBase::TcChannelsLastPassBase;
  void runOnOperation() override {
    SmallVector<ConvOp> convs;
    bool depthwise = false;
    int64_t all = 0, pointwise = 0;
    getOperation().walk([&](ConvOp conv) {
      depthwise |= isDepthwise(conv);
      int64_t work = multiplyAdds(conv);
      all += work;
      if (!convertible(conv))
        return;
      convs.push_back(conv);
      if (isPointwise(conv))
        pointwise += work;
    });
    bool pointwiseBound = all > 0 && pointwise >= kPointwiseShare * all;
    if (!depthwise && !pointwiseBound && !force)
      return;
    for (ConvOp conv : convs)
      convert(conv);
    RewritePatternSet patterns(&getContext());
    patterns.add<SinkThroughElementwise, SinkThroughMean, TransposeOfUnitDims>(
        &getContext());
    TransposeOp::getCanonicalizationPatterns(patterns, &getContext());
    ReshapeOp::getCanonicalizationPatterns(patterns, &getContext());
    // Each sink moves a transpose towards the results; the bound only
    // guards against a cycle, and any point it stops at is correct IR.
    GreedyRewriteConfig config;
    int64_t ops = 0;
    getOperation().walk([&](Operation *) { ++ops; });
    config.setMaxNumRewrites(16 * ops);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
