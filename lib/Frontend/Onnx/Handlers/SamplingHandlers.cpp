//===- SamplingHandlers.cpp - GridSample, RoiAlign, NMS, DeformConv, ... -===//
//
// GridSample and RoiAlign become tc.grid_sample and tc.roi_align. AffineGrid
// is a constant base grid times theta (one batch_matmul). DeformConv samples
// the input at the offset kernel taps with tc.grid_sample (pixel
// coordinates, zero padding, bilinear), scales by the mask and contracts
// the samples with the weights (one batch_matmul per conv group).
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// GridSample-16 spells the modes bilinear and bicubic, -20 linear and
/// cubic; tc.grid_sample uses the later names.
std::optional<StringRef> gridSampleMode(StringRef mode) {
  if (mode == "bilinear" || mode == "linear")
    return StringRef("linear");
  if (mode == "bicubic" || mode == "cubic")
    return StringRef("cubic");
  if (mode == "nearest")
    return StringRef("nearest");
  return std::nullopt;
}

LogicalResult gridSample(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), grid = ctx.requireInput(1);
  if (failed(x) || failed(grid))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (type.getRank() < 3)
    return ctx.invalid("X must be [N, C, spatial...]");
  if (ctx.opset < 20 && type.getRank() != 4)
    return ctx.invalid("GridSample before opset 20 takes 4-D inputs only");
  // The lowering turns the spatial sizes into constants (the borders).
  ArrayRef<int64_t> spatial = type.getShape().drop_front(2);
  if (ShapedType::isDynamicShape(spatial))
    return ctx.unsupported("dynamic spatial sizes of X");
  if (llvm::is_contained(spatial, 0))
    return ctx.unsupported("an empty spatial dimension of X");
  std::string given = ctx.getString("mode", ctx.opset < 20 ? "bilinear" : "linear");
  std::optional<StringRef> mode = gridSampleMode(given);
  if (!mode)
    return ctx.invalid("unknown mode '" + given + "'");
  std::string padding = ctx.getString("padding_mode", "zeros");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return ctx.invalid("unknown padding_mode '" + padding + "'");
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("mode", ctx.builder.getStringAttr(*mode)),
      ctx.namedAttr("padding_mode", ctx.builder.getStringAttr(padding))};
  if (ctx.getInt("align_corners", 0))
    attrs.push_back(ctx.namedAttr("align_corners", ctx.builder.getUnitAttr()));
  results.push_back(ctx.build<GridSampleOp>({*x, *grid}, attrs));
  return success(results.back() != nullptr);
}

/// The normalized coordinates of the `n` element centers along a dimension:
/// -1 .. 1 through the corner centers with `alignCorners`, else the centers
/// of n equal cells covering [-1, 1].
SmallVector<double> baseCoordinates(int64_t n, bool alignCorners) {
  SmallVector<double> values(n);
  for (int64_t i = 0; i < n; ++i) {
    if (alignCorners)
      values[i] = n == 1 ? -1.0 : -1.0 + i * (2.0 / double(n - 1));
    else
      values[i] = (-1.0 + 1.0 / double(n)) + i * (2.0 / double(n));
  }
  return values;
}

