//===- LowerChecks.cpp - the --tc-cpu-lower-checks pass -------------------===//
//
// Lowerings state what must hold at run time with `cf.assert` (a size read
// from data that must match an input, an image that must decode). Upstream
// lowers an assert to abort(), which would take the user's process down; a
// model instead reports the failure through its return code
// (module_abi.h, TC_RUN_CHECK_FAILED + k) with the assert's message.
//
// In @main, each assert records (k + 1) in a one-word cell (an LLVM alloca)
// by an atomic max, in a branch taken when its condition is false
// (workgroups may run checks on several threads; the max keeps the answer
// deterministic), and @main returns the cell as one more result. The
// messages go to the module attribute `tc.check_messages`, which the run
// function emits as the module's table.
//
// What happens after a failed check depends on where it sits:
//   - In a loop or a linalg op (an element check such as a gather's index),
//     execution goes on: those lowerings keep every access in bounds
//     whatever the values, and the run function discards the outputs.
//   - In @main's own block (extents: a broadcast, a reshape's element
//     count), the run ends there. Code after a failed extent check would
//     run loops whose bounds contradict the buffers they index (a model
//     exported with its batch baked into a Reshape, run at another batch,
//     read past a buffer), so @main returns at once: it frees the buffers
//     it allocated so far and returns placeholder outputs (a one-element
//     allocation, which the run function releases, seen through the
//     output's type).
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPULOWERCHECKSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The allocation a buffer value views (through casts, views and metadata
/// extraction), or the value itself.
Value allocationRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      value = view.getViewSource();
    else if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(def))
      value = metadata.getSource();
    else
      break;
  }
  return value;
}

