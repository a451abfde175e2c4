//===- PoolingHandlers.cpp - MaxPool, AveragePool, global pooling to tc ---===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

FailureOr<SmallVector<NamedAttribute>>
mlir::tc::onnx::readPoolAttributes(NodeContext &ctx, RankedTensorType input) {
  std::optional<SmallVector<int64_t>> kernel = ctx.getInts("kernel_shape");
  if (!kernel)
    return ctx.invalid("kernel_shape is required");
  int64_t spatial = kernel->size();
  if (input.getRank() != spatial + 2)
    return ctx.invalid("kernel_shape needs one value per spatial dimension");
  SmallVector<int64_t> strides =
      ctx.getInts("strides").value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> dilations =
      ctx.getInts("dilations").value_or(SmallVector<int64_t>(spatial, 1));
  FailureOr<SmallVector<int64_t>> pads = resolveWindowPads(
      ctx, input.getShape().drop_front(2), *kernel, strides, dilations);
  if (failed(pads))
    return failure();
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("kernel_shape", ctx.i64Array(*kernel)),
      ctx.namedAttr("strides", ctx.i64Array(strides)),
      ctx.namedAttr("padding", ctx.i64Array(*pads)),
      ctx.namedAttr("dilations", ctx.i64Array(dilations))};
  if (ctx.getInt("ceil_mode", 0))
    attrs.push_back(ctx.namedAttr("ceil_mode", ctx.builder.getUnitAttr()));
  return attrs;
}

namespace {
template <typename OpTy, bool isAverage>
LogicalResult pool(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  if (ctx.getInt("storage_order", 0) != 0)
    return ctx.unsupported("storage_order=1 (column-major indices)");
  if (ctx.node.output_size() > 1 && !ctx.node.output(1).empty())
    return ctx.unsupported("the Indices output");
  FailureOr<SmallVector<NamedAttribute>> window =
      readPoolAttributes(ctx, NodeContext::typeOf(*x));
  if (failed(window))
    return failure();
  SmallVector<NamedAttribute> attrs = *window;
  if (isAverage && ctx.getInt("count_include_pad", 0))
    attrs.push_back(
        ctx.namedAttr("count_include_pad", ctx.builder.getUnitAttr()));
  results.push_back(ctx.build<OpTy>({*x}, attrs));
  return success(results.back() != nullptr);
}

/// Global pooling is a reduction over the spatial dimensions, kept.
template <typename OpTy>
LogicalResult globalPool(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  if (rank < 3)
    return ctx.invalid("input must have rank >= 3");
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  results.push_back(ctx.build<OpTy>(
      {*x}, {ctx.namedAttr("axes", ctx.i64Array(axes)),
             ctx.namedAttr("keepdims", ctx.builder.getUnitAttr())}));
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerPoolingHandlers(OpRegistry &r) {
  r.add("MaxPool", 1, pool<MaxPoolOp, false>);
  r.add("AveragePool", 1, pool<AvgPoolOp, true>);
  r.add("GlobalAveragePool", 1, globalPool<ReduceMeanOp>);
  r.add("GlobalMaxPool", 1, globalPool<ReduceMaxOp>);
}
