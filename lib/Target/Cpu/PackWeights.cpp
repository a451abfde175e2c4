//===- PackWeights.cpp - --tc-cpu-pack-weights ----------------------------===//
//
// A register tile of a matmul keeps kRegisterRows x kRegisterLanes
// accumulators and, at each reduction step k, reads kRegisterLanes
// consecutive elements of the weight's row k. In the weight's own [K, N]
// layout those reads are N elements apart: for a 768 x 3072 weight every
// step touches a new 4 KB page, the hardware prefetchers stop at each page
// and the tile's strip of the weight is fetched from far caches (the tile
// ran at a third of ONNX Runtime's speed). Weights are constants, so this
// pass stores them, at compile time, in panels of kRegisterLanes columns:
// Wp[n / L][k][n % L]. The strip a tile reads is then one contiguous
// stream. The contraction's N loop becomes two loops (panel, lane) and its
// output is viewed as [..., N / L, L] (tensor.expand_shape; the result is
// collapsed back), so nothing else changes: the register tile spans the
// lane loop, and distribution splits the panel loop.
//
// Runs on tensors, after --convert-tc-to-linalg and before
// --tc-cpu-fuse-elementwise (whose reshape propagation then moves the
// collapse past the elementwise epilogue, keeping it in the tile).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstring>

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUPACKWEIGHTSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// What packing one contraction needs.
struct Candidate {
  linalg::LinalgOp op;
  unsigned lanes;      // N: the output's last loop
  unsigned reduction;  // K: the weight's other loop
  OpOperand *weight;   // the N-side input, a [K, N] or [N, K] constant
                       // (with unit dims beside them: [1, K, N])
  unsigned kResult, nResult; // the weight's dims of K and N
  arith::ConstantOp constant; // the weight
  ArrayRef<char> bytes;       // its contents (f32, f16 or bf16)
  int64_t width;              // the panels' columns
};

/// The columns of a weight's panels: the register tile's L, or, for a
/// weight read [N, K] whose N is not a multiple of L, the largest of N
/// (when N < L), 16 or 8 that divides N, so that no padded panel makes the
/// output a slice of a wider one (which a channels-last convolution's
/// consumer would copy back out): 24 output channels are one panel of 24,
/// 144 are nine of 16.
/// A tile without rows (a classifier at batch 1) streams its weight
/// whatever the panels' width, and keeps full-width ones.
int64_t panelWidth(int64_t n, bool transposed, bool rows) {
  if (transposed && n < kRegisterLanes)
    return n;
  if (n % kRegisterLanes == 0 || !transposed || !rows)
    return kRegisterLanes;
  for (int64_t width : {int64_t(16), int64_t(8)})
    if (n % width == 0)
      return width;
  return kRegisterLanes;
}