/// The buffers defined outside `op` that the deallocations inside it may
/// free, in `freed`; false when that cannot be told (a call, or a
/// deallocation of a region argument, which may be any buffer passed in).
/// A kernel's own temporaries (allocated inside it) are its business.
bool freedInside(Operation &op, SmallVectorImpl<Value> &freed) {
  auto classify = [&](Value buffer) {
    Value root = allocationRoot(buffer);
    Operation *owner = root.getParentRegion()->getParentOp();
    if (!op.isAncestor(owner)) {
      freed.push_back(root); // allocated outside the op
      return true;
    }
    return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(root.getDefiningOp());
  };
  WalkResult result = op.walk([&](Operation *inner) {
    if (isa<CallOpInterface>(inner))
      return WalkResult::interrupt();
    if (auto dealloc = dyn_cast<memref::DeallocOp>(inner))
      if (!classify(dealloc.getMemref()))
        return WalkResult::interrupt();
    if (auto dealloc = dyn_cast<bufferization::DeallocOp>(inner))
      for (Value buffer : dealloc.getMemrefs())
        if (!classify(buffer))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// For each assert in @main's block, the `memref.alloc`s of that block
/// that are allocated and not yet freed where it stands: what an early
/// return must free. A buffer that an op with regions or a call may have
/// freed (through any view) is left out: a leak on an error path is
/// better than a double free.
llvm::MapVector<Operation *, SmallVector<Value>>
liveAllocations(Block &block) {
  llvm::MapVector<Operation *, SmallVector<Value>> live;
  llvm::SetVector<Value> allocated;
  auto forget = [&](Value value) { allocated.remove(allocationRoot(value)); };
  for (Operation &op : block) {
    if (isa<cf::AssertOp>(op)) {
      live[&op] = SmallVector<Value>(allocated.begin(), allocated.end());
    } else if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      allocated.insert(alloc.getResult());
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      forget(dealloc.getMemref());
    } else if (isa<CallOpInterface>(op) || op.getNumRegions() != 0) {
      SmallVector<Value> freed;
      if (freedInside(op, freed)) {
        for (Value buffer : freed)
          forget(buffer);
        continue;
      }
      for (Value operand : op.getOperands())
        forget(operand);
      llvm::SetVector<Value> captured;
      for (Region &region : op.getRegions())
        getUsedValuesDefinedAbove(region, captured);
      for (Value value : captured)
        forget(value);
    }
  }
  return live;
}

/// A stand-in for an output of a failed run: a one-element allocation seen
/// through `type` (sizes 0 where dynamic). Nothing reads it; the run
/// function releases the allocation.
Value placeholderOutput(OpBuilder &b, Location loc, MemRefType type) {
  Value cell = memref::AllocOp::create(
      b, loc,
      MemRefType::get({1}, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace()));
  auto [strides, offset] = type.getStridesAndOffset();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto fold = [&](int64_t value) -> OpFoldResult {
    if (ShapedType::isDynamic(value))
      return zero;
    return b.getIndexAttr(value);
  };
  SmallVector<OpFoldResult> sizes, strideValues;
  for (int64_t size : type.getShape())
    sizes.push_back(fold(size));
  for (int64_t stride : strides)
    strideValues.push_back(fold(stride));
  return memref::ReinterpretCastOp::create(b, loc, type, cell, fold(offset),
                                           sizes, strideValues);
}

/// Splits @main's block after `op`: the rest runs when `holds`; else a
/// new block frees `allocated` and returns placeholder outputs (the pass
/// then appends the cell to it, as to every return).
void returnOnFailure(OpBuilder &b, func::FuncOp main, cf::AssertOp op,
                     Value holds, ArrayRef<Value> allocated) {
  Location loc = op.getLoc();
  Block *block = op->getBlock();
  Block *rest = block->splitBlock(op->getNextNode());
  Block *fail = b.createBlock(&main.getBody());
  for (Value buffer : allocated)
    memref::DeallocOp::create(b, loc, buffer);
  SmallVector<Value> outputs;
  for (Type type : main.getResultTypes())
    outputs.push_back(placeholderOutput(b, loc, cast<MemRefType>(type)));
  func::ReturnOp::create(b, loc, outputs);
  b.setInsertionPointToEnd(block);
  cf::CondBranchOp::create(b, loc, holds, rest, fail);
}

struct CpuLowerChecksPass
    : impl::CpuLowerChecksPassBase<CpuLowerChecksPass> {
  using CpuLowerChecksPassBase::CpuLowerChecksPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) {
      // Without kernel checks (GPU targets), a check that sits in a loop or
      // a linalg op, which may become a kernel, is dropped: a kernel has no
      // way to the host's cell. Its lowering keeps the access in bounds.
      if (!inKernels && (op->getParentOfType<LoopLikeOpInterface>() ||
                         op->getParentOfType<linalg::LinalgOp>())) {
        op.erase();
        return;
      }
      asserts.push_back(op);
    });
    if (asserts.empty())
      return;
    auto main = module.lookupSymbol<func::FuncOp>("main");
    for (cf::AssertOp op : asserts)
      if (!main || op->getParentOfType<func::FuncOp>() != main) {
        op.emitError("run-time checks are supported in @main only");
        return signalPassFailure();
      }

    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    Location loc = main.getLoc();
    Type i32 = b.getI32Type();
    b.setInsertionPointToStart(&main.getBody().front());
    // An LLVM alloca rather than a memref: the GPU pipeline keeps memrefs
    // for device tensors and refuses host accesses to them.
    Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                         b.getI64IntegerAttr(1));
    Value cell = LLVM::AllocaOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx), i32, one);
    Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
    LLVM::StoreOp::create(b, loc, zero, cell);

    // The buffers each check in @main's block would free on failure; only
    // while @main is one block (its loops are still scf).
    llvm::MapVector<Operation *, SmallVector<Value>> live;
    if (main.getBody().hasOneBlock() &&
        llvm::all_of(main.getResultTypes(), llvm::IsaPred<MemRefType>))
      live = liveAllocations(main.getBody().front());

    SmallVector<Attribute> messages;
    llvm::StringMap<int32_t> ids;
    for (cf::AssertOp op : asserts) {
      auto [it, inserted] = ids.try_emplace(op.getMsg(), messages.size());
      if (inserted)
        messages.push_back(op.getMsgAttr());
      b.setInsertionPoint(op);
      Location at = op.getLoc();
      // A branch, so that a check that holds (in a gather's inner loop,
      // say) costs a compare, not an atomic on a shared cache line.
      Value holds = op.getArg();
      Value fails = arith::XOrIOp::create(
          b, at, holds, arith::ConstantIntOp::create(b, at, b.getI1Type(), 1));
      auto branch = scf::IfOp::create(b, at, fails, /*withElseRegion=*/false);
      b.setInsertionPointToStart(branch.thenBlock());
      Value code = arith::ConstantIntOp::create(b, at, i32, it->second + 1);
      LLVM::AtomicRMWOp::create(b, at, LLVM::AtomicBinOp::max, cell, code,
                                LLVM::AtomicOrdering::monotonic);
      auto found = live.find(op);
      if (found != live.end())
        returnOnFailure(b, main, op, holds, found->second);
      op.erase();
    }

    if (failed(main.insertResult(main.getNumResults(), i32,
                                 DictionaryAttr::get(ctx)))) {
      main.emitError("cannot add the check result");
      return signalPassFailure();
    }
    main.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      Value code = LLVM::LoadOp::create(b, ret.getLoc(), i32, cell);
      ret.getOperandsMutable().append(code);
    });
    module->setAttr(kCheckMessagesAttr, ArrayAttr::get(ctx, messages));
  }
};

} // namespace
} // namespace mlir::tc::cpu
