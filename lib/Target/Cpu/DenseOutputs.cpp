//===- DenseOutputs.cpp - --tc-cpu-dense-outputs --------------------------===//
//
// A result of @main must be a dense buffer: the caller receives its data
// pointer and reads it row-major. A returned view of dynamic shape reaches
// the return through a memref.cast to the identity layout, which does not
// change its strides, so it is copied here.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUDENSEOUTPUTSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The value under any memref.casts.
Value stripCasts(Value v) {
  while (auto cast = v.getDefiningOp<memref::CastOp>())
    v = cast.getSource();
  return v;
}

struct CpuDenseOutputsPass
    : impl::CpuDenseOutputsPassBase<CpuDenseOutputsPass> {
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    main.walk([](func::ReturnOp ret) {
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (!type || !type.getLayout().isIdentity())
          continue;
        auto source = dyn_cast<MemRefType>(stripCasts(operand.get()).getType());
        if (!source || source.getLayout().isIdentity())
          continue;
        Location loc = ret.getLoc();
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d))
            sizes.push_back(memref::DimOp::create(b, loc, operand.get(), d));
        Value dense = memref::AllocOp::create(
            b, loc, type, sizes, b.getI64IntegerAttr(64));
        memref::CopyOp::create(b, loc, operand.get(), dense);
        operand.set(dense);
      }
    });
  }
};

} // namespace
} // namespace mlir::tc::cpu
