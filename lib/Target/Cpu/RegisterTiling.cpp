//===- RegisterTiling.cpp - the loops a CPU register tile spans -----------===//

#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tc::cpu {

bool hasMultiplyAddBody(linalg::LinalgOp op) {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return false;
  return linalg::detail::isContractionBody(
      *op.getBlock(), [](Operation *mul, Operation *add) {
        return (isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add)) ||
               (isa<arith::MulIOp>(mul) && isa<arith::AddIOp>(add));
      });
}

/// `d` or `d * c` with c > 0.
static bool isScaledDim(AffineExpr expr) {
  if (isa<AffineDimExpr>(expr))
    return true;
  auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return false;
  auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
  return isa<AffineDimExpr>(mul.getLHS()) && c && c.getValue() > 0;
}

bool isPlainOrWindow(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto add = dyn_cast<AffineBinaryOpExpr>(expr);
  if (add && add.getKind() == AffineExprKind::Add)
    return isScaledDim(add.getLHS()) && isScaledDim(add.getRHS());
  return isScaledDim(expr);
}

std::optional<RegisterTileDims> registerTileDims(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      !hasMultiplyAddBody(op))
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
  // N needs a static range to get static full tiles, and enough lanes to
  // fill a vector register (a 7-wide feature map row would get short
  // vectors whose reductions walk the input across rows).
  if (ShapedType::isDynamic(ranges[n]) || ranges[n] < kMinLanes)
    return std::nullopt;
  RegisterTileDims dims{n, std::nullopt};
  auto readsAlongN = [&](unsigned d) {
    return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
      AffineMap m = op.getMatchingIndexingMap(in);
      return m.isFunctionOfDim(n) && m.isFunctionOfDim(d);
    });
  };
  for (AffineExpr e : llvm::reverse(out.getResults().drop_back())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || ranges[d.getPosition()] == 1 ||
        ShapedType::isDynamic(ranges[d.getPosition()]) ||
        readsAlongN(d.getPosition()))
      continue;
    dims.rows = d.getPosition();
    break;
  }
  return dims;
}

} // namespace mlir::tc::cpu