/// AffineGrid with its size read at run time: the base grid of affineGrid
/// below built from tc.range coordinates (computed in f64, then cast),
/// broadcast over the spatial extents and flattened, then the same batched
/// matmul with theta. N must agree with theta's; extents are checked to be
/// non-negative.
LogicalResult runtimeAffineGrid(NodeContext &ctx, Value theta, Value sizeIn,
                                SmallVectorImpl<Value> &results) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  auto sizeType = NodeContext::typeOf(sizeIn);
  if (sizeType.getRank() != 1 || sizeType.isDynamicDim(0) ||
      (sizeType.getDimSize(0) != 4 && sizeType.getDimSize(0) != 5))
    return ctx.invalid("size must be [N, C, H, W] or [N, C, D, H, W]");
  int64_t dims = sizeType.getDimSize(0) - 2;
  auto thetaType = NodeContext::typeOf(theta);
  if (thetaType.getRank() != 3 || !isa<FloatType>(thetaType.getElementType()) ||
      (!thetaType.isDynamicDim(1) && thetaType.getDimSize(1) != dims) ||
      (!thetaType.isDynamicDim(2) && thetaType.getDimSize(2) != dims + 1))
    return ctx.invalid("theta must be [N, 2, 3] for 2-D or [N, 3, 4] for 3-D");
  Type element = thetaType.getElementType();
  Type f64 = b.getF64Type();
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  auto f64Scalar = [&](double v) {
    return ctx.constant(DenseElementsAttr::get(RankedTensorType::get({}, f64),
                                               ArrayRef<double>{v}));
  };
  auto shapeValue = [&](ArrayRef<Value> sizes) {
    return tensor::FromElementsOp::create(b, loc, sizes).getResult();
  };
  // The extents: N (as theta has it), then the spatial ones (D,) H, W.
  SmallVector<Value> extents;
  Value valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  for (int64_t d = 0; d < dims + 2; ++d) {
    Value extent = tensor::ExtractOp::create(
        b, loc, sizeIn, ValueRange{arith::ConstantIndexOp::create(b, loc, d)});
    valid = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, extent, i64(0)));
    extents.push_back(extent);
  }
  Value batch = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                           tensor::DimOp::create(b, loc, theta, 0));
  valid = arith::AndIOp::create(
      b, loc, valid,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, batch, extents[0]));
  assertAtRunTime(ctx, valid,
                  "the size computed at run time has a negative extent or an N "
                  "other than theta's");
  ArrayRef<Value> spatial = ArrayRef<Value>(extents).drop_front(2);
  bool corners = ctx.getInt("align_corners", 0) != 0;
  // One [spatial..., 1] coordinate tensor per axis, innermost (x) first,
  // then ones: concatenated along the last axis, (x, y, [z,] 1) per point.
  SmallVector<Value> fullShape(spatial.begin(), spatial.end());
  fullShape.push_back(i64(1));
  SmallVector<int64_t> staticFull(dims, ShapedType::kDynamic);
  staticFull.push_back(1);
  auto fullType = RankedTensorType::get(staticFull, element);
  SmallVector<Value> columns;
  for (int64_t d = dims - 1; d >= 0; --d) {
    Value n = spatial[d];
    Value coords = ctx.build<RangeOp>(
        {ctx.constantI64({0}, true),
         tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, b.getI64Type()),
                                        ValueRange{n}),
         ctx.constantI64({1}, true)},
        {}, {RankedTensorType::get({ShapedType::kDynamic}, b.getI64Type())});
    if (!coords)
      return failure();
    coords = ctx.build<CastOp>({coords}, {},
                               {RankedTensorType::get({ShapedType::kDynamic}, f64)});
    Value count = ctx.build<CastOp>(
        {tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, b.getI64Type()),
                                        ValueRange{n})},
        {}, {RankedTensorType::get({}, f64)});
    Value first, step;
    if (corners) {
      // -1 + i * 2 / (n - 1); a single point sits at -1.
      Value gaps = ctx.build<SubOp>({count, f64Scalar(1)});
      Value positive = compareValues(ctx, ComparePredicate::gt, gaps, f64Scalar(0));
      gaps = ctx.build<SelectOp>({positive, gaps, f64Scalar(1)});
      first = f64Scalar(-1);
      step = ctx.build<SelectOp>(
          {positive, ctx.build<DivOp>({f64Scalar(2), gaps}), f64Scalar(0)});
    } else {
      // (-1 + 1 / n) + i * 2 / n.
      first = ctx.build<AddOp>({f64Scalar(-1), ctx.build<DivOp>({f64Scalar(1), count})});
      step = ctx.build<DivOp>({f64Scalar(2), count});
    }
    coords = ctx.build<AddOp>({first, ctx.build<MulOp>({coords, step})});
    coords = ctx.build<CastOp>({coords}, {},
                               {RankedTensorType::get({ShapedType::kDynamic}, element)});
    // Along spatial axis d of [spatial..., 1], broadcast over the others.
    SmallVector<Value> along(dims + 1, i64(1));
    along[d] = n;
    SmallVector<int64_t> alongShape(dims + 1, 1);
    alongShape[d] = ShapedType::kDynamic;
    coords = ctx.build<ReshapeOp>({coords, shapeValue(along)}, {},
                                  {RankedTensorType::get(alongShape, element)});
    columns.push_back(ctx.build<BroadcastOp>({coords, shapeValue(fullShape)}, {}, {fullType}));
  }
  Value ones = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get(SmallVector<int64_t>(dims + 1, 1), element),
      b.getFloatAttr(element, 1.0)));
  columns.push_back(ctx.build<BroadcastOp>({ones, shapeValue(fullShape)}, {}, {fullType}));
  staticFull.back() = dims + 1;
  Value base = ctx.build<ConcatOp>(
      columns, {ctx.namedAttr("axis", b.getI64IntegerAttr(dims))},
      {RankedTensorType::get(staticFull, element)});
  Value points = i64(1);
  for (Value n : spatial)
    points = arith::MulIOp::create(b, loc, points, n);
  base = base ? ctx.build<ReshapeOp>(
                    {base, shapeValue({i64(1), points, i64(dims + 1)})}, {},
                    {RankedTensorType::get({1, ShapedType::kDynamic, dims + 1}, element)})
              : nullptr;
  Value thetaT = ctx.build<TransposeOp>(
      {theta}, {ctx.namedAttr("permutation", ctx.i64Array({0, 2, 1}))});
  Value grid = base && thetaT ? ctx.build<BatchMatmulOp>({base, thetaT}) : nullptr;
  SmallVector<Value> outShape = {batch};
  llvm::append_range(outShape, spatial);
  outShape.push_back(i64(dims));
  SmallVector<int64_t> outStatic(dims + 1, ShapedType::kDynamic);
  outStatic[0] = thetaType.getDimSize(0);
  outStatic.push_back(dims);
  results.push_back(grid ? ctx.build<ReshapeOp>({grid, shapeValue(outShape)}, {},
                                                {RankedTensorType::get(outStatic, element)})
                         : nullptr);
  return success(results.back() != nullptr);
}

