//===- ContractionFusion.cpp - a contraction's fill and epilogue ----------===//

#include "tc/Target/Gpu/ContractionFusion.h"
#include "tc/Target/Gpu/CooperativeKernels.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tc::gpu {
namespace {

bool readsLoopIndices(linalg::LinalgOp op) {
  return op.getBlock()
      ->walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// An elementwise op over a buffer of rank `rank`: every loop parallel,
/// its output indexed by them in order and not read, its inputs read
/// through simple maps (or scalars).
bool isElementwise(linalg::LinalgOp op, int64_t rank) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      op.getNumLoops() != static_cast<unsigned>(rank) || !op.getBlock() ||
      readsLoopIndices(op))
    return false;
  OpOperand *out = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(out).isIdentity() ||
      !op.getMatchingBlockArgument(out).use_empty())
    return false;
  for (OpOperand &operand : op->getOpOperands())
    if (!llvm::all_of(op.getMatchingIndexingMap(&operand).getResults(), isSimpleAffine))
      return false;
  return true;
}

/// The linalg op next to `from` (after it when `forward`) with only
/// memory-effect-free ops and allocations between them; null otherwise.
/// After `from`, deallocations may sit between too: they free buffers the
/// op after them cannot read, and they stay where they are (after the
/// contraction's kernel, which does that op's work).
linalg::LinalgOp neighbour(Operation *from, bool forward) {
  for (Operation *op = forward ? from->getNextNode() : from->getPrevNode(); op;
       op = forward ? op->getNextNode() : op->getPrevNode()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return linalgOp;
    if (!isMemoryEffectFree(op) && !isa<memref::AllocOp, memref::AllocaOp>(op) &&
        !(forward && isa<memref::DeallocOp>(op)))
      return {};
  }
  return {};
}

/// Whether the memory of `buffer` cannot be that of a buffer read at
/// `point` whose last use the memory plan saw before the epilogue: a
/// function's argument, an allocation of its own (made at run time, when
/// hoisted before the contraction, while its inputs are still held), or a
/// view of the plan's arena placed (where its allocation was, so where its
/// live range starts) before `point`. The plan may give a buffer whose
/// range starts later the memory of one whose last use came before (a
/// contraction's input), which the contraction's kernel still reads when
/// it writes the epilogue's output.
bool takenBefore(Value buffer, Operation *point) {
  Value root = buffer;
  while (Operation *def = root.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view || isa<memref::ViewOp>(def))
      break;
    root = view.getViewSource();
  }
  Operation *def = root.getDefiningOp();
  if (!def || isa<memref::AllocOp, memref::AllocaOp>(def))
    return true;
  Operation *ancestor = def->getBlock()->findAncestorOpInBlock(*point);
  return ancestor && def->isBeforeInBlock(ancestor);
}

/// The memory plan's arena a buffer is a view of, and the bytes of it the
/// view covers, sized as --tc-cpu-plan-memory sizes buffers (the whole
/// view where a chain of views narrows it: a superset); the arena is null for other buffers, the bytes unknown for a
/// view at a run-time offset.
struct ArenaSpan {
  Value arena;
  std::optional<std::pair<int64_t, int64_t>> bytes;
};

ArenaSpan arenaSpan(Value buffer) {
  Value root = buffer;
  while (Operation *def = root.getDefiningOp()) {
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      ArenaSpan span{view.getSource(), std::nullopt};
      auto type = view.getType();
      std::optional<int64_t> offset = getConstantIntValue(view.getByteShift());
      if (offset && type.hasStaticShape() &&
          type.getElementType().isIntOrFloat())
        span.bytes = {*offset, *offset + type.getNumElements() *
                                             std::max<int64_t>(
                                                 type.getElementTypeBitWidth() / 8, 1)};
      return span;
    }
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    root = view.getViewSource();
  }
  return {};
}

/// Whether `written`, an arena view, shares no byte with the buffers `ops`
/// read (known offsets in the same arena, or other allocations).
bool disjointFromReads(Value written, ArrayRef<linalg::LinalgOp> ops) {
  ArenaSpan target = arenaSpan(written);
  if (!target.arena || !target.bytes)
    return false;
  for (linalg::LinalgOp op : ops) {
    if (!op)
      continue;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!isa<MemRefType>(input->get().getType()))
        continue;
      ArenaSpan read = arenaSpan(input->get());
      if (read.arena != target.arena)
        continue;
      if (!read.bytes || (read.bytes->first < target.bytes->second &&
                          target.bytes->first < read.bytes->second))
        return false;
    }
  }
  return true;
}