std::optional<Candidate> match(linalg::LinalgOp op, int64_t minBytes) {
  if (!op.hasPureTensorSemantics() || !hasMultiplyAddBody(op))
    return std::nullopt;
  std::optional<RegisterTileDims> dims = registerTileDims(op);
  // A tile without rows is a matrix-vector product (M = 1, a classifier
  // at batch 1), whose weight stream needs the panels most: with nothing
  // to reuse a weight for, its speed is the memory's.
  if (!dims)
    return std::nullopt;
  unsigned n = dims->lanes;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // Exactly one input reads N: the weight, read as (k, n) or (n, k).
  OpOperand *weight = nullptr;
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (!op.getMatchingIndexingMap(in).isFunctionOfDim(n))
      continue;
    if (weight)
      return std::nullopt;
    weight = in;
  }
  if (!weight)
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(weight);
  auto type = dyn_cast<RankedTensorType>(weight->get().getType());
  if (!map.isProjectedPermutation() || !type || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  // Two dims, N and K; any others have extent 1.
  std::optional<unsigned> nResult, kResult;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (d == n)
      nResult = i;
    else if (type.getDimSize(i) != 1) {
      if (kResult)
        return std::nullopt;
      kResult = i;
    }
  }
  if (!nResult || !kResult)
    return std::nullopt;
  // A weight read [N, K] (a channels-last pointwise convolution's [F, C])
  // gives a tile's L lanes as L scalars a row apart at every step, however
  // small it is: it is packed whatever its size. One read [K, N] only
  // gains once its rows are pages apart.
  bool transposed = *nResult < *kResult;
  if (!transposed &&
      type.getNumElements() * type.getElementTypeBitWidth() / 8 < minBytes)
    return std::nullopt;
  // A weight read [K, N] with N <= L is one contiguous row per step already.
  if (ranges[n] <= kRegisterLanes && !transposed)
    return std::nullopt;
  int64_t width = panelWidth(ranges[n], transposed, dims->rows.has_value());
  // An N that is not a multiple of the width gets a last panel padded with
  // zero columns (an LM head's 50257), computed into a padded output that
  // is sliced back; that needs an init that can be rebuilt in the padded
  // shape (a fill of an empty tensor).
  if (ranges[n] % width != 0) {
    auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>() ||
        !fill->hasOneUse())
      return std::nullopt;
  }
  unsigned k = cast<AffineDimExpr>(map.getResult(*kResult)).getPosition();
  if (op.getIteratorTypesArray()[k] != utils::IteratorType::reduction)
    return std::nullopt;
  // The output's N must be a plain loop (registerTileDims checked it is
  // the last result), read nowhere else.
  arith::ConstantOp constant = singleUseConstant(weight->get());
  std::optional<ArrayRef<char>> bytes =
      constant ? floatWeightBytes(constant, type) : std::nullopt;
  if (!bytes)
    return std::nullopt;
  return Candidate{op,       n,        k,      weight, *kResult,
                   *nResult, constant, *bytes, width};
}