/// AffineGrid: grid[n, p, :] = theta[n] @ (x_p, y_p, [z_p,] 1) over the
/// element positions p of the requested size.
LogicalResult affineGrid(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> theta = ctx.requireInput(0), sizeIn = ctx.requireInput(1);
  if (failed(theta) || failed(sizeIn))
    return failure();
  std::optional<SmallVector<int64_t>> size = ctx.getConstantInts(*sizeIn);
  if (!size)
    return runtimeAffineGrid(ctx, *theta, *sizeIn, results);
  if (size->size() != 4 && size->size() != 5)
    return ctx.invalid("size must be [N, C, H, W] or [N, C, D, H, W]");
  int64_t dims = static_cast<int64_t>(size->size()) - 2;
  auto thetaType = NodeContext::typeOf(*theta);
  if (thetaType.getRank() != 3 ||
      !isa<FloatType>(thetaType.getElementType()) ||
      (!thetaType.isDynamicDim(1) && thetaType.getDimSize(1) != dims) ||
      (!thetaType.isDynamicDim(2) && thetaType.getDimSize(2) != dims + 1))
    return ctx.invalid("theta must be [N, 2, 3] for 2-D or [N, 3, 4] for 3-D");
  if (!thetaType.isDynamicDim(0) && thetaType.getDimSize(0) != (*size)[0])
    return ctx.invalid("theta and size disagree on N");
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(*size).drop_front(2);
  if (llvm::any_of(spatial, [](int64_t s) { return s < 1; }))
    return ctx.unsupported("empty or negative spatial sizes");
  if ((*size)[0] < 0)
    return ctx.invalid("size has a negative N");
  SmallVector<int64_t> gridShape(spatial);
  gridShape.push_back(dims + 1);
  if (failed(checkMaterializedSize(ctx, gridShape)))
    return failure();
  int64_t points = 1;
  for (int64_t s : spatial)
    points *= s;

  // The homogeneous base grid [1, points, dims + 1], innermost dimension
  // first: (x, y, [z,] 1) per point in row-major order.
  bool corners = ctx.getInt("align_corners", 0) != 0;
  SmallVector<SmallVector<double>> axes;
  for (int64_t s : spatial)
    axes.push_back(baseCoordinates(s, corners));
  Type element = thetaType.getElementType();
  auto baseType = RankedTensorType::get({1, points, dims + 1}, element);
  SmallVector<Attribute> values;
  SmallVector<int64_t> position(dims, 0);
  for (int64_t p = 0; p < points; ++p) {
    for (int64_t d = dims - 1; d >= 0; --d)
      values.push_back(ctx.builder.getFloatAttr(element, axes[d][position[d]]));
    values.push_back(ctx.builder.getFloatAttr(element, 1.0));
    for (int64_t d = dims - 1; d >= 0 && ++position[d] == spatial[d]; --d)
      position[d] = 0;
  }
  Value base = ctx.constant(DenseElementsAttr::get(baseType, values));
  Value thetaT = ctx.build<TransposeOp>(
      {*theta}, {ctx.namedAttr("permutation", ctx.i64Array({0, 2, 1}))});
  Value grid = thetaT ? ctx.build<BatchMatmulOp>({base, thetaT}) : nullptr;
  SmallVector<int64_t> shape = {(*size)[0]};
  llvm::append_range(shape, spatial);
  shape.push_back(dims);
  results.push_back(grid ? reshapeTo(ctx, grid, shape) : nullptr);
  return success(results.back() != nullptr);
}

