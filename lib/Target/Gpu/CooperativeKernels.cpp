//===- CooperativeKernels.cpp - what the cooperative kernels share --------===//

#include "tc/Target/Gpu/CooperativeKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::tc::gpu {

std::pair<Value, Value> linearThreadId(OpBuilder &b, Location loc) {
  using mlir::gpu::Dimension;
  auto threadId = [&](Dimension d) {
    return mlir::gpu::ThreadIdOp::create(b, loc, d).getResult();
  };
  auto blockDim = [&](Dimension d) {
    return mlir::gpu::BlockDimOp::create(b, loc, d).getResult();
  };
  Value x = blockDim(Dimension::x), y = blockDim(Dimension::y);
  Value linear = arith::AddIOp::create(
      b, loc, threadId(Dimension::x),
      arith::MulIOp::create(
          b, loc, x,
          arith::AddIOp::create(
              b, loc, threadId(Dimension::y),
              arith::MulIOp::create(b, loc, y, threadId(Dimension::z)))));
  Value count = arith::MulIOp::create(
      b, loc, x, arith::MulIOp::create(b, loc, y, blockDim(Dimension::z)));
  return {linear, count};
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value KernelBuilder::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}
Value KernelBuilder::mul(Value x, int64_t c) {
  return arith::MulIOp::create(b, loc, x, index(c));
}
Value KernelBuilder::div(Value x, int64_t c) {
  return arith::DivUIOp::create(b, loc, x, index(c));
}
Value KernelBuilder::rem(Value x, int64_t c) {
  return arith::RemUIOp::create(b, loc, x, index(c));
}

Value KernelBuilder::orZero(Type type, Value guard,
                            function_ref<Value()> compute) {
  auto branch = scf::IfOp::create(b, loc, TypeRange{type}, guard,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  scf::YieldOp::create(b, loc, compute());
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  scf::YieldOp::create(
      b, loc,
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type)).getResult());
  return branch.getResult(0);
}

bool readsLoopIndices(linalg::LinalgOp op) {
  return op.getBlock()
      ->walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

void delinearizeLoops(OpBuilder &b, Location loc, Value linear,
                      ArrayRef<unsigned> dims, ArrayRef<Value> sizes,
                      MutableArrayRef<Value> loops) {
  Value rest = linear;
  for (unsigned d : llvm::reverse(dims)) {
    loops[d] = arith::RemUIOp::create(b, loc, rest, sizes[d]);
    rest = arith::DivUIOp::create(b, loc, rest, sizes[d]);
  }
}

/// `expr` (dims and constants under additions and multiplications) at
/// the loop values `loops`.
static Value evaluate(OpBuilder &b, Location loc, AffineExpr expr,
                      ArrayRef<Value> loops) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(b, loc, constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return loops[dim.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = evaluate(b, loc, binary.getLHS(), loops);
  Value rhs = evaluate(b, loc, binary.getRHS(), loops);
  if (binary.getKind() == AffineExprKind::Add)
    return arith::AddIOp::create(b, loc, lhs, rhs);
  assert(binary.getKind() == AffineExprKind::Mul && "add or mul only");
  return arith::MulIOp::create(b, loc, lhs, rhs);
}

bool isSimpleAffine(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  return binary &&
         (binary.getKind() == AffineExprKind::Add ||
          binary.getKind() == AffineExprKind::Mul) &&
         isSimpleAffine(binary.getLHS()) && isSimpleAffine(binary.getRHS());
}

SmallVector<Value> indicesAt(OpBuilder &b, Location loc, AffineMap map,
                             ArrayRef<Value> loops) {
  SmallVector<Value> values;
  for (AffineExpr e : map.getResults())
    values.push_back(evaluate(b, loc, e, loops));
  return values;
}

} // namespace mlir::tc::gpu
