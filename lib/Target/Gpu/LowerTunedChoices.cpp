//===- LowerTunedChoices.cpp - --tc-gpu-lower-tuned-choices ---------------===//
//
// A build fixes the choice among a kernel's alternatives at compile time:
// the heuristic kernel by default, or the c-th candidate of every kernel
// that has one (a tuner's trial build). The host code keeps the chosen
// branch of each scf.index_switch on the choice and drops the others; their
// kernels stay in the image.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPULOWERTUNEDCHOICESPASS
#include "tc/Target/Gpu/Passes.h.inc"

namespace {

struct GpuLowerTunedChoicesPass
    : impl::GpuLowerTunedChoicesPassBase<GpuLowerTunedChoicesPass> {
  using Base::Base;

  void runOnOperation() override {
    // Collected first: a switch erased below holds ops a walk would visit.
    SmallVector<tc_gpu::TunedChoiceOp> choices;
    getOperation().walk(
        [&](tc_gpu::TunedChoiceOp choice) { choices.push_back(choice); });
    for (tc_gpu::TunedChoiceOp choice : choices) {
      int64_t count = choice.getCandidates().size();
      int64_t value = candidate >= 0 && candidate < count ? candidate : -1;
      // The switches on the choice become their chosen branch.
      for (Operation *user : llvm::make_early_inc_range(choice->getUsers())) {
        auto tuned = dyn_cast<scf::IndexSwitchOp>(user);
        if (!tuned || tuned.getNumResults() != 0)
          continue;
        Block &chosen = value >= 0 && value < int64_t(tuned.getNumCases())
                            ? tuned.getCaseBlock(value)
                            : tuned.getDefaultBlock();
        Block *parent = tuned->getBlock();
        parent->getOperations().splice(tuned->getIterator(),
                                       chosen.getOperations(), chosen.begin(),
                                       std::prev(chosen.end()));
        tuned.erase();
      }
      OpBuilder b(choice);
      choice.replaceAllUsesWith(
          arith::ConstantIndexOp::create(b, choice.getLoc(), value)
              .getResult());
      choice.erase();
    }
  }
};

} // namespace
} // namespace mlir::tc::gpu
