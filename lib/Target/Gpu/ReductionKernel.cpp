//===- ReductionKernel.cpp - block reductions -----------------------------===//
//
// On the general path a reduction is one thread per output element walking
// its whole row: a softmax over 64 rows of 4096 runs on 64 threads, and
// consecutive threads read elements a row apart. Here a block of threads
// takes one output element: thread t folds elements t, t + T, t + 2T, ...
// (consecutive threads, consecutive elements), then the T partial results
// are combined and thread 0 folds the total into the output's initial
// value. When the reduction runs along the contiguous, aligned innermost
// dimension of the inputs (softmax's rows, a normalization's features),
// each thread reads vectors of up to 16 bytes instead (elements L t ...
// L t + L - 1, then L T further on), runs the body on them into L partial
// results and folds those in order before the block combines them.
//
// The combination, for 32-bit values (f32, i32: what softmax and the
// normalizations accumulate): each group of 32 threads (a warp on NVIDIA,
// half a wave64 or a wave32 on AMD) folds its values with five xor
// shuffles (gpu.shuffle, no shared memory, no barrier), lane 0 of each
// group writes its result to shared memory, and after one barrier the
// first group folds those the same way. Other types: log2(T) rounds of a
// tree over shared memory between barriers.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/ElementwiseKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tc::gpu {
namespace {

/// Threads per block: a power of two, at most 256, no more than a static
/// reduction needs (whole warps).
int64_t threadsFor(int64_t range) {
  if (ShapedType::isDynamic(range))
    return 256;
  int64_t threads = 32;
  while (threads < 256 && threads < range)
    threads *= 2;
  return threads;
}

/// The op that folds a value into the accumulator, last in the body:
/// `yield combine(acc, x)` with combine associative and commutative and
/// its neutral element known.
Operation *combinerOf(linalg::LinalgOp op) {
  Block &body = *op.getBlock();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  Operation *combine = yield.getOperand(0).getDefiningOp();
  if (!combine || combine->getBlock() != &body || combine->getNumOperands() != 2 ||
      !isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
           arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
           arith::AndIOp, arith::OrIOp, arith::XOrIOp>(combine))
    return nullptr;
  Value acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  // The accumulator is one operand of the combine and used nowhere else.
  if ((combine->getOperand(0) == acc) == (combine->getOperand(1) == acc) ||
      !acc.hasOneUse())
    return nullptr;
  if (!arith::getNeutralElement(combine))
    return nullptr;
  return combine;
}


using Combiner = llvm::function_ref<Value(Value, Value)>;

/// The combination of every thread's `value` for thread 0 (other threads'
/// results are partial): log2(threads) rounds of a tree over `partials`
/// between barriers, round r combining partial t with partial
/// t + threads / 2^(r+1).
Value reduceInSharedMemory(OpBuilder &b, Location loc, Value value, Value tid,
                           int64_t threads, Value partials, Combiner combine) {
  auto index = [&](int64_t v) { return indexConstant(b, loc, v); };
  memref::StoreOp::create(b, loc, value, partials, ValueRange{tid});
  mlir::gpu::BarrierOp::create(b, loc);
  int64_t rounds = llvm::Log2_64(threads);
  auto tree = scf::ForOp::create(b, loc, index(0), index(rounds), index(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tree.getBody());
    Value half = arith::ShRUIOp::create(b, loc, index(threads / 2),
                                        tree.getInductionVar());
    Value active =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, half);
    auto step = scf::IfOp::create(b, loc, TypeRange{}, active, false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&step.getThenRegion().front());
      Value other = arith::AddIOp::create(b, loc, tid, half);
      Value mine = memref::LoadOp::create(b, loc, partials, ValueRange{tid});
      Value theirs = memref::LoadOp::create(b, loc, partials, ValueRange{other});
      memref::StoreOp::create(b, loc, combine(mine, theirs), partials,
                              ValueRange{tid});
    }
    mlir::gpu::BarrierOp::create(b, loc);
  }
  return memref::LoadOp::create(b, loc, partials, ValueRange{index(0)});
}

/// `value` combined across each group of `lanes` consecutive threads
/// (xor shuffles of offsets lanes/2 ... 1; every lane ends with the
/// group's total).
Value combineAcrossLanes(OpBuilder &b, Location loc, Value value,
                         int64_t lanes, Combiner combine) {
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
    auto shuffle = mlir::gpu::ShuffleOp::create(
        b, loc, value, static_cast<int32_t>(offset), kShuffleWidth,
        mlir::gpu::ShuffleMode::XOR);
    value = combine(value, shuffle.getShuffleResult());
  }
  return value;
}

