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
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

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

/// What a block reduction of `op` needs: its combine, its reduction loop
/// `k` (static extent `range`, or dynamic) and the lanes of its vectors.
struct ReductionPlan {
  Operation *combine;
  unsigned k;
  int64_t range;
  int64_t lanes;
};

std::optional<ReductionPlan> planReduction(linalg::LinalgOp op,
                                           int64_t minReduction) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() != op.getNumParallelLoops() ||
      !llvm::all_of(out.getResults(), llvm::IsaPred<AffineDimExpr>))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (!getElementTypeOrSelf(operand.get().getType()).isIntOrFloat())
      return std::nullopt;
  Operation *combine = combinerOf(op);
  if (!combine)
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned k = 0;
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      k = i;
  int64_t range = op.getStaticLoopRanges()[k];
  if (!ShapedType::isDynamic(range) && range < minReduction)
    return std::nullopt;
  return ReductionPlan{combine, k, range, reductionLanes(op, k, combine)};
}

/// A value a step of a chain leaves per row in `buffer`, read by later
/// steps through `map` (in the shared loop space): in the kernel, `value`
/// (every thread has it) replaces those reads.
struct RowValue {
  Value buffer;
  AffineMap map;
  Value value;
};

/// The buffers a chain step writes one value per row into: its output
/// (when stored) and its epilogue's.
SmallVector<RowValue> rowOutputs(const RowChainStep &step) {
  linalg::LinalgOp op = step.op;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<RowValue> values;
  if (step.fusion.storeOutput || !step.fusion.epilogue)
    values.push_back({op.getDpsInitOperand(0)->get(), out, Value()});
  if (linalg::LinalgOp epilogue = step.fusion.epilogue)
    values.push_back({epilogue.getDpsInitOperand(0)->get(), out, Value()});
  return values;
}

/// The memref inputs `step` (with its fusion's init and epilogue) reads.
SmallVector<Value> readsOf(const RowChainStep &step) {
  SmallVector<Value> reads;
  for (linalg::LinalgOp op : {step.op, step.fusion.init, step.fusion.epilogue})
    if (op)
      for (OpOperand *input : op.getDpsInputOperands())
        if (isa<MemRefType>(input->get().getType()))
          reads.push_back(input->get());
  return reads;
}

/// The operand dimension that gives loop `d` of `op` its extent.
std::optional<ValueBoundsConstraintSet::Variable> extentOf(linalg::LinalgOp op,
                                                           unsigned d) {
  AffineMap shapesToLoops = op.getShapesToLoopsMap();
  if (!shapesToLoops || d >= shapesToLoops.getNumResults())
    return std::nullopt;
  auto flat = dyn_cast<AffineDimExpr>(shapesToLoops.getResult(d));
  if (!flat)
    return std::nullopt;
  unsigned position = flat.getPosition();
  for (OpOperand &operand : op->getOpOperands()) {
    int64_t rank = op.getRank(&operand);
    if (position < rank)
      return ValueBoundsConstraintSet::Variable(operand.get(), position);
    position -= rank;
  }
  return std::nullopt;
}

/// Whether `a` and `b` have the same loops: equal static extents, and
/// dynamic ones that the value-bounds analysis proves equal (buffers
/// allocated with the same size, the same dimension of one argument).
bool sameLoops(linalg::LinalgOp a, linalg::LinalgOp b) {
  SmallVector<int64_t> ra = a.getStaticLoopRanges(), rb = b.getStaticLoopRanges();
  if (ra.size() != rb.size())
    return false;
  for (unsigned d = 0; d < ra.size(); ++d) {
    if (ra[d] != rb[d])
      return false;
    if (!ShapedType::isDynamic(ra[d]))
      continue;
    std::optional<ValueBoundsConstraintSet::Variable> ea = extentOf(a, d),
                                                      eb = extentOf(b, d);
    if (!ea || !eb)
      return false;
    FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(*ea, *eb);
    if (failed(equal) || !*equal)
      return false;
  }
  return true;
}

} // namespace

