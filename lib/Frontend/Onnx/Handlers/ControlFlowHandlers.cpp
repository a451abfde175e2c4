//===- ControlFlowHandlers.cpp - ONNX If into scf.if regions --------------===//
//
// Branches import into the regions of an scf.if with tensor results; they
// read values of the enclosing graph directly, as ONNX subgraphs do.
// Branch results of different static shapes meet in a type with dynamic
// sizes (tensor.cast in the branch).
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// The most static type both branch results fit, or null.
Type join(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getElementType() != tb.getElementType() ||
      ta.getRank() != tb.getRank())
    return nullptr;
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    shape.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(shape, ta.getElementType());
}

LogicalResult ifOp(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> condIn = ctx.requireInput(0);
  if (failed(condIn))
    return failure();
  const auto *thenAttr = ctx.attr("then_branch");
  const auto *elseAttr = ctx.attr("else_branch");
  if (!thenAttr || !elseAttr || !thenAttr->has_g() || !elseAttr->has_g())
    return ctx.invalid("then_branch and else_branch are required");
  auto condType = NodeContext::typeOf(*condIn);
  if (!condType.getElementType().isInteger(1) ||
      (condType.hasStaticShape() && condType.getNumElements() != 1))
    return ctx.invalid("the condition must be a single bool");
  Value cond = *condIn;
  if (condType.getRank() != 0)
    cond = reshapeTo(ctx, cond, {});
  if (!cond)
    return failure();
  Value flag = tensor::ExtractOp::create(ctx.builder, ctx.loc, cond, ValueRange{});

  // Import both branches into detached blocks first: the result types are
  // only known afterwards.
  auto thenBlock = std::make_unique<Block>(), elseBlock = std::make_unique<Block>();
  FailureOr<SmallVector<Value>> thenValues =
      ctx.importSubgraph(thenAttr->g(), thenBlock.get(), {});
  FailureOr<SmallVector<Value>> elseValues =
      ctx.importSubgraph(elseAttr->g(), elseBlock.get(), {});
  if (failed(thenValues) || failed(elseValues))
    return failure();
  if (thenValues->size() != elseValues->size())
    return ctx.invalid("the branches have different numbers of outputs");
  SmallVector<Type> types;
  for (auto [a, b] : llvm::zip(*thenValues, *elseValues)) {
    Type t = join(a.getType(), b.getType());
    if (!t)
      return ctx.unsupported(llvm::formatv("branch outputs of types {0} and {1}",
                                           a.getType(), b.getType()));
    types.push_back(t);
  }
  auto op = scf::IfOp::create(ctx.builder, ctx.loc, types, flag,
                              /*withElseRegion=*/true);
  auto fill = [&](Region &region, std::unique_ptr<Block> &block,
                  ArrayRef<Value> values) {
    region.front().erase();
    region.push_back(block.release());
    OpBuilder b = OpBuilder::atBlockEnd(&region.front());
    SmallVector<Value> yielded;
    for (auto [v, t] : llvm::zip(values, types))
      yielded.push_back(v.getType() == t
                            ? v
                            : tensor::CastOp::create(b, ctx.loc, t, v).getResult());
    scf::YieldOp::create(b, ctx.loc, yielded);
  };
  fill(op.getThenRegion(), thenBlock, *thenValues);
  fill(op.getElseRegion(), elseBlock, *elseValues);
  llvm::append_range(results, op.getResults());
  return success();
}
} // namespace

void mlir::tc::onnx::registerControlFlowHandlers(OpRegistry &r) {
  r.add("If", 1, ifOp);
}
