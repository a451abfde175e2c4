//===- PoolingHandlers.cpp - MaxPool, AveragePool, global pooling to tc ---===//

#include "HandlerUtils.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

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
/// Unrolling MaxPool's Indices emits a few ops per kernel tap; larger
/// kernels are reported.
constexpr int64_t kMaxIndexTaps = 256;

/// A constant of `shape` and element type `element` (i64 or i1).
Value intConstant(NodeContext &ctx, ArrayRef<int64_t> shape, Type element,
                  ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, element);
  if (element.isInteger(1)) {
    SmallVector<bool> bits(values.begin(), values.end());
    return ctx.constant(DenseElementsAttr::get(type, ArrayRef<bool>(bits)));
  }
  return ctx.constant(DenseIntElementsAttr::get(type, values));
}

/// MaxPool's Indices output for an input `x` pooled to `y`: per window,
/// the flat input index of the first maximum (over N, C and the spatial
/// dims; the spatial part column-major with storage_order=1), as the
/// reference scans the window. Unrolled over the kernel taps: each tap is a
/// strided slice of the (zero-padded) input, and the index is that of the
/// first tap inside the input that equals the pooled maximum. The taps are
/// visited last to first, each select reading the previous one once, so
/// that fusion does not duplicate the chain. Which taps lie inside the
/// input is known here, so those masks are constants.
Value maxPoolIndices(NodeContext &ctx, Value x, Value y) {
  auto type = NodeContext::typeOf(x), yType = NodeContext::typeOf(y);
  if (!type.hasStaticShape() || !yType.hasStaticShape()) {
    (void)ctx.unsupported("the Indices output of a dynamically shaped pool");
    return nullptr;
  }
  // readPoolAttributes succeeded, so these are consistent.
  SmallVector<int64_t> kernel = *ctx.getInts("kernel_shape");
  int64_t n = kernel.size();
  SmallVector<int64_t> strides =
      ctx.getInts("strides").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> dilations =
      ctx.getInts("dilations").value_or(SmallVector<int64_t>(n, 1));
  ArrayRef<int64_t> in = type.getShape().drop_front(2),
                    out = yType.getShape().drop_front(2);
  FailureOr<SmallVector<int64_t>> pads =
      resolveWindowPads(ctx, in, kernel, strides, dilations);
  if (failed(pads))
    return nullptr;
  // Saturating: a product of huge sizes must not wrap around to a small one.
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps = std::min(k > kMaxIndexTaps ? k : taps * k, kMaxIndexTaps + 1);
  if (taps > kMaxIndexTaps) {
    (void)ctx.unsupported(llvm::formatv("the Indices output of a window of "
                                        "more than {0} elements",
                                        kMaxIndexTaps));
    return nullptr;
  }
  SmallVector<int64_t> tables = {2, taps};
  llvm::append_range(tables, out);
  if (failed(checkMaterializedSize(ctx, tables)) ||
      failed(checkMaterializedSize(ctx, type.getShape().take_front(2))))
    return nullptr;
  int64_t positions = computeProduct(out);
  bool columnMajor = ctx.getInt("storage_order", 0) != 0;
  // Per tap and output position: the spatial input index, and whether the
  // tap lies inside the input.
  SmallVector<SmallVector<int64_t>> spatialIndex(taps), inside(taps);
  SmallVector<int64_t> firstInside(positions, -1);
  for (int64_t k = 0; k < taps; ++k) {
    SmallVector<int64_t> offset = delinearize(k, computeStrides(kernel));
    for (int64_t p = 0; p < positions; ++p) {
      SmallVector<int64_t> at = delinearize(p, computeStrides(out));
      bool ok = true;
      int64_t flat = 0, scale = 1;
      for (int64_t d = 0; d < n; ++d) {
        int64_t coord = at[d] * strides[d] - (*pads)[d] + offset[d] * dilations[d];
        ok &= coord >= 0 && coord < in[d];
        if (columnMajor) {
          flat += coord * scale;
          scale *= in[d];
        } else {
          flat = flat * in[d] + coord;
        }
      }
      spatialIndex[k].push_back(flat);
      inside[k].push_back(ok);
      if (ok && firstInside[p] < 0)
        firstInside[p] = flat;
    }
  }
  if (llvm::is_contained(firstInside, -1)) {
    (void)ctx.unsupported("a pooling window entirely in the padding");
    return nullptr;
  }
  // Zero padding so that every tap's strided slice fits; padded elements
  // are masked out.
  SmallVector<int64_t> padding(2 * (n + 2), 0);
  for (int64_t d = 0; d < n; ++d) {
    padding[2 + d] = (*pads)[d];
    int64_t reach = (out[d] - 1) * strides[d] + (kernel[d] - 1) * dilations[d] + 1;
    padding[n + 4 + d] = std::max<int64_t>(0, reach - in[d] - (*pads)[d]);
  }
  Value padded = x;
  if (llvm::any_of(padding, [](int64_t p) { return p != 0; }))
    padded = ctx.build<PadOp>({x}, {ctx.namedAttr("padding", ctx.i64Array(padding))});
  if (!padded)
    return nullptr;
  Type i64 = ctx.builder.getI64Type(), i1 = ctx.builder.getI1Type();
  SmallVector<int64_t> mapShape(2, 1);
  llvm::append_range(mapShape, out);
  // No tap equal to the maximum (a NaN): the first tap inside, as the
  // reference keeps it.
  Value index = ctx.build<BroadcastOp>({intConstant(ctx, mapShape, i64, firstInside)},
                                       {}, {yType.clone(i64)});
  for (int64_t k = taps - 1; k >= 0 && index; --k) {
    SmallVector<int64_t> offset = delinearize(k, computeStrides(kernel));
    SmallVector<int64_t> starts = {0, 0}, ends(type.getShape().take_front(2)),
                         steps = {1, 1};
    for (int64_t d = 0; d < n; ++d) {
      starts.push_back(offset[d] * dilations[d]);
      ends.push_back(starts.back() + (out[d] - 1) * strides[d] + 1);
      steps.push_back(strides[d]);
    }
    if (llvm::none_of(inside[k], [](int64_t v) { return v; }))
      continue;
    Value cand = ctx.build<SliceOp>({padded}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                               ctx.namedAttr("ends", ctx.i64Array(ends)),
                                               ctx.namedAttr("steps", ctx.i64Array(steps))});
    Value hit = cand ? compareValues(ctx, ComparePredicate::eq, cand, y) : nullptr;
    if (hit && !llvm::all_of(inside[k], [](int64_t v) { return v; }))
      hit = ctx.build<AndOp>({hit, intConstant(ctx, mapShape, i1, inside[k])});
    index = hit ? ctx.build<SelectOp>(
                      {hit, intConstant(ctx, mapShape, i64, spatialIndex[k]), index})
                : nullptr;
  }
  if (!index)
    return nullptr;
  // Plus (n * C + c) * spatial size.
  int64_t batch = type.getDimSize(0), channels = type.getDimSize(1);
  SmallVector<int64_t> base;
  for (int64_t i = 0; i < batch * channels; ++i)
    base.push_back(i * computeProduct(in));
  SmallVector<int64_t> baseShape = {batch, channels};
  baseShape.resize(n + 2, 1);
  return ctx.build<AddOp>({index, intConstant(ctx, baseShape, i64, base)});
}

template <typename OpTy, bool isAverage>
LogicalResult pool(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<NamedAttribute>> window =
      readPoolAttributes(ctx, NodeContext::typeOf(*x));
  if (failed(window))
    return failure();
  SmallVector<NamedAttribute> attrs = *window;
  if (isAverage && ctx.getInt("count_include_pad", 0))
    attrs.push_back(
        ctx.namedAttr("count_include_pad", ctx.builder.getUnitAttr()));
  Value y = ctx.build<OpTy>({*x}, attrs);
  results.push_back(y);
  if (!y)
    return failure();
  if (!isAverage && ctx.node.output_size() > 1 && !ctx.node.output(1).empty()) {
    results.push_back(maxPoolIndices(ctx, *x, y));
    return success(results.back() != nullptr);
  }
  return success();
}

/// Global pooling is a reduction over the spatial dimensions, kept.
template <typename OpTy>
LogicalResult globalPool(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0, 3);
  if (failed(x))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
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
