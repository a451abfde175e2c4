//===- EmulateKernels.cpp - --tc-gpu-emulate-kernels ----------------------===//
//
// The GPU path without a GPU: the same kernels and host code that
// --target=cuda/rocm compile, with each kernel run on the CPU by looping
// over its blocks and threads. Lowered by the CPU pipeline's tail, the
// result runs under tc-run like any CPU model, so the conformance suite
// checks the numerics of GPU code generation (tiling, index arithmetic,
// bounds guards, outlining, the host side's allocations) on our machines.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/GpuTarget.h"
#include "tc/Target/Gpu/MatrixCores.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUEMULATEKERNELSPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

using mlir::gpu::Dimension;

/// The id that iteration `iv` of a loop over `extent` ids runs: `iv`, or
/// with `reverse` `extent - 1 - iv` (last to first).
Value idAt(OpBuilder &b, Location loc, Value iv, Value extent, bool reverse) {
  if (!reverse)
    return iv;
  Value last = arith::SubIOp::create(b, loc, extent,
                                     arith::ConstantIndexOp::create(b, loc, 1));
  return arith::SubIOp::create(b, loc, last, iv);
}

/// Shared memory is host memory here, without the workgroup address space:
/// a cloned op whose memref result follows its operands' types (an
/// arith.select between two shared tiles) takes its operands' type.
void retypeMemRefResults(Operation *root) {
  root->walk([](InferTypeOpInterface op) {
    if (llvm::none_of(op->getResultTypes(), llvm::IsaPred<MemRefType>))
      return;
    SmallVector<Type> types;
    if (failed(op.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)))
      return;
    for (auto [result, type] : llvm::zip_equal(op->getResults(), types))
      result.setType(type);
  });
}