/// Whether anything but `known` (and deallocations) may read what the
/// fused ops leave in `buffer`: its uses and those of views made of it,
/// when it is an allocation or a view of one (an arena's); anything else
/// (an argument, a view into a caller's buffer) may be read after the
/// function. In a function's body (no loop around it), uses before
/// `first`, the first fused op, only saw earlier contents.
bool readElsewhere(Value buffer, ArrayRef<Operation *> known, Operation *first) {
  Operation *def = buffer.getDefiningOp();
  if (!def)
    return true;
  if (auto view = dyn_cast<memref::ViewOp>(def))
    def = view.getSource().getDefiningOp();
  if (!isa_and_present<memref::AllocOp, memref::AllocaOp>(def))
    return true;
  bool straightLine = isa<FunctionOpInterface>(first->getParentOp());
  auto earlier = [&](Operation *user) {
    Operation *ancestor = first->getBlock()->findAncestorOpInBlock(*user);
    return straightLine && ancestor && ancestor->isBeforeInBlock(first);
  };
  SmallVector<Value> pending{buffer};
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (llvm::is_contained(known, user) || isa<memref::DeallocOp>(user))
        continue;
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == value) {
        for (Value result : user->getResults())
          pending.push_back(result);
        continue;
      }
      if (!earlier(user))
        return true;
    }
  }
  return false;
}

/// The body of elementwise `op` at `indices` (its loops), with the block
/// argument of `given` (one of its inputs, or null) taken as `value`, the
/// other inputs loaded through their maps.
Value evaluateBody(OpBuilder &b, Location loc, linalg::LinalgOp op,
                   ValueRange indices, OpOperand *given, Value value) {
  Block &body = *op.getBlock();
  SmallVector<Value> loops(indices.begin(), indices.end());
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value v = value;
    if (input != given) {
      v = input->get();
      if (isa<MemRefType>(v.getType()))
        v = memref::LoadOp::create(
            b, loc, v,
            indicesAt(b, loc, op.getMatchingIndexingMap(input), loops));
    }
    mapping.map(op.getMatchingBlockArgument(input), v);
  }
  for (Operation &inner : body.without_terminator())
    b.clone(inner, mapping);
  return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
}

/// The epilogue's input that is the contraction's output.
OpOperand *contractionInput(const ContractionFusion &fusion, Value output) {
  linalg::LinalgOp epilogue = fusion.epilogue;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == output)
      return input;
  return nullptr;
}

} // namespace

ContractionFusion findContractionFusion(linalg::LinalgOp contraction,
                                        const DenseSet<Operation *> &claimed) {
  ContractionFusion fusion;
  if (!contraction.hasPureBufferSemantics() ||
      contraction.getNumDpsInits() != 1 ||
      contraction.getNumReductionLoops() == 0 || !contraction.getBlock())
    return fusion;
  OpOperand *outOperand = contraction.getDpsInitOperand(0);
  Value output = outOperand->get();
  auto type = dyn_cast<MemRefType>(output.getType());
  AffineMap outMap = contraction.getMatchingIndexingMap(outOperand);
  if (!type || !outMap.isProjectedPermutation() ||
      outMap.getNumResults() != contraction.getNumParallelLoops())
    return fusion;
  int64_t rank = type.getRank();

  linalg::LinalgOp init = neighbour(contraction, /*forward=*/false);
  if (init && !claimed.contains(init) && isElementwise(init, rank) &&
      init.getDpsInitOperand(0)->get() == output &&
      llvm::none_of(init.getDpsInputOperands(),
                    [&](OpOperand *in) { return in->get() == output; }))
    fusion.init = init;

  linalg::LinalgOp epilogue = neighbour(contraction, /*forward=*/true);
  if (epilogue && !claimed.contains(epilogue) &&
      isElementwise(epilogue, rank)) {
    int readers = 0;
    bool identity = true;
    for (OpOperand *input : epilogue.getDpsInputOperands())
      if (input->get() == output) {
        ++readers;
        identity &= epilogue.getMatchingIndexingMap(input).isIdentity();
      }
    Value written = epilogue.getDpsInitOperand(0)->get();
    Operation *first = fusion.init ? fusion.init : contraction;
    if (readers == 1 && identity &&
        (written == output || takenBefore(written, first) ||
         disjointFromReads(written, {contraction, fusion.init, epilogue})))
      fusion.epilogue = epilogue;
  }
  if (fusion.epilogue) {
    bool inPlace = fusion.epilogue.getDpsInitOperand(0)->get() == output;
    SmallVector<Operation *> known{contraction, fusion.epilogue};
    if (fusion.init)
      known.push_back(fusion.init);
    Operation *first = fusion.init ? fusion.init : contraction;
    fusion.storeOutput = !inPlace && readElsewhere(output, known, first);
  }
  return fusion;
}

