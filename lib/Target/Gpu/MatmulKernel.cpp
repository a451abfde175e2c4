//===- MatmulKernel.cpp - shared-memory tiled contraction kernels ---------===//
//
// The general GPU path gives each thread one output element and lets it
// read a whole row of A and column of B from global memory: every element
// is read M or N times over. Here a block of T x T threads computes a T x T
// output tile; at each step of T along K, its threads first copy a T x T
// tile of A and of B into shared memory (one element each, coalesced along
// the innermost index), wait at a barrier, then each accumulates T products
// from shared memory. Global traffic drops by a factor of T.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tc::gpu {
namespace {

struct Roles {
  unsigned m, n, k;
  OpOperand *a, *b; // A reads M and K, B reads K and N
  SmallVector<unsigned> batch;
};

std::optional<Roles> matchRoles(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      !cpu::hasMultiplyAddBody(op))
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    // A 0 is a broadcast unit dimension (weights [1, K, N] of a batch).
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() < 2 ||
      out.getNumResults() != op.getNumParallelLoops() ||
      !llvm::all_of(out.getResults(), llvm::IsaPred<AffineDimExpr>))
    return std::nullopt;
  Roles r;
  r.n = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  r.m = cast<AffineDimExpr>(out.getResults().drop_back().back()).getPosition();
  r.k = 0;
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      r.k = i;
  OpOperand *first = op.getDpsInputOperand(0), *second = op.getDpsInputOperand(1);
  auto reads = [&](OpOperand *in, unsigned d) {
    return op.getMatchingIndexingMap(in).isFunctionOfDim(d);
  };
  auto isA = [&](OpOperand *in) {
    return reads(in, r.m) && reads(in, r.k) && !reads(in, r.n);
  };
  auto isB = [&](OpOperand *in) {
    return reads(in, r.n) && reads(in, r.k) && !reads(in, r.m);
  };
  if (isA(first) && isB(second)) {
    r.a = first;
    r.b = second;
  } else if (isA(second) && isB(first)) {
    r.a = second;
    r.b = first;
  } else {
    return std::nullopt;
  }
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::parallel && d != r.m && d != r.n)
      r.batch.push_back(d);
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  for (OpOperand &operand : op->getOpOperands())
    if (!getElementTypeOrSelf(operand.get().getType()).isIntOrFloat())
      return std::nullopt;
  if (!element.isIntOrFloat())
    return std::nullopt;
  return r;
}

} // namespace

