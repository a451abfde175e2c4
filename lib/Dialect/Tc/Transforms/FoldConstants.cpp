//===- FoldConstants.cpp - evaluate layout ops on weights at compile time -===//
//
// Exporters often store a weight in one layout and permute it in the graph:
// Gemm with transB (every PyTorch Linear), MatMul against a transposed
// initializer. Folding only handles splats and small dense constants, and
// weights are dense_resource blobs, so without this pass the permutation
// would run on every inference (a 5 MB copy for mobilenet's classifier).
// The pass writes the permuted bytes into a new blob. It also narrows the
// f32 weights that --precision casts to f16/bf16, so they are stored and
// read at half the size.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "tc/Support/WeightStore.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <cstring>

namespace mlir::tc {
#define GEN_PASS_DEF_TCFOLDCONSTANTSPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

std::optional<ArrayRef<char>> mlir::tc::constantBytes(ElementsAttr value) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat() || dense.getElementType().isInteger(1))
      return std::nullopt;
    return dense.getRawData();
  }
  return std::nullopt;
}

namespace {

/// tc.transpose of a constant read by nothing else: a constant with the
/// permuted bytes. (With other readers the weight would be stored twice.)
struct FoldConstantTranspose : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getInput().getDefiningOp<ConstantOp>();
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!constant || !constant->hasOneUse() || !inType || !outType ||
        !inType.hasStaticShape() || !outType.hasStaticShape())
      return failure();
    Type element = inType.getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return failure();
    int64_t width = element.getIntOrFloatBitWidth() / 8;
    std::optional<ArrayRef<char>> bytes = constantBytes(constant.getValue());
    int64_t count = inType.getNumElements();
    if (!bytes || static_cast<int64_t>(bytes->size()) != count * width)
      return failure();

    ArrayRef<int64_t> perm = op.getPermutation();
    int64_t rank = inType.getRank();
    SmallVector<int64_t> inStrides(rank, 1);
    for (int64_t i = rank - 2; i >= 0; --i)
      inStrides[i] = inStrides[i + 1] * inType.getDimSize(i + 1);
    // Output dim i walks input dim perm[i].
    SmallVector<int64_t> step(rank), index(rank, 0);
    for (int64_t i = 0; i < rank; ++i)
      step[i] = inStrides[perm[i]];
    AsmResourceBlob blob = makeWeightBlob(
        count * width, std::max<int64_t>(width, 1),
        [&](MutableArrayRef<char> out) {
          const char *in = bytes->data();
          int64_t offset = 0;
          for (int64_t linear = 0; linear < count; ++linear) {
            std::memcpy(out.data() + linear * width, in + offset * width,
                        width);
            // Advance the output index like an odometer, tracking the input
            // offset incrementally.
            for (int64_t d = rank - 1; d >= 0; --d) {
              offset += step[d];
              if (++index[d] < outType.getDimSize(d))
                break;
              offset -= step[d] * index[d];
              index[d] = 0;
            }
          }
        });
    auto attr = DenseResourceElementsAttr::get(outType, "transposed",
                                               std::move(blob));
    rewriter.replaceOpWithNewOp<ConstantOp>(op, attr);
    return success();
  }
};

/// f32 to bf16, rounding to nearest even; NaN stays a (quiet) NaN.
uint16_t toBf16(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fffu + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

/// f32 to IEEE f16, rounding to nearest even (the compiler's conversion,
/// which is the hardware's where it has one).
uint16_t toF16(float x) {
  _Float16 half = static_cast<_Float16>(x);
  uint16_t bits;
  std::memcpy(&bits, &half, sizeof(bits));
  return bits;
}

/// Replaces `op`, an elementwise map of the f32 constant `constant`, by the
/// constant of `type` whose elements `convert` writes (`width` bytes each,
/// aligned to `width`): a splat stays a splat, a blob becomes a weight blob
/// named `name`.
LogicalResult foldElementwise(PatternRewriter &rewriter, Operation *op,
                              ConstantOp constant, RankedTensorType type,
                              size_t width, StringRef name,
                              function_ref<void(float, char *)> convert) {
  auto elements = dyn_cast<ElementsAttr>(constant.getValue());
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(elements);
      dense && dense.isSplat()) {
    SmallVector<char, 4> bytes(width);
    convert(dense.getSplatValue<APFloat>().convertToFloat(), bytes.data());
    rewriter.replaceOpWithNewOp<ConstantOp>(
        op, DenseElementsAttr::getFromRawBuffer(type, bytes));
    return success();
  }
  std::optional<ArrayRef<char>> bytes =
      elements ? constantBytes(elements) : std::nullopt;
  int64_t count = type.getNumElements();
  if (!bytes || static_cast<int64_t>(bytes->size()) != count * 4)
    return failure();
  AsmResourceBlob blob = makeWeightBlob(
      count * width, width, [&](MutableArrayRef<char> out) {
        for (int64_t i = 0; i < count; ++i) {
          float x;
          std::memcpy(&x, bytes->data() + i * 4, 4);
          convert(x, out.data() + i * width);
        }
      });
  rewriter.replaceOpWithNewOp<ConstantOp>(
      op, DenseResourceElementsAttr::get(type, name, std::move(blob)));
  return success();
}

/// tc.cast of an f32 constant to f16 or bf16: a constant of the narrowed
/// elements. A weight with other readers is then stored twice, the second
/// copy at half the size, which is cheaper than converting it on every run.
struct FoldConstantNarrowing : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getInput().getDefiningOp<ConstantOp>();
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!constant || !outType || !outType.hasStaticShape() ||
        !op.getInput().getType().getElementType().isF32())
      return failure();
    Type to = outType.getElementType();
    if (!to.isF16() && !to.isBF16())
      return failure();
    return foldElementwise(rewriter, op, constant, outType, 2, "narrowed",
                           [&](float x, char *out) {
                             uint16_t bits = to.isF16() ? toF16(x) : toBf16(x);
                             std::memcpy(out, &bits, 2);
                           });
  }
};

/// `x` rounded to TF32's 10 mantissa bits, to nearest even, kept in f32;
/// NaN unchanged (tc.round_to_tf32's own scalar code, at compile time).
float roundToTf32(float x) {
  if (std::isnan(x))
    return x;
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  bits = (bits + 0xfffu + ((bits >> 13) & 1)) & 0xffffe000u;
  std::memcpy(&x, &bits, sizeof(x));
  return x;
}

/// tc.round_to_tf32 of a constant (a weight --precision=tf32 multiplies):
/// the rounded constant, so that no run rounds it again.
struct FoldConstantTf32Rounding : OpRewritePattern<RoundToTf32Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RoundToTf32Op op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getInput().getDefiningOp<ConstantOp>();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!constant || !type || !type.hasStaticShape())
      return failure();
    return foldElementwise(rewriter, op, constant, type, 4, "tf32",
                           [](float x, char *out) {
                             x = roundToTf32(x);
                             std::memcpy(out, &x, 4);
                           });
  }
};

struct TcFoldConstantsPass
    : tc::impl::TcFoldConstantsPassBase<TcFoldConstantsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConstantTranspose, FoldConstantNarrowing,
                 FoldConstantTf32Rounding>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return; // Not converging leaves transposes to run at run time: fine.
  }
};

} // namespace