RowChain findRowChain(linalg::LinalgOp first,
                                       const ContractionFusion &fusion,
                                       const DenseSet<Operation *> &claimed,
                                       int64_t minReduction) {
  RowChain steps{{first, fusion.withoutProducedInputs()}};
  std::optional<ReductionPlan> plan = planReduction(first, minReduction);
  if (!plan)
    return steps;
  DenseSet<Operation *> taken(claimed.begin(), claimed.end());
  SmallVector<RowValue> rowValues = rowOutputs(steps.front());
  SmallVector<Value> earlierReads = readsOf(steps.front());
  for (Operation *op : steps.front().fusion.fusedOps())
    taken.insert(op);
  Operation *start = fusion.init ? fusion.init : first.getOperation();
  Operation *after = fusion.epilogue ? fusion.epilogue : first.getOperation();
  // Every read of a buffer an earlier step wrote is of its row.
  auto readsRows = [&](linalg::LinalgOp op) {
    for (OpOperand *input : op.getDpsInputOperands())
      for (const RowValue &row : rowValues)
        if (bufferOf(input->get()) == bufferOf(row.buffer) &&
            (input->get() != row.buffer ||
             op.getMatchingIndexingMap(input) != row.map))
          return false;
    return true;
  };
  // What a later step writes cannot be what an earlier one still reads in
  // another block, but for the rows of the buffer the step reads and
  // writes in place (`inPlace`).
  auto writesApart = [&](Value written, Value inPlace) {
    return llvm::all_of(earlierReads, [&](Value read) {
      return (inPlace && bufferOf(read) == bufferOf(inPlace)) ||
             memoryApart(written, read, start);
    });
  };
  while (true) {
    // The next linalg op, past views, constants and allocations.
    Operation *next = after->getNextNode();
    while (next && !isa<linalg::LinalgOp>(next) &&
           (isMemoryEffectFree(next) || isa<memref::AllocOp>(next)))
      next = next->getNextNode();
    auto candidate = dyn_cast_if_present<linalg::LinalgOp>(next);
    if (!candidate || taken.contains(candidate))
      break;
    if (candidate.getNumReductionLoops() == 0) {
      // A fill of the next reduction's accumulator, or the last step: an
      // elementwise op over the rows.
      Operation *afterFill = candidate->getNextNode();
      while (afterFill && !isa<linalg::LinalgOp>(afterFill) &&
             (isMemoryEffectFree(afterFill) || isa<memref::AllocOp>(afterFill)))
        afterFill = afterFill->getNextNode();
      auto reduction = dyn_cast_if_present<linalg::LinalgOp>(afterFill);
      if (reduction && !taken.contains(reduction) &&
          reduction.getNumReductionLoops() > 0) {
        ContractionFusion next = findContractionFusion(reduction, taken);
        if (next.init == candidate)
          candidate = reduction;
      }
    }
    if (!sameLoops(first, candidate) || readsLoopIndices(candidate))
      break;
    if (candidate.getNumReductionLoops() > 0) {
      std::optional<ReductionPlan> nextPlan =
          planReduction(candidate, minReduction);
      if (!nextPlan || nextPlan->k != plan->k || !readsRows(candidate))
        break;
      RowChainStep step{candidate,
                        findContractionFusion(candidate, taken)
                            .withoutProducedInputs()};
      if ((step.fusion.init && !readsRows(step.fusion.init)) ||
          (step.fusion.epilogue && !readsRows(step.fusion.epilogue)))
        break;
      SmallVector<RowValue> outputs = rowOutputs(step);
      if (!llvm::all_of(outputs, [&](const RowValue &row) {
            return writesApart(row.buffer, Value());
          }))
        break;
      steps.push_back(step);
      llvm::append_range(rowValues, outputs);
      llvm::append_range(earlierReads, readsOf(step));
      for (Operation *op : step.fusion.fusedOps())
        taken.insert(op);
      after = step.fusion.epilogue ? step.fusion.epilogue
                                   : candidate.getOperation();
      continue;
    }
    // The last step: elementwise over the rows and their elements, its
    // output in order.
    if (candidate.getNumDpsInits() != 1 || !candidate.getBlock() ||
        !candidate.hasPureBufferSemantics() ||
        !candidate.getMatchingIndexingMap(candidate.getDpsInitOperand(0))
             .isIdentity() ||
        !candidate.getMatchingBlockArgument(candidate.getDpsInitOperand(0))
             .use_empty() ||
        !readsRows(candidate))
      break;
    Value written = candidate.getDpsInitOperand(0)->get();
    // In place only where every step reads that buffer at the element the
    // last step writes.
    Value inPlace;
    if (llvm::any_of(earlierReads,
                     [&](Value read) { return bufferOf(read) == bufferOf(written); })) {
      bool sameElements = true;
      for (const RowChainStep &step : steps) {
        linalg::LinalgOp stepOp = step.op;
        for (OpOperand *input : stepOp.getDpsInputOperands())
          if (bufferOf(input->get()) == bufferOf(written) &&
              (input->get() != written ||
               !stepOp.getMatchingIndexingMap(input).isIdentity()))
            sameElements = false;
      }
      if (sameElements)
        inPlace = written;
    }
    if (!writesApart(written, inPlace))
      break;
    steps.push_back({candidate, ContractionFusion()});
    break;
  }
  return steps;
}

