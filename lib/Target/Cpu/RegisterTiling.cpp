//===- RegisterTiling.cpp - the loops a CPU register tile spans -----------===//

#include "tc/Target/Cpu/RegisterTiling.h"
#include "tc/Target/Host/ConstantsObject.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "tc/Support/WeightStore.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "llvm/ADT/SmallBitVector.h"

#include <cstring>

namespace mlir::tc::cpu {

arith::ConstantOp singleUseConstant(Value value) {
  // Through group arguments, reshapes and the view groups that hold them (a
  // weight the exporter reshaped: [K, N] as [1, K, N]): their row-major
  // bytes are the constant's.
  for (int depth = 0; depth < 8; ++depth) {
    if (!value.hasOneUse())
      return nullptr;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto group = dyn_cast<fusion::GroupOp>(arg.getOwner()->getParentOp());
      if (!group)
        return nullptr;
      value = group.getInputs()[arg.getArgNumber()];
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (auto constant = dyn_cast<arith::ConstantOp>(def))
      return constant;
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    auto group = dyn_cast<fusion::GroupOp>(def);
    if (!group || group.getBodyBlock().getOperations().size() != 2)
      return nullptr;
    value = group.getYield()->getOperand(cast<OpResult>(value).getResultNumber());
  }
  return nullptr;
}

std::optional<ArrayRef<char>> floatWeightBytes(arith::ConstantOp constant,
                                               RankedTensorType type) {
  Type element = type.getElementType();
  if (!element.isF32() && !element.isF16() && !element.isBF16())
    return std::nullopt;
  std::optional<ArrayRef<char>> bytes =
      constantBytes(cast<ElementsAttr>(constant.getValue()));
  int64_t width = element.getIntOrFloatBitWidth() / 8;
  if (!bytes ||
      static_cast<int64_t>(bytes->size()) != type.getNumElements() * width)
    return std::nullopt;
  return bytes;
}

DenseResourceElementsAttr weightResource(RankedTensorType type, StringRef name,
                                         function_ref<void(char *)> fill) {
  int64_t width = type.getElementType().getIntOrFloatBitWidth() / 8;
  AsmResourceBlob blob =
      makeWeightBlob(type.getNumElements() * width, alignof(float),
                     [&](MutableArrayRef<char> bytes) { fill(bytes.data()); });
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

std::optional<ConstantWeight> constantWeight(Value value) {
  arith::ConstantOp constant = singleUseConstant(value);
  if (!constant)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (dense && dense.isSplat())
    return ConstantWeight{constant, {}, dense};
  std::optional<ArrayRef<char>> bytes =
      floatWeightBytes(constant, cast<RankedTensorType>(constant.getType()));
  if (!bytes)
    return std::nullopt;
  return ConstantWeight{constant, *bytes, {}};
}

ElementsAttr blockLeadingDim(const ConstantWeight &weight,
                             RankedTensorType blockedType, int64_t lanes) {
  if (weight.splat)
    return DenseElementsAttr::get(blockedType,
                                  weight.splat.getSplatValue<Attribute>());
  int64_t blocks = blockedType.getDimSize(0);
  int64_t rest = blockedType.getNumElements() / (blocks * lanes);
  int64_t width = blockedType.getElementType().getIntOrFloatBitWidth() / 8;
  const char *in = weight.bytes.data();
  return weightResource(blockedType, "blocked", [&](char *out) {
    for (int64_t block = 0; block < blocks; ++block)
      for (int64_t i = 0; i < rest; ++i)
        for (int64_t lane = 0; lane < lanes; ++lane, out += width)
          std::memcpy(out, in + ((block * lanes + lane) * rest + i) * width,
                      width);
  });
}

Value layoutCopy(OpBuilder &b, Location loc, Value from, AffineMap fromMap,
                 Value into, AffineMap intoMap) {
  SmallVector<utils::IteratorType> iterators(fromMap.getNumDims(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{into.getType()}, ValueRange{from}, ValueRange{into},
             ArrayRef<AffineMap>{fromMap, intoMap}, iterators,
             [](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l, args[0]);
             })
      .getResult(0);
}

ReplacedWeights::ReplacedWeights(Operation *root, bool enabled)
    : enabled(enabled) {
  if (enabled)
    uses = host::countResourceUses(root);
}

void ReplacedWeights::release(RewriterBase &rewriter,
                              arith::ConstantOp constant) {
  if (!enabled)
    return;
  auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(constant);
  rewriter.replaceOpWithNewOp<arith::ConstantOp>(
      constant, cast<TypedAttr>(rewriter.getZeroAttr(constant.getType())));
  if (!resource)
    return;
  auto found = uses.find(resource.getRawHandle().getKey());
  if (found == uses.end() || --found->second > 0)
    return;
  host::freeResource(rewriter.getContext(), found->getKey());
}

bool hasMultiplyAddBody(linalg::LinalgOp op) {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return false;
  return linalg::detail::isContractionBody(
      *op.getBlock(), [](Operation *mul, Operation *add) {
        return (isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add)) ||
               (isa<arith::MulIOp>(mul) && isa<arith::AddIOp>(add));
      });
}

bool hasPoolingBody(linalg::LinalgOp op) {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty() ||
      op.getNumDpsInits() != 1)
    return false;
  Block &body = *op.getBlock();
  if (body.getOperations().size() != 2)
    return false;
  Operation &combine = body.front();
  if (!isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
           arith::MinNumFOp, arith::AddFOp, arith::MaxSIOp, arith::MinSIOp,
           arith::MaxUIOp, arith::MinUIOp, arith::AddIOp>(combine))
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1 || yield.getOperand(0) != combine.getResult(0))
    return false;
  Value acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Value lhs = combine.getOperand(0), rhs = combine.getOperand(1);
  Value other = lhs == acc ? rhs : rhs == acc ? lhs : Value();
  auto arg = dyn_cast_if_present<BlockArgument>(other);
  return arg && arg.getOwner() == &body && arg != acc;
}

