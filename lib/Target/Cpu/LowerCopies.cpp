//===- LowerCopies.cpp - the --tc-cpu-lower-copies pass -------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPULOWERCOPIESPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

bool isContiguous(Type type) {
  auto memref = cast<MemRefType>(type);
  return memref.getLayout().isIdentity() || memref.areTrailingDimsContiguous(
                                                memref.getRank());
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
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
