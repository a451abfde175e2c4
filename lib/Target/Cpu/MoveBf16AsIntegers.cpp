//===- MoveBf16AsIntegers.cpp - --tc-cpu-move-bf16-as-integers ------------===//
//
// Works around an LLVM 22 x86 back-end abort: with AVX512-BF16 (Cooper
// Lake, Sapphire and Emerald Rapids), a <9 x bfloat> (any 8k+1 lanes)
// loaded and stored unchanged is split into pieces whose last, one bf16,
// the type legalizer cannot promote. Moving the same bits as i16 vectors
// avoids bf16 memory operations altogether; arithmetic on the values
// (fpext, fptrunc) still sees bf16 through the bitcasts.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUMOVEBF16ASINTEGERSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The i16 vector with the bits of `type`, if it is a vector of bf16.
VectorType integerVector(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !vector.getElementType().isBF16())
    return nullptr;
  return vector.clone(IntegerType::get(type.getContext(), 16));
}

struct CpuMoveBf16AsIntegersPass
    : impl::CpuMoveBf16AsIntegersPassBase<CpuMoveBf16AsIntegersPass> {
  void runOnOperation() override {
    SmallVector<LLVM::LoadOp> loads;
    SmallVector<LLVM::StoreOp> stores;
    getOperation()->walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op);
          load && integerVector(load.getType()))
        loads.push_back(load);
      else if (auto store = dyn_cast<LLVM::StoreOp>(op);
               store && integerVector(store.getValue().getType()))
        stores.push_back(store);
    });
    for (LLVM::LoadOp load : loads) {
      OpBuilder b(load);
      Type bits = integerVector(load.getType());
      // The same op with the integer type: alignment, volatility,
      // nontemporal and aliasing attributes stay.
      Operation *copy = b.clone(*load);
      copy->getResult(0).setType(bits);
      b.setInsertionPointAfter(copy);
      Value value = LLVM::BitcastOp::create(b, load.getLoc(), load.getType(),
                                            copy->getResult(0));
      load.getResult().replaceAllUsesWith(value);
      load.erase();
    }
    for (LLVM::StoreOp store : stores) {
      OpBuilder b(store);
      Value bits = LLVM::BitcastOp::create(
          b, store.getLoc(), integerVector(store.getValue().getType()),
          store.getValue());
      store.getValueMutable().assign(bits);
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
