//===- InterchangeLoops.cpp - the --tc-cpu-interchange-loops pass ---------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUINTERCHANGELOOPSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The loop order that makes the output's last dim innermost, or an empty
/// vector when the op should keep its order.
SmallVector<unsigned> contiguousOrder(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return {};
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0)
    return {};
  auto last = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (!last)
    return {};
  unsigned inner = last.getPosition();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[inner] != utils::IteratorType::parallel)
    return {};
  if (!readsLoopOnlyInLastDim(op, inner))
    return {};
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (i != inner && iterators[i] == utils::IteratorType::parallel)
      order.push_back(i);
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] != utils::IteratorType::parallel)
      order.push_back(i);
  order.push_back(inner);
  bool identity = llvm::all_of(llvm::enumerate(order), [](auto pair) {
    return pair.index() == pair.value();
  });
  return identity ? SmallVector<unsigned>() : order;
}

struct CpuInterchangeLoopsPass
    : impl::CpuInterchangeLoopsPassBase<CpuInterchangeLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<unsigned> order = contiguousOrder(op);
      if (order.empty())
        continue;
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
