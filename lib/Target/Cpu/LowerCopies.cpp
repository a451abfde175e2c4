//===- LowerCopies.cpp - the --tc-cpu-lower-copies pass -------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPULOWERCOPIESPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The copies the LLVM lowering turns into a memcpy: identity layouts, or
/// static shapes that are contiguous. Any other copy (a view with a dynamic
/// offset or size, say) it lowers to a call of the memrefCopy runtime
/// function, which a model library does not have: those become loops.
bool isContiguous(Type type) {
  auto memref = cast<MemRefType>(type);
  return memref.getLayout().isIdentity() ||
         (memref.hasStaticShape() &&
          memref.areTrailingDimsContiguous(memref.getRank()));
}

struct CpuLowerCopiesPass : impl::CpuLowerCopiesPassBase<CpuLowerCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (!isContiguous(copy.getSource().getType()) ||
          !isContiguous(copy.getTarget().getType()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      IRRewriter rewriter(copy);
      auto loops = linalg::CopyOp::create(rewriter, copy.getLoc(),
                                          copy.getSource(), copy.getTarget());
      rewriter.eraseOp(copy);
      // As a generic, --tc-cpu-vectorize-elementwise vectorizes it along
      // its last dimension (a named copy would stay scalar loops).
      rewriter.setInsertionPoint(loops);
      (void)linalg::generalizeNamedOp(rewriter, loops);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
