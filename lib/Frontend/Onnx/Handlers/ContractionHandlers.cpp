//===- ContractionHandlers.cpp - MatMul, Gemm, Conv and Det to tc ---------===//

#include "HandlerUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

Value mlir::tc::onnx::reshapeTo(NodeContext &ctx, Value v,
                               ArrayRef<int64_t> shape) {
  if (!v)
    return nullptr;
  auto type =
      RankedTensorType::get(shape, NodeContext::typeOf(v).getElementType());
  if (type == v.getType())
    return v;
  return ctx.build<ReshapeOp>({v}, {}, type);
}

Value mlir::tc::onnx::reshapeToValues(NodeContext &ctx, Value v,
                                     ArrayRef<Value> sizes,
                                     ArrayRef<int64_t> shape) {
  if (!v || llvm::any_of(sizes, [](Value s) { return !s; }))
    return nullptr;
  auto type =
      RankedTensorType::get(shape, NodeContext::typeOf(v).getElementType());
  return ctx.build<ReshapeOp>(
      {v, tensor::FromElementsOp::create(ctx.builder, ctx.loc, sizes)}, {},
      {type});
}

Value mlir::tc::onnx::i64Scalar(NodeContext &ctx, Value v) {
  return tensor::FromElementsOp::create(
      ctx.builder, ctx.loc,
      RankedTensorType::get({}, ctx.builder.getI64Type()), ValueRange{v});
}

Value mlir::tc::onnx::i64Range(NodeContext &ctx, Value start, Value limit,
                               Value step) {
  return ctx.build<RangeOp>(
      {start, limit, step}, {},
      {RankedTensorType::get({ShapedType::kDynamic}, ctx.builder.getI64Type())});
}

SmallVector<int64_t> mlir::tc::onnx::wholeSliceEnds(RankedTensorType type) {
  SmallVector<int64_t> ends;
  for (int64_t size : type.getShape())
    ends.push_back(ShapedType::isDynamic(size)
                       ? std::numeric_limits<int64_t>::max()
                       : size);
  return ends;
}

Value mlir::tc::onnx::reshapeKeeping(NodeContext &ctx, Value v,
                                    ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> sources) {
  if (!v || llvm::count_if(shape, ShapedType::isDynamic) <= 1)
    return reshapeTo(ctx, v, shape);
  Value sizes = ctx.build<ShapeOfOp>({v});
  SmallVector<Value> parts;
  for (auto [size, source] : llvm::zip(shape, sources)) {
    if (!ShapedType::isDynamic(size)) {
      parts.push_back(ctx.constantI64({size}));
      continue;
    }
    parts.push_back(ctx.build<SliceOp>(
        {sizes}, {ctx.namedAttr("starts", ctx.i64Array({source})),
                  ctx.namedAttr("ends", ctx.i64Array({source + 1})),
                  ctx.namedAttr("steps", ctx.i64Array({1}))}));
  }
  Value target = ctx.build<ConcatOp>(
      parts, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))});
  if (!target)
    return nullptr;
  auto type =
      RankedTensorType::get(shape, NodeContext::typeOf(v).getElementType());
  return ctx.build<ReshapeOp>({v, target}, {}, type);
}

