//===- FuseIntoRegisterTiles.cpp - --tc-cpu-fuse-into-register-tiles ------===//
//
// A register-tiled kernel (--tc-cpu-vectorize-contractions) accumulates into
// a buffer of its workgroup: an elementwise op first fills the buffer (a
// convolution's bias, broadcast), then each register tile reads its block
// into vector registers, keeps it there across the reduction and writes it
// back, and an elementwise epilogue (the activation, a residual add) finally
// reads the whole buffer again and writes the kernel's output. Three passes
// over a buffer of up to a few hundred KB, for values that were in registers
// anyway: a depthwise convolution with its bias and clip spent 30 % of its
// time in them.
//
// This pass computes the fill's value of a block where the tile reads its
// accumulator, and applies the epilogue to the registers where the tile
// writes them back, writing the kernel's output directly. The fill, the
// epilogue and (when nothing else uses it) the buffer go away. It runs on
// the vector form, so it only needs what every register tile has after
// hoisting: one read and one write of its block of the buffer, around the
// reduction loops.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUFUSEINTOREGISTERTILESPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The buffer that `value` is a view of (through subviews, reshapes, casts).
Value rootOf(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// One register tile's accumulator: the read of its block of the buffer
/// before the reduction loops and the write after them.
struct TileAccess {
  vector::TransferReadOp read;
  vector::TransferWriteOp write;
};

/// Whether `read` runs once per block of the buffer: every loop around it
/// (up to `top`'s block) moves its indices. A read left inside a reduction
/// loop (its accumulator not hoisted) reads the same block on every
/// iteration and is no tile's first read.
bool readsOncePerBlock(vector::TransferReadOp read, Block *top) {
  for (Block *block = read->getBlock(); block != top;) {
    auto loop = dyn_cast_or_null<scf::ForOp>(block->getParentOp());
    if (!loop)
      return false;
    Value iv = loop.getInductionVar();
    if (llvm::none_of(read.getIndices(),
                      [&](Value index) { return dependsOn(index, iv); }))
      return false;
    block = loop->getBlock();
  }
  return true;
}

/// The extent of a transfer's block along each dim of its buffer (1 where
/// no vector dim runs): a tile may read its accumulator as vector<8x32>
/// and write it as vector<8x1x32>. Nothing for a broadcast.
std::optional<SmallVector<int64_t>> blockOf(VectorTransferOpInterface transfer) {
  SmallVector<int64_t> block(transfer.getShapedType().getRank(), 1);
  for (auto [e, size] : llvm::zip(transfer.getPermutationMap().getResults(),
                                  transfer.getVectorType().getShape())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return std::nullopt;
    block[d.getPosition()] = size;
  }
  return block;
}

/// The accesses of `buffer` as tiles, or nothing when some access is not
/// one: each read followed, in its block, by the write of the same block
/// (same indices and extents) with no access of the buffer between.
std::optional<SmallVector<TileAccess>>
tileAccesses(Value buffer, ArrayRef<Operation *> accesses, Block *top) {
  SmallVector<TileAccess> tiles;
  DenseSet<Operation *> paired;
  auto touches = [&](Operation &op) {
    bool found = false;
    op.walk([&](Operation *nested) {
      if (llvm::is_contained(accesses, nested))
        found = true;
    });
    return found;
  };
  for (Operation *access : accesses) {
    auto read = dyn_cast<vector::TransferReadOp>(access);
    if (!read)
      continue;
    if (read.getMask() || !readsOncePerBlock(read, top))
      return std::nullopt;
    vector::TransferWriteOp write;
    for (Operation *next = read->getNextNode(); next; next = next->getNextNode()) {
      auto candidate = dyn_cast<vector::TransferWriteOp>(next);
      if (candidate && candidate.getBase() == buffer) {
        write = candidate;
        break;
      }
      if (touches(*next))
        return std::nullopt;
    }
    if (!write || write.getMask() ||
        !llvm::equal(write.getIndices(), read.getIndices()))
      return std::nullopt;
    std::optional<SmallVector<int64_t>> readBlock = blockOf(read);
    if (!readBlock || readBlock != blockOf(write))
      return std::nullopt;
    tiles.push_back({read, write});
    paired.insert(read);
    paired.insert(write);
  }
  for (Operation *access : accesses)
    if (!paired.contains(access))
      return std::nullopt;
  return tiles;
}

/// Whether `op` is elementwise over the buffer of operand `at`: all loops
/// parallel, `at`'s map and the output's the identity, every other operand
/// read through a projection of the loops (or a scalar), one output, and a
/// body of elementwise ops and constants.
bool isElementwiseOver(linalg::LinalgOp op, OpOperand *at) {
  if (op.getNumDpsInits() != 1 || op.getNumLoops() != op.getRank(at) ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getMatchingIndexingMap(at).isIdentity() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<ShapedType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
  }
  for (Operation &body : op.getBlock()->without_terminator()) {
    if (body.getNumRegions() != 0 || body.getNumResults() != 1 ||
        !body.getResult(0).getType().isIntOrIndexOrFloat())
      return false;
    if (!body.hasTrait<OpTrait::Elementwise>() && !isa<arith::ConstantOp>(body))
      return false;
  }
  return true;
}

/// Makes `value` available before `point` (in its block): a memory-free op
/// of that block after `point` that defines it (a subview of the output)
/// moves there, with what it uses. With `apply` false, only says whether it
/// can.
bool makeAvailable(Value value, Operation *point, bool apply) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != point->getBlock() ||
      def->isBeforeInBlock(point))
    return true;
  if (def == point || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  for (Value operand : def->getOperands())
    if (!makeAvailable(operand, point, apply))
      return false;
  if (apply)
    def->moveBefore(point);
  return true;
}

