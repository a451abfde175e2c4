//===- WinogradConv.cpp - --tc-cpu-winograd-conv --------------------------===//
//
// A 3x3 convolution with unit strides already runs its register tiles near
// the core's FMA peak (ResNet's stages: about 110 GFLOP/s of 120), so the
// only way to make it faster is fewer multiplies. Winograd's F(4x4, 3x3)
// computes each 4x4 output tile from a 6x6 input tile with 36 products per
// input/output channel pair instead of 144: the input tile d becomes
// V = B^T d B, the filter g becomes U = G g G^T (at compile time: filters
// are constants), each of the 36 positions (a, b) of the transformed tiles
// is one matmul over the channels, M[ab] = V[ab] x U[ab], and the output
// tile is A^T M A (Lavin and Gray, "Fast Algorithms for Convolutional
// Neural Networks", with the interpolation points 0, 1, -1, 2, -2 and
// infinity).
//
// The steps, with L = 32 channels in the lanes of every kernel and t =
// (n, th, tw) the tiles:
//   pack      Xb[n, C/L, y, x, L]        the padded NCHW input, channel-blocked
//   input     V[a, b, n, th, tw, C]      = sum_ij BT[a, i] BT[b, j]
//                                          Xb[n, ., 4th + i, 4tw + j, .]
//   matmuls   M[ab, t, K/L, L]           = sum_c V[ab, t, c] U[ab, K/L, c, L]
//   output    Y[n, K/L, th, p, tw, q, L] = sum_ab AT[p, a] AT[q, b] M[a, b, t, .]
//   unpack    y[n, K, h, w] = Y[n, K/L, h, w, L] + init (the bias, or zeros)
// The two transforms are multiply-add generics over a constant matrix
// read twice, which --tc-cpu-vectorize-transforms writes as unrolled 1-D
// transforms with the coefficients folded in; the matmuls are ordinary
// contractions (--tc-cpu-vectorize-contractions), the pack and unpack
// transposing copies (--tc-cpu-vectorize-transposes). The filter is stored
// transformed and panel-packed, [36, K/L, C, L]; the output tiles cover the
// image rounded up to whole tiles (the input is padded with zeros to match
// and the rows and columns past the image are dropped before the unpack).
//
// The transformed filter is 36/9 = 4 times the filter's size and every
// matmul reads all of it for as few as T rows, so with few tiles the
// matmuls are bound by memory, not multiplies. A convolution takes
// F(4x4, 3x3) when it has at least `min-tiles` tiles of 4x4, else
// F(2x2, 3x3) (4x4 input tiles, 16 positions, a filter 16/9 of the
// original) when it has that many of 2x2, and then only if that is
// estimated faster than the direct convolution, each taking the larger of
// its operations and its weight bytes times `flops-per-byte` (at batch 1 a
// deep layer's weights come from memory, not cache). ResNet's 14x14 stage
// at batch 1 takes F(4x4); its 7x7 stage (16 tiles of 2x2, 4 of 4x4) stays
// direct: F(2x2) would read 16.8 MB of weights where the direct
// convolution reads 9.4 MB.
//
// Runs on tensors, after --convert-tc-to-linalg and before
// --tc-cpu-block-conv-channels.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUWINOGRADCONVPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

constexpr int64_t kTaps = 3;
constexpr int64_t kLanes = kRegisterLanes;

/// One algorithm F(m x m, 3x3): output tiles of m, input tiles of alpha =
/// m + 2, and its matrices (row-major): B^T (alpha x alpha), G (alpha x 3),
/// A^T (m x alpha).
struct Variant {
  int64_t tile, alpha;
  ArrayRef<double> bt, g, at;
};

// F(4x4, 3x3) with the points 0, 1, -1, 2, -2, infinity.
constexpr double kBT4[] = {4, 0, -5, 0, 1, 0,  0, -4, -4, 1, 1, 0,
                           0, 4, -4, -1, 1, 0, 0, -2, -1, 2, 1, 0,
                           0, 2, -1, -2, 1, 0, 0, 4, 0, -5, 0, 1};
