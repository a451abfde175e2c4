//===- CooperativeKernels.cpp - what the cooperative kernels share --------===//

#include "tc/Target/Gpu/CooperativeKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tc::gpu {

void delinearizeLoops(OpBuilder &b, Location loc, Value linear,
                      ArrayRef<unsigned> dims, ArrayRef<Value> sizes,
                      MutableArrayRef<Value> loops) {
  Value rest = linear;
  for (unsigned d : llvm::reverse(dims)) {
    loops[d] = arith::RemUIOp::create(b, loc, rest, sizes[d]);
    rest = arith::DivUIOp::create(b, loc, rest, sizes[d]);
  }
}

SmallVector<Value> indicesAt(OpBuilder &b, Location loc, AffineMap map,
                             ArrayRef<Value> loops) {
  SmallVector<Value> values;
  for (AffineExpr e : map.getResults()) {
    if (auto constant = dyn_cast<AffineConstantExpr>(e))
      values.push_back(arith::ConstantIndexOp::create(b, loc, constant.getValue()));
    else
      values.push_back(loops[cast<AffineDimExpr>(e).getPosition()]);
  }
  return values;
}

} // namespace mlir::tc::gpu