/// `d` or `d * c` with c > 1 (simplified maps have no `d * 1`).
static bool isScaledDim(AffineExpr expr) {
  return isa<AffineDimExpr>(expr) || stridedDim(expr).has_value();
}

bool readsLoopOnlyInLastDim(linalg::LinalgOp op, unsigned loop) {
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    AffineMap map = op.getMatchingIndexingMap(in);
    return llvm::all_of(llvm::enumerate(map.getResults()), [&](auto result) {
      return !result.value().isFunctionOfDim(loop) ||
             result.index() + 1 == map.getNumResults();
    });
  });
}

bool isLaneKernel(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0)
    return false;
  for (Type t : op->getOperandTypes()) {
    Type element = getElementTypeOrSelf(t);
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8)
      return false;
  }
  for (AffineMap map : op.getIndexingMapsArray())
    if (!llvm::all_of(map.getResults(), [](AffineExpr e) {
          return isa<AffineDimExpr, AffineConstantExpr>(e);
        }))
      return false;
  WalkResult touchesMemory = op.getBlock()->walk([](Operation *inner) {
    return isa<linalg::YieldOp>(inner) || isPure(inner)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return !touchesMemory.wasInterrupted();
}

bool isPlainOrWindow(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto add = dyn_cast<AffineBinaryOpExpr>(expr);
  if (add && add.getKind() == AffineExprKind::Add)
    return isScaledDim(add.getLHS()) && isScaledDim(add.getRHS());
  return isScaledDim(expr);
}

bool readsInWindow(AffineMap map, unsigned d) {
  return llvm::any_of(map.getResults(), [&](AffineExpr e) {
    return e.getKind() == AffineExprKind::Add && e.isFunctionOfDim(d);
  });
}

int64_t registerRows(int64_t range, int64_t rows) {
  if (ShapedType::isDynamic(range) || range % rows == 0)
    return rows;
  if (range <= rows)
    return range;
  for (int64_t r = rows - 1; 4 * r >= 3 * rows; --r)
    if (range % r == 0)
      return r;
  return rows;
}

std::optional<RegisterTileDims> registerTileDims(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  bool pooling = !hasMultiplyAddBody(op);
  if (pooling && !hasPoolingBody(op))
    return std::nullopt;
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8)
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0 ||
      !llvm::all_of(out.getResults(), [](AffineExpr e) {
        return isa<AffineDimExpr, AffineConstantExpr>(e);
      }))
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!llvm::all_of(map.getResults(), isPlainOrWindow))
      return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto nExpr = dyn_cast<AffineDimExpr>(out.getResults().back());
  if (!nExpr || iterators[nExpr.getPosition()] != utils::IteratorType::parallel)
    return std::nullopt;
  unsigned n = nExpr.getPosition();
  // N needs enough lanes to fill a vector register: a 7-wide feature map
  // row of a convolution with rows would get short vectors whose reductions
  // walk the input across rows. A tile without rows (pooling, a depthwise
  // convolution) reduces only over its window and takes rows as narrow as
  // kMinWindowLanes. A dynamic N (the key length of attention exported with
  // dynamic axes) takes full tiles and a peeled partial one, and only with
  // rows.
  bool dynamicN = ShapedType::isDynamic(ranges[n]);
  if (!dynamicN && ranges[n] < kMinWindowLanes)
    return std::nullopt;
  RegisterTileDims dims{n, std::nullopt};
  bool narrow = !dynamicN && ranges[n] < kMinLanes;
  // A pooling window has no operand shared across rows: one row per tile,
  // and the window's input must run along N in its last dim (contiguous or
  // strided), or each lane would be a separate load (a global pool reducing
  // each channel's image, with the channels as N).
  if (pooling)
    return !dynamicN && readsLoopOnlyInLastDim(op, n) ? std::optional(dims)
                                                      : std::nullopt;
  auto readsAlongN = [&](unsigned d) {
    return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
      AffineMap m = op.getMatchingIndexingMap(in);
      return m.isFunctionOfDim(n) && m.isFunctionOfDim(d);
    });
  };
  // A static M first; else a dynamic one (the sequence of a transformer
  // exported with dynamic axes), whose last partial tile is peeled.
  for (bool dynamic : {false, true}) {
    for (AffineExpr e : llvm::reverse(out.getResults().drop_back())) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || ranges[d.getPosition()] == 1 ||
          ShapedType::isDynamic(ranges[d.getPosition()]) != dynamic ||
          readsAlongN(d.getPosition()))
        continue;
      dims.rows = d.getPosition();
      return narrow ? std::nullopt : std::optional(dims);
    }
  }
  return dynamicN ? std::nullopt : std::optional(dims);
}