/// Whether `op` is or contains a barrier.
bool hasBarrier(Operation *op) {
  return op->walk([](mlir::gpu::BarrierOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Emits the body of one block of a kernel: barrier-free stretches of ops
/// each run by every thread in turn (a loop nest over the thread ids), one
/// stretch after the other, so that every thread has reached a barrier
/// before any goes past it. Loops that contain barriers must have
/// block-uniform bounds and carry nothing (demoteAcrossBarriers has put
/// their carried values in slots); they are re-created around their
/// stretches. A value one stretch uses from an earlier one is recomputed
/// (index arithmetic, comparisons: pure ops); any other has gone through a
/// slot (demoteAcrossBarriers).
struct BlockEmitter {
  OpBuilder &b;
  Location loc;
  bool reverse;
  /// Block ids and the grid's and the block's extents, the kernel's
  /// arguments, shared memory, and the ivs of re-created loops.
  IRMapping uniform;
  SmallVector<Value> threadExtents; // x, y, z
  DenseMap<Value, unsigned> threadIds; // gpu.thread_id result -> dimension
  Operation *failedOp = nullptr;
  std::string reason;

  BlockEmitter(OpBuilder &b, Location loc, bool reverse)
      : b(b), loc(loc), reverse(reverse) {}

  LogicalResult fail(Operation *op, StringRef why) {
    failedOp = op;
    reason = why.str();
    return LogicalResult::failure();
  }

  /// `value` in `mapping`, recomputing pure ops of the kernel as needed.
  FailureOr<Value> materialize(Value value, IRMapping &mapping) {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    Operation *def = value.getDefiningOp();
    if (!def || !isPure(def) || def->getNumRegions() ||
        isa<mlir::gpu::ThreadIdOp>(def))
      return FailureOr<Value>(LogicalResult::failure());
    for (Value operand : def->getOperands())
      if (failed(materialize(operand, mapping)))
        return FailureOr<Value>(LogicalResult::failure());
    retypeMemRefResults(b.clone(*def, mapping));
    return mapping.lookup(value);
  }

  /// Clones `op` into `mapping`, first recomputing what it uses from
  /// outside (its operands and the values its regions use).
  LogicalResult cloneInto(Operation &op, IRMapping &mapping) {
    SmallVector<Value> used(op.getOperands());
    llvm::SetVector<Value> above;
    for (Region &region : op.getRegions())
      getUsedValuesDefinedAbove(region, above);
    used.append(above.begin(), above.end());
    for (Value value : used)
      if (failed(materialize(value, mapping)))
        return fail(&op, "uses a value computed before a barrier that cannot "
                         "be recomputed");
    Operation *clone = b.clone(op, mapping);
    retypeMemRefResults(clone);
    bool nestedGpu = false;
    clone->walk([&](Operation *inner) {
      if (inner->getDialect() && inner->getDialect()->getNamespace() == "gpu")
        nestedGpu = true;
    });
    if (nestedGpu)
      return fail(&op, "cannot emulate gpu dialect ops inside regions");
    return success();
  }

  /// One barrier-free stretch, run by every thread.
  LogicalResult emitStretch(ArrayRef<Operation *> ops) {
    if (ops.empty())
      return success();
    OpBuilder::InsertionGuard guard(b);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    SmallVector<Value> ids(3);
    for (int d : {2, 1, 0}) {
      auto loop = scf::ForOp::create(b, loc, zero, threadExtents[d], one);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      ids[d] = idAt(b, loc, loop.getInductionVar(), threadExtents[d], reverse);
    }
    IRMapping mapping = uniform;
    for (auto [value, dim] : threadIds)
      mapping.map(value, ids[dim]);
    for (Operation *op : ops) {
      if (isa<mlir::gpu::ThreadIdOp, mlir::gpu::BlockIdOp, mlir::gpu::GridDimOp,
              mlir::gpu::BlockDimOp>(op))
        continue;
      if (failed(cloneInto(*op, mapping)))
        return LogicalResult::failure();
    }
    return success();
  }

  LogicalResult emit(Block &block) {
    SmallVector<Operation *> stretch;
    for (Operation &op : block.without_terminator()) {
      if (isa<mlir::gpu::ReturnOp>(op))
        continue;
      if (!hasBarrier(&op)) {
        stretch.push_back(&op);
        continue;
      }
      if (failed(emitStretch(stretch)))
        return LogicalResult::failure();
      stretch.clear();
      if (isa<mlir::gpu::BarrierOp>(op))
        continue;
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop || loop.getNumResults())
        return fail(&op, "cannot emulate a barrier inside this op (only in "
                         "scf.for loops without results)");
      SmallVector<Value> bounds;
      for (Value bound : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}) {
        FailureOr<Value> value = materialize(bound, uniform);
        if (failed(value))
          return fail(&op, "a loop around a barrier needs the same bounds in "
                           "every thread");
        bounds.push_back(*value);
      }
      auto copy = scf::ForOp::create(b, loc, bounds[0], bounds[1], bounds[2]);
      uniform.map(loop.getInductionVar(), copy.getInductionVar());
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(copy.getBody()->getTerminator());
      if (failed(emit(*loop.getBody())))
        return LogicalResult::failure();
    }
    return emitStretch(stretch);
  }
};

/// Threads per block: the known block size's, else the most a GPU allows.
int64_t blockThreads(mlir::gpu::GPUFuncOp kernel) {
  int64_t threads = 1024;
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
    threads = 1;
    for (int32_t extent : *known)
      threads *= extent;
  }
  return threads;
}

/// A slot per thread for values of `type`: shared memory that each thread
/// indexes by its linear id, private memory in effect.
Value addThreadSlots(mlir::gpu::GPUFuncOp kernel, Type type, Location loc) {
  auto workgroup = mlir::gpu::AddressSpaceAttr::get(
      kernel.getContext(), mlir::gpu::AddressSpace::Workgroup);
  return kernel.addWorkgroupAttribution(
      MemRefType::get({blockThreads(kernel)}, type, AffineMap(), workgroup), loc);
}

/// The slot of thread `linear` (computed at the kernel's start: the
/// emulation recomputes it wherever it is used) is read just before
/// `use`'s op, which then uses that.
void readSlotAt(OpOperand &use, Value slots, Value linear) {
  OpBuilder b(use.getOwner());
  use.set(memref::LoadOp::create(b, use.getOwner()->getLoc(), slots, linear));
}