/// RoiAlign-10 has no coordinate_transformation_mode and behaves like
/// output_half_pixel; -16 adds it, defaulting to half_pixel.
LogicalResult roiAlign(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), rois = ctx.requireInput(1),
                   indices = ctx.requireInput(2);
  if (failed(x) || failed(rois) || failed(indices))
    return failure();
  auto type = NodeContext::typeOf(*x);
  if (type.getRank() != 4)
    return ctx.invalid("X must be [N, C, H, W]");
  if (type.isDynamicDim(2) || type.isDynamicDim(3))
    return ctx.unsupported("dynamic spatial sizes of X");
  if (type.getDimSize(2) == 0 || type.getDimSize(3) == 0)
    return ctx.unsupported("an empty input plane");
  if (NodeContext::typeOf(*rois).getElementType() != type.getElementType())
    return ctx.invalid("rois must have the element type of X");
  std::string mode = ctx.getString("mode", "avg");
  if (mode != "avg" && mode != "max")
    return ctx.invalid("unknown mode '" + mode + "'");
  std::string coord = ctx.opset < 16 ? "output_half_pixel"
                                     : ctx.getString("coordinate_transformation_mode",
                                                     "half_pixel");
  if (coord != "half_pixel" && coord != "output_half_pixel")
    return ctx.invalid("unknown coordinate_transformation_mode '" + coord + "'");
  int64_t height = ctx.getInt("output_height", 1), width = ctx.getInt("output_width", 1);
  int64_t ratio = ctx.getInt("sampling_ratio", 0);
  if (height < 1 || width < 1 || ratio < 0)
    return ctx.invalid("output sizes must be >= 1 and sampling_ratio >= 0");
  SmallVector<NamedAttribute> attrs = {
      ctx.namedAttr("mode", ctx.builder.getStringAttr(mode)),
      ctx.namedAttr("output_height", ctx.builder.getI64IntegerAttr(height)),
      ctx.namedAttr("output_width", ctx.builder.getI64IntegerAttr(width)),
      ctx.namedAttr("sampling_ratio", ctx.builder.getI64IntegerAttr(ratio)),
      ctx.namedAttr("spatial_scale",
                    ctx.builder.getF32FloatAttr(ctx.getFloat("spatial_scale", 1.0f)))};
  if (coord == "half_pixel")
    attrs.push_back(ctx.namedAttr("half_pixel", ctx.builder.getUnitAttr()));
  results.push_back(ctx.build<RoiAlignOp>({*x, *rois, *indices}, attrs));
  return success(results.back() != nullptr);
}

/// The static shape of `v`, or failure (recorded) when it has dynamic sizes.
FailureOr<ArrayRef<int64_t>> staticShape(NodeContext &ctx, Value v,
                                         StringRef what) {
  auto type = NodeContext::typeOf(v);
  if (!type.hasStaticShape())
    return ctx.unsupported(what + Twine(" with dynamic sizes"));
  return type.getShape();
}

/// The geometry of a 2-D DeformConv, checked against the operand shapes.
struct DeformGeometry {
  int64_t n, c, h, w;          // X
  int64_t m, cPerGroup, kh, kw; // W
  int64_t oh, ow;              // from the offsets
  int64_t group, offsetGroup;
  SmallVector<int64_t> strides, dilations, pads;
};