/// `map` with the loops in `zero` fixed at 0 (a loop of range 1 only takes
/// that value), simplified.
static AffineMap fixAtZero(AffineMap map, const llvm::SmallBitVector &zero) {
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> dims;
  for (unsigned i = 0; i < map.getNumDims(); ++i)
    dims.push_back(zero.test(i) ? getAffineConstantExpr(0, ctx) : getAffineDimExpr(i, ctx));
  return simplifyAffineMap(
      map.replaceDimsAndSymbols(dims, {}, map.getNumDims(), map.getNumSymbols()));
}

std::optional<std::pair<unsigned, int64_t>> stridedDim(AffineExpr e) {
  auto mul = dyn_cast<AffineBinaryOpExpr>(e);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto d = dyn_cast<AffineDimExpr>(mul.getLHS());
  auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!d || !c || c.getValue() <= 1)
    return std::nullopt;
  return std::make_pair(d.getPosition(), c.getValue());
}

/// Whether every result of `map` is a loop, a constant or a strided loop:
/// what the vectorizer reads with transfers once strided dims are views.
static bool isPlain(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    return isa<AffineDimExpr, AffineConstantExpr>(e) || stridedDim(e);
  });
}

/// The loops of a register tile to fix at 0: all unit loops but one unit
/// reduction, which stays as the contraction's k. Empty when none works.
static std::optional<llvm::SmallBitVector> unitLoopsToFix(linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector unit(ranges.size());
  for (auto [i, r] : llvm::enumerate(ranges))
    if (r == 1)
      unit.set(i);
  auto allPlain = [&](const llvm::SmallBitVector &zero) {
    return llvm::all_of(op.getIndexingMapsArray(),
                        [&](AffineMap m) { return isPlain(fixAtZero(m, zero)); });
  };
  for (unsigned k = 0; k < ranges.size(); ++k) {
    if (!unit.test(k) || iterators[k] != utils::IteratorType::reduction)
      continue;
    llvm::SmallBitVector zero = unit;
    zero.reset(k);
    if (allPlain(zero))
      return zero;
  }
  if (allPlain(unit))
    return unit;
  return std::nullopt;
}

/// The reassociation that collapses `group` (consecutive loops) in an
/// operand read through `map`: the dims the group's loops index, which
/// areDimSequencesPreserved has checked are consecutive and in order, become
/// one; nothing when the operand reads none of them.
static SmallVector<ReassociationIndices> operandGroups(AffineMap map,
                                                const ReassociationIndices &group) {
  auto inGroup = [&](AffineExpr e) {
    auto d = dyn_cast<AffineDimExpr>(e);
    return d && llvm::is_contained(group, static_cast<int64_t>(d.getPosition()));
  };
  SmallVector<ReassociationIndices> groups;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    if (i > 0 && inGroup(e) && inGroup(map.getResult(i - 1)))
      groups.back().push_back(i);
    else
      groups.push_back({static_cast<int64_t>(i)});
  }
  return groups;
}