/// The combination of every thread's `value` for thread 0, by shuffles:
/// within each group of kShuffleWidth threads, then, through `partials`
/// (one slot per group) and one barrier, across the groups' results in the
/// first group.
Value reduceWithShuffles(OpBuilder &b, Location loc, Value value, Value tid,
                         int64_t threads, Value partials, Value neutral,
                         Combiner combine) {
  auto index = [&](int64_t v) { return indexConstant(b, loc, v); };
  Value group = combineAcrossLanes(b, loc, value, kShuffleWidth, combine);
  int64_t groups = threads / kShuffleWidth;
  if (groups == 1)
    return group;
  Value width = index(kShuffleWidth);
  Value lane = arith::RemUIOp::create(b, loc, tid, width);
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                       index(0));
  auto write = scf::IfOp::create(b, loc, TypeRange{}, leader, false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&write.getThenRegion().front());
    Value slot = arith::DivUIOp::create(b, loc, tid, width);
    memref::StoreOp::create(b, loc, group, partials, ValueRange{slot});
  }
  mlir::gpu::BarrierOp::create(b, loc);
  // Lanes past the number of groups contribute the neutral element (the
  // read is clamped to stay in the buffer).
  Value last = index(groups - 1);
  Value clamped = arith::MinUIOp::create(b, loc, tid, last);
  Value read = memref::LoadOp::create(b, loc, partials, ValueRange{clamped});
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, tid, last);
  Value mine = arith::SelectOp::create(b, loc, inRange, read, neutral);
  return combineAcrossLanes(b, loc, mine, groups, combine);
}

/// Elements each thread reads per step along reduction loop `k`: vectors
/// of L lanes (16 bytes / the widest element, halved until L divides the
/// static extent and the layout of every input read along the loop, which
/// must be its innermost, contiguous dimension), or 1. The body must be
/// elementwise-mappable ops and constants around the combine.
int64_t reductionLanes(linalg::LinalgOp op, unsigned k, Operation *combine) {
  for (Operation &inner : op.getBlock()->without_terminator())
    if (&inner != combine && !inner.hasTrait<OpTrait::ConstantLike>() &&
        !OpTrait::hasElementwiseMappableTraits(&inner))
      return 1;
  int64_t widest = elementBytes(combine->getResult(0).getType());
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(in->get().getType()))
      return 1;
    widest = std::max(widest, elementBytes(getElementTypeOrSelf(in->get())));
  }
  return lanesAlong(op, k, widest);
}

/// Clones the ops of `body` (but its terminator) at `b` with `mapping`:
/// ops with a vector operand become the same op on vector<lanes x ...>
/// (scalar operands broadcast), the others (constants, values uniform
/// across the lanes) stay scalar.
void cloneOnVectors(OpBuilder &b, Location loc, Block &body, int64_t lanes,
                    IRMapping &mapping) {
  for (Operation &inner : body.without_terminator()) {
    SmallVector<Value> operands;
    for (Value operand : inner.getOperands())
      operands.push_back(mapping.lookupOrDefault(operand));
    if (llvm::none_of(operands, [](Value v) { return isa<VectorType>(v.getType()); })) {
      b.clone(inner, mapping);
      continue;
    }
    for (Value &operand : operands)
      if (!isa<VectorType>(operand.getType()))
        operand = vector::BroadcastOp::create(
            b, loc, VectorType::get({lanes}, operand.getType()), operand);
    OperationState state(loc, inner.getName());
    state.addOperands(operands);
    state.addAttributes(inner.getAttrs());
    for (Type type : inner.getResultTypes())
      state.addTypes(VectorType::get({lanes}, type));
    Operation *vector = b.create(state);
    mapping.map(inner.getResults(), vector->getResults());
  }
}

} // namespace