/// A thread's values live in registers across barriers on a GPU; the
/// emulation runs each stretch between barriers for every thread in turn,
/// so such values go through a slot per thread instead (a kernel compiled
/// for a GPU is not changed):
/// - a loop around barriers that carries values keeps them in slots: the
///   initial values are written before it, each iteration reads them where
///   it uses them and writes what it yields, and the results are read
///   where they are used;
/// - a value computed in one stretch and used in a later one, unless it is
///   recomputable there (pure ops without regions over ids, arguments and
///   loop variables: BlockEmitter recomputes those), is written to its
///   slot where it is computed and read just before each such use.
void demoteAcrossBarriers(mlir::gpu::GPUFuncOp kernel) {
  OpBuilder start = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Value linear = linearThreadId(start, kernel.getLoc()).first;
  auto writeSlot = [&](OpBuilder &b, Location loc, Value value, Value slots) {
    memref::StoreOp::create(b, loc, value, slots, linear);
  };
  SmallVector<scf::ForOp> carrying;
  kernel.walk([&](scf::ForOp loop) {
    if (loop.getNumResults() && hasBarrier(loop))
      carrying.push_back(loop);
  });
  for (scf::ForOp loop : carrying) { // inner loops first
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    SmallVector<Value> slots;
    for (Value init : loop.getInitArgs()) {
      slots.push_back(addThreadSlots(kernel, init.getType(), loc));
      writeSlot(b, loc, init, slots.back());
    }
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    {
      OpBuilder end(yield);
      for (auto [value, slot] : llvm::zip(yield.getOperands(), slots))
        writeSlot(end, loc, value, slot);
    }
    for (auto [arg, slot] : llvm::zip(loop.getRegionIterArgs(), slots))
      for (OpOperand &use : llvm::make_early_inc_range(arg.getUses()))
        readSlotAt(use, slot, linear);
    for (auto [result, slot] : llvm::zip(loop.getResults(), slots))
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
        readSlotAt(use, slot, linear);
    auto plain = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep());
    Block *body = plain.getBody();
    body->getOperations().splice(Block::iterator(body->getTerminator()),
                                 loop.getBody()->getOperations(),
                                 loop.getBody()->begin(), Block::iterator(yield));
    loop.getInductionVar().replaceAllUsesWith(plain.getInductionVar());
    loop.erase();
  }

  DenseMap<Value, bool> known;
  std::function<bool(Value)> recomputable = [&](Value value) -> bool {
    if (isa<BlockArgument>(value))
      return true;
    auto it = known.find(value);
    if (it != known.end())
      return it->second;
    Operation *def = value.getDefiningOp();
    bool result = isPure(def) && def->getNumRegions() == 0 &&
                  llvm::all_of(def->getOperands(), recomputable);
    known[value] = result;
    return result;
  };
  SmallVector<Block *> blocks{&kernel.getBody().front()};
  kernel.walk([&](scf::ForOp loop) {
    if (hasBarrier(loop))
      blocks.push_back(loop.getBody());
  });
  for (Block *block : blocks) {
    // Stretches in order; an op around barriers is a stretch of its own.
    DenseMap<Operation *, unsigned> stretchOf;
    unsigned stretch = 0;
    for (Operation &op : *block) {
      if (hasBarrier(&op)) {
        stretchOf[&op] = ++stretch;
        ++stretch;
      } else {
        stretchOf[&op] = stretch;
      }
    }
    // The block's ops before any slot reads go in (those are used where
    // they are read).
    SmallVector<Operation *> original;
    for (Operation &op : *block)
      original.push_back(&op);
    for (Operation *def : original) {
      Operation &op = *def;
      for (Value result : op.getResults()) {
        if (recomputable(result))
          continue;
        SmallVector<OpOperand *> later;
        for (OpOperand &use : result.getUses()) {
          Operation *user = block->findAncestorOpInBlock(*use.getOwner());
          if (user && stretchOf.lookup(user) != stretchOf.lookup(&op))
            later.push_back(&use);
        }
        if (later.empty())
          continue;
        Value slot = addThreadSlots(kernel, result.getType(), op.getLoc());
        OpBuilder b = OpBuilder::atBlockBegin(block);
        b.setInsertionPointAfter(&op);
        writeSlot(b, op.getLoc(), result, slot);
        for (OpOperand *use : later)
          readSlotAt(*use, slot, linear);
      }
    }
  }
}