LogicalResult buildTiledContraction(RewriterBase &rewriter, linalg::LinalgOp op) {
  std::optional<Roles> roles = matchRoles(op);
  if (!roles)
    return failure();
  Roles r = *roles;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  SmallVector<Value> sizes;
  for (Range range : op.createLoopRanges(rewriter, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  Value tile = index(kMatmulTile), one = index(1);
  auto ceilDiv = [&](Value v) {
    Value up = arith::AddIOp::create(rewriter, loc, v, index(kMatmulTile - 1));
    return arith::DivUIOp::create(rewriter, loc, up, tile).getResult();
  };
  Value batches = one;
  for (unsigned d : r.batch)
    batches = arith::MulIOp::create(rewriter, loc, batches, sizes[d]);

  auto workgroup = mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
  auto shared = [&](Value operand) {
    return MemRefType::get({kMatmulTile, kMatmulTile},
                           getElementTypeOrSelf(operand.getType()), AffineMap(),
                           workgroup);
  };
  Value output = op.getDpsInitOperand(0)->get();
  auto launch = mlir::gpu::LaunchOp::create(
      rewriter, loc, ceilDiv(sizes[r.n]), ceilDiv(sizes[r.m]), batches, tile,
      tile, one, /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{},
      TypeRange{shared(r.a->get()), shared(r.b->get()), shared(output)});
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  ArrayRef<BlockArgument> attributions = launch.getWorkgroupAttributions();
  Value aTile = attributions[0], bTile = attributions[1], cTile = attributions[2];
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  Value bx = launch.getBlockIds().x, by = launch.getBlockIds().y;
  Value bz = launch.getBlockIds().z;
  auto mulAdd = [&](Value a, int64_t c, Value b) {
    Value scaled = arith::MulIOp::create(rewriter, loc, a, index(c));
    return arith::AddIOp::create(rewriter, loc, scaled, b).getResult();
  };
  auto less = [&](Value a, Value b) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, a, b)
        .getResult();
  };
  auto both = [&](Value a, Value b) {
    return arith::AndIOp::create(rewriter, loc, a, b).getResult();
  };
  // Loop values: batch (from block z), M, N.
  SmallVector<Value> loops(op.getNumLoops());
  delinearizeLoops(rewriter, loc, bz, r.batch, sizes, loops);
  loops[r.m] = mulAdd(by, kMatmulTile, ty);
  loops[r.n] = mulAdd(bx, kMatmulTile, tx);
  Value inM = less(loops[r.m], sizes[r.m]), inN = less(loops[r.n], sizes[r.n]);
  Value inside = both(inM, inN);
  auto indices = [&](OpOperand *operand) {
    return indicesAt(rewriter, loc, op.getMatchingIndexingMap(operand), loops);
  };
  // `operand` at the current loop values when `guard`, else zero.
  auto guardedLoad = [&](OpOperand *operand, Value guard) {
    Type element = getElementTypeOrSelf(operand->get().getType());
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{element}, guard,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
    Value loaded = memref::LoadOp::create(rewriter, loc, operand->get(), indices(operand));
    scf::YieldOp::create(rewriter, loc, loaded);
    rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
    Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    scf::YieldOp::create(rewriter, loc, zero);
    return branch.getResult(0);
  };
  // The accumulators start from the output (linalg accumulates into it).
  memref::StoreOp::create(rewriter, loc,
                          guardedLoad(op.getDpsInitOperand(0), inside), cTile,
                          ValueRange{ty, tx});
  auto steps = scf::ForOp::create(rewriter, loc, index(0), sizes[r.k], tile);
  {
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(steps.getBody());
    Value k0 = steps.getInductionVar();
    loops[r.k] = arith::AddIOp::create(rewriter, loc, k0, tx);
    Value a = guardedLoad(r.a, both(inM, less(loops[r.k], sizes[r.k])));
    memref::StoreOp::create(rewriter, loc, a, aTile, ValueRange{ty, tx});
    loops[r.k] = arith::AddIOp::create(rewriter, loc, k0, ty);
    Value b = guardedLoad(r.b, both(inN, less(loops[r.k], sizes[r.k])));
    memref::StoreOp::create(rewriter, loc, b, bTile, ValueRange{ty, tx});
    mlir::gpu::BarrierOp::create(rewriter, loc);
    Value start = memref::LoadOp::create(rewriter, loc, cTile, ValueRange{ty, tx});
    auto products = scf::ForOp::create(rewriter, loc, index(0), tile, one,
                                       ValueRange{start});
    {
      OpBuilder::InsertionGuard inner(rewriter);
      rewriter.setInsertionPointToStart(products.getBody());
      Value kk = products.getInductionVar();
      Value av = memref::LoadOp::create(rewriter, loc, aTile, ValueRange{ty, kk});
      Value bv = memref::LoadOp::create(rewriter, loc, bTile, ValueRange{kk, tx});
      // The op's body: block arguments follow the operands.
      Block &combine = *op.getBlock();
      IRMapping mapping;
      mapping.map(combine.getArgument(r.a->getOperandNumber()), av);
      mapping.map(combine.getArgument(r.b->getOperandNumber()), bv);
      mapping.map(combine.getArgument(op.getDpsInitOperand(0)->getOperandNumber()),
                  products.getRegionIterArgs()[0]);
      for (Operation &inner : combine.without_terminator())
        rewriter.clone(inner, mapping);
      Value next = mapping.lookup(combine.getTerminator()->getOperand(0));
      scf::YieldOp::create(rewriter, loc, next);
    }
    memref::StoreOp::create(rewriter, loc, products.getResult(0), cTile,
                            ValueRange{ty, tx});
    mlir::gpu::BarrierOp::create(rewriter, loc);
  }
  auto store = scf::IfOp::create(rewriter, loc, TypeRange{}, inside,
                                 /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(&store.getThenRegion().front());
    Value result = memref::LoadOp::create(rewriter, loc, cTile, ValueRange{ty, tx});
    memref::StoreOp::create(rewriter, loc, result, output,
                            indices(op.getDpsInitOperand(0)));
  }
  mlir::gpu::TerminatorOp::create(rewriter, loc);
  rewriter.eraseOp(op);
  return success();
}

} // namespace mlir::tc::gpu