/// Makes the operands of `op` and the values its body uses from outside
/// available before `point`.
bool makeOperandsAvailable(linalg::LinalgOp op, Operation *point, bool apply) {
  SmallVector<Value> used(op->getOperands());
  op.getBlock()->walk([&](Operation *body) {
    for (Value operand : body->getOperands())
      if (operand.getParentRegion() != &op->getRegion(0))
        used.push_back(operand);
  });
  return llvm::all_of(used, [&](Value v) { return makeAvailable(v, point, apply); });
}

/// Reads `operand` of elementwise `op` at the block that a transfer of the
/// op's iteration space covers (`indices`, `access` from the loops to the
/// vector dims, `inBounds`), as a vector of `shape`; a scalar operand is
/// broadcast.
Value readOperand(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  OpOperand *operand, ValueRange indices, AffineMap access,
                  ArrayRef<bool> inBounds, ArrayRef<int64_t> shape) {
  Value source = operand->get();
  Type element = getElementTypeOrSelf(source.getType());
  auto vectorType = VectorType::get(shape, element);
  if (!isa<ShapedType>(source.getType()))
    return vector::BroadcastOp::create(b, loc, vectorType, source);
  AffineMap map = op.getMatchingIndexingMap(operand);
  SmallVector<Value> at;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      at.push_back(indices[d.getPosition()]);
    else
      at.push_back(arith::ConstantIndexOp::create(b, loc, 0));
  }
  // Each vector dim reads the operand's dim that the loop maps to, or is a
  // broadcast where the operand does not vary along that loop.
  SmallVector<AffineExpr> results;
  SmallVector<bool> bounds;
  for (auto [j, e] : llvm::enumerate(access.getResults())) {
    unsigned loop = cast<AffineDimExpr>(e).getPosition();
    std::optional<unsigned> dim = map.getResultPosition(b.getAffineDimExpr(loop));
    results.push_back(dim ? b.getAffineDimExpr(*dim) : b.getAffineConstantExpr(0));
    bounds.push_back(dim ? inBounds[j] : true);
  }
  AffineMap permutation =
      AffineMap::get(map.getNumResults(), 0, results, b.getContext());
  Value padding = arith::ConstantOp::create(
      b, loc, element, cast<TypedAttr>(b.getZeroAttr(element)));
  return vector::TransferReadOp::create(b, loc, vectorType, source, at,
                                        padding, permutation, bounds);
}

/// The body of elementwise `op` on vectors of `shape`: `args` holds the
/// vector of each block argument (null for the unused ones); values from
/// outside the body are broadcast.
Value applyBody(OpBuilder &b, Location loc, linalg::LinalgOp op,
                ArrayRef<Value> args, ArrayRef<int64_t> shape) {
  IRMapping vectors;
  for (auto [arg, value] : llvm::zip(op.getBlock()->getArguments(), args))
    if (value)
      vectors.map(arg, value);
  auto vectorOf = [&](Value scalar) -> Value {
    if (Value mapped = vectors.lookupOrNull(scalar))
      return mapped;
    return vector::BroadcastOp::create(
        b, loc, VectorType::get(shape, scalar.getType()), scalar);
  };
  for (Operation &body : op.getBlock()->without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(body)) {
      auto type = VectorType::get(shape, constant.getType());
      vectors.map(constant.getResult(),
                  arith::ConstantOp::create(
                      b, loc, type,
                      SplatElementsAttr::get(type, constant.getValue())));
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : body.getOperands())
      operands.push_back(vectorOf(operand));
    OperationState state(loc, body.getName().getStringRef(), operands,
                         {VectorType::get(shape, body.getResult(0).getType())},
                         body.getAttrs());
    vectors.map(body.getResult(0), b.create(state)->getResult(0));
  }
  return vectorOf(op.getBlock()->getTerminator()->getOperand(0));
}