/// Shuffles exchange values between the lanes of a warp in lockstep; the
/// emulation runs the threads one after another between barriers, so each
/// shuffle becomes an exchange through shared memory: every thread stores
/// its value in its slot, a barrier, then each reads its partner's slot.
/// Two buffers alternate, so that one shuffle's stores never overwrite
/// what the previous one's reads still need, and the thread's own value is
/// re-read after the barrier, so that nothing computed before the barrier
/// is used after it.
LogicalResult rewriteShuffles(mlir::gpu::GPUFuncOp kernel) {
  SmallVector<mlir::gpu::ShuffleOp> shuffles;
  kernel.walk([&](mlir::gpu::ShuffleOp op) { shuffles.push_back(op); });
  if (shuffles.empty())
    return success();
  DenseMap<Type, SmallVector<Value, 2>> buffers;
  DenseMap<Type, unsigned> uses;
  Block &body = kernel.getBody().front();
  for (mlir::gpu::ShuffleOp op : shuffles) {
    if (op->getBlock() != &body)
      return op.emitError("cannot emulate a shuffle inside a region");
    if (op.getMode() != mlir::gpu::ShuffleMode::XOR)
      return op.emitError("cannot emulate shuffles other than xor");
    Value value = op.getValue();
    Type type = value.getType();
    SmallVector<Value, 2> &pair = buffers[type];
    if (pair.empty())
      for (int i = 0; i < 2; ++i)
        pair.push_back(addThreadSlots(kernel, type, op.getLoc()));
    Value buffer = pair[uses[type]++ % 2];

    OpBuilder b(op);
    Location loc = op.getLoc();
    auto [linear, count] = linearThreadId(b, loc);
    memref::StoreOp::create(b, loc, value, buffer, ValueRange{linear});
    mlir::gpu::BarrierOp::create(b, loc);
    Value own = memref::LoadOp::create(b, loc, buffer, ValueRange{linear});
    Type indexType = b.getIndexType();
    Value offset = arith::IndexCastUIOp::create(b, loc, indexType, op.getOffset());
    Value width = arith::IndexCastUIOp::create(b, loc, indexType, op.getWidth());
    // As the hardware: the lane `lane ^ offset` of the thread's segment of
    // `width` lanes, when it is in the segment (and in the block); else
    // the thread's own value, not valid.
    Value partner = arith::XOrIOp::create(b, loc, linear, offset);
    Value lane = arith::RemUIOp::create(b, loc, linear, width);
    Value inSegment = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::XOrIOp::create(b, loc, lane, offset), width);
    Value inBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          partner, count);
    Value valid = arith::AndIOp::create(b, loc, inSegment, inBlock);
    Value from = arith::SelectOp::create(b, loc, valid, partner, linear);
    Value theirs = memref::LoadOp::create(b, loc, buffer, ValueRange{from});
    Value result = arith::SelectOp::create(b, loc, valid, theirs, own);
    value.replaceUsesWithIf(own, [&](OpOperand &use) {
      Operation *user = body.findAncestorOpInBlock(*use.getOwner());
      return user && op->isBeforeInBlock(user);
    });
    op.getShuffleResult().replaceAllUsesWith(result);
    op.getValid().replaceAllUsesWith(valid);
    op.erase();
  }
  return success();
}

/// A matrix instruction (tc_gpu.subgroup_mma) is its subgroup's, each
/// lane holding elements of A, B and C in the layouts its attributes give.
/// Emulated as its definition reads: each lane loads its own elements
/// (two of each 8 x 8 matrix, along the tile's columns, or with
/// `transpose` along its rows) from the tile.
void rewriteMatrixLoads(mlir::gpu::GPUFuncOp kernel) {
  SmallVector<tc_gpu::SubgroupLoadMatricesOp> ops;
  kernel.walk([&](tc_gpu::SubgroupLoadMatricesOp op) { ops.push_back(op); });
  for (tc_gpu::SubgroupLoadMatricesOp op : ops) {
    OpBuilder b(op);
    KernelBuilder e{b, op.getLoc()};
    Value lane = e.rem(linearThreadId(b, op.getLoc()).first, 32);
    // The pair's first element and the lane's line across the pairs.
    Value pair = e.mul(e.rem(lane, 4), 2), line = e.div(lane, 4);
    bool transpose = op.getTranspose();
    ArrayRef<int64_t> offsets = op.getOffsets();
    SmallVector<Value> elements;
    for (int64_t i = 0; i < op.getNumMatrices(); ++i)
      for (int64_t j = 0; j < 2; ++j) {
        Value row = e.add(op.getRow(), transpose ? pair : line);
        Value column = e.add(op.getColumn(), transpose ? line : pair);
        elements.push_back(memref::LoadOp::create(
            b, op.getLoc(), op.getTile(),
            ValueRange{
                e.add(row, offsets[2 * i] + (transpose ? j : 0)),
                e.add(column, offsets[2 * i + 1] + (transpose ? 0 : j))}));
      }
    Value result = vector::FromElementsOp::create(
        b, op.getLoc(), op.getResult().getType(), elements);
    op.replaceAllUsesWith(result);
    op.erase();
  }
}