/// Wp[n / L][k][n % L] from the weight (row-major, N and K at its dims
/// c.nResult and c.kResult, any others of extent 1); columns past N (the
/// last panel's padding) are zero.
DenseResourceElementsAttr packPanels(const Candidate &c, RankedTensorType type,
                                     RankedTensorType packed) {
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (int64_t i = type.getRank() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * type.getDimSize(i + 1);
  int64_t nSize = type.getDimSize(c.nResult), kSize = type.getDimSize(c.kResult);
  int64_t nStride = strides[c.nResult], kStride = strides[c.kResult];
  const char *in = c.bytes.data();
  int64_t lanes = c.width;
  int64_t width = type.getElementTypeBitWidth() / 8;
  return weightResource(packed, "packed", [&](char *out) {
    for (int64_t panel = 0; panel < packed.getDimSize(0); ++panel)
      for (int64_t k = 0; k < kSize; ++k)
        for (int64_t lane = 0; lane < lanes; ++lane, out += width) {
          int64_t n = panel * lanes + lane;
          if (n < nSize)
            std::memcpy(out, in + (k * kStride + n * nStride) * width, width);
          else
            std::memset(out, 0, width); // +0.0 in every float format
        }
  });
}

/// The contraction with its N loop split into (panel, lane), reading the
/// packed weight; replaces `c.op`.
void rewrite(RewriterBase &rewriter, const Candidate &c) {
  linalg::LinalgOp op = c.op;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  auto weightType = cast<RankedTensorType>(c.weight->get().getType());
  int64_t lanes = c.width;
  int64_t nSize = op.getStaticLoopRanges()[c.lanes];
  int64_t kSize = op.getStaticLoopRanges()[c.reduction];
  int64_t panels = llvm::divideCeil(nSize, lanes);
  auto packedType = RankedTensorType::get({panels, kSize, lanes},
                                          weightType.getElementType());
  rewriter.setInsertionPoint(op);
  Value packed = arith::ConstantOp::create(
      rewriter, loc, packPanels(c, weightType, packedType));

  // Loops: N at position n becomes panel (n) and lane (n + 1).
  unsigned numLoops = op.getNumLoops();
  unsigned n = c.lanes;
  auto renumber = [&](unsigned d) { return d < n ? d : d + 1; };
  AffineExpr panel = getAffineDimExpr(n, ctx), lane = getAffineDimExpr(n + 1, ctx);
  SmallVector<AffineExpr> replacements;
  for (unsigned d = 0; d < numLoops; ++d)
    replacements.push_back(d == n ? panel * lanes + lane
                                  : getAffineDimExpr(renumber(d), ctx));
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (in == c.weight) {
      inputs.push_back(packed);
      maps.push_back(AffineMap::get(numLoops + 1, 0,
                                    {panel, getAffineDimExpr(renumber(c.reduction), ctx), lane},
                                    ctx));
      continue;
    }
    inputs.push_back(in->get());
    maps.push_back(op.getMatchingIndexingMap(in).replaceDimsAndSymbols(
        replacements, {}, numLoops + 1, 0));
  }
  // The output [..., N] viewed as [..., N / L, L]; with a padded last
  // panel, [..., N'] (N' = panels * L) sliced back to N columns.
  OpOperand *init = op.getDpsInitOperand(0);
  auto initType = cast<RankedTensorType>(init->get().getType());
  int64_t rank = initType.getRank();
  SmallVector<int64_t> expandedShape(initType.getShape().drop_back());
  expandedShape.append({panels, lanes});
  SmallVector<int64_t> paddedShape(initType.getShape());
  paddedShape.back() = panels * lanes;
  auto paddedType = initType.clone(paddedShape);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < rank - 1; ++d)
    reassociation.push_back({d});
  reassociation.push_back({rank - 1, rank});
  auto expandedType = RankedTensorType::get(expandedShape, initType.getElementType());
  Value expanded;
  // The usual init, a fill of an empty tensor, is rebuilt in the new shape:
  // a reshape between the fill and the contraction would keep the fill out
  // of the contraction's workgroups (a separate pass over the output).
  auto fill = init->get().getDefiningOp<linalg::FillOp>();
  auto empty = fill ? fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()
                    : tensor::EmptyOp();
  if (empty && fill->hasOneUse()) {
    Value shaped = tensor::EmptyOp::create(rewriter, loc, expandedType,
                                           empty.getDynamicSizes());
    expanded = linalg::FillOp::create(rewriter, loc, fill.getInputs(),
                                      ValueRange{shaped})
                   .getResult(0);
  } else {
    expanded = tensor::ExpandShapeOp::create(rewriter, loc, expandedType,
                                             init->get(), reassociation);
  }
  SmallVector<AffineExpr> outResults;
  for (AffineExpr e : op.getMatchingIndexingMap(init).getResults().drop_back())
    outResults.push_back(getAffineDimExpr(renumber(cast<AffineDimExpr>(e).getPosition()), ctx));
  outResults.append({panel, lane});
  maps.push_back(AffineMap::get(numLoops + 1, 0, outResults, ctx));

  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.insert(iterators.begin() + n + 1, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(rewriter, loc, TypeRange{expandedType},
                                           inputs, ValueRange{expanded}, maps,
                                           iterators);
  rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                             generic.getRegion().begin());
  Value collapsed = tensor::CollapseShapeOp::create(
      rewriter, loc, paddedType, generic.getResult(0), reassociation);
  if (paddedType != initType) {
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
        strides(rank, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, collapsed);
    sizes.back() = rewriter.getIndexAttr(nSize);
    collapsed = tensor::ExtractSliceOp::create(rewriter, loc, initType, collapsed,
                                               offsets, sizes, strides);
  }
  rewriter.replaceOp(op, collapsed);
}

/// A constant input of a generic register-tiled kernel that reads N (the
/// lanes) as other than its last dimension, and that panels do not fit
/// because another input reads N too (a channels-last depthwise
/// convolution's filter [C, K...], whose input reads C as well): the
/// tile's lanes would be L scalars a window apart at every step.
struct LanesLast {
  linalg::GenericOp op;
  OpOperand *weight;
  arith::ConstantOp constant;
  ArrayRef<char> bytes;
  /// The weight's dims in their new order, N's last.
  SmallVector<int64_t> order;
};

