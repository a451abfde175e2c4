//===- PlanMemory.cpp - the --tc-cpu-plan-memory pass ---------------------===//
//
// A static memory plan for the top level of @main: live ranges measured in
// top-level op positions, placement largest-first at the lowest free offset
// (a greedy interval packing that is close to optimal for the chain-like
// lifetimes of inference graphs), one arena allocation. Buffers whose
// aliases reach anything the analysis cannot follow (a return, a call, a
// store of the memref itself, a terminator of a region) are left alone, so
// the plan is conservative: a buffer is only shared when its whole lifetime
// is visible.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUPLANMEMORYPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

constexpr int64_t kAlignment = 64;

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes;
  int64_t first, last; // live range in top-level op positions
  int64_t offset = -1;
};

/// The top-level op (a direct child of `block`) that contains `op`.
Operation *topLevelAncestor(Operation *op, Block &block) {
  while (op && op->getBlock() != &block)
    op = op->getParentOp();
  return op;
}

/// Collects the last top-level position that uses `root` or any view of it.
/// Fails when an alias escapes where liveness cannot follow it.
LogicalResult lastUse(Value root, Block &block,
                      const DenseMap<Operation *, int64_t> &position,
                      int64_t &last) {
  SmallVector<Value> worklist = {root};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      Operation *top = topLevelAncestor(user, block);
      if (!top)
        return failure();
      last = std::max(last, position.lookup(top));
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<CallOpInterface, memref::StoreOp>(user) ||
          isa<bufferization::ToTensorOp>(user))
        return failure();
      // Views and casts alias their source: follow them.
      if (isa<ViewLikeOpInterface, memref::CastOp, memref::CollapseShapeOp,
              memref::ExpandShapeOp, memref::ReinterpretCastOp>(user)) {
        for (Value result : user->getResults())
          worklist.push_back(result);
        continue;
      }
      // Any other op must only read or write through the memref, not
      // produce a memref that could alias it.
      if (llvm::any_of(user->getResultTypes(),
                       [](Type t) { return isa<BaseMemRefType>(t); }))
        return failure();
    }
  }
  return success();
}

struct CpuPlanMemoryPass : impl::CpuPlanMemoryPassBase<CpuPlanMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &block = func.getBody().front();
    DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : block)
      position[&op] = index++;

    SmallVector<Buffer> buffers;
    for (Operation &op : block) {
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc)
        continue;
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace())
        continue;
      // Index elements (loop bounds, permutations) are 64-bit on our targets.
      int64_t bits = type.getElementType().isIndex()
                         ? 64
                         : type.getElementTypeBitWidth();
      int64_t bytes = type.getNumElements() * std::max<int64_t>(bits / 8, 1);
      int64_t last = position[alloc];
      if (failed(lastUse(alloc.getResult(), block, position, last)))
        continue;
      buffers.push_back({alloc, std::max<int64_t>(bytes, 1), position[alloc], last});
    }
    if (buffers.size() < 2)
      return;

    // Largest first, each at the lowest offset free over its live range.
    SmallVector<Buffer *> order;
    for (Buffer &buffer : buffers)
      order.push_back(&buffer);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
    SmallVector<Buffer *> placed;
    int64_t arenaBytes = 0;
    for (Buffer *buffer : order) {
      SmallVector<std::pair<int64_t, int64_t>> taken;
      for (Buffer *other : placed)
        if (other->first <= buffer->last && buffer->first <= other->last)
          taken.push_back({other->offset, other->offset + other->bytes});
      llvm::sort(taken);
      int64_t offset = 0;
      for (auto [begin, end] : taken) {
        if (offset + buffer->bytes <= begin)
          break;
        offset = std::max<int64_t>(offset, llvm::alignTo(end, kAlignment));
      }
      buffer->offset = offset;
      arenaBytes = std::max(arenaBytes, offset + buffer->bytes);
      placed.push_back(buffer);
    }

    OpBuilder b(&getContext());
    b.setInsertionPointToStart(&block);
    Location loc = func.getLoc();
    auto arenaType = MemRefType::get({arenaBytes}, b.getI8Type());
    Value arena = memref::AllocOp::create(b, loc, arenaType,
                                          b.getI64IntegerAttr(kAlignment));
    // Each view is numbered (`tc.arena_buffer`) so that CSE cannot merge
    // the views of two buffers placed at the same offset: where a view
    // stands is where its buffer's live range starts, which GPU kernel
    // fusion relies on (ContractionFusion.h).
    for (auto [number, buffer] : llvm::enumerate(buffers)) {
      b.setInsertionPoint(buffer.alloc);
      Value offset = arith::ConstantIndexOp::create(b, loc, buffer.offset);
      auto view = memref::ViewOp::create(b, buffer.alloc.getLoc(),
                                         buffer.alloc.getType(), arena, offset,
                                         ValueRange{});
      view->setAttr(kArenaBufferAttr, b.getI64IntegerAttr(number));
      buffer.alloc.getResult().replaceAllUsesWith(view);
      buffer.alloc.erase();
    }
    func->setAttr(kArenaBytesAttr, b.getI64IntegerAttr(arenaBytes));
  }
};

} // namespace
} // namespace mlir::tc::cpu
