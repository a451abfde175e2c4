//===- CalibrationProbes.cpp - what a calibration run measures -----------===//
//
// fp16 ends at 65504. A weight beyond it is seen at compile time, but an
// activation only when the model runs, so `tc-compile --calibrate=DIR`
// runs the model on sample inputs first. This pass turns a copy of the
// fp32 graph into that run: @main returns, for each op the precision
// policy would narrow, the largest magnitude it reads or writes, as one
// vector. Reductions are cheap beside the contractions they watch, and
// the model's own outputs are dropped, so the run costs about one
// inference per sample.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tc {
#define GEN_PASS_DEF_TCCALIBRATIONPROBESPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// max |v| over every element of `v`, as a tensor<1xf32>. An empty tensor
/// gives reduce_max's identity, -inf, which never exceeds a range.
Value magnitude(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  Value abs = AbsOp::create(b, loc, v);
  auto axes = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  Value all = ReduceMaxOp::create(b, loc, abs, b.getDenseI64ArrayAttr(axes),
                                  /*keepdims=*/false);
  return ReshapeOp::create(b, loc, RankedTensorType::get({1}, b.getF32Type()),
                           all);
}

struct TcCalibrationProbesPass
    : tc::impl::TcCalibrationProbesPassBase<TcCalibrationProbesPass> {
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!main || main.getBody().getBlocks().size() != 1) {
      getOperation().emitError("tc-calibration-probes: no @main of one block");
      return signalPassFailure();
    }
    Block &body = main.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    OpBuilder b(ret);
    Location loc = main.getLoc();
    SmallVector<Value> probes;
    for (Operation *op : precisionPolicyOps(main)) {
      // Each op's operands and result, folded into one magnitude: the
      // policy keeps or narrows the op as a whole.
      OpBuilder at(op->getContext());
      at.setInsertionPointAfter(op);
      // Constants are left out: tc-apply-precision checks weights itself,
      // at compile time.
      SmallVector<Value> parts;
      for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
        if (!v.getDefiningOp<ConstantOp>())
          parts.push_back(magnitude(at, op->getLoc(), v));
      Value largest = parts.front();
      for (Value part : ArrayRef(parts).drop_front())
        largest = MaxOp::create(at, op->getLoc(), largest, part);
      probes.push_back(largest);
    }
    auto vectorType =
        RankedTensorType::get({int64_t(probes.size())}, b.getF32Type());
    Value all;
    if (probes.empty())
      all = ConstantOp::create(
          b, loc, DenseElementsAttr::get(vectorType, ArrayRef<float>{}));
    else if (probes.size() == 1)
      all = probes.front();
    else
      all = ConcatOp::create(b, loc, vectorType, probes, /*axis=*/0);
    func::ReturnOp::create(b, ret.getLoc(), all);
    ret.erase();
    main.setFunctionType(
        FunctionType::get(&getContext(), main.getArgumentTypes(), {vectorType}));
    main.setAllResultAttrs(ArrayRef<DictionaryAttr>{DictionaryAttr::get(
        &getContext(),
        {NamedAttribute(StringAttr::get(&getContext(), kNameAttr),
                        StringAttr::get(&getContext(), "magnitudes"))})});
  }
};

} // namespace