FailureOr<DeformGeometry> deformGeometry(NodeContext &ctx, Value x, Value w,
                                         Value offset, Value mask) {
  FailureOr<ArrayRef<int64_t>> xs = staticShape(ctx, x, "X"),
                               ws = staticShape(ctx, w, "W"),
                               os = staticShape(ctx, offset, "offset");
  if (failed(xs) || failed(ws) || failed(os))
    return failure();
  if (xs->size() != 4)
    return ctx.unsupported("DeformConv other than 2-D");
  if (ws->size() != 4 || os->size() != 4)
    return ctx.invalid("W and offset must be 4-D like X");
  DeformGeometry g{(*xs)[0], (*xs)[1], (*xs)[2], (*xs)[3], (*ws)[0], (*ws)[1],
                   (*ws)[2], (*ws)[3], (*os)[2], (*os)[3],
                   ctx.getInt("group", 1), ctx.getInt("offset_group", 1),
                   ctx.getInts("strides").value_or(SmallVector<int64_t>{1, 1}),
                   ctx.getInts("dilations").value_or(SmallVector<int64_t>{1, 1}),
                   ctx.getInts("pads").value_or(SmallVector<int64_t>{0, 0, 0, 0})};
  if (auto kernel = ctx.getInts("kernel_shape"))
    if (*kernel != SmallVector<int64_t>{g.kh, g.kw})
      return ctx.invalid("kernel_shape disagrees with W");
  if (g.strides.size() != 2 || g.dilations.size() != 2 || g.pads.size() != 4)
    return ctx.invalid("strides, dilations and pads need 2, 2 and 4 values");
  if (llvm::any_of(g.strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(g.dilations, [](int64_t d) { return d < 1; }))
    return ctx.invalid("strides and dilations must be >= 1");
  if (g.group < 1 || g.offsetGroup < 1 || g.c != g.cPerGroup * g.group ||
      g.m % g.group != 0 || g.c % g.offsetGroup != 0)
    return ctx.invalid("group and offset_group must divide the channels");
  int64_t taps = g.kh * g.kw;
  if ((*os)[0] != g.n || (*os)[1] != 2 * taps * g.offsetGroup)
    return ctx.invalid("offset must be [N, offset_group * kH * kW * 2, oH, oW]");
  for (int64_t i = 0; i < 2; ++i) {
    int64_t in = i ? g.w : g.h, k = i ? g.kw : g.kh, out = i ? g.ow : g.oh;
    int64_t span = (k - 1) * g.dilations[i] + 1;
    if (out != (in + g.pads[i] + g.pads[2 + i] - span) / g.strides[i] + 1)
      return ctx.invalid("the offset's spatial sizes disagree with the "
                         "convolution's output");
  }
  if (mask) {
    auto ms = NodeContext::typeOf(mask).getShape();
    if (ms != ArrayRef<int64_t>{g.n, taps * g.offsetGroup, g.oh, g.ow})
      return ctx.invalid("mask must be [N, offset_group * kH * kW, oH, oW]");
  }
  return g;
}

/// The kernel taps' positions without offsets, [1, 1, kH*kW, 2, oH, oW]:
/// (y, x) of tap (i, j) at output (oh, ow).
Value deformBase(NodeContext &ctx, const DeformGeometry &g, Type element) {
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < g.kh; ++i)
    for (int64_t j = 0; j < g.kw; ++j)
      for (int64_t axis = 0; axis < 2; ++axis)
        for (int64_t oh = 0; oh < g.oh; ++oh)
          for (int64_t ow = 0; ow < g.ow; ++ow) {
            double v = axis == 0 ? oh * g.strides[0] - g.pads[0] + i * g.dilations[0]
                                 : ow * g.strides[1] - g.pads[1] + j * g.dilations[1];
            values.push_back(ctx.builder.getFloatAttr(element, v));
          }
  auto type = RankedTensorType::get({1, 1, g.kh * g.kw, 2, g.oh, g.ow}, element);
  return ctx.constant(DenseElementsAttr::get(type, values));
}

