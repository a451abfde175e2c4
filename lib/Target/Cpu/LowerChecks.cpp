//===- LowerChecks.cpp - the --tc-cpu-lower-checks pass -------------------===//
//
// Lowerings state what must hold at run time with `cf.assert` (a size read
// from data that must match an input, an image that must decode). Upstream
// lowers an assert to abort(), which would take the user's process down; a
// model instead reports the failure through its return code
// (module_abi.h, TC_RUN_CHECK_FAILED + k) with the assert's message.
//
// In @main, each assert becomes an atomic max of (k + 1) into a one-word
// cell (an LLVM alloca), in a branch taken when its condition is false (workgroups may run checks on several
// threads; the max keeps the answer deterministic), and @main returns the
// cell as one more result. Execution goes on after a failed check: the
// lowerings keep every access in bounds whatever the values, and the run
// function discards the outputs. The messages go to the module attribute
// `tc.check_messages`, which the run function emits as the module's table.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPULOWERCHECKSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

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
    module->setAttr("tc.check_messages", ArrayAttr::get(ctx, messages));
  }
};

} // namespace
} // namespace mlir::tc::cpu
