//===- InferShapes.cpp - refine tc result types from their operands -------===//
//
// Exporters often leave sizes unknown ("?") that follow from the graph once
// its inputs or constants are known. This pass recomputes result types in
// program order, so every refinement reaches the users downstream.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Fusion/IR/FusionDialect.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tc {
#define GEN_PASS_DEF_TCINFERSHAPESPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {
/// The more static of two compatible tensor types, or null when they are not
/// both ranked tensors of one rank and element type with compatible sizes.
Type meet(Type current, Type inferred) {
  auto a = dyn_cast<RankedTensorType>(current);
  auto b = dyn_cast<RankedTensorType>(inferred);
  if (!a || !b || a.getElementType() != b.getElementType() ||
      a.getRank() != b.getRank())
    return nullptr;
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip(a.getShape(), b.getShape())) {
    if (!areCompatibleSizes(x, y))
      return nullptr;
    shape.push_back(ShapedType::isDynamic(x) ? y : x);
  }
  return RankedTensorType::get(shape, a.getElementType(), a.getEncoding());
}

/// Users outside tc and fusion may not accept a changed operand type, so
/// values they read keep their type. func.return accepts one only when the
/// function's signature is updated with it.
bool canRefine(Value value, bool signatureFollows) {
  for (Operation *user : value.getUsers()) {
    if (isa<func::ReturnOp>(user) ? signatureFollows
                                  : isa_and_nonnull<TcDialect,
                                                    fusion::FusionDialect>(
                                        user->getDialect()))
      continue;
    return false;
  }
  return true;
}

class ShapeRefiner {
public:
  explicit ShapeRefiner(bool signatureFollows)
      : signatureFollows(signatureFollows) {}

  void refineBlock(Block &block) {
    for (Operation &op : block)
      refineOp(&op);
  }

private:
  /// Sets `value`'s type to the meet with `inferred`.
  void refine(Value value, Type inferred) {
    Type refined = meet(value.getType(), inferred);
    if (refined && refined != value.getType() &&
        canRefine(value, signatureFollows))
      value.setType(refined);
  }

  /// A reshape's one dynamic size follows from a static input's count.
  void refineReshape(ReshapeOp op) {
    RankedTensorType result = op.getType();
    std::optional<int64_t> count =
        getStaticElementCount(op.getInput().getType().getShape());
    if (!count || op.getShape() || result.getNumDynamicDims() != 1)
      return;
    int64_t known = 1;
    for (int64_t size : result.getShape())
      if (!ShapedType::isDynamic(size))
        known *= size;
    if (known == 0 || *count % known != 0)
      return; // the verifier reports it
    SmallVector<int64_t> shape(result.getShape());
    for (int64_t &size : shape)
      if (ShapedType::isDynamic(size))
        size = *count / known;
    refine(op.getResult(), result.clone(shape));
  }

  /// Without a shape operand, a broadcast's dynamic sizes are its input's
  /// (the verifier's rule), so they follow a refined input.
  void refineBroadcast(BroadcastOp op) {
    if (op.getShape())
      return;
    RankedTensorType input = op.getInput().getType(), result = op.getType();
    int64_t offset = result.getRank() - input.getRank();
    SmallVector<int64_t> shape(result.getShape());
    for (int64_t d = offset; d < result.getRank(); ++d)
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = input.getDimSize(d - offset);
    refine(op.getResult(), result.clone(shape));
  }

  void refineOp(Operation *op) {
    if (auto group = dyn_cast<fusion::GroupOp>(op)) {
      Block &body = group.getBodyBlock();
      for (auto [arg, input] : llvm::zip(body.getArguments(), group.getInputs()))
        refine(arg, input.getType());
      refineBlock(body);
      for (auto [result, yielded] :
           llvm::zip(group.getResults(), group.getYield().getValues()))
        refine(result, yielded.getType());
      return;
    }
    if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
      SmallVector<Type> inferred;
      // No location: an op that does not verify keeps its types silently;
      // the verifier after the pass reports it.
      if (failed(infer.inferReturnTypes(
              op->getContext(), std::nullopt, op->getOperands(),
              op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
              op->getRegions(), inferred)))
        return;
      for (auto [result, type] : llvm::zip(op->getResults(), inferred))
        refine(result, type);
      return;
    }
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      refineReshape(reshape);
      return;
    }
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      refineBroadcast(broadcast);
      return;
    }
    // Casts keep their element type but take over refined sizes.
    if (op->hasTrait<mlir::OpTrait::SameOperandsAndResultShape>() &&
        op->getNumOperands() > 0) {
      auto shape = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
      if (!shape)
        return;
      for (OpResult result : op->getResults())
        if (auto type = dyn_cast<RankedTensorType>(result.getType()))
          refine(result, type.clone(shape.getShape()));
    }
  }

  bool signatureFollows;
};

struct TcInferShapesPass
    : tc::impl::TcInferShapesPassBase<TcInferShapesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Returned values may become more static than the signature says. Only a
    // public single-block function (an entry point such as @main) changes its
    // signature: call sites elsewhere would otherwise disagree with it.
    bool signatureFollows = func.isPublic() && func.getBody().hasOneBlock();
    for (Block &block : func.getBody())
      ShapeRefiner(signatureFollows).refineBlock(block);
    if (!signatureFollows)
      return;
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    FunctionType type = func.getFunctionType();
    SmallVector<Type> results(ret.getOperandTypes());
    if (results != SmallVector<Type>(type.getResults()))
      func.setType(FunctionType::get(&getContext(), type.getInputs(), results));
  }
};
} // namespace