constexpr double kG4[] = {1.0 / 4,  0,         0,
                          -1.0 / 6, -1.0 / 6,  -1.0 / 6,
                          -1.0 / 6, 1.0 / 6,   -1.0 / 6,
                          1.0 / 24, 1.0 / 12,  1.0 / 6,
                          1.0 / 24, -1.0 / 12, 1.0 / 6,
                          0,        0,         1};
constexpr double kAT4[] = {1, 1, 1,  1, 1,  0, 0, 1, -1, 2, -2, 0,
                           0, 1, 1,  4, 4,  0, 0, 1, -1, 8, -8, 1};
// F(2x2, 3x3) with the points 0, 1, -1, infinity.
constexpr double kBT2[] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
constexpr double kG2[] = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
constexpr double kAT2[] = {1, 1, 1, 0, 0, 1, -1, -1};

const Variant kF4{4, 6, kBT4, kG4, kAT4};
const Variant kF2{2, 4, kBT2, kG2, kAT2};

/// The number of m x m output tiles of an [N, F, OH, OW] output; a dynamic
/// batch counts as 1, the least it can be.
int64_t tileCount(RankedTensorType out, int64_t m) {
  int64_t batch = out.isDynamicDim(0) ? 1 : out.getDimSize(0);
  return batch * llvm::divideCeil(out.getDimSize(2), m) *
         llvm::divideCeil(out.getDimSize(3), m);
}

/// A convolution from --convert-tc-to-linalg that F(m x m, 3x3) computes:
/// ungrouped, 2-D, f32, unit strides and dilations, a 3x3 constant filter,
/// channels in whole lane blocks, its input zero-padded by a tensor.pad (or
/// not padded).
struct Candidate {
  linalg::GenericOp op;
  Value image;                  // the unpadded input [N, C, H, W]
  int64_t padTop, padLeft;      // its leading zero rows and columns
  arith::ConstantOp filter;
  ArrayRef<char> bytes;         // the filter's f32 values, [K, C, 3, 3],
  std::optional<float> splat;   // or its one value
  const Variant *variant;
};

/// The image under a zero tensor.pad of the spatial dims, and the pad's
/// leading rows and columns; the value itself when it is not padded.
std::optional<std::tuple<Value, int64_t, int64_t>> unpadded(Value input) {
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad)
    return std::make_tuple(input, int64_t(0), int64_t(0));
  Value value = pad.getConstantPaddingValue();
  auto zero = value ? value.getDefiningOp<arith::ConstantOp>() : nullptr;
  auto attr = zero ? dyn_cast<FloatAttr>(zero.getValue()) : nullptr;
  if (!attr || !attr.getValue().isZero() || attr.getValue().isNegative())
    return std::nullopt;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (ShapedType::isDynamicShape(low) || ShapedType::isDynamicShape(high) ||
      low[0] || low[1] || high[0] || high[1])
    return std::nullopt;
  return std::make_tuple(pad.getSource(), low[2], low[3]);
}

/// A convolution's time in floating-point operations, as the larger of its
/// multiply-adds (two each) and its weight bytes times `flopsPerByte` (the
/// operations a core does while it reads one byte of weights from memory):
/// at batch 1 a deep layer's weights are not in cache when it runs, and a
/// transformed filter is bigger than the original.
double estimatedCost(double multiplyAdds, double weightBytes, double flopsPerByte) {
  return std::max(2 * multiplyAdds, weightBytes * flopsPerByte);
}

/// Whether `variant` is estimated faster than the direct convolution of an
/// [N, F, OH, OW] output from C channels (batch 1 when dynamic, as the
/// tile counts take it). ResNet's 7x7 stage at batch 1: F(2x2) reads 16 MB
/// of transformed weights where the direct convolution reads 9 MB for
/// 2.25 times the multiply-adds; on a core that does 20 operations per
/// byte it reads, the direct convolution is the faster (2.6 against 3.2 ms
/// per layer in the model, one thread of an Intel Xeon).
bool beatsDirect(const Variant &variant, RankedTensorType out, int64_t channels,
                 double flopsPerByte) {
  double batch = out.isDynamicDim(0) ? 1 : out.getDimSize(0);
  double features = out.getDimSize(1);
  double pixels = batch * out.getDimSize(2) * out.getDimSize(3);
  double direct = estimatedCost(pixels * features * channels * kTaps * kTaps,
                                features * channels * kTaps * kTaps * 4,
                                flopsPerByte);
  double positions = variant.alpha * variant.alpha;
  double tiles = tileCount(out, variant.tile);
  double winograd = estimatedCost(tiles * positions * features * channels,
                                  positions * features * channels * 4,
                                  flopsPerByte);
  return winograd < direct;
}

