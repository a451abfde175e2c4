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
  Operation *def = bufferOf(buffer).getDefiningOp();
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


/// Whether `op` writes a value computed from scalars alone into every
/// element of `buffer`: linalg.fill, or a map or generic without buffer
/// inputs that ignores the old value and the loop indices.
bool fills(linalg::LinalgOp op, Value buffer) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getDpsInitOperand(0)->get() != buffer || !op.getBlock() ||
      op.getNumLoops() != op.getNumParallelLoops() || readsLoopIndices(op))
    return false;
  OpOperand *out = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(out).isIdentity() ||
      !op.getMatchingBlockArgument(out).use_empty())
    return false;
  return llvm::none_of(op.getDpsInputOperands(), [](OpOperand *input) {
    return isa<MemRefType>(input->get().getType());
  });
}

/// The extent of dimension `d` of `buffer` as its allocation or view gives
/// it (null when neither does).
OpFoldResult extentOf(Value buffer, unsigned d) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.isDynamicDim(d))
    return OpBuilder(buffer.getContext()).getIndexAttr(type.getDimSize(d));
  ValueRange sizes;
  if (auto alloc = buffer.getDefiningOp<memref::AllocOp>())
    sizes = alloc.getDynamicSizes();
  else if (auto view = buffer.getDefiningOp<memref::ViewOp>())
    sizes = view.getSizes();
  else
    return {};
  return sizes[type.getDynamicDimIndex(d)];
}

/// Whether `source`, last read by `producer` (which the memory plan saw
/// as its last use), is still intact when `contraction`'s kernel reads it:
/// nothing between the two writes memory but ops the kernel takes over,
/// and nothing the kernel writes can share the source's memory.
bool sourceKept(linalg::LinalgOp contraction, const ContractionFusion &fusion,
                Operation *producer, Value source) {
  SmallVector<Operation *> taken = fusion.fusedOps();
  for (Operation *op = producer->getNextNode(); op != contraction.getOperation();
       op = op->getNextNode())
    if (!llvm::is_contained(taken, op) && !isMemoryEffectFree(op) &&
        !isa<memref::AllocOp, memref::AllocaOp>(op))
      return false;
  SmallVector<Value> written{contraction.getDpsInitOperand(0)->get()};
  if (linalg::LinalgOp epilogue = fusion.epilogue)
    written.push_back(epilogue.getDpsInitOperand(0)->get());
  return llvm::all_of(written, [&](Value buffer) {
    return memoryApart(buffer, source, producer);
  });
}

/// `operand` of `contraction` as a transposed or copied input
/// (PermutedInput), when it qualifies (findContractionFusion).
std::optional<PermutedInput>
findPermutedInput(linalg::LinalgOp contraction, OpOperand *operand,
                  const InputProducers &producers,
                  const ContractionFusion &fusion,
                  const DenseSet<Operation *> &claimed) {
  PermutedInput input;
  input.operand = operand;
  input.source = producers.source;
  Operation *writer = producers.ops.back();
  if (auto transpose = dyn_cast<linalg::TransposeOp>(writer)) {
    llvm::append_range(input.permutation, transpose.getPermutation());
  } else if (auto copy = dyn_cast<linalg::CopyOp>(writer)) {
    llvm::append_range(input.permutation,
                       llvm::seq<int64_t>(0, copy.getRank(copy.getDpsInitOperand(0))));
  } else {
    return std::nullopt;
  }
  input.producer = cast<linalg::LinalgOp>(writer);
  if (claimed.contains(writer) ||
      !sourceKept(contraction, fusion, writer, input.source))
    return std::nullopt;
  // The copy that made the transpose's source, when it can go too: the
  // ops between it and the contraction are then the transpose's too.
  Value copied;
  Operation *copy = isa<linalg::TransposeOp>(writer)
                        ? reshapedCopy(input.source, writer, copied)
                        : nullptr;
  if (copy && !claimed.contains(copy)) {
    ContractionFusion withTranspose = fusion;
    withTranspose.permuted.push_back(input);
    if (sourceKept(contraction, withTranspose, copy, copied)) {
      input.copy = copy;
      input.copied = copied;
    }
  }
  return input;
}

