//===- ReadOnlyInputs.cpp - --tc-cpu-read-only-inputs ---------------------===//
//
// One-shot bufferization with function boundaries treats arguments as
// writable unless told otherwise, and may then update an input in place and
// return it as an output: the caller's memory changed and handed back as a
// buffer the caller now "owns". Inputs are read-only in the model ABI.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUREADONLYINPUTSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

struct CpuReadOnlyInputsPass
    : impl::CpuReadOnlyInputsPassBase<CpuReadOnlyInputsPass> {
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    auto readOnly = BoolAttr::get(&getContext(), false);
    for (unsigned i = 0; i < main.getNumArguments(); ++i)
      if (isa<TensorType>(main.getArgument(i).getType()))
        main.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                        readOnly);
  }
};

} // namespace
} // namespace mlir::tc::cpu