std::optional<Candidate> match(linalg::GenericOp op, int64_t minTiles,
                               double flopsPerByte) {
  if (!op.hasPureTensorSemantics() || !hasMultiplyAddBody(op) ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 7)
    return std::nullopt;
  auto outType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  auto inType = dyn_cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  auto filterType =
      dyn_cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  // Static but for the batch (an export with a dynamic batch axis).
  auto staticButBatch = [](RankedTensorType type) {
    return !llvm::any_of(type.getShape().drop_front(), ShapedType::isDynamic);
  };
  if (!outType || !inType || !filterType || !staticButBatch(outType) ||
      !staticButBatch(inType) || outType.getRank() != 4 ||
      !outType.getElementType().isF32() || !inType.getElementType().isF32() ||
      !filterType.getElementType().isF32() ||
      filterType.getShape().drop_front(2) != ArrayRef<int64_t>{kTaps, kTaps})
    return std::nullopt;
  // Loops (n, f, oh, ow, c, kh, kw): input (n, c, oh + kh, ow + kw), filter
  // (f, c, kh, kw), output (n, f, oh, ow).
  MLIRContext *ctx = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> expected = {
      AffineMap::get(7, 0, {d(0), d(4), d(2) + d(5), d(3) + d(6)}, ctx),
      AffineMap::get(7, 0, {d(1), d(4), d(5), d(6)}, ctx),
      AffineMap::get(7, 0, {d(0), d(1), d(2), d(3)}, ctx)};
  if (op.getIndexingMapsArray() != ArrayRef<AffineMap>(expected))
    return std::nullopt;
  int64_t channels = inType.getDimSize(1), features = outType.getDimSize(1);
  if (channels % kLanes != 0 || features % kLanes != 0)
    return std::nullopt;
  // F(4x4) when its tiles are enough, else F(2x2) (a 7x7 image at batch 1:
  // 16 tiles of 2x2, 4 of 4x4), whose transformed filter is 16/9 of the
  // filter, not 4 times.
  const Variant *variant = tileCount(outType, kF4.tile) >= minTiles ? &kF4
                           : tileCount(outType, kF2.tile) >= minTiles ? &kF2
                                                                     : nullptr;
  if (!variant || !beatsDirect(*variant, outType, channels, flopsPerByte))
    return std::nullopt;
  auto image = unpadded(op.getDpsInputOperand(0)->get());
  if (!image)
    return std::nullopt;
  arith::ConstantOp filter = singleUseConstant(op.getDpsInputOperand(1)->get());
  if (!filter)
    return std::nullopt;
  auto [value, top, left] = *image;
  auto dense = dyn_cast<DenseElementsAttr>(filter.getValue());
  if (dense && dense.isSplat())
    return Candidate{op, value, top, left, filter, {},
                     dense.getSplatValue<APFloat>().convertToFloat(), variant};
  std::optional<ArrayRef<char>> bytes = floatWeightBytes(filter, filterType);
  if (!bytes)
    return std::nullopt;
  return Candidate{op, value, top, left, filter, *bytes, std::nullopt, variant};
}