/// Emulated: each lane stores its A and B elements at their places in
/// shared copies of its subgroup's A and B, a barrier, then it computes its
/// C elements from the copies (f32 multiply-adds over k), and a barrier
/// before the next instruction writes the copies again. So the layouts
/// are executed as written: a wrong one gives wrong numbers here.
LogicalResult rewriteSubgroupMmas(mlir::gpu::GPUFuncOp kernel) {
  SmallVector<tc_gpu::SubgroupMmaOp> ops;
  kernel.walk([&](tc_gpu::SubgroupMmaOp op) { ops.push_back(op); });
  struct Copies {
    Type element;
    SmallVector<int64_t> shape;
    int64_t lanes;
    Value a, b;
  };
  SmallVector<Copies> copies;
  int64_t threads = blockThreads(kernel);
  auto workgroup = mlir::gpu::AddressSpaceAttr::get(
      kernel.getContext(), mlir::gpu::AddressSpace::Workgroup);
  for (tc_gpu::SubgroupMmaOp op : ops) {
    ArrayRef<int64_t> shape = op.getShape();
    int64_t m = shape[0], n = shape[1], k = shape[2], lanes = op.getSubgroupSize();
    if (threads % lanes)
      return op.emitOpError("cannot be emulated in a block of ")
             << threads << " threads";
    Type element = op.getA().getType().getElementType();
    auto *found = llvm::find_if(copies, [&](const Copies &c) {
      return c.element == element && ArrayRef(c.shape) == shape && c.lanes == lanes;
    });
    if (found == copies.end()) {
      int64_t subgroups = threads / lanes;
      auto type = [&](int64_t rows, int64_t columns) {
        return MemRefType::get({subgroups, rows, columns}, element, AffineMap(), workgroup);
      };
      copies.push_back({element, SmallVector<int64_t>(shape), lanes,
                        kernel.addWorkgroupAttribution(type(m, k), op.getLoc()),
                        kernel.addWorkgroupAttribution(type(k, n), op.getLoc())});
      found = std::prev(copies.end());
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    Value linear = linearThreadId(b, loc).first;
    Value subgroup = arith::DivUIOp::create(b, loc, linear, index(lanes));
    Value lane = arith::RemUIOp::create(b, loc, linear, index(lanes));
    auto place = [&](Value fragment, AffineMap layout, Value copy) {
      int64_t count = cast<VectorType>(fragment.getType()).getNumElements();
      for (int64_t i = 0; i < count; ++i)
        memref::StoreOp::create(
            b, loc, vector::ExtractOp::create(b, loc, fragment, i), copy,
            ValueRange{subgroup, layoutAt(b, loc, layout, 0, lane, i),
                       layoutAt(b, loc, layout, 1, lane, i)});
    };
    place(op.getA(), op.getALayout(), found->a);
    place(op.getB(), op.getBLayout(), found->b);
    mlir::gpu::BarrierOp::create(b, loc);
    SmallVector<Value> results;
    Type f32 = b.getF32Type();
    for (int64_t i = 0; i < op.getC().getType().getNumElements(); ++i) {
      Value row = layoutAt(b, loc, op.getCLayout(), 0, lane, i);
      Value column = layoutAt(b, loc, op.getCLayout(), 1, lane, i);
      Value start = vector::ExtractOp::create(b, loc, op.getC(), i);
      auto sum = scf::ForOp::create(b, loc, index(0), index(k), index(1), ValueRange{start});
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(sum.getBody());
        Value kk = sum.getInductionVar();
        Value x = memref::LoadOp::create(b, loc, found->a, ValueRange{subgroup, row, kk});
        Value y = memref::LoadOp::create(b, loc, found->b, ValueRange{subgroup, kk, column});
        // TF32 factors are f32 already (and exact: their products are).
        auto widen = [&](Value v) -> Value {
          return v.getType() == f32 ? v : arith::ExtFOp::create(b, loc, f32, v);
        };
        Value product = arith::MulFOp::create(b, loc, widen(x), widen(y));
        scf::YieldOp::create(b, loc, arith::AddFOp::create(b, loc, sum.getRegionIterArgs()[0],
                                                           product).getResult());
      }
      results.push_back(sum.getResult(0));
    }
    Value result = vector::FromElementsOp::create(b, loc, op.getC().getType(), results);
    mlir::gpu::BarrierOp::create(b, loc);
    op.replaceAllUsesWith(result);
    op.erase();
  }
  return success();
}