namespace {

/// ONNX MatMul is numpy's matmul: 1-D operands gain a unit dimension that is
/// dropped again, and batch dimensions broadcast.
LogicalResult matmul(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> lhsOr = ctx.requireInput(0), rhsOr = ctx.requireInput(1);
  if (failed(lhsOr) || failed(rhsOr))
    return failure();
  Value lhs = *lhsOr, rhs = *rhsOr;
  auto lt = NodeContext::typeOf(lhs), rt = NodeContext::typeOf(rhs);
  if (lt.getRank() == 0 || rt.getRank() == 0)
    return ctx.invalid("MatMul operands must have rank >= 1");
  bool lhsVector = lt.getRank() == 1, rhsVector = rt.getRank() == 1;
  if (lhsVector)
    lhs = reshapeTo(ctx, lhs, {1, lt.getDimSize(0)});
  if (rhsVector)
    rhs = reshapeTo(ctx, rhs, {rt.getDimSize(0), 1});
  if (!lhs || !rhs)
    return failure();
  lt = NodeContext::typeOf(lhs);
  rt = NodeContext::typeOf(rhs);
  Value product;
  if (lt.getRank() == 2 && rt.getRank() == 2) {
    product = ctx.build<MatmulOp>({lhs, rhs});
  } else {
    // Give both the same rank with leading unit dims; batch_matmul
    // broadcasts them.
    int64_t rank = std::max(lt.getRank(), rt.getRank());
    auto padRank = [&](Value v) -> Value {
      auto t = NodeContext::typeOf(v);
      SmallVector<int64_t> shape(rank - t.getRank(), 1);
      llvm::append_range(shape, t.getShape());
      return reshapeTo(ctx, v, shape);
    };
    lhs = padRank(lhs);
    rhs = padRank(rhs);
    if (!lhs || !rhs)
      return failure();
    product = ctx.build<BatchMatmulOp>({lhs, rhs});
  }
  if (!product)
    return failure();
  if (lhsVector || rhsVector) {
    auto pt = NodeContext::typeOf(product);
    SmallVector<int64_t> shape(pt.getShape());
    if (rhsVector)
      shape.pop_back();
    if (lhsVector)
      shape.erase(shape.end() - 1 - (rhsVector ? 0 : 1));
    product = reshapeTo(ctx, product, shape);
  }
  results.push_back(product);
  return success(product != nullptr);
}

/// Y = alpha * op(A) * op(B) + beta * C.
LogicalResult gemm(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> aOr = ctx.requireInput(0), bOr = ctx.requireInput(1);
  if (failed(aOr) || failed(bOr))
    return failure();
  Value a = *aOr, b = *bOr;
  if (NodeContext::typeOf(a).getRank() != 2 ||
      NodeContext::typeOf(b).getRank() != 2)
    return ctx.invalid("Gemm operands A and B must be 2-D");
  auto transpose = [&](Value v) {
    return ctx.build<TransposeOp>(
        {v}, {ctx.namedAttr("permutation", ctx.i64Array({1, 0}))});
  };
  if (ctx.getInt("transA", 0))
    a = transpose(a);
  if (ctx.getInt("transB", 0))
    b = transpose(b);
  if (!a || !b)
    return failure();
  Value y = ctx.build<MatmulOp>({a, b});
  if (!y)
    return failure();
  Type element = NodeContext::typeOf(y).getElementType();
  float alpha = ctx.getFloat("alpha", 1.0f), beta = ctx.getFloat("beta", 1.0f);
  if (alpha != 1.0f)
    y = ctx.build<MulOp>({y, ctx.scalar(element, alpha)});
  if (Value c = ctx.input(2); c && y && beta != 0.0f) {
    if (beta != 1.0f)
      c = ctx.build<MulOp>({c, ctx.scalar(element, beta)});
    // C broadcasts unidirectionally to Y's shape, so Y keeps its type.
    y = c ? ctx.build<AddOp>({y, c}, {}, {y.getType()}) : nullptr;
  }
  results.push_back(y);
  return success(y != nullptr);
}

} // namespace

FailureOr<SmallVector<int64_t>>
mlir::tc::onnx::resolveWindowPads(NodeContext &ctx, ArrayRef<int64_t> inputSpatial,
            ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
            ArrayRef<int64_t> dilations) {
  size_t n = kernel.size();
  // Checked here for every windowed op: SAME padding divides by the
  // strides, and the callers index all three per spatial dimension.
  if (strides.size() != n || dilations.size() != n)
    return ctx.invalid(llvm::formatv("strides and dilations need {0} values "
                                     "each, one per spatial dimension",
                                     n));
  auto positive = [](int64_t v) { return v >= 1; };
  if (!llvm::all_of(kernel, positive) || !llvm::all_of(strides, positive) ||
      !llvm::all_of(dilations, positive))
    return ctx.invalid("kernel sizes, strides and dilations must be >= 1");
  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    SmallVector<int64_t> pads = ctx.getInts("pads").value_or(
        SmallVector<int64_t>(2 * n, 0));
    if (pads.size() != 2 * n)
      return ctx.invalid(llvm::formatv(
          "pads has {0} values, expected {1}", pads.size(), 2 * n));
    return pads;
  }
  if (autoPad == "VALID")
    return SmallVector<int64_t>(2 * n, 0);
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return ctx.unsupported("auto_pad='" + autoPad + "'");
  SmallVector<int64_t> pads(2 * n, 0);
  for (size_t i = 0; i < n; ++i) {
    int64_t in = inputSpatial[i];
    if (ShapedType::isDynamic(in))
      return ctx.unsupported(
          "auto_pad=" + autoPad + " with a dynamic spatial size");
    int64_t out = (in + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(
        0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in);
    int64_t small = total / 2, large = total - small;
    pads[i] = autoPad == "SAME_UPPER" ? small : large;
    pads[n + i] = autoPad == "SAME_UPPER" ? large : small;
  }
  return pads;
}

Value mlir::tc::onnx::buildConv(NodeContext &ctx, Value x, Value w,
                               Value bias) {
  auto xt = NodeContext::typeOf(x), wt = NodeContext::typeOf(w);
  int64_t spatial = wt.getRank() - 2;
  if (spatial < 1 || xt.getRank() != wt.getRank()) {
    (void)ctx.invalid("X and W must have the same rank >= 3");
    return nullptr;
  }
  SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
  if (auto attrKernel = ctx.getInts("kernel_shape")) {
    if (attrKernel->size() != kernel.size()) {
      (void)ctx.invalid("kernel_shape does not match W's rank");
      return nullptr;
    }
    kernel = *attrKernel;
  }
  if (llvm::any_of(kernel, ShapedType::isDynamic)) {
    (void)ctx.unsupported("a filter with dynamic spatial sizes");
    return nullptr;
  }
  SmallVector<int64_t> strides =
      ctx.getInts("strides").value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> dilations =
      ctx.getInts("dilations").value_or(SmallVector<int64_t>(spatial, 1));
  FailureOr<SmallVector<int64_t>> pads = resolveWindowPads(
      ctx, xt.getShape().drop_front(2), kernel, strides, dilations);
  if (failed(pads))
    return nullptr;
  SmallVector<Value> operands = {x, w};
  if (bias)
    operands.push_back(bias);
  return ctx.build<ConvOp>(
      operands,
      {ctx.namedAttr("strides", ctx.i64Array(strides)),
       ctx.namedAttr("padding", ctx.i64Array(*pads)),
       ctx.namedAttr("dilations", ctx.i64Array(dilations)),
       ctx.namedAttr("groups", ctx.builder.getI64IntegerAttr(ctx.getInt("group", 1)))});
}