/// Reads each input of `op` that broadcasts along unit dims (a
/// squeeze-excitation scale, [1, C, 1, 1] at (d0, d1, 0, 0)) through a
/// collapse_shape without them, so that its map names loops only and the
/// loops it does not read may collapse (collapseNarrowRows).
static void dropBroadcastUnitDims(RewriterBase &rewriter, linalg::GenericOp op) {
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!type || type.getRank() != map.getNumResults())
      continue;
    auto isUnitBroadcast = [&](unsigned i) {
      auto c = dyn_cast<AffineConstantExpr>(map.getResult(i));
      return c && c.getValue() == 0 && type.getDimSize(i) == 1;
    };
    SmallVector<ReassociationIndices> groups;
    SmallVector<AffineExpr> results;
    ReassociationIndices pending;
    for (unsigned i = 0; i < map.getNumResults(); ++i) {
      pending.push_back(i);
      if (isUnitBroadcast(i))
        continue;
      groups.push_back(pending);
      pending.clear();
      results.push_back(map.getResult(i));
    }
    if (results.size() == map.getNumResults())
      continue;
    if (!pending.empty() && !groups.empty())
      groups.back().append(pending.begin(), pending.end());
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
      continue;
    rewriter.setInsertionPoint(op);
    Value collapsed = memref::CollapseShapeOp::create(rewriter, op.getLoc(),
                                                      input->get(), groups);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps[input->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, results, op.getContext());
    rewriter.modifyOpInPlace(op, [&] {
      input->set(collapsed);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
  }
}

linalg::GenericOp collapseNarrowRows(RewriterBase &rewriter, linalg::GenericOp op,
                                     int64_t minLanes) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() < 2)
    return op;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t last = op.getNumLoops() - 1;
  if (ShapedType::isDynamic(ranges[last]) || ranges[last] >= minLanes)
    return op;
  dropBroadcastUnitDims(rewriter, op);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto legal = [&](const ReassociationIndices &group) {
    if (!linalg::areDimSequencesPreserved(maps, {group}))
      return false;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!llvm::all_of(map.getResults(), [](AffineExpr e) { return isa<AffineDimExpr>(e); }) ||
          !memref::CollapseShapeOp::isGuaranteedCollapsible(type, operandGroups(map, group)))
        return false;
    }
    return true;
  };
  ReassociationIndices group = {last};
  int64_t lanes = ranges[last];
  for (int64_t d = last - 1; d >= 0 && lanes < 8 * minLanes; --d) {
    if (ShapedType::isDynamic(ranges[d]) || iterators[d] != iterators[last])
      break;
    ReassociationIndices wider = {d};
    wider.append(group.begin(), group.end());
    if (!legal(wider))
      break;
    group = wider;
    lanes *= ranges[d];
  }
  if (group.size() == 1)
    return op;
  SmallVector<ReassociationIndices> loops;
  for (int64_t d = 0; d < group.front(); ++d)
    loops.push_back({d});
  loops.push_back(group);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, loops, rewriter);
  if (failed(collapsed))
    return op;
  auto generic = dyn_cast<linalg::GenericOp>(collapsed->collapsedOp.getOperation());
  if (!generic)
    return op;
  rewriter.eraseOp(op);
  return generic;
}