/// `operand` of `contraction` as a padded input (PaddedInput), when it
/// qualifies (findContractionFusion).
std::optional<PaddedInput> findPaddedInput(linalg::LinalgOp contraction,
                                           OpOperand *operand,
                                           const InputProducers &producers,
                                           const ContractionFusion &fusion,
                                           const DenseSet<Operation *> &claimed) {
  memref::SubViewOp interior = producers.interior;
  auto fill = dyn_cast<linalg::LinalgOp>(producers.ops.front());
  auto copy = dyn_cast<linalg::CopyOp>(producers.ops.back());
  if (!fill || !copy || !interior.hasUnitStride() ||
      interior.getType().getRank() !=
          cast<MemRefType>(operand->get().getType()).getRank() ||
      claimed.contains(fill) || claimed.contains(copy) ||
      !fills(fill, operand->get()) ||
      !sourceKept(contraction, fusion, copy, producers.source))
    return std::nullopt;
  PaddedInput pad;
  pad.operand = operand;
  pad.source = producers.source;
  pad.fill = fill;
  pad.copy = copy;
  pad.low = interior.getMixedOffsets();
  pad.sizes = interior.getMixedSizes();
  return pad;
}

/// Whether `op` writes every element of `buffer` without reading it: a
/// linalg op on buffers with that one output, indexed by its loops in
/// order, all parallel, its old value unread (a fill, a transpose, a
/// copy), or a memref.copy into it.
bool writesWhole(Operation *op, Value buffer) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget() == buffer && copy.getSource() != buffer;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumDpsInits() != 1 || !linalgOp.getBlock() ||
      linalgOp.getDpsInitOperand(0)->get() != buffer ||
      linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return false;
  OpOperand *out = linalgOp.getDpsInitOperand(0);
  return linalgOp.getMatchingIndexingMap(out).isIdentity() &&
         linalgOp.getMatchingBlockArgument(out).use_empty() &&
         llvm::none_of(linalgOp.getDpsInputOperands(), [&](OpOperand *input) {
           return bufferOf(input->get()) == bufferOf(buffer);
         });
}

/// The buffer a copy (memref.copy or linalg.copy) writes.
Value copyTarget(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget();
  if (auto copy = dyn_cast<linalg::CopyOp>(op))
    return copy.getDpsInitOperand(0)->get();
  return {};
}

} // namespace

Value bufferOf(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view || isa<memref::ViewOp>(def))
      break;
    value = view.getViewSource();
  }
  return value;
}

Operation *reshapedCopy(Value view, Operation *reader, Value &copied) {
  Value buffer = view;
  Operation *user = reader;
  while (auto reshape = buffer.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(reshape))
      break;
    if (!buffer.hasOneUse() || *buffer.user_begin() != user)
      return nullptr;
    user = reshape;
    buffer = reshape->getOperand(0);
  }
  auto type = dyn_cast<MemRefType>(buffer.getType());
  auto viewType = dyn_cast<MemRefType>(view.getType());
  if (!type || !viewType || !type.hasStaticShape() ||
      !viewType.hasStaticShape() || !type.getLayout().isIdentity() ||
      !isa_and_present<memref::AllocOp, memref::ViewOp>(buffer.getDefiningOp()))
    return nullptr;
  Operation *copy = nullptr;
  for (Operation *other : buffer.getUsers()) {
    if (other == user || isa<memref::DeallocOp>(other))
      continue;
    if (copy || copyTarget(other) != buffer)
      return nullptr;
    copy = other;
  }
  if (!copy || copy->getBlock() != reader->getBlock() ||
      !copy->isBeforeInBlock(reader) || user->getBlock() != reader->getBlock())
    return nullptr;
  copied = copy->getOperand(0);
  return copy;
}

bool memoryApart(Value written, Value read, Operation *point) {
  if (bufferOf(written) == bufferOf(read))
    return false;
  ArenaSpan target = arenaSpan(written), span = arenaSpan(read);
  if (target.arena && target.arena == span.arena) {
    if (takenBefore(written, point))
      return true;
    return target.bytes && span.bytes &&
           (span.bytes->second <= target.bytes->first ||
            target.bytes->second <= span.bytes->first);
  }
  return rootOf(written) != rootOf(read);
}

Value rootOf(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    buffer = view.getViewSource();
  }
  return buffer;
}