/// U = G g G^T for every filter g = w[k, c] (in double, rounded once),
/// stored as [36, K / L, C, L]: the matmul's weight in panels of L output
/// channels, as --tc-cpu-pack-weights lays out a matmul's.
DenseResourceElementsAttr transformFilter(MLIRContext *ctx, const Candidate &c,
                                          int64_t features, int64_t channels) {
  const Variant &v = *c.variant;
  int64_t alpha = v.alpha;
  auto type = RankedTensorType::get(
      {alpha * alpha, features / kLanes, channels, kLanes},
      Float32Type::get(ctx));
  const float *w = reinterpret_cast<const float *>(c.bytes.data());
  float splat[kTaps * kTaps];
  std::fill(std::begin(splat), std::end(splat), c.splat.value_or(0));
  return weightResource(type, "winograd", [&](char *bytesOut) {
    float *out = reinterpret_cast<float *>(bytesOut);
    for (int64_t k = 0; k < features; ++k)
      for (int64_t ci = 0; ci < channels; ++ci) {
        const float *g =
            c.splat ? splat : w + (k * channels + ci) * kTaps * kTaps;
        SmallVector<double, 18> gg(alpha * kTaps, 0.0); // G g
        for (int64_t a = 0; a < alpha; ++a)
          for (int64_t j = 0; j < kTaps; ++j)
            for (int64_t i = 0; i < kTaps; ++i)
              gg[a * kTaps + j] += v.g[a * kTaps + i] * g[i * kTaps + j];
        for (int64_t a = 0; a < alpha; ++a)
          for (int64_t b = 0; b < alpha; ++b) {
            double u = 0;
            for (int64_t j = 0; j < kTaps; ++j)
              u += gg[a * kTaps + j] * v.g[b * kTaps + j];
            int64_t position = a * alpha + b;
            out[((position * (features / kLanes) + k / kLanes) * channels + ci) *
                    kLanes +
                k % kLanes] = static_cast<float>(u);
          }
      }
  });
}

/// A small constant matrix of f32 (a transform's B^T or A^T).
Value matrixConstant(OpBuilder &b, Location loc, ArrayRef<double> m,
                     int64_t rows) {
  SmallVector<float> values(m.begin(), m.end());
  auto type = RankedTensorType::get({rows, static_cast<int64_t>(m.size()) / rows},
                                    b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<float>(values)));
}

/// A zero-filled f32 tensor of `shape` (its dynamic sizes in order).
Value zeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
            ValueRange dynamicSizes) {
  Value empty =
      tensor::EmptyOp::create(b, loc, shape, b.getF32Type(), dynamicSizes);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// out[p, q, ...] = init + sum_{r, s} c[p, r] c[q, s] x[..., r, ..., s, ...]:
/// the 2-D transform of the tiles of `x` by the small constant matrix `c`
/// (Winograd's B^T d B and A^T m A), over `maps` (c as (p, r), c as (q, s),
/// x, out) whose last two loops are r and s.
/// --tc-cpu-vectorize-transforms computes it as two passes of 1-D
/// transforms with the matrix's coefficients folded into the code.
Value separableTransform(OpBuilder &b, Location loc, Value c, Value x,
                         Value init, ArrayRef<AffineMap> maps) {
  unsigned loops = maps.front().getNumDims();
  SmallVector<utils::IteratorType> iterators(loops - 2,
                                             utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{c, c, x},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &nested, Location l, ValueRange args) {
               Value weight = arith::MulFOp::create(nested, l, args[0], args[1]);
               Value term = arith::MulFOp::create(nested, l, weight, args[2]);
               linalg::YieldOp::create(
                   nested, l,
                   arith::AddFOp::create(nested, l, args[3], term).getResult());
             })
      .getResult(0);
}

/// A multiply-add generic: init + lhs * rhs over `maps` (lhs, rhs, init),
/// with the last `reductions` loops reduced.
Value multiplyAdd(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init,
                  ArrayRef<AffineMap> maps, unsigned reductions) {
  unsigned loops = maps.front().getNumDims();
  SmallVector<utils::IteratorType> iterators(loops - reductions,
                                             utils::IteratorType::parallel);
  iterators.append(reductions, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &nested, Location l, ValueRange args) {
               Value product = arith::MulFOp::create(nested, l, args[0], args[1]);
               linalg::YieldOp::create(
                   nested, l, arith::AddFOp::create(nested, l, args[2], product)
                                  .getResult());
             })
      .getResult(0);
}