linalg::GenericOp dropUnitLoops(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
    return op;
  std::optional<llvm::SmallBitVector> zero = unitLoopsToFix(op);
  if (!zero || zero->none() || zero->all())
    return op;
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  rewriter.setInsertionPoint(op);
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = fixAtZero(op.getMatchingIndexingMap(&operand), *zero);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      // A scalar operand (a generalized fill's value) reads no loop.
      maps.push_back(compressDims(map, *zero));
      operands.push_back(operand.get());
      continue;
    }
    llvm::SmallBitVector dropped(type.getRank());
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0)),
        strides(type.getRank(), rewriter.getIndexAttr(1)),
        sizes = getAsIndexOpFoldResult(op.getContext(), type.getShape());
    SmallVector<AffineExpr> results;
    bool strided = false;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      auto c = dyn_cast<AffineConstantExpr>(expr);
      if (c && c.getValue() == 0 && type.getDimSize(i) == 1) {
        dropped.set(i);
        continue;
      }
      // A window read with its kernel loop fixed (`o * s`): a view with
      // stride s of the elements the tile reads, indexed by `o`.
      if (auto ds = stridedDim(expr)) {
        int64_t size = (type.getDimSize(i) - 1) / ds->second + 1;
        strides[i] = rewriter.getIndexAttr(ds->second);
        sizes[i] = rewriter.getIndexAttr(size);
        results.push_back(getAffineDimExpr(ds->first, op.getContext()));
        strided = true;
        continue;
      }
      results.push_back(expr);
    }
    maps.push_back(compressDims(
        AffineMap::get(map.getNumDims(), 0, results, op.getContext()), *zero));
    Value value = operand.get();
    // First drop the unit dims (unit strides, whole extents), then take the
    // strided elements in a view of the same rank: ReadStridedAsShuffle
    // reads the unit-stride view below it with whole vectors.
    if (dropped.any()) {
      SmallVector<OpFoldResult> whole =
          getAsIndexOpFoldResult(op.getContext(), type.getShape());
      SmallVector<OpFoldResult> ones(type.getRank(), rewriter.getIndexAttr(1));
      SmallVector<int64_t> kept;
      for (int64_t i = 0; i < type.getRank(); ++i)
        if (!dropped.test(i))
          kept.push_back(type.getDimSize(i));
      auto reduced = memref::SubViewOp::inferRankReducedResultType(
          kept, type, offsets, whole, ones);
      value = memref::SubViewOp::create(rewriter, op.getLoc(), reduced, value,
                                        offsets, whole, ones);
    }
    if (strided) {
      SmallVector<OpFoldResult> keptSizes, keptStrides;
      for (int64_t i = 0; i < type.getRank(); ++i)
        if (!dropped.test(i)) {
          keptSizes.push_back(sizes[i]);
          keptStrides.push_back(strides[i]);
        }
      SmallVector<OpFoldResult> zeros(keptSizes.size(), rewriter.getIndexAttr(0));
      value = memref::SubViewOp::create(rewriter, op.getLoc(), value, zeros,
                                        keptSizes, keptStrides);
    }
    operands.push_back(value);
  }
  SmallVector<utils::IteratorType> iterators;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (!zero->test(i))
      iterators.push_back(it);
  int64_t numInputs = op.getNumDpsInputs();
  auto generic = linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange{},
      ValueRange(operands).take_front(numInputs),
      ValueRange(operands).drop_front(numInputs), maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                              generic.getRegion().begin());
  rewriter.eraseOp(op);
  return generic;
}

int64_t bytesReadWhole(linalg::LinalgOp op, unsigned d) {
  int64_t bytes = 0;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<ShapedType>(in->get().getType());
    if (!type || op.getMatchingIndexingMap(in).isFunctionOfDim(d))
      continue;
    if (!type.getElementType().isIntOrFloat())
      return 0;
    int64_t elements = 1;
    for (auto [i, extent] : llvm::enumerate(type.getShape())) {
      int64_t size = extent;
      if (ShapedType::isDynamic(size)) {
        FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
            presburger::BoundType::UB,
            ValueBoundsConstraintSet::Variable(in->get(), i),
            /*stopCondition=*/nullptr, /*closedUB=*/true);
        if (failed(bound))
          return 0;
        size = *bound;
      }
      elements *= size;
    }
    bytes += elements *
             llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  }
  return bytes;
}

int64_t registerLanes(Type element) {
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 32;
  return std::max<int64_t>(1, kVectorRegisterBits / std::max(bits, 8u));
}

SmallVector<int64_t> laneWidths(int64_t range, int64_t tile,
                                int64_t oneRegister) {
  SmallVector<int64_t> widths;
  if (int64_t whole = range / tile * tile)
    widths.push_back(whole);
  int64_t rest = range % tile;
  while (rest > oneRegister) {
    int64_t part = static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(rest)));
    widths.push_back(part);
    rest -= part;
  }
  if (rest)
    widths.push_back(rest);
  return widths;
}