/// Whether no op strictly between `from` and `to` (in one block, `from`
/// first) touches memory, except the loops of the tiles.
bool onlyTilesBetween(Operation *from, Operation *to,
                      const DenseSet<Operation *> &tileLoops) {
  if (from == to)
    return true;
  for (Operation *op = from->getNextNode(); op && op != to; op = op->getNextNode())
    if (!tileLoops.contains(op) && !isMemoryEffectFree(op))
      return false;
  return true;
}

/// The memrefs that `loops` (and the ops nested in them) read, as roots;
/// nothing when one writes memory other than `buffer` or touches memory in
/// a way this does not follow.
std::optional<DenseSet<Value>> tileOperands(const DenseSet<Operation *> &loops,
                                            Value buffer) {
  DenseSet<Value> roots;
  bool unknown = false;
  for (Operation *loop : loops)
    loop->walk([&](Operation *op) {
      if (isMemoryEffectFree(op) || isa<scf::ForOp, scf::YieldOp>(op))
        return;
      if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
        if (read.getBase() != buffer)
          roots.insert(rootOf(read.getBase()));
        return;
      }
      if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
        if (write.getBase() != buffer)
          unknown = true; // A tile writes only its accumulator.
        return;
      }
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        roots.insert(rootOf(load.getMemRef()));
        return;
      }
      if (auto load = dyn_cast<vector::LoadOp>(op)) {
        roots.insert(rootOf(load.getBase()));
        return;
      }
      unknown = true;
    });
  if (unknown)
    return std::nullopt;
  return roots;
}