std::optional<LanesLast> matchLanesLast(linalg::LinalgOp linalgOp) {
  auto op = dyn_cast<linalg::GenericOp>(linalgOp.getOperation());
  if (!op || !op.hasPureTensorSemantics() || !hasMultiplyAddBody(op))
    return std::nullopt;
  std::optional<RegisterTileDims> dims = registerTileDims(op);
  if (!dims)
    return std::nullopt;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (!type || !type.hasStaticShape() || !map.isProjectedPermutation() ||
        !map.isFunctionOfDim(dims->lanes) || map.getNumResults() < 2)
      continue;
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(dims->lanes, op.getContext()));
    if (!position || *position == map.getNumResults() - 1)
      continue;
    arith::ConstantOp constant = singleUseConstant(in->get());
    std::optional<ArrayRef<char>> bytes =
        constant ? floatWeightBytes(constant, type) : std::nullopt;
    if (!bytes)
      continue;
    SmallVector<int64_t> order;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (i != *position)
        order.push_back(i);
    order.push_back(*position);
    return LanesLast{op, in, constant, *bytes, order};
  }
  return std::nullopt;
}

/// Stores the weight with its dims in `c.order` and has the op read it so.
void rewriteLanesLast(RewriterBase &rewriter, LanesLast &c) {
  auto type = cast<RankedTensorType>(c.weight->get().getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape, strides(rank, 1);
  for (int64_t i = rank - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * type.getDimSize(i + 1);
  for (int64_t d : c.order)
    shape.push_back(type.getDimSize(d));
  auto permuted = type.clone(shape);
  int64_t width = type.getElementTypeBitWidth() / 8;
  DenseResourceElementsAttr attr =
      weightResource(permuted, "lanes_last", [&](char *out) {
        SmallVector<int64_t> index(rank, 0);
        for (int64_t n = 0; n < permuted.getNumElements(); ++n, out += width) {
          int64_t offset = 0;
          for (int64_t i = 0; i < rank; ++i)
            offset += index[i] * strides[c.order[i]];
          std::memcpy(out, c.bytes.data() + offset * width, width);
          for (int64_t i = rank - 1; i >= 0; --i) {
            if (++index[i] < shape[i])
              break;
            index[i] = 0;
          }
        }
      });
  rewriter.setInsertionPoint(c.op);
  Value weight = arith::ConstantOp::create(rewriter, c.op.getLoc(), attr);
  AffineMap map = c.op.getMatchingIndexingMap(c.weight);
  SmallVector<AffineExpr> results;
  for (int64_t d : c.order)
    results.push_back(map.getResult(d));
  SmallVector<AffineMap> maps = c.op.getIndexingMapsArray();
  maps[c.weight->getOperandNumber()] =
      AffineMap::get(map.getNumDims(), 0, results, c.op.getContext());
  rewriter.modifyOpInPlace(c.op, [&] {
    c.weight->set(weight);
    c.op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
}

struct CpuPackWeightsPass
    : impl::CpuPackWeightsPassBase<CpuPackWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Candidate> candidates;
    SmallVector<LanesLast> lanesLast;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<Candidate> c = match(op, minBytes))
        candidates.push_back(*c);
      else if (std::optional<LanesLast> l = matchLanesLast(op))
        lanesLast.push_back(*l);
    });
    IRRewriter rewriter(&getContext());
    ReplacedWeights replaced(getOperation(), releaseReplaced);
    for (LanesLast &l : lanesLast) {
      rewriteLanesLast(rewriter, l);
      replaced.release(rewriter, l.constant);
    }
    for (Candidate &c : candidates) {
      // Named ops (linalg.matmul) carry their region implicitly.
      if (!isa<linalg::GenericOp>(c.op)) {
        rewriter.setInsertionPoint(c.op);
        FailureOr<linalg::GenericOp> generic =
            linalg::generalizeNamedOp(rewriter, c.op);
        if (failed(generic))
          continue;
        unsigned weightIndex = c.weight->getOperandNumber();
        c.op = *generic;
        c.weight = &generic->getOperation()->getOpOperand(weightIndex);
      }
      rewrite(rewriter, c);
      replaced.release(rewriter, c.constant);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