SmallVector<std::pair<linalg::GenericOp, int64_t>>
splitLanes(RewriterBase &rewriter, linalg::GenericOp op, unsigned n,
           int64_t tile) {
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  SmallVector<int64_t> widths =
      laneWidths(op.getStaticLoopRanges()[n], tile, registerLanes(element));
  SmallVector<std::pair<linalg::GenericOp, int64_t>> parts;
  linalg::GenericOp rest = op;
  for (int64_t width : ArrayRef(widths).drop_back()) {
    rewriter.setInsertionPoint(rest);
    auto [first, second] = linalg::splitOp(
        rewriter, cast<TilingInterface>(rest.getOperation()), n,
        rewriter.getIndexAttr(width));
    auto firstOp = dyn_cast_if_present<linalg::GenericOp>(
        first ? first.getOperation() : nullptr);
    auto secondOp = dyn_cast_if_present<linalg::GenericOp>(
        second ? second.getOperation() : nullptr);
    if (!firstOp || !secondOp) {
      rest = firstOp ? firstOp : rest;
      break;
    }
    parts.push_back({firstOp, width});
    rest = secondOp;
  }
  parts.push_back({rest, rest.getStaticLoopRanges()[n]});
  return parts;
}

bool readsLoopIndices(Operation *op) {
  return op->walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Tiles `op` with `width` lanes on loop `n` (which `width` divides) and 1
/// on every other loop, `n` innermost; marks the tile.
FailureOr<linalg::TiledLinalgOp>
tileAndMark(RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
            ArrayRef<unsigned> interchange, StringRef marker) {
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes).setLoopType(linalg::LinalgTilingLoopType::Loops);
  if (!interchange.empty() && !readsLoopIndices(op))
    options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled))
    return failure();
  tiled->op->setAttr(marker, rewriter.getUnitAttr());
  rewriter.eraseOp(op);
  return tiled;
}

static FailureOr<linalg::TiledLinalgOp> tileLanes(RewriterBase &rewriter,
                                                  linalg::GenericOp op, unsigned n,
                                                  int64_t width, StringRef marker) {
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes[n] = width;
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < op.getNumLoops(); ++i)
    if (i != n)
      order.push_back(i);
  order.push_back(n);
  return tileAndMark(rewriter, op, sizes, order, marker);
}

void tileAlongLanes(RewriterBase &rewriter, linalg::GenericOp op, unsigned n,
                    int64_t lanes, StringRef marker) {
  if (ShapedType::isDynamic(op.getStaticLoopRanges()[n])) {
    // `n` is the innermost loop, or in its own place when the loops keep
    // their order (tileAndMark).
    size_t position = readsLoopIndices(op) ? n : op.getNumLoops() - 1;
    FailureOr<linalg::TiledLinalgOp> tiled = tileLanes(rewriter, op, n, lanes, marker);
    if (failed(tiled) || tiled->loops.size() != op.getNumLoops())
      return;
    scf::ForOp partial;
    if (auto loop = dyn_cast<scf::ForOp>(tiled->loops[position]))
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
    return;
  }
  for (auto [part, width] : splitLanes(rewriter, op, n, lanes))
    (void)tileLanes(rewriter, part, n, width % lanes == 0 ? lanes : width, marker);
}

void vectorizeMarkedTiles(RewriterBase &rewriter, Operation *root,
                          StringRef marker) {
  (void)canonicalizeTiles(root);
  SmallVector<linalg::GenericOp> tiles;
  root->walk([&](linalg::GenericOp op) {
    if (op->hasAttr(marker)) {
      op->removeAttr(marker);
      tiles.push_back(op);
    }
  });
  for (linalg::GenericOp tile : tiles) {
    bool isStatic = llvm::all_of(tile->getOperandTypes(), [](Type t) {
      auto shaped = dyn_cast<ShapedType>(t);
      return !shaped || shaped.hasStaticShape();
    });
    if (!isStatic)
      continue;
    linalg::GenericOp op = dropUnitLoops(rewriter, tile);
    rewriter.setInsertionPoint(op);
    if (succeeded(linalg::vectorize(rewriter, op)))
      rewriter.eraseOp(op);
  }
}

LogicalResult canonicalizeTiles(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  scf::populateSCFForLoopCanonicalizationPatterns(patterns);
  return applyPatternsGreedily(root, std::move(patterns));
}

bool dependsOn(Value value, Value iv) {
  SmallVector<Value> worklist = {value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == iv)
      return true;
    if (!seen.insert(v).second)
      continue;
    if (Operation *def = v.getDefiningOp())
      if (def->getNumRegions() == 0)
        llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

} // namespace mlir::tc::cpu