LogicalResult buildBlockReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t minReduction,
                                  const ContractionFusion &fusion) {
  if (!fusion.pads.empty() || !fusion.permuted.empty() ||
      !op.hasPureBufferSemantics() ||
      op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return failure();
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return failure();
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() != op.getNumParallelLoops() ||
      !llvm::all_of(out.getResults(), llvm::IsaPred<AffineDimExpr>))
    return failure();
  for (OpOperand &operand : op->getOpOperands())
    if (!getElementTypeOrSelf(operand.get().getType()).isIntOrFloat())
      return failure();
  Operation *combine = combinerOf(op);
  if (!combine)
    return failure();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned k = 0;
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      k = i;
  int64_t range = op.getStaticLoopRanges()[k];
  if (!ShapedType::isDynamic(range) && range < minReduction)
    return failure();
  int64_t lanes = reductionLanes(op, k, combine);
  int64_t threads =
      threadsFor(ShapedType::isDynamic(range) ? range : range / lanes);

  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
  SmallVector<Value> sizes;
  for (Range r : op.createLoopRanges(rewriter, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, r.size));
  Value outputs = index(1);
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      outputs = arith::MulIOp::create(rewriter, loc, outputs, sizes[i]);
  Type accType = combine->getResult(0).getType();
  auto partialsType = MemRefType::get(
      {threads}, accType, AffineMap(),
      mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup));
  Value one = index(1);
  auto launch = mlir::gpu::LaunchOp::create(
      rewriter, loc, outputs, one, one, index(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{partialsType});
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  Value partials = launch.getWorkgroupAttributions()[0];
  Value tid = launch.getThreadIds().x;
  // The output element: the block id.
  SmallVector<Value> loops(op.getNumLoops());
  SmallVector<unsigned> parallel;
  for (auto [d, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      parallel.push_back(d);
  delinearizeLoops(rewriter, loc, launch.getBlockIds().x, parallel, sizes, loops);
  auto indices = [&](OpOperand *operand) {
    return indicesAt(rewriter, loc, op.getMatchingIndexingMap(operand), loops);
  };
  Block &body = *op.getBlock();
  Value acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  // This thread's share: elements tid, tid + T, ... (with vectors of L
  // lanes: elements L tid ... L tid + L - 1, then T L further on, ...)
  // folded from the neutral element through the op's whole body, lane by
  // lane.
  Value neutral = arith::ConstantOp::create(rewriter, loc, *arith::getNeutralElement(combine));
  auto vectorType = VectorType::get({lanes}, accType);
  Value start = lanes == 1 ? tid
                           : arith::MulIOp::create(rewriter, loc, tid, index(lanes));
  Value init = lanes == 1 ? neutral
                          : vector::BroadcastOp::create(rewriter, loc,
                                                        vectorType, neutral);
  auto share = scf::ForOp::create(rewriter, loc, start, sizes[k],
                                  index(threads * lanes), ValueRange{init});
  AffineExpr along = getAffineDimExpr(k, ctx);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(share.getBody());
    loops[k] = share.getInductionVar();
    IRMapping mapping;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value element;
      if (lanes > 1 && op.getMatchingIndexingMap(in).getResultPosition(along)) {
        Type type = getElementTypeOrSelf(in->get());
        element = vector::LoadOp::create(
            rewriter, loc, VectorType::get({lanes}, type), in->get(),
            indices(in), /*nontemporal=*/false,
            llvm::MaybeAlign(lanes * elementBytes(type)));
      } else {
        element = memref::LoadOp::create(rewriter, loc, in->get(), indices(in));
      }
      mapping.map(op.getMatchingBlockArgument(in), element);
    }
    mapping.map(acc, share.getRegionIterArgs()[0]);
    if (lanes == 1) {
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, mapping);
    } else {
      cloneOnVectors(rewriter, loc, body, lanes, mapping);
    }
    scf::YieldOp::create(rewriter, loc,
                         mapping.lookup(body.getTerminator()->getOperand(0)));
  }
  auto combineValues = [&](Value lhs, Value rhs) {
    IRMapping mapping;
    mapping.map(combine->getOperand(0), lhs);
    mapping.map(combine->getOperand(1), rhs);
    return rewriter.clone(*combine, mapping)->getResult(0);
  };
  // The lanes of a vector share, folded in order.
  Value mine = share.getResult(0);
  if (lanes > 1) {
    Value folded = vector::ExtractOp::create(rewriter, loc, mine, 0);
    for (int64_t lane = 1; lane < lanes; ++lane)
      folded = combineValues(folded,
                             vector::ExtractOp::create(rewriter, loc, mine, lane));
    mine = folded;
  }
  Value total;
  if (accType.isF32() || accType.isInteger(32)) {
    total = reduceWithShuffles(rewriter, loc, mine, tid, threads, partials,
                               neutral, combineValues);
  } else {
    total = reduceInSharedMemory(rewriter, loc, mine, tid, threads, partials,
                                 combineValues);
  }
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                                      index(0));
  auto finish = scf::IfOp::create(rewriter, loc, TypeRange{}, first, false);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&finish.getThenRegion().front());
    SmallVector<Value> at = indices(op.getDpsInitOperand(0));
    Value initial = fusedStartValue(rewriter, loc, op, fusion, at);
    // The combine's operands in the body's order: the accumulator first
    // where it was first.
    bool accFirst = combine->getOperand(0) == acc;
    Value result = accFirst ? combineValues(initial, total)
                            : combineValues(total, initial);
    storeFusedResult(rewriter, loc, op, fusion, result, at);
  }
  mlir::gpu::TerminatorOp::create(rewriter, loc);
  rewriter.eraseOp(op);
  return success();
}

} // namespace mlir::tc::gpu