/// Fuses the fill and the epilogue of the register-tiled accumulator
/// `alloc` into its tiles, each where that is exact.
void fuse(memref::AllocOp alloc) {
  Value buffer = alloc.getResult();
  Block *top = alloc->getBlock();
  linalg::LinalgOp fill, epilogue;
  memref::CopyOp copy;
  SmallVector<Operation *> accesses;
  for (Operation *user : buffer.getUsers()) {
    if (isa<vector::TransferReadOp, vector::TransferWriteOp>(user)) {
      accesses.push_back(user);
    } else if (auto c = dyn_cast<memref::CopyOp>(user);
               c && c.getSource() == buffer && c->getBlock() == top && !copy) {
      copy = c;
    } else if (auto op = dyn_cast<linalg::LinalgOp>(user)) {
      if (op->getBlock() != top || !op.hasPureBufferSemantics())
        return;
      bool writes = llvm::any_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
        return init.get() == buffer;
      });
      linalg::LinalgOp &slot = writes ? fill : epilogue;
      if (slot)
        return;
      slot = op;
    } else if (!isa<memref::DeallocOp>(user) &&
               !(isa<ViewLikeOpInterface>(user) && user->use_empty())) {
      return;
    }
  }
  if (accesses.empty() || (copy && epilogue))
    return;
  // A copy out of the buffer (a workgroup's accumulator into its slice of
  // the output) is an identity epilogue: as a generic while this decides,
  // a copy again if it stays.
  linalg::GenericOp copyGeneric;
  if (copy) {
    OpBuilder b(copy);
    epilogue = copyGeneric =
        linalg::makeMemRefCopyOp(b, copy.getLoc(), buffer, copy.getTarget());
  }
  llvm::scope_exit restoreCopy([&] {
    if (copyGeneric && copy)
      copyGeneric->erase();
  });
  std::optional<SmallVector<TileAccess>> tiles = tileAccesses(buffer, accesses, top);
  if (!tiles)
    return;
  // The ops of the buffer's block from the first that holds a tile to the
  // last: they write nothing but the buffer.
  Operation *first = nullptr, *last = nullptr;
  for (Operation *access : accesses) {
    Operation *op = top->findAncestorOpInBlock(*access);
    if (!op)
      return;
    if (!first || op->isBeforeInBlock(first))
      first = op;
    if (!last || last->isBeforeInBlock(op))
      last = op;
  }
  DenseSet<Operation *> loops;
  for (Operation *op = first; op != last->getNextNode(); op = op->getNextNode())
    loops.insert(op);
  std::optional<DenseSet<Value>> read = tileOperands(loops, buffer);
  if (!read)
    return;

  // The epilogue: elementwise over the buffer, after the tiles with only
  // memory-free ops between, into an output that the tiles do not read.
  // No other operand is the buffer's memory; one on the output's memory is
  // the output itself, read in place.
  bool fuseEpilogue = false;
  Value output;
  if (epilogue) {
    OpOperand *in = nullptr;
    for (OpOperand *operand : epilogue.getDpsInputOperands())
      if (operand->get() == buffer)
        in = operand;
    output = epilogue.getDpsInitOperand(0)->get();
    Value outputRoot = rootOf(output);
    fuseEpilogue =
        in && isElementwiseOver(epilogue, in) &&
        last->isBeforeInBlock(epilogue) &&
        onlyTilesBetween(last, epilogue, loops) &&
        !epilogue.payloadUsesValueFromOperand(epilogue.getDpsInitOperand(0)) &&
        outputRoot != buffer && !read->contains(outputRoot) &&
        makeOperandsAvailable(epilogue, first, /*apply=*/false);
    for (OpOperand *operand : epilogue.getDpsInputOperands()) {
      if (!fuseEpilogue || !isa<ShapedType>(operand->get().getType()))
        continue;
      AffineMap map = epilogue.getMatchingIndexingMap(operand);
      Value root = rootOf(operand->get());
      if (operand->get() == buffer)
        fuseEpilogue = map.isIdentity();
      else if (root == buffer)
        fuseEpilogue = false;
      else if (root == outputRoot)
        fuseEpilogue = operand->get() == output && map.isIdentity();
    }
  }
  // The fill: elementwise into the whole buffer from operands that neither
  // the tiles nor the fused epilogue write, before the tiles with only
  // memory-free ops between.
  bool fuseFill = false;
  if (fill) {
    OpOperand *init = fill.getDpsInitOperand(0);
    fuseFill = isElementwiseOver(fill, init) && fill->isBeforeInBlock(first) &&
               onlyTilesBetween(fill, first, loops) &&
               !fill.payloadUsesValueFromOperand(init) &&
               makeOperandsAvailable(fill, first, /*apply=*/false);
    for (OpOperand *in : fill.getDpsInputOperands()) {
      Value root = rootOf(in->get());
      if (isa<ShapedType>(in->get().getType()) &&
          (root == buffer || (fuseEpilogue && root == rootOf(output))))
        fuseFill = false;
    }
  }
  if (!fuseFill && !fuseEpilogue)
    return;
  if (fuseFill)
    makeOperandsAvailable(fill, first, /*apply=*/true);
  if (fuseEpilogue)
    makeOperandsAvailable(epilogue, first, /*apply=*/true);

  OpBuilder b(alloc.getContext());
  for (TileAccess &tile : *tiles) {
    VectorType type = tile.read.getVectorType();
    AffineMap access = tile.read.getPermutationMap();
    SmallVector<bool> inBounds = tile.read.getInBoundsValues();
    SmallVector<Value> indices(tile.read.getIndices());
    if (fuseFill) {
      b.setInsertionPoint(tile.read);
      Location loc = tile.read.getLoc();
      SmallVector<Value> args;
      for (OpOperand &operand : fill->getOpOperands())
        args.push_back(operand.getOperandNumber() < fill.getNumDpsInputs()
                           ? readOperand(b, loc, fill, &operand, indices,
                                         access, inBounds, type.getShape())
                           : Value());
      tile.read.replaceAllUsesWith(
          applyBody(b, loc, fill, args, type.getShape()));
      tile.read.erase();
    }
    if (fuseEpilogue) {
      b.setInsertionPoint(tile.write);
      Location loc = tile.write.getLoc();
      type = tile.write.getVectorType();
      access = tile.write.getPermutationMap();
      inBounds = tile.write.getInBoundsValues();
      SmallVector<Value> args;
      for (OpOperand &operand : epilogue->getOpOperands()) {
        if (operand.getOperandNumber() >= epilogue.getNumDpsInputs())
          args.push_back(Value());
        else if (operand.get() == buffer)
          args.push_back(tile.write.getVector());
        else
          args.push_back(readOperand(b, loc, epilogue, &operand, indices,
                                     access, inBounds, type.getShape()));
      }
      Value result = applyBody(b, loc, epilogue, args, type.getShape());
      vector::TransferWriteOp::create(b, loc, result, output, indices, access,
                                      inBounds);
      tile.write.erase();
    }
  }
  if (fuseFill)
    fill->erase();
  if (fuseEpilogue) {
    epilogue->erase();
    copyGeneric = nullptr;
    if (copy)
      copy->erase();
  }
  // Without its fill (or its epilogue) the buffer may have no reader left.
  bool unused = llvm::all_of(buffer.getUsers(), [](Operation *user) {
    return isa<memref::DeallocOp, vector::TransferWriteOp>(user) ||
           (isa<ViewLikeOpInterface>(user) && user->use_empty());
  });
  if (!unused)
    return;
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
    user->erase();
  alloc->erase();
}

struct CpuFuseIntoRegisterTilesPass
    : impl::CpuFuseIntoRegisterTilesPassBase<CpuFuseIntoRegisterTilesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation()->walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs)
      fuse(alloc);
  }
};

} // namespace
} // namespace mlir::tc::cpu