namespace {
LogicalResult conv(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), w = ctx.requireInput(1);
  if (failed(x) || failed(w))
    return failure();
  results.push_back(buildConv(ctx, *x, *w, ctx.input(2)));
  return success(results.back() != nullptr);
}
} // namespace

namespace {
LogicalResult convTranspose(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), w = ctx.requireInput(1);
  if (failed(x) || failed(w))
    return failure();
  auto xt = NodeContext::typeOf(*x), wt = NodeContext::typeOf(*w);
  int64_t spatial = wt.getRank() - 2;
  if (spatial < 1 || xt.getRank() != wt.getRank())
    return ctx.invalid("X and W must have the same rank >= 3");
  SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
  if (auto attrKernel = ctx.getInts("kernel_shape"))
    kernel = *attrKernel;
  auto orOnes = [&](llvm::StringRef name, int64_t fill) {
    return ctx.getInts(name).value_or(SmallVector<int64_t>(spatial, fill));
  };
  SmallVector<int64_t> strides = orOnes("strides", 1),
                       dilations = orOnes("dilations", 1),
                       outputPadding = orOnes("output_padding", 0);
  if (static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(dilations.size()) != spatial ||
      static_cast<int64_t>(outputPadding.size()) != spatial ||
      static_cast<int64_t>(kernel.size()) != spatial)
    return ctx.invalid("strides, dilations, output_padding and kernel_shape "
                       "need one value per spatial dimension");
  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> outputShape = ctx.getInts("output_shape");
  if (outputShape && static_cast<int64_t>(outputShape->size()) < spatial)
    return ctx.invalid("output_shape needs one value per spatial dimension");
  SmallVector<int64_t> pads =
      ctx.getInts("pads").value_or(SmallVector<int64_t>(2 * spatial, 0));
  if (static_cast<int64_t>(pads.size()) != 2 * spatial)
    return ctx.invalid("pads needs two values per spatial dimension");
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER" || outputShape) {
    // Pads follow from the requested output size (input * stride for SAME).
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t in = xt.getDimSize(2 + i);
      if (ShapedType::isDynamic(in))
        return ctx.unsupported("output_shape/auto_pad with a dynamic size");
      int64_t want = outputShape ? (*outputShape)[outputShape->size() - spatial + i]
                                 : in * strides[i];
      int64_t total = strides[i] * (in - 1) + outputPadding[i] +
                      (kernel[i] - 1) * dilations[i] + 1 - want;
      if (total < 0) {
        // A larger output than the kernel reaches: extra output padding.
        outputPadding[i] -= total;
        total = 0;
      }
      bool upper = autoPad != "SAME_LOWER";
      pads[i] = upper ? total / 2 : total - total / 2;
      pads[spatial + i] = upper ? total - total / 2 : total / 2;
    }
  } else if (autoPad == "VALID") {
    pads.assign(2 * spatial, 0);
  } else if (autoPad != "NOTSET") {
    return ctx.unsupported("auto_pad='" + autoPad + "'");
  }
  SmallVector<Value> operands = {*x, *w};
  if (Value bias = ctx.input(2))
    operands.push_back(bias);
  results.push_back(ctx.build<ConvTransposeOp>(
      operands,
      {ctx.namedAttr("strides", ctx.i64Array(strides)),
       ctx.namedAttr("padding", ctx.i64Array(pads)),
       ctx.namedAttr("dilations", ctx.i64Array(dilations)),
       ctx.namedAttr("output_padding", ctx.i64Array(outputPadding)),
       ctx.namedAttr("groups", ctx.builder.getI64IntegerAttr(ctx.getInt("group", 1)))}));
  return success(results.back() != nullptr);
}
} // namespace

/// Det: determinants of the trailing square matrices.
static LogicalResult det(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0, 2, NodeContext::kAnyRank);
  if (failed(x))
    return failure();
  results.push_back(ctx.build<DetOp>({*x}));
  return success(results.back() != nullptr);
}

void mlir::tc::onnx::registerContractionHandlers(OpRegistry &r) {
  r.add("ConvTranspose", 1, convTranspose);
  r.add("Det", 11, det);
  r.add("MatMul", 1, matmul);
  r.add("Gemm", 1, gemm);
  r.add("Conv", 1, conv);
}