void rewrite(RewriterBase &rewriter, const Candidate &c) {
  linalg::GenericOp op = c.op;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto outType = cast<RankedTensorType>(op.getResult(0).getType());
  auto imageType = cast<RankedTensorType>(c.image.getType());
  int64_t n = outType.getDimSize(0), features = outType.getDimSize(1);
  int64_t outH = outType.getDimSize(2), outW = outType.getDimSize(3);
  int64_t channels = imageType.getDimSize(1);
  const Variant &variant = *c.variant;
  int64_t kTile = variant.tile, kAlpha = variant.alpha;
  int64_t tilesH = llvm::divideCeil(outH, kTile);
  int64_t tilesW = llvm::divideCeil(outW, kTile);
  int64_t tiles =
      ShapedType::isDynamic(n) ? ShapedType::kDynamic : n * tilesH * tilesW;
  int64_t paddedH = tilesH * kTile + kTaps - 1;
  int64_t paddedW = tilesW * kTile + kTaps - 1;
  int64_t cBlocks = channels / kLanes, fBlocks = features / kLanes;
  // A dynamic batch, and with it the tile count, as values.
  SmallVector<Value> batch, tileCount;
  if (ShapedType::isDynamic(n)) {
    batch.push_back(tensor::DimOp::create(rewriter, loc, c.image, 0));
    tileCount.push_back(arith::MulIOp::create(
        rewriter, loc, batch.front(),
        arith::ConstantIndexOp::create(rewriter, loc, tilesH * tilesW)));
  }
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto map = [&](unsigned loops, ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(loops, 0, exprs, ctx);
  };
  // The first `results` loops, in order.
  auto identity = [&](unsigned loops, unsigned results) {
    SmallVector<AffineExpr> exprs;
    for (unsigned i = 0; i < results; ++i)
      exprs.push_back(d(i));
    return map(loops, exprs);
  };
  auto reshapeType = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, rewriter.getF32Type());
  };

  // The image viewed as [N, C / L, L, H, W] and padded with zeros to whole
  // tiles (at least the convolution's own padding). Padded after the
  // reshape, so that the pad is computed in the pack's workgroups (a pad
  // under a reshape is not, with a dynamic batch: then it ran apart).
  Value split = tensor::ExpandShapeOp::create(
      rewriter, loc,
      reshapeType({n, cBlocks, kLanes, imageType.getDimSize(2),
                   imageType.getDimSize(3)}),
      c.image, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
  SmallVector<OpFoldResult> low(3, rewriter.getIndexAttr(0)), high(3, rewriter.getIndexAttr(0));
  low.append({rewriter.getIndexAttr(c.padTop), rewriter.getIndexAttr(c.padLeft)});
  high.append(
      {rewriter.getIndexAttr(paddedH - imageType.getDimSize(2) - c.padTop),
       rewriter.getIndexAttr(paddedW - imageType.getDimSize(3) - c.padLeft)});
  split = tensor::PadOp::create(
      rewriter, loc, reshapeType({n, cBlocks, kLanes, paddedH, paddedW}), split,
      low, high, zero);

  // Pack: Xb[n, cb, y, x, l] = X[n, cb, l, y, x].
  Value packedInit = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{n, cBlocks, paddedH, paddedW, kLanes},
      rewriter.getF32Type(), batch);
  Value packed =
      linalg::GenericOp::create(
          rewriter, loc, TypeRange{packedInit.getType()}, ValueRange{split},
          ValueRange{packedInit},
          ArrayRef<AffineMap>{map(5, {d(0), d(1), d(4), d(2), d(3)}),
                              identity(5, 5)},
          SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
          [](OpBuilder &nested, Location l, ValueRange args) {
            linalg::YieldOp::create(nested, l, args[0]);
          })
          .getResult(0);

  Value bt = matrixConstant(rewriter, loc, variant.bt, kAlpha);
  Value at = matrixConstant(rewriter, loc, variant.at, kTile);
  // V[a, b, n, th, tw, cb, l] = sum_ij BT[a, i] BT[b, j] Xb[n, cb, 4th + i,
  // 4tw + j, l], loops (n, th, tw, cb, a, b, l, i, j): the tiles outermost,
  // so that workgroups split tiles, each transforming whole ones.
  Value input = separableTransform(
      rewriter, loc, bt, packed,
      zeros(rewriter, loc, {kAlpha, kAlpha, n, tilesH, tilesW, cBlocks, kLanes},
            batch),
      {map(9, {d(4), d(7)}), map(9, {d(5), d(8)}),
       map(9, {d(0), d(3), d(1) * kTile + d(7), d(2) * kTile + d(8), d(6)}),
       map(9, {d(4), d(5), d(0), d(1), d(2), d(3), d(6)})});
  Value v = tensor::CollapseShapeOp::create(
      rewriter, loc, reshapeType({kAlpha * kAlpha, tiles, channels}), input,
      SmallVector<ReassociationIndices>{{0, 1}, {2, 3, 4}, {5, 6}});

  // The 36 matmuls: M[ab, t, fb, l], loops (ab, t, fb, l, c).
  Value u = arith::ConstantOp::create(
      rewriter, loc, transformFilter(ctx, c, features, channels));
  Value products = multiplyAdd(
      rewriter, loc, v, u,
      zeros(rewriter, loc, {kAlpha * kAlpha, tiles, fBlocks, kLanes}, tileCount),
      {map(5, {d(0), d(1), d(4)}), map(5, {d(0), d(2), d(4), d(3)}),
       identity(5, 4)},
      1);

  // Y[n, fb, th, p, tw, q, l] = sum_ab AT[p, a] AT[q, b] M[a, b, n, th, tw,
  // fb, l], loops (n, th, tw, fb, p, q, l, a, b).
  Value m = tensor::ExpandShapeOp::create(
      rewriter, loc,
      reshapeType({kAlpha, kAlpha, n, tilesH, tilesW, fBlocks, kLanes}), products,
      SmallVector<ReassociationIndices>{{0, 1}, {2, 3, 4}, {5}, {6}});
  Value tilesOut = separableTransform(
      rewriter, loc, at, m,
      zeros(rewriter, loc, {n, fBlocks, tilesH, kTile, tilesW, kTile, kLanes},
            batch),
      {map(9, {d(4), d(7)}), map(9, {d(5), d(8)}),
       map(9, {d(7), d(8), d(0), d(1), d(2), d(3), d(6)}),
       map(9, {d(0), d(3), d(1), d(4), d(2), d(5), d(6)})});
  Value y = tensor::CollapseShapeOp::create(
      rewriter, loc,
      reshapeType({n, fBlocks, tilesH * kTile, tilesW * kTile, kLanes}), tilesOut,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}, {6}});
  if (tilesH * kTile != outH || tilesW * kTile != outW) {
    SmallVector<OpFoldResult> offsets(5, rewriter.getIndexAttr(0)),
        strides(5, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : {n, fBlocks, outH, outW, kLanes})
      sizes.push_back(ShapedType::isDynamic(size)
                          ? OpFoldResult(batch.front())
                          : OpFoldResult(rewriter.getIndexAttr(size)));
    y = tensor::ExtractSliceOp::create(rewriter, loc, y, offsets, sizes, strides);
  }

  // Unpack through [N, F / L, L, OH, OW], adding the convolution's init.
  SmallVector<ReassociationIndices> splitFeatures = {{0}, {1, 2}, {3}, {4}};
  auto splitType = reshapeType({n, fBlocks, kLanes, outH, outW});
  Value init = tensor::ExpandShapeOp::create(
      rewriter, loc, splitType, op.getDpsInitOperand(0)->get(), splitFeatures);
  Value unpackInit = tensor::EmptyOp::create(rewriter, loc, splitType.getShape(),
                                             rewriter.getF32Type(), batch);
  AffineMap splitMap = map(5, {d(0), d(1), d(4), d(2), d(3)});
  Value unpacked =
      linalg::GenericOp::create(
          rewriter, loc, TypeRange{splitType}, ValueRange{y, init},
          ValueRange{unpackInit},
          ArrayRef<AffineMap>{identity(5, 5), splitMap, splitMap},
          SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
          [](OpBuilder &nested, Location l, ValueRange args) {
            linalg::YieldOp::create(
                nested, l,
                arith::AddFOp::create(nested, l, args[1], args[0]).getResult());
          })
          .getResult(0);
  rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, outType, unpacked,
                                                       splitFeatures);
}

struct CpuWinogradConvPass
    : impl::CpuWinogradConvPassBase<CpuWinogradConvPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Candidate> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<Candidate> c = match(op, minTiles, flopsPerByte))
        candidates.push_back(*c);
    });
    IRRewriter rewriter(&getContext());
    ReplacedWeights replaced(getOperation(), releaseReplaced);
    for (Candidate &c : candidates) {
      rewrite(rewriter, c);
      replaced.release(rewriter, c.filter);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