std::optional<InputProducers> findInputProducers(linalg::LinalgOp contraction,
                                                 OpOperand *operand) {
  Value buffer = operand->get();
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.getLayout().isIdentity() ||
      !isa_and_present<memref::AllocOp, memref::ViewOp>(buffer.getDefiningOp()))
    return std::nullopt;
  Block *block = contraction->getBlock();
  // What happens to the buffer, in program order: the op and whether it
  // writes all of it (1), part of it through a view (2), or reads it (0).
  SmallVector<std::pair<Operation *, int>> events;
  // A use inside an op of the block (a kernel built already, a loop)
  // counts as a read at that op.
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user))
      continue;
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || (user == contraction.getOperation() && &use != operand))
      return std::nullopt;
    if (top != user) {
      events.push_back({top, 0});
      continue;
    }
    if (auto interior = dyn_cast<memref::SubViewOp>(user)) {
      for (Operation *copy : interior->getUsers()) {
        Operation *copyTop = block->findAncestorOpInBlock(*copy);
        if (!copyTop)
          return std::nullopt;
        bool writes = copyTop == copy && copyTarget(copy) == interior.getResult();
        events.push_back({copyTop, writes ? 2 : 0});
      }
      continue;
    }
    events.push_back({user, writesWhole(user, buffer) ? 1 : 0});
  }
  llvm::sort(events, [](auto a, auto b) { return a.first->isBeforeInBlock(b.first); });
  auto at = llvm::find_if(events, [&](auto e) { return e.first == contraction; });
  size_t c = at - events.begin();
  // After the contraction, the buffer is written whole before it is read
  // again (another layer's transpose into the same buffer) or not at all.
  if (c + 1 < events.size() && events[c + 1].second != 1)
    return std::nullopt;
  InputProducers producers;
  if (c >= 1 && events[c - 1].second == 1) {
    // A transpose or copy, its source its first operand.
    producers.ops = {events[c - 1].first};
  } else if (c >= 2 && events[c - 1].second == 2 && events[c - 2].second == 1) {
    // A pad: a fill, then a copy into the interior.
    producers.ops = {events[c - 2].first, events[c - 1].first};
    producers.interior =
        copyTarget(events[c - 1].first).getDefiningOp<memref::SubViewOp>();
    auto fill = dyn_cast<linalg::LinalgOp>(producers.ops.front());
    if (!fill || llvm::any_of(fill.getDpsInputOperands(), [](OpOperand *input) {
          return isa<MemRefType>(input->get().getType());
        }))
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  producers.source = producers.ops.back()->getOperand(0);
  return producers;
}

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
    // The kernel must not write a buffer it reads: bufferization may put
    // the epilogue's result into the contraction's own input (a pooler's
    // gathered row, dead after the matmul), which other blocks still read.
    bool readsWritten = llvm::any_of(
        SmallVector<linalg::LinalgOp>{contraction, fusion.init},
        [&](linalg::LinalgOp op) {
          return op && llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
                   return isa<MemRefType>(in->get().getType()) &&
                          bufferOf(in->get()) == bufferOf(written);
                 });
        });
    if (readers == 1 && identity && !readsWritten &&
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
  // Inputs read through their producers, nearest the contraction first:
  // the ops of one may stand between another's and the contraction.
  SmallVector<OpOperand *> inputs = contraction.getDpsInputOperands();
  for (bool grew = true; grew;) {
    grew = false;
    for (OpOperand *input : inputs) {
      auto taken = [&](const auto &list) {
        return llvm::any_of(list, [&](const auto &i) { return i.operand == input; });
      };
      if (taken(fusion.pads) || taken(fusion.permuted))
        continue;
      std::optional<InputProducers> producers =
          findInputProducers(contraction, input);
      if (!producers)
        continue;
      if (producers->interior) {
        if (std::optional<PaddedInput> pad = findPaddedInput(
                contraction, input, *producers, fusion, claimed)) {
          fusion.pads.push_back(std::move(*pad));
          grew = true;
        }
      } else if (std::optional<PermutedInput> permuted = findPermutedInput(
                     contraction, input, *producers, fusion, claimed)) {
        fusion.permuted.push_back(std::move(*permuted));
        grew = true;
      }
    }
  }
  return fusion;
}

SmallVector<Operation *> ContractionFusion::fusedOps() const {
  SmallVector<Operation *> ops;
  for (linalg::LinalgOp op : {init, epilogue})
    if (op)
      ops.push_back(op);
  for (const PaddedInput &pad : pads)
    ops.append({pad.fill, pad.copy});
  for (const PermutedInput &input : permuted) {
    ops.push_back(input.producer);
    if (input.copy)
      ops.push_back(input.copy);
  }
  return ops;
}