LogicalResult buildRowChain(RewriterBase &rewriter, ArrayRef<RowChainStep> steps,
                            int64_t minReduction) {
  SmallVector<std::optional<ReductionPlan>> plans;
  for (const RowChainStep &step : steps) {
    linalg::LinalgOp stepOp = step.op;
    if (!step.fusion.pads.empty() || !step.fusion.permuted.empty())
      return failure();
    if (stepOp.getNumReductionLoops() == 0) {
      plans.push_back(std::nullopt);
      continue;
    }
    plans.push_back(planReduction(step.op, minReduction));
    if (!plans.back())
      return failure();
  }
  linalg::LinalgOp op = steps.front().op;
  // The views, constants and allocations between the steps (all that
  // findRowChain lets stand there but the steps' fused ops, which go)
  // move before the kernel that uses them.
  Operation *last = steps.back().op;
  for (Operation *between = op->getNextNode();
       steps.size() > 1 && between && between != last;) {
    Operation *next = between->getNextNode();
    if (isMemoryEffectFree(between) || isa<memref::AllocOp>(between))
      rewriter.moveOpBefore(between, op);
    between = next;
  }
  const ReductionPlan &firstPlan = *plans.front();
  unsigned k = firstPlan.k;
  int64_t range = firstPlan.range;
  int64_t threads = threadsFor(ShapedType::isDynamic(range)
                                   ? range
                                   : range / firstPlan.lanes);

  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
  SmallVector<Value> sizes;
  for (Range r : op.createLoopRanges(rewriter, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, r.size));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  Value outputs = index(1);
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      outputs = arith::MulIOp::create(rewriter, loc, outputs, sizes[i]);
  // Shared memory: each reduction's partial results; each step but the
  // last, a slot per value it hands the later steps.
  auto workgroup = mlir::gpu::AddressSpaceAttr::get(
      ctx, mlir::gpu::AddressSpace::Workgroup);
  SmallVector<Type> attributions;
  SmallVector<SmallVector<RowValue>> handed;
  for (auto [i, step] : llvm::enumerate(steps)) {
    handed.push_back(i + 1 < steps.size() ? rowOutputs(step)
                                          : SmallVector<RowValue>());
    if (plans[i])
      attributions.push_back(MemRefType::get(
          {threads}, plans[i]->combine->getResult(0).getType(), AffineMap(),
          workgroup));
    for (const RowValue &row : handed.back())
      attributions.push_back(MemRefType::get(
          {1}, getElementTypeOrSelf(row.buffer.getType()), AffineMap(),
          workgroup));
  }
  Value one = index(1);
  auto launch = mlir::gpu::LaunchOp::create(
      rewriter, loc, outputs, one, one, index(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, attributions);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
  size_t nextShared = 0;
  Value tid = launch.getThreadIds().x;
  // The row: the block id.
  SmallVector<Value> loops(op.getNumLoops());
  SmallVector<unsigned> parallel;
  for (auto [d, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      parallel.push_back(d);
  delinearizeLoops(rewriter, loc, launch.getBlockIds().x, parallel, sizes, loops);
  // The values earlier steps handed on (`value`: their shared slots).
  SmallVector<RowValue> handedSlots, current;
  // An input of a step: a value an earlier step handed on, or null.
  auto rowValueOf = [&](linalg::LinalgOp step, OpOperand *in) -> Value {
    for (const RowValue &row : current)
      if (in->get() == row.buffer && step.getMatchingIndexingMap(in) == row.map)
        return row.value;
    return {};
  };
  for (auto [i, step] : llvm::enumerate(steps)) {
    linalg::LinalgOp stepOp = step.op;
    // Each step reads the handed values from shared memory itself, after
    // the last barrier: values do not live across barriers (which is what
    // --tc-gpu-emulate-kernels can run).
    current.clear();
    for (const RowValue &row : handedSlots)
      current.push_back({row.buffer, row.map,
                         memref::LoadOp::create(rewriter, loc, row.value,
                                                ValueRange{index(0)})});
    auto indices = [&](OpOperand *operand) {
      return indicesAt(rewriter, loc, stepOp.getMatchingIndexingMap(operand),
                       loops);
    };
    Block &body = *stepOp.getBlock();
    if (!plans[i]) {
      // The last step, elementwise: thread t takes elements t, t + T, ...
      // of the row.
      auto elements = scf::ForOp::create(rewriter, loc, tid, sizes[k],
                                         index(threads));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(elements.getBody());
      loops[k] = elements.getInductionVar();
      IRMapping mapping;
      for (OpOperand *in : stepOp.getDpsInputOperands()) {
        Value v = in->get();
        if (Value row = rowValueOf(stepOp, in))
          v = row;
        else if (isa<MemRefType>(v.getType()))
          v = memref::LoadOp::create(rewriter, loc, v, indices(in));
        mapping.map(stepOp.getMatchingBlockArgument(in), v);
      }
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, mapping);
      memref::StoreOp::create(
          rewriter, loc, mapping.lookupOrDefault(body.getTerminator()->getOperand(0)),
          stepOp.getDpsInitOperand(0)->get(), indices(stepOp.getDpsInitOperand(0)));
      continue;
    }
    const ReductionPlan &plan = *plans[i];
    int64_t lanes = plan.lanes;
    Operation *combine = plan.combine;
    Value partials = shared[nextShared++];
    Type accType = combine->getResult(0).getType();
    Value acc = stepOp.getMatchingBlockArgument(stepOp.getDpsInitOperand(0));
    // This thread's share: elements tid, tid + T, ... (with vectors of L
    // lanes: elements L tid ... L tid + L - 1, then T L further on, ...)
    // folded from the neutral element through the op's whole body, lane
    // by lane.
    Value neutral = arith::ConstantOp::create(
        rewriter, loc, *arith::getNeutralElement(combine));
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
      for (OpOperand *in : stepOp.getDpsInputOperands()) {
        Value element;
        if (Value row = rowValueOf(stepOp, in)) {
          element = row;
        } else if (lanes > 1 &&
                   stepOp.getMatchingIndexingMap(in).getResultPosition(along)) {
          Type type = getElementTypeOrSelf(in->get());
          element = vector::LoadOp::create(
              rewriter, loc, VectorType::get({lanes}, type), in->get(),
              indices(in), /*nontemporal=*/false,
              llvm::MaybeAlign(lanes * elementBytes(type)));
        } else {
          element = memref::LoadOp::create(rewriter, loc, in->get(), indices(in));
        }
        mapping.map(stepOp.getMatchingBlockArgument(in), element);
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
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        tid, index(0));
    auto finish = scf::IfOp::create(rewriter, loc, TypeRange{}, first, false);
    SmallVector<Value> slots;
    for (size_t s = 0; s < handed[i].size(); ++s)
      slots.push_back(shared[nextShared++]);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&finish.getThenRegion().front());
      SmallVector<Value> at = indices(stepOp.getDpsInitOperand(0));
      Value initial = fusedStartValue(rewriter, loc, stepOp, step.fusion, at);
      // The combine's operands in the body's order: the accumulator first
      // where it was first.
      bool accFirst = combine->getOperand(0) == acc;
      Value result = accFirst ? combineValues(initial, total)
                              : combineValues(total, initial);
      Value epilogue =
          storeFusedResult(rewriter, loc, stepOp, step.fusion, result, at);
      // Thread 0 hands the row's values to the others.
      for (auto [row, slot] : llvm::zip(handed[i], slots)) {
        linalg::LinalgOp fusedEpilogue = step.fusion.epilogue;
        bool isEpilogue = fusedEpilogue &&
                          row.buffer == fusedEpilogue.getDpsInitOperand(0)->get();
        memref::StoreOp::create(rewriter, loc, isEpilogue ? epilogue : result,
                                slot, ValueRange{index(0)});
      }
    }
    if (slots.empty())
      continue;
    mlir::gpu::BarrierOp::create(rewriter, loc);
    for (auto [row, slot] : llvm::zip(handed[i], slots))
      handedSlots.push_back({row.buffer, row.map, slot});
  }
  mlir::gpu::TerminatorOp::create(rewriter, loc);
  for (const RowChainStep &step : llvm::reverse(steps))
    rewriter.eraseOp(step.op);
  return success();
}

LogicalResult buildBlockReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t minReduction,
                                  const ContractionFusion &fusion) {
  RowChainStep step{op, fusion};
  return buildRowChain(rewriter, step, minReduction);
}

} // namespace mlir::tc::gpu