LogicalResult deformConv(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> x = ctx.requireInput(0), w = ctx.requireInput(1),
                   offset = ctx.requireInput(2);
  if (failed(x) || failed(w) || failed(offset))
    return failure();
  Value bias = ctx.input(3), mask = ctx.input(4);
  Type element = NodeContext::typeOf(*x).getElementType();
  if (!isa<FloatType>(element))
    return ctx.invalid("DeformConv takes float tensors");
  FailureOr<DeformGeometry> geometry = deformGeometry(ctx, *x, *w, *offset, mask);
  if (failed(geometry))
    return failure();
  const DeformGeometry &g = *geometry;
  int64_t taps = g.kh * g.kw, G = g.offsetGroup, cg = g.c / G;
  if (failed(checkMaterializedSize(ctx, {g.kh, g.kw, 2, g.oh, g.ow})))
    return failure();

  // Sampling positions [N, G, taps, 2, oH, oW], then as a grid_sample grid
  // [N*G, taps*oH, oW, (x, y)].
  Value pos = reshapeTo(ctx, *offset, {g.n, G, taps, 2, g.oh, g.ow});
  pos = pos ? ctx.build<AddOp>({pos, deformBase(ctx, g, element)}) : nullptr;
  pos = pos ? ctx.build<SliceOp>(
                  {pos}, {ctx.namedAttr("starts", ctx.i64Array({0, 0, 0, 1, 0, 0})),
                          ctx.namedAttr("ends", ctx.i64Array({g.n, G, taps, -1, g.oh, g.ow})),
                          ctx.namedAttr("steps", ctx.i64Array({1, 1, 1, -1, 1, 1}))})
            : nullptr;
  pos = pos ? ctx.build<TransposeOp>(
                  {pos}, {ctx.namedAttr("permutation", ctx.i64Array({0, 1, 2, 4, 5, 3}))})
            : nullptr;
  Value grid = pos ? reshapeTo(ctx, pos, {g.n * G, taps * g.oh, g.ow, 2}) : nullptr;
  Value planes = reshapeTo(ctx, *x, {g.n * G, cg, g.h, g.w});
  if (!grid || !planes)
    return failure();
  // Bilinear samples with zeros outside: [N*G, C/G, taps*oH, oW].
  Value cols = ctx.build<GridSampleOp>(
      {planes, grid}, {ctx.namedAttr("mode", ctx.builder.getStringAttr("linear")),
                       ctx.namedAttr("padding_mode", ctx.builder.getStringAttr("zeros")),
                       ctx.namedAttr("align_corners", ctx.builder.getUnitAttr()),
                       ctx.namedAttr("unnormalized", ctx.builder.getUnitAttr())});
  if (cols && mask) {
    cols = reshapeTo(ctx, cols, {g.n, G, cg, taps, g.oh, g.ow});
    Value m = reshapeTo(ctx, mask, {g.n, G, 1, taps, g.oh, g.ow});
    cols = cols && m ? ctx.build<MulOp>({cols, m}) : nullptr;
  }
  // The convolution: per conv group, W [M/group, C/group*taps] times the
  // samples [C/group*taps, oH*oW].
  int64_t reduce = g.cPerGroup * taps, mg = g.m / g.group;
  cols = cols ? reshapeTo(ctx, cols, {g.n, g.group, reduce, g.oh * g.ow}) : nullptr;
  Value weights = reshapeTo(ctx, *w, {1, g.group, mg, reduce});
  Value y = cols && weights ? ctx.build<BatchMatmulOp>({weights, cols}) : nullptr;
  y = y ? reshapeTo(ctx, y, {g.n, g.m, g.oh, g.ow}) : nullptr;
  if (y && bias) {
    Value b = reshapeTo(ctx, bias, {1, g.m, 1, 1});
    y = b ? ctx.build<AddOp>({y, b}) : nullptr;
  }
  results.push_back(y);
  return success(y != nullptr);
}

/// NonMaxSuppression: absent limits take the spec's defaults (no boxes,
/// IoU threshold 0, no score threshold); present ones are read at run time.
LogicalResult nonMaxSuppression(NodeContext &ctx,
                                SmallVectorImpl<Value> &results) {
  FailureOr<Value> boxes = ctx.requireInput(0, 3, 3),
                   scores = ctx.requireInput(1, 3, 3);
  if (failed(boxes) || failed(scores))
    return failure();
  auto single = [&](Value v) { return v ? reshapeTo(ctx, v, {1}) : v; };
  Value maxOut = ctx.input(2) ? single(ctx.input(2)) : ctx.constantI64({0});
  Value iou = ctx.input(3) ? single(ctx.input(3))
                           : reshapeTo(ctx, ctx.scalar(ctx.builder.getF32Type(), 0),
                                       {1});
  SmallVector<Value> operands = {*boxes, *scores, maxOut, iou};
  if (Value score = ctx.input(4))
    operands.push_back(single(score));
  SmallVector<NamedAttribute> attrs;
  int64_t format = ctx.getInt("center_point_box", 0);
  if (format != 0 && format != 1)
    return ctx.invalid("center_point_box must be 0 or 1");
  if (format == 1)
    attrs.push_back(ctx.namedAttr("center_point_box", ctx.builder.getUnitAttr()));
  results.push_back(ctx.build<NonMaxSuppressionOp>(operands, attrs));
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerSamplingHandlers(OpRegistry &r) {
  r.add("NonMaxSuppression", 10, nonMaxSuppression);
  r.add("GridSample", 16, gridSample);
  r.add("AffineGrid", 20, affineGrid);
  r.add("RoiAlign", 10, roiAlign);
  r.add("DeformConv", 19, deformConv);
}