Value loadFusedInput(OpBuilder &b, Location loc, linalg::LinalgOp contraction,
                     const ContractionFusion &fusion, OpOperand *input,
                     ArrayRef<Value> loops) {
  SmallVector<Value> indices =
      indicesAt(b, loc, contraction.getMatchingIndexingMap(input), loops);
  const PermutedInput *permuted = llvm::find_if(
      fusion.permuted, [&](const PermutedInput &p) { return p.operand == input; });
  if (permuted != fusion.permuted.end()) {
    // The producer wrote element x of the input from element y of the
    // source, y[permutation[i]] = x[i].
    SmallVector<Value> at(indices.size());
    for (auto [i, index] : llvm::enumerate(indices))
      at[permuted->permutation[i]] = index;
    if (!permuted->copy)
      return memref::LoadOp::create(b, loc, permuted->source, at);
    // The source reshapes the copied buffer (both static, row-major):
    // through the linear position into the copy's indices.
    auto from = cast<MemRefType>(permuted->source.getType());
    auto to = cast<MemRefType>(permuted->copied.getType());
    if (from.getShape() == to.getShape())
      return memref::LoadOp::create(b, loc, permuted->copied, at);
    Value linear = indexConstant(b, loc, 0);
    for (auto [extent, index] : llvm::zip(from.getShape(), at))
      linear = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, linear, indexConstant(b, loc, extent)),
          index);
    SmallVector<Value> copiedAt(to.getRank());
    for (int64_t d = to.getRank() - 1; d >= 0; --d) {
      Value extent = indexConstant(b, loc, to.getDimSize(d));
      copiedAt[d] = arith::RemUIOp::create(b, loc, linear, extent);
      linear = arith::DivUIOp::create(b, loc, linear, extent);
    }
    return memref::LoadOp::create(b, loc, permuted->copied, copiedAt);
  }
  const PaddedInput *pad = llvm::find_if(
      fusion.pads, [&](const PaddedInput &p) { return p.operand == input; });
  if (pad == fusion.pads.end())
    return memref::LoadOp::create(b, loc, input->get(), indices);
  // Inside the source along dimension d when 0 <= index - low < size
  // (one unsigned comparison); a dimension the source fills from 0 needs
  // no test.
  Value inside;
  SmallVector<Value> shifted;
  for (auto [d, index] : llvm::enumerate(indices)) {
    std::optional<int64_t> low = getConstantIntValue(pad->low[d]);
    Value at = index;
    if (low != 0)
      at = arith::SubIOp::create(
          b, loc, index, getValueOrCreateConstantIndexOp(b, loc, pad->low[d]));
    shifted.push_back(at);
    OpFoldResult whole = extentOf(input->get(), d);
    if (low == 0 && whole && isEqualConstantIntOrValue(whole, pad->sizes[d]))
      continue;
    Value within = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, at,
        getValueOrCreateConstantIndexOp(b, loc, pad->sizes[d]));
    inside = inside ? arith::AndIOp::create(b, loc, inside, within).getResult()
                    : within;
  }
  if (!inside)
    return memref::LoadOp::create(b, loc, pad->source, shifted);
  Type element = getElementTypeOrSelf(input->get().getType());
  auto branch = scf::IfOp::create(b, loc, TypeRange{element}, inside,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  scf::YieldOp::create(b, loc,
                       ValueRange{memref::LoadOp::create(b, loc, pad->source, shifted)});
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  scf::YieldOp::create(
      b, loc, evaluateBody(b, loc, pad->fill, indices, nullptr, nullptr));
  return branch.getResult(0);
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

Value storeFusedResult(OpBuilder &b, Location loc, linalg::LinalgOp contraction,
                       const ContractionFusion &fusion, Value result,
                       ValueRange indices) {
  Value output = contraction.getDpsInitOperand(0)->get();
  if (fusion.storeOutput || !fusion.epilogue)
    memref::StoreOp::create(b, loc, result, output, indices);
  if (!fusion.epilogue)
    return {};
  linalg::LinalgOp epilogue = fusion.epilogue;
  Value value = evaluateBody(b, loc, epilogue, indices,
                             contractionInput(fusion, output), result);
  memref::StoreOp::create(b, loc, value, epilogue.getDpsInitOperand(0)->get(),
                          indices);
  return value;
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
            v = loadFusedInput(b, loc, contraction, fusion, input, all);
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