/// Builds `@__tc_emulated_<name>` from a kernel.
FailureOr<func::FuncOp> emulate(ModuleOp module, mlir::gpu::GPUFuncOp kernel,
                                bool reverse, InstructionFor instructionFor) {
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitError("cannot emulate a kernel with several blocks");
  // Occupancy means nothing here.
  kernel.walk([](tc_gpu::MinBlocksHintOp hint) { hint.erase(); });
  if (failed(expandBlockMmas(kernel, instructionFor)))
    return failure();
  rewriteMatrixLoads(kernel);
  // Copies are done when they start: what a wait and a barrier guarantee
  // holds all the more.
  SmallVector<Operation *> copies;
  kernel.walk([&](Operation *op) {
    if (isa<tc_gpu::AsyncCopyOp, tc_gpu::AsyncCommitOp, tc_gpu::AsyncWaitOp>(
            op))
      copies.push_back(op);
  });
  IRRewriter rewriter(kernel.getContext());
  for (Operation *op : copies)
    lowerAsyncCopyInPlace(rewriter, op);
  if (failed(rewriteSubgroupMmas(kernel)) || failed(rewriteShuffles(kernel)))
    return failure();
  demoteAcrossBarriers(kernel);
  if (!kernel.getPrivateAttributions().empty())
    return kernel.emitError("cannot emulate a kernel with private memory");

  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = kernel.getLoc();
  unsigned numKernelArgs = kernel.getNumArguments();
  SmallVector<Type> types(kernel.getArgumentTypes());
  types.append(6, b.getIndexType());
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      b, loc, ("__tc_emulated_" + SymbolTable::getSymbolName(kernel).getValue()).str(),
      b.getFunctionType(types, {}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto extent = [&](unsigned i) { return entry->getArgument(numKernelArgs + i); };
  BlockEmitter emitter(b, loc, reverse);
  for (unsigned i = 0; i < numKernelArgs; ++i)
    emitter.uniform.map(kernel.getArgument(i), entry->getArgument(i));
  // Shared memory: host memory, one buffer reused by block after block, on
  // the heap: a kernel's tiles and its threads' slots (values kept across
  // barriers, 16 KB for each vector<32xf32>) reach hundreds of KB, and the
  // emulated kernels, inlined into the model's function, would add them
  // all up on its stack (BERT-base's overflowed 8 MB).
  SmallVector<Value> sharedBuffers;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
    auto type = dyn_cast<MemRefType>(attribution.getType());
    if (!type || !type.hasStaticShape())
      return kernel.emitError("cannot emulate shared memory of this type");
    auto host = MemRefType::get(type.getShape(), type.getElementType(),
                                type.getLayout());
    // Aligned as on a GPU (--tc-gpu-align-workgroup-memory), for the
    // kernels' vector accesses; slots of vectors (a thread's accumulator
    // across barriers) to the vector's own alignment, which the CPU's
    // loads and stores of them assume (64 bytes for vector<16xf32>).
    int64_t alignment = kWorkgroupAlignment;
    if (auto vector = dyn_cast<VectorType>(type.getElementType()))
      alignment = std::max<int64_t>(
          alignment, llvm::PowerOf2Ceil(vector.getNumElements() *
                                        vector.getElementTypeBitWidth() / 8));
    Value buffer =
        memref::AllocOp::create(b, loc, host, b.getI64IntegerAttr(alignment));
    sharedBuffers.push_back(buffer);
    emitter.uniform.map(attribution, buffer);
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // Blocks z, y, x; each runs its threads stretch by stretch.
  SmallVector<Value> blockIds(3);
  for (int level : {2, 1, 0}) {
    auto loop = scf::ForOp::create(b, loc, zero, extent(level), one);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    blockIds[level] = idAt(b, loc, loop.getInductionVar(), extent(level), reverse);
  }
  for (int d = 0; d < 3; ++d)
    emitter.threadExtents.push_back(extent(3 + d));
  auto dim = [](Dimension d) { return static_cast<int>(d); };
  kernel.walk([&](Operation *op) {
    if (auto id = dyn_cast<mlir::gpu::BlockIdOp>(op))
      emitter.uniform.map(id.getResult(), blockIds[dim(id.getDimension())]);
    else if (auto id = dyn_cast<mlir::gpu::ThreadIdOp>(op))
      emitter.threadIds[id.getResult()] = dim(id.getDimension());
    else if (auto size = dyn_cast<mlir::gpu::GridDimOp>(op))
      emitter.uniform.map(size.getResult(), extent(dim(size.getDimension())));
    else if (auto size = dyn_cast<mlir::gpu::BlockDimOp>(op))
      emitter.uniform.map(size.getResult(), extent(3 + dim(size.getDimension())));
  });
  if (failed(emitter.emit(kernel.getBody().front())))
    return emitter.failedOp->emitError(emitter.reason);
  b.setInsertionPointToEnd(entry);
  for (Value buffer : sharedBuffers)
    memref::DeallocOp::create(b, loc, buffer);
  func::ReturnOp::create(b, loc);
  return func;
}

struct GpuEmulateKernelsPass
    : impl::GpuEmulateKernelsPassBase<GpuEmulateKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The matrix instructions of `matrixTarget`, executed by scalar code.
    TargetInstructions instructionFor;
    std::string error;
    if (failed(instructionFor.init(module.getContext(), matrixTarget, error))) {
      module.emitError("tc-gpu-emulate-kernels: matrix-target: ") << error;
      return signalPassFailure();
    }
    llvm::DenseMap<SymbolRefAttr, func::FuncOp> emulated;
    for (auto kernels : module.getOps<mlir::gpu::GPUModuleOp>())
      for (auto kernel : kernels.getOps<mlir::gpu::GPUFuncOp>()) {
        FailureOr<func::FuncOp> func =
            emulate(module, kernel, reverseOrder, instructionFor);
        if (failed(func))
          return signalPassFailure();
        emulated[SymbolRefAttr::get(
            kernels.getSymNameAttr(),
            {FlatSymbolRefAttr::get(SymbolTable::getSymbolName(kernel))})] = *func;
      }
    // The emulated kernel takes the kernel operands, then the grid and
    // block extents.
    auto call = [&](mlir::gpu::LaunchFuncOp launch,
                    OpBuilder &b) -> LogicalResult {
      func::FuncOp callee = emulated.lookup(launch.getKernel());
      if (!callee)
        return launch.emitError(
            "launches a kernel that is not in a kernel module");
      SmallVector<Value> operands(launch.getKernelOperands());
      mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      operands.append({grid.x, grid.y, grid.z, block.x, block.y, block.z});
      func::CallOp::create(b, launch.getLoc(), callee, operands);
      return success();
    };
    if (failed(replaceLaunches(module, call)))
      return signalPassFailure();
    emulateTransfers(module);
    // Host staging (--tc-gpu-stage-host-buffers): one memory, so a memcpy.
    lowerStagingOps(module, [](OpBuilder &b, Location loc, bool,
                               Value destination, Value source, Value bytes) {
      LLVM::MemcpyOp::create(b, loc, destination, source, bytes,
                             /*isVolatile=*/false);
    });
  }

  /// Downloads and uploads (--tc-gpu-transfer-host-values) copy within the
  /// one memory: memref.copy.
  static void emulateTransfers(ModuleOp module) {
    SmallVector<Operation *> copies;
    module.walk([&](Operation *op) {
      if (isa<tc_gpu::DownloadOp, tc_gpu::UploadOp>(op))
        copies.push_back(op);
    });
    for (Operation *op : copies) {
      OpBuilder b(op);
      if (auto download = dyn_cast<tc_gpu::DownloadOp>(op))
        memref::CopyOp::create(b, op->getLoc(), download.getElement(),
                               download.getCell());
      else if (auto upload = dyn_cast<tc_gpu::UploadOp>(op))
        memref::CopyOp::create(b, op->getLoc(), upload.getCell(),
                               upload.getElement());
      op->erase();
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