void hoistEpilogueOperands(RewriterBase &rewriter, linalg::LinalgOp contraction,
                           const ContractionFusion &fusion) {
  if (!fusion.epilogue)
    return;
  Operation *epilogue = fusion.epilogue;
  for (Operation *op = contraction->getNextNode(); op && op != epilogue;) {
    Operation *next = op->getNextNode();
    if (!isa<memref::DeallocOp>(op))
      rewriter.moveOpBefore(op, contraction);
    op = next;
  }
}

Value fusedStartValue(OpBuilder &b, Location loc, linalg::LinalgOp contraction,
                      const ContractionFusion &fusion, ValueRange indices) {
  if (fusion.init)
    return evaluateBody(b, loc, fusion.init, indices, nullptr, nullptr);
  return memref::LoadOp::create(b, loc, contraction.getDpsInitOperand(0)->get(),
                                indices);
}

void storeFusedResult(OpBuilder &b, Location loc, linalg::LinalgOp contraction,
                      const ContractionFusion &fusion, Value result,
                      ValueRange indices) {
  Value output = contraction.getDpsInitOperand(0)->get();
  if (fusion.storeOutput || !fusion.epilogue)
    memref::StoreOp::create(b, loc, result, output, indices);
  if (!fusion.epilogue)
    return;
  linalg::LinalgOp epilogue = fusion.epilogue;
  Value value = evaluateBody(b, loc, epilogue, indices,
                             contractionInput(fusion, output), result);
  memref::StoreOp::create(b, loc, value, epilogue.getDpsInitOperand(0)->get(),
                          indices);
}

FailureOr<scf::ParallelOp> buildFusedContractionLoops(
    RewriterBase &rewriter, linalg::LinalgOp contraction,
    const ContractionFusion &fusion) {
  if (readsLoopIndices(contraction) ||
      !llvm::all_of(contraction.getIndexingMapsArray(), [](AffineMap map) {
        return llvm::all_of(map.getResults(), isSimpleAffine);
      }))
    return failure();
  Location loc = contraction.getLoc();
  rewriter.setInsertionPoint(contraction);
  SmallVector<Value> lowers, parallelUppers, reductionUppers, ones;
  SmallVector<unsigned> parallelDims, reductionDims;
  Value zero = indexConstant(rewriter, loc, 0), one = indexConstant(rewriter, loc, 1);
  for (auto [d, range] :
       llvm::enumerate(contraction.createLoopRanges(rewriter, loc))) {
    Value size = getValueOrCreateConstantIndexOp(rewriter, loc, range.size);
    if (contraction.getIteratorTypesArray()[d] == utils::IteratorType::parallel) {
      parallelDims.push_back(d);
      parallelUppers.push_back(size);
    } else {
      reductionDims.push_back(d);
      reductionUppers.push_back(size);
    }
  }
  OpOperand *outOperand = contraction.getDpsInitOperand(0);
  AffineMap outMap = contraction.getMatchingIndexingMap(outOperand);
  // A reduction to one value runs in one thread, in a loop of one.
  if (parallelDims.empty())
    parallelUppers.push_back(one);
  auto parallel = scf::ParallelOp::create(
      rewriter, loc, SmallVector<Value>(parallelUppers.size(), zero),
      parallelUppers, SmallVector<Value>(parallelUppers.size(), one));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(parallel.getBody()->getTerminator());
  SmallVector<Value> loops(contraction.getNumLoops());
  for (auto [d, iv] : llvm::zip(parallelDims, parallel.getInductionVars()))
    loops[d] = iv;
  SmallVector<Value> indices = indicesAt(rewriter, loc, outMap, loops);
  Value start = fusedStartValue(rewriter, loc, contraction, fusion, indices);
  Block &body = *contraction.getBlock();
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, SmallVector<Value>(reductionDims.size(), zero),
      reductionUppers, SmallVector<Value>(reductionDims.size(), one),
      ValueRange{start},
      [&](OpBuilder &b, Location loc, ValueRange ivs, ValueRange carried) {
        SmallVector<Value> all = loops;
        for (auto [d, iv] : llvm::zip(reductionDims, ivs))
          all[d] = iv;
        IRMapping mapping;
        for (OpOperand *input : contraction.getDpsInputOperands()) {
          Value v = input->get();
          if (isa<MemRefType>(v.getType()))
            v = memref::LoadOp::create(
                b, loc, v,
                indicesAt(b, loc, contraction.getMatchingIndexingMap(input), all));
          mapping.map(contraction.getMatchingBlockArgument(input), v);
        }
        mapping.map(contraction.getMatchingBlockArgument(outOperand),
                    carried.front());
        for (Operation &inner : body.without_terminator())
          b.clone(inner, mapping);
        return scf::ValueVector{
            mapping.lookupOrDefault(body.getTerminator()->getOperand(0))};
      });
  storeFusedResult(rewriter, loc, contraction, fusion, nest.results.front(),
                   indices);
  rewriter.eraseOp(contraction);
  return parallel;
}

} // namespace mlir::tc::gpu
