//===- SignalHandlers.cpp - DFT, STFT, windows, MelWeightMatrix to tc -----===//
//
// The signal-processing ops' sizes (transform length, number of mel bins)
// decide their result shapes. Known at import time, a window or a mel
// weight matrix is a constant computed here in double precision, and a DFT
// is one matmul with a constant cos/sin matrix over the [real, imag] pairs
// of the transformed axis. Read at run time (a window size, STFT's
// frame_length, MelWeightMatrix's parameters), the same values are
// computed in f64 tc ops over tc.range vectors, with run-time extents.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "../TensorImport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <functional>
#include <limits>
#include <tuple>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// A constant of `shape` and `element` from double values: rounded to
/// nearest even for floats, truncated toward zero for integers (numpy's
/// astype).
Value constantOf(NodeContext &ctx, ArrayRef<int64_t> shape, Type element,
                 ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, element);
  if (auto ft = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> converted;
    for (double v : values) {
      APFloat f(v);
      bool lost;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      converted.push_back(f);
    }
    return ctx.constant(DenseElementsAttr::get(type, converted));
  }
  unsigned width = element.getIntOrFloatBitWidth();
  SmallVector<APInt> converted;
  for (double v : values)
    converted.push_back(APInt(width, static_cast<uint64_t>(static_cast<int64_t>(v)),
                              /*isSigned=*/false, /*implicitTrunc=*/true));
  return ctx.constant(DenseElementsAttr::get(type, converted));
}

/// The value of a one-element constant input (integer or float).
std::optional<double> constantScalar(NodeContext &ctx, Value v) {
  DenseElementsAttr attr = v ? ctx.getConstant(v) : DenseElementsAttr();
  if (!attr || attr.getNumElements() != 1)
    return std::nullopt;
  Attribute a = attr.getValues<Attribute>()[0];
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(a))
    return static_cast<double>(i.getValue().getSExtValue());
  return std::nullopt;
}

/// `v` as an integer; NaN and magnitudes beyond 2^62, which do not convert,
/// become int64's minimum (which every caller rejects as out of range).
int64_t toInt(double v) {
  return std::abs(v) < 0x1p62 ? static_cast<int64_t>(v)
                              : std::numeric_limits<int64_t>::min();
}

/// A one-element constant input as an integer, or a recorded problem.
FailureOr<int64_t> requireConstantInt(NodeContext &ctx, size_t index,
                                      llvm::StringRef what) {
  std::optional<double> v = constantScalar(ctx, ctx.input(index));
  if (!v)
    return ctx.unsupported(llvm::Twine(what) + " computed at run time");
  return toInt(*v);
}

/// The element type named by the `output_datatype` attribute (default
/// float32).
FailureOr<Type> outputDatatype(NodeContext &ctx) {
  std::string why;
  Type t = convertElementType(ctx.builder.getContext(),
                              static_cast<int32_t>(ctx.getInt("output_datatype", 1)), why);
  if (!t)
    return ctx.unsupported("output_datatype: " + why);
  return t;
}

Value transposeTo(NodeContext &ctx, Value v, ArrayRef<int64_t> perm) {
  if (!v || llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return v;
  return ctx.build<TransposeOp>({v}, {ctx.namedAttr("permutation", ctx.i64Array(perm))});
}

/// v[start:end] along `axis`.
Value sliceAxis(NodeContext &ctx, Value v, int64_t axis, int64_t start, int64_t end) {
  if (!v)
    return nullptr;
  auto t = NodeContext::typeOf(v);
  SmallVector<int64_t> starts(t.getRank(), 0), ends = wholeSliceEnds(t),
                       steps(t.getRank(), 1);
  starts[axis] = start;
  ends[axis] = end;
  return ctx.build<SliceOp>({v}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                  ctx.namedAttr("ends", ctx.i64Array(ends)),
                                  ctx.namedAttr("steps", ctx.i64Array(steps))});
}

//===--- Windows ---------------------------------------------------------===//

/// The window of cosineWindow for a size read at run time: computed in f64
/// over n = tc.range(0, size) and cast to the output type, the size checked
/// to be non-negative.
LogicalResult runtimeCosineWindow(NodeContext &ctx, SmallVectorImpl<Value> &results,
                                  Type element, double a0, double a1, double a2) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  FailureOr<Value> sizeIn = ctx.requireInput(0, 0, 1);
  if (failed(sizeIn))
    return failure();
  auto sizeType = NodeContext::typeOf(*sizeIn);
  if (sizeType.getNumElements() != 1 || !sizeType.getElementType().isInteger())
    return ctx.invalid("the window size must be one integer");
  auto f64 = b.getF64Type();
  auto [size, scalar] = runtimeI64Scalar(ctx, *sizeIn);
  if (!size)
    return failure();
  assertAtRunTime(ctx,
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, scalar,
                                        arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0)),
                  "the window size computed at run time is negative");
  auto dynamic = [&](Type t) { return RankedTensorType::get({ShapedType::kDynamic}, t); };
  auto scalarOf = [&](double v) { return constantOf(ctx, {}, f64, {v}); };
  Value n = ctx.build<RangeOp>(
      {ctx.constantI64({0}, true), size, ctx.constantI64({1}, true)}, {},
      {dynamic(b.getI64Type())});
  n = n ? ctx.build<CastOp>({n}, {}, {dynamic(f64)}) : nullptr;
  // N = size or size - 1; a one-point symmetric window (N = 0) is its peak,
  // which N = 1 gives as well (phase 0 at n = 0).
  Value sizeF = ctx.build<CastOp>({size}, {}, {RankedTensorType::get({}, f64)});
  Value periodN = ctx.getInt("periodic", 1)
                      ? sizeF
                      : (sizeF ? ctx.build<SubOp>({sizeF, scalarOf(1)}) : nullptr);
  Value positive = compareValues(ctx, ComparePredicate::gt, periodN, scalarOf(0));
  periodN = positive ? ctx.build<SelectOp>({positive, periodN, scalarOf(1)}) : nullptr;
  Value phase = n && periodN
                    ? ctx.build<DivOp>({ctx.build<MulOp>({n, scalarOf(2 * M_PI)}), periodN})
                    : nullptr;
  if (!phase)
    return failure();
  Value window = ctx.build<SubOp>(
      {scalarOf(a0), ctx.build<MulOp>({ctx.build<CosOp>({phase}), scalarOf(a1)})});
  if (a2 != 0)
    window = ctx.build<AddOp>(
        {window,
         ctx.build<MulOp>({ctx.build<CosOp>({ctx.build<MulOp>({phase, scalarOf(2)})}),
                           scalarOf(a2)})});
  results.push_back(element == f64 ? window
                                   : ctx.build<CastOp>({window}, {}, {dynamic(element)}));
  return success(results.back() != nullptr);
}

/// A generalized cosine window a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N)
/// with N = size (periodic) or size - 1 (symmetric).
LogicalResult cosineWindow(NodeContext &ctx, SmallVectorImpl<Value> &results,
                           double a0, double a1, double a2) {
  FailureOr<Type> element = outputDatatype(ctx);
  if (failed(element))
    return failure();
  if (!constantScalar(ctx, ctx.input(0)))
    return runtimeCosineWindow(ctx, results, *element, a0, a1, a2);
  FailureOr<int64_t> size = requireConstantInt(ctx, 0, "a window size");
  if (failed(size))
    return failure();
  if (*size < 0)
    return ctx.invalid("the window size must not be negative");
  if (failed(checkMaterializedSize(ctx, *size)))
    return failure();
  double n1 = ctx.getInt("periodic", 1) ? *size : *size - 1;
  SmallVector<double> values;
  for (int64_t n = 0; n < *size; ++n) {
    // A one-point symmetric window has N = 0: it is the window's peak.
    double phase = n1 > 0 ? 2 * M_PI * n / n1 : 0;
    values.push_back(a0 - a1 * std::cos(phase) + a2 * std::cos(2 * phase));
  }
  results.push_back(constantOf(ctx, {*size}, *element, values));
  return success();
}

//===--- DFT -------------------------------------------------------------===//

/// The [used * channels, bins * 2] matrix that takes the (real[, imag])
/// values of the first `used` points of a signal to the (real, imag) values
/// of its first `bins` frequencies for a transform of `length` points:
/// sum_n x_n e^(-+2 pi i k n / length), divided by `length` when inverse.
Value dftMatrix(NodeContext &ctx, Type element, int64_t used, int64_t channels,
                int64_t length, int64_t bins, bool inverse) {
  double sign = inverse ? 1.0 : -1.0, scale = inverse ? 1.0 / length : 1.0;
  SmallVector<double> w(used * channels * bins * 2);
  for (int64_t n = 0; n < used; ++n)
    for (int64_t k = 0; k < bins; ++k) {
      // (k n) mod length keeps the angle small, so cos/sin stay accurate.
      double theta = 2 * M_PI * static_cast<double>((k * n) % length) / length;
      double c = std::cos(theta) * scale, s = sign * std::sin(theta) * scale;
      // (xr + i xi)(c + i s) = (xr c - xi s) + i (xr s + xi c).
      int64_t row = n * channels, col = 2 * k, cols = bins * 2;
      w[row * cols + col] = c;
      w[row * cols + col + 1] = s;
      if (channels == 2) {
        w[(row + 1) * cols + col] = -s;
        w[(row + 1) * cols + col + 1] = c;
      }
    }
  return constantOf(ctx, {used * channels, bins * 2}, element, w);
}

/// The transform of `x` ([outer..., used, channels], `outer` flattening to
/// at most one dynamic size) along its second-to-last axis: [outer...,
/// bins, 2].
Value applyDft(NodeContext &ctx, Value x, int64_t length, int64_t bins,
               bool inverse) {
  if (!x)
    return nullptr;
  auto t = NodeContext::typeOf(x);
  int64_t rank = t.getRank(), used = t.getDimSize(rank - 2),
          channels = t.getDimSize(rank - 1);
  int64_t outer = 1;
  for (int64_t d : t.getShape().drop_back(2))
    outer = ShapedType::isDynamic(d) || ShapedType::isDynamic(outer)
                ? ShapedType::kDynamic
                : outer * d;
  Value flat = reshapeTo(ctx, x, {outer, used * channels});
  Value w = dftMatrix(ctx, t.getElementType(), used, channels, length, bins, inverse);
  Value y = flat && w ? ctx.build<MatmulOp>({flat, w}) : nullptr;
  SmallVector<int64_t> shape(t.getShape().drop_back(2));
  shape.append({bins, 2});
  return y ? reshapeTo(ctx, y, shape) : nullptr;
}

/// Fails unless `t` has at most one dynamic size outside `except` (the
/// reshapes around the matmul can carry only one).
LogicalResult checkOneDynamic(NodeContext &ctx, RankedTensorType t,
                              ArrayRef<int64_t> except) {
  int64_t dynamic = 0;
  for (int64_t i = 0; i < t.getRank(); ++i)
    if (t.isDynamicDim(i) && !llvm::is_contained(except, i))
      ++dynamic;
  if (dynamic > 1)
    return ctx.unsupported("more than one dynamic batch dimension");
  return success();
}

/// The DFT of `x` along the static `axis` (not the last): `length` points
/// (the axis's size when not given), `bins` of them kept when onesided.
Value dftAlong(NodeContext &ctx, Value x, int64_t axis,
               std::optional<int64_t> dftLength, bool inverse, bool onesided) {
  auto type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  int64_t channels = type.getDimSize(rank - 1);
  int64_t size = type.getDimSize(axis);
  if (ShapedType::isDynamic(size)) {
    (void)ctx.unsupported("a transformed dimension of dynamic size");
    return nullptr;
  }
  int64_t length = dftLength.value_or(size);
  if (length <= 0) {
    (void)ctx.invalid("dft_length must be positive");
    return nullptr;
  }
  int64_t bins = onesided ? length / 2 + 1 : length;
  int64_t used = std::min(size, length);
  if (failed(checkOneDynamic(ctx, type, {axis, rank - 1})) ||
      failed(checkMaterializedSize(ctx, {used, channels, bins, 2})))
    return nullptr;
  // Points past dft_length are dropped; the zero padding up to it adds
  // nothing, so the matrix has rows only for the points present.
  if (used < size)
    x = sliceAxis(ctx, x, axis, 0, used);
  // [others..., axis, channels] for the matmul, and back.
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank - 1; ++i)
    if (i != axis)
      perm.push_back(i);
  perm.append({axis, rank - 1});
  SmallVector<int64_t> back(rank);
  for (int64_t i = 0; i < rank; ++i)
    back[perm[i]] = i;
  Value y = applyDft(ctx, transposeTo(ctx, x, perm), length, bins, inverse);
  return transposeTo(ctx, y, back);
}

/// DFT along an axis read at run time: the transform along each candidate
/// axis (every one but the last), chained under scf.ifs on whether the
/// checked axis names it, the last candidate taken when none before did.
/// Branch results whose shapes differ (onesided, dft_length) meet in a type
/// with those dimensions dynamic.
Value dftAlongRuntimeAxis(NodeContext &ctx, Value x, Value axisIn,
                          std::optional<int64_t> dftLength, bool inverse,
                          bool onesided) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  int64_t rank = NodeContext::typeOf(x).getRank();
  RankedTensorType axisType = NodeContext::typeOf(axisIn);
  if (axisType.getNumElements() != 1 || !axisType.getElementType().isInteger()) {
    (void)ctx.invalid("axis needs one integer value");
    return nullptr;
  }
  SmallVector<Value> flags = runtimeAxisFlags(ctx, runtimeSingleAxis(ctx, axisIn), rank);
  Value notLast = arith::XOrIOp::create(
      b, loc, flags[rank - 1], arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  assertAtRunTime(ctx, notLast, "the axis cannot be the real/imaginary dimension");
  b.getContext()->getOrLoadDialect<scf::SCFDialect>();
  // Built from the outermost if in: each arm is built where it runs, and
  // the if's result type is set once both arms are known.
  std::function<Value(int64_t)> chain = [&](int64_t d) -> Value {
    if (d == rank - 2)
      return dftAlong(ctx, x, d, dftLength, inverse, onesided);
    auto branch = scf::IfOp::create(b, loc, TypeRange{x.getType()}, flags[d],
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value then = dftAlong(ctx, x, d, dftLength, inverse, onesided);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    Value otherwise = chain(d + 1);
    if (!then || !otherwise)
      return nullptr;
    // The type both arms meet in: a dimension they disagree on is dynamic.
    auto a = cast<RankedTensorType>(then.getType());
    auto c = cast<RankedTensorType>(otherwise.getType());
    SmallVector<int64_t> shape;
    for (auto [x1, x2] : llvm::zip(a.getShape(), c.getShape()))
      shape.push_back(x1 == x2 ? x1 : ShapedType::kDynamic);
    auto joined = RankedTensorType::get(shape, a.getElementType());
    for (auto [region, value] : {std::pair{&branch.getThenRegion(), then},
                                 std::pair{&branch.getElseRegion(), otherwise}}) {
      b.setInsertionPointToEnd(&region->front());
      Value yielded = value.getType() == joined
                          ? value
                          : tensor::CastOp::create(b, loc, joined, value).getResult();
      scf::YieldOp::create(b, loc, yielded);
    }
    branch.getResult(0).setType(joined);
    return branch.getResult(0);
  };
  return chain(0);
}

LogicalResult dft(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> xIn = ctx.requireInput(0);
  if (failed(xIn))
    return failure();
  Value x = *xIn;
  auto type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  if (!isa<FloatType>(type.getElementType()))
    return ctx.invalid("DFT takes floating-point input");
  if (rank < 2)
    return ctx.invalid("input must have rank >= 2");
  int64_t channels = type.getDimSize(rank - 1);
  if (channels != 1 && channels != 2)
    return ctx.invalid("the last dimension must be 1 (real) or 2 (complex)");
  std::optional<int64_t> length;
  if (ctx.input(1)) {
    FailureOr<int64_t> l = requireConstantInt(ctx, 1, "a dft_length");
    if (failed(l))
      return failure();
    length = *l;
  }
  bool inverse = ctx.getInt("inverse", 0) != 0;
  bool onesided = ctx.getInt("onesided", 0) != 0;
  // Opset 20 moved the axis from an attribute (default 1) to an input
  // (default -2).
  int64_t axis = ctx.getInt("axis", 1);
  if (ctx.opset >= 20) {
    axis = -2;
    if (Value axisIn = ctx.input(2)) {
      if (!constantScalar(ctx, axisIn)) {
        results.push_back(dftAlongRuntimeAxis(ctx, x, axisIn, length, inverse, onesided));
        return success(results.back() != nullptr);
      }
      FailureOr<int64_t> a = requireConstantInt(ctx, 2, "an axis");
      if (failed(a))
        return failure();
      axis = *a;
    }
  }
  if (axis < -rank || axis >= rank)
    return ctx.invalid(llvm::formatv("axis {0} out of range", axis));
  axis = axis < 0 ? axis + rank : axis;
  if (axis == rank - 1)
    return ctx.invalid("the axis cannot be the real/imaginary dimension");
  results.push_back(dftAlong(ctx, x, axis, length, inverse, onesided));
  return success(results.back() != nullptr);
}

//===--- STFT ------------------------------------------------------------===//

/// STFT: frames of the signal [batch, length, channels] gathered with a
/// constant index matrix, weighted by the window, then one DFT each.
/// The [frames, frame_length] gather indices of STFT for a frame_step read
/// at run time (checked positive): frame starts tc.range(0, length -
/// frame_length + 1, step) as a column, plus 0..frame_length - 1.
Value runtimeFrameIndices(NodeContext &ctx, Value stepIn, int64_t length,
                          int64_t frameLength) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  auto stepType = NodeContext::typeOf(stepIn);
  if (stepType.getNumElements() != 1 || !stepType.getElementType().isInteger()) {
    (void)ctx.invalid("frame_step must be one integer");
    return nullptr;
  }
  auto [step, scalar] = runtimeI64Scalar(ctx, stepIn);
  if (!step)
    return nullptr;
  assertAtRunTime(ctx,
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, scalar,
                                        arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0)),
                  "the frame_step computed at run time must be positive");
  Value starts = ctx.build<RangeOp>(
      {ctx.constantI64({0}, true), ctx.constantI64({length - frameLength + 1}, true), step},
      {}, {RankedTensorType::get({ShapedType::kDynamic}, b.getI64Type())});
  if (!starts)
    return nullptr;
  Value frames = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                            tensor::DimOp::create(b, loc, starts, 0));
  Value column = ctx.build<ReshapeOp>(
      {starts, tensor::FromElementsOp::create(
                   b, loc, ValueRange{frames, arith::ConstantIntOp::create(
                                                  b, loc, b.getI64Type(), 1)})},
      {}, {RankedTensorType::get({ShapedType::kDynamic, 1}, b.getI64Type())});
  SmallVector<int64_t> offsets(frameLength);
  for (int64_t j = 0; j < frameLength; ++j)
    offsets[j] = j;
  Value row = reshapeTo(ctx, ctx.constantI64(offsets), {1, frameLength});
  return column && row ? ctx.build<AddOp>({column, row}) : nullptr;
}

/// STFT without a window whose frame_length is read at run time: the
/// frames' gather indices and the DFT matrix are computed at run time
/// (the matrix in f64 over tc.range vectors, as dftMatrix computes the
/// constant one), so the number of frames and of frequency bins are
/// run-time extents. `step` is the constant frame_step, if it is one.
Value runtimeFrameLengthStft(NodeContext &ctx, Value signal, Value stepIn,
                             std::optional<int64_t> step, Value lengthIn) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type f64 = b.getF64Type(), i64 = b.getI64Type();
  auto type = NodeContext::typeOf(signal);
  int64_t length = type.getDimSize(1), channels = type.getDimSize(2);
  constexpr int64_t dyn = ShapedType::kDynamic;
  auto lengthType = NodeContext::typeOf(lengthIn);
  if (lengthType.getNumElements() != 1 || !lengthType.getElementType().isInteger()) {
    (void)ctx.invalid("frame_length must be one integer");
    return nullptr;
  }
  // Plain variables, not structured bindings: lambdas below capture them.
  Value frameLength, fl;
  std::tie(frameLength, fl) = runtimeI64Scalar(ctx, lengthIn);
  if (!frameLength)
    return nullptr;
  auto i64c = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, i64, v); };
  Value lengthValid = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, fl, i64c(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, fl, i64c(length)));
  assertAtRunTime(ctx, lengthValid,
                  "the frame_length computed at run time must be in [1, the signal's length]");
  // Extents may be computed before the check runs (to plan memory): a
  // select keeps a rejected length (a zero would divide) out of them.
  fl = arith::SelectOp::create(b, loc, lengthValid, fl, i64c(1));
  frameLength = i64Scalar(ctx, fl);
  Value stepScalar;
  if (step) {
    stepScalar = ctx.constantI64({*step}, true);
  } else {
    auto [s, sv] = runtimeI64Scalar(ctx, stepIn);
    if (!s)
      return nullptr;
    Value stepValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, sv, i64c(0));
    assertAtRunTime(ctx, stepValid, "the frame_step computed at run time must be positive");
    stepScalar = i64Scalar(ctx, arith::SelectOp::create(b, loc, stepValid, sv, i64c(1)));
  }
  auto asF64 = [&](Value v) -> Value {
    if (!v)
      return nullptr;
    return ctx.build<CastOp>(
        {v}, {}, {RankedTensorType::get(NodeContext::typeOf(v).getShape(), f64)});
  };
  Value zero = ctx.constantI64({0}, true), one = ctx.constantI64({1}, true);
  // Frame f reads the signal at f * step + 0 .. frame_length - 1.
  Value starts = i64Range(ctx, zero, i64Scalar(ctx, arith::AddIOp::create(b, loc, arith::SubIOp::create(b, loc, i64c(length), fl), i64c(1))),
                       stepScalar);
  if (!starts)
    return nullptr;
  Value frames = arith::IndexCastOp::create(b, loc, i64, tensor::DimOp::create(b, loc, starts, 0));
  Value offsets = i64Range(ctx, zero, frameLength, one);
  Value idx = ctx.build<AddOp>({reshapeToValues(ctx, starts, {frames, i64c(1)}, {dyn, 1}),
                                reshapeToValues(ctx, offsets, {i64c(1), fl}, {1, dyn})});
  Value framed = ctx.build<GatherOp>({signal, idx},
                                     {ctx.namedAttr("axis", b.getI64IntegerAttr(1))});
  // The DFT matrix [frame_length * channels, bins * 2]: angle 2 pi ((k n)
  // mod frame_length) / frame_length, forward (negative sine).
  Value bins = ctx.getInt("onesided", 1)
                   ? arith::AddIOp::create(b, loc, arith::DivSIOp::create(b, loc, fl, i64c(2)),
                                           i64c(1))
                         .getResult()
                   : fl;
  Value n = reshapeToValues(ctx, offsets, {fl, i64c(1)}, {dyn, 1});
  Value k = reshapeToValues(ctx, i64Range(ctx, zero, i64Scalar(ctx, bins), one), {i64c(1), bins}, {1, dyn});
  Value kn = ctx.build<ModOp>({ctx.build<MulOp>({n, k}), frameLength});
  Value theta = ctx.build<DivOp>(
      {ctx.build<MulOp>({asF64(kn), ctx.scalar(f64, 2 * M_PI)}), asF64(frameLength)});
  Value c = ctx.build<CosOp>({theta});
  Value sine = ctx.build<SinOp>({theta});
  Value negSine = ctx.build<NegOp>({sine});
  // (xr + i xi)(c - i s) = (xr c + xi s) + i (xr (-s) + xi c).
  auto pair = [&](Value re, Value im) {
    return ctx.build<ConcatOp>(
        {reshapeToValues(ctx, re, {fl, i64c(1), bins, i64c(1)}, {dyn, 1, dyn, 1}),
         reshapeToValues(ctx, im, {fl, i64c(1), bins, i64c(1)}, {dyn, 1, dyn, 1})},
        {ctx.namedAttr("axis", b.getI64IntegerAttr(3))});
  };
  Value matrix = pair(c, negSine);
  if (channels == 2)
    matrix = ctx.build<ConcatOp>({matrix, pair(sine, c)},
                                 {ctx.namedAttr("axis", b.getI64IntegerAttr(1))});
  Value rows = arith::MulIOp::create(b, loc, fl, i64c(channels));
  Value cols = arith::MulIOp::create(b, loc, bins, i64c(2));
  Type element = type.getElementType();
  matrix = reshapeToValues(ctx, matrix, {rows, cols}, {dyn, dyn});
  if (matrix && element != f64)
    matrix = ctx.build<CastOp>({matrix}, {}, {RankedTensorType::get({dyn, dyn}, element)});
  // [batch * frames, frame_length * channels] x matrix.
  Value batch = type.isDynamicDim(0)
                    ? arith::IndexCastOp::create(b, loc, i64, tensor::DimOp::create(b, loc, signal, 0))
                          .getResult()
                    : i64c(type.getDimSize(0));
  Value flat = reshapeToValues(ctx, framed, {arith::MulIOp::create(b, loc, batch, frames), rows},
                               {dyn, dyn});
  Value y = ctx.build<MatmulOp>({flat, matrix});
  return reshapeToValues(ctx, y, {batch, frames, bins, i64c(2)},
                         {type.getDimSize(0), dyn, dyn, 2});
}

LogicalResult stft(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> signal = ctx.requireInput(0);
  if (failed(signal))
    return failure();
  auto type = NodeContext::typeOf(*signal);
  if (type.getRank() != 3 || !isa<FloatType>(type.getElementType()))
    return ctx.invalid("the signal must be a float [batch, length, 1 or 2] tensor");
  int64_t length = type.getDimSize(1), channels = type.getDimSize(2);
  if (ShapedType::isDynamic(length))
    return ctx.unsupported("a signal of dynamic length");
  if (channels != 1 && channels != 2)
    return ctx.invalid("the last dimension must be 1 (real) or 2 (complex)");
  // A frame_step read at run time gives a dynamic number of frames; their
  // starts are tc.range(0, length - frame_length + 1, step).
  FailureOr<Value> stepIn = ctx.requireInput(1, 0, 1);
  if (failed(stepIn))
    return failure();
  std::optional<int64_t> step;
  if (constantScalar(ctx, *stepIn)) {
    FailureOr<int64_t> s = requireConstantInt(ctx, 1, "a frame_step");
    if (failed(s))
      return failure();
    step = *s;
  }
  Value window = ctx.input(2);
  int64_t frameLength = length;
  if (window) {
    auto wt = NodeContext::typeOf(window);
    if (wt.getRank() != 1 || wt.isDynamicDim(0))
      return ctx.unsupported("a window that is not a static 1-D tensor");
    frameLength = wt.getDimSize(0);
  }
  if (ctx.input(3) && !window && !constantScalar(ctx, ctx.input(3))) {
    if (step && *step <= 0)
      return ctx.invalid("frame_step must be positive");
    results.push_back(runtimeFrameLengthStft(ctx, *signal, *stepIn, step, ctx.input(3)));
    return success(results.back() != nullptr);
  }
  if (ctx.input(3) && window && !constantScalar(ctx, ctx.input(3))) {
    // The window fixes the frame length; the run-time one must agree.
    auto [given, value] = runtimeI64Scalar(ctx, ctx.input(3));
    if (!given)
      return failure();
    assertAtRunTime(
        ctx,
        arith::CmpIOp::create(ctx.builder, ctx.loc, arith::CmpIPredicate::eq, value,
                              arith::ConstantIntOp::create(ctx.builder, ctx.loc,
                                                           ctx.builder.getI64Type(),
                                                           frameLength)),
        "the frame_length computed at run time differs from the window's length");
  } else if (ctx.input(3)) {
    FailureOr<int64_t> fl = requireConstantInt(ctx, 3, "a frame_length");
    if (failed(fl))
      return failure();
    if (window && *fl != frameLength)
      return ctx.invalid("frame_length differs from the window's length");
    frameLength = *fl;
  }
  if ((step && *step <= 0) || frameLength <= 0 || frameLength > length)
    return ctx.invalid("frame_step and frame_length must fit the signal");
  int64_t bins = ctx.getInt("onesided", 1) ? frameLength / 2 + 1 : frameLength;
  if (failed(checkMaterializedSize(ctx, {frameLength, channels, bins, 2})))
    return failure();
  Value idx;
  if (step) {
    int64_t frames = 1 + (length - frameLength) / *step;
    if (failed(checkMaterializedSize(ctx, {frames, frameLength})))
      return failure();
    SmallVector<int64_t> indices;
    for (int64_t f = 0; f < frames; ++f)
      for (int64_t j = 0; j < frameLength; ++j)
        indices.push_back(f * *step + j);
    idx = reshapeTo(ctx, ctx.constantI64(indices), {frames, frameLength});
  } else {
    idx = runtimeFrameIndices(ctx, *stepIn, length, frameLength);
  }
  if (!idx)
    return failure();
  // [batch, frames, frameLength, channels].
  Value framed = ctx.build<GatherOp>(
      {*signal, idx}, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(1))});
  if (framed && window) {
    Value w = reshapeTo(ctx, window, {frameLength, 1});
    framed = w ? ctx.build<MulOp>({framed, w}) : nullptr;
  }
  results.push_back(framed ? applyDft(ctx, framed, frameLength, bins, false) : nullptr);
  return success(results.back() != nullptr);
}

//===--- MelWeightMatrix -------------------------------------------------===//

/// MelWeightMatrix whose parameters are read at run time: the constant
/// path's arithmetic below in tc ops, the filter edges over tc.range(0,
/// bins + 2) and the triangles as one select over [dft_length / 2 + 1,
/// num_mel_bins], extents read at run time. A run-time check rejects what
/// the constant path rejects when importing: sizes that are not positive,
/// and edges outside the spectrogram.
LogicalResult runtimeMelWeightMatrix(NodeContext &ctx, SmallVectorImpl<Value> &results,
                                     Type element) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type f32 = b.getF32Type(), f64 = b.getF64Type(), i64 = b.getI64Type();
  SmallVector<Value> in;
  for (size_t i = 0; i < 5; ++i) {
    FailureOr<Value> v = ctx.requireInput(i, 0, 1);
    if (failed(v))
      return failure();
    if (NodeContext::typeOf(*v).getNumElements() != 1)
      return ctx.invalid("every parameter must be one value");
    in.push_back(reshapeTo(ctx, *v, {}));
  }
  if (!in[3] || !in[4] || !isa<FloatType>(NodeContext::typeOf(in[3]).getElementType()) ||
      !isa<FloatType>(NodeContext::typeOf(in[4]).getElementType()))
    return ctx.invalid("the edge frequencies must be floats");
  auto cast = [&](Value v, Type t) -> Value {
    if (!v || NodeContext::typeOf(v).getElementType() == t)
      return v;
    return ctx.build<CastOp>(
        {v}, {}, {RankedTensorType::get(NodeContext::typeOf(v).getShape(), t)});
  };
  auto f32c = [&](double v) { return ctx.scalar(f32, v); };
  auto f64c = [&](double v) { return ctx.scalar(f64, v); };
  // Plain variables, not structured bindings: lambdas below capture them.
  Value bins, binsV, length, lengthV, rate, rateV;
  std::tie(bins, binsV) = runtimeI64Scalar(ctx, in[0]);
  std::tie(length, lengthV) = runtimeI64Scalar(ctx, in[1]);
  std::tie(rate, rateV) = runtimeI64Scalar(ctx, in[2]);
  if (!bins || !length || !rate)
    return failure();
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  auto positive = [&](Value v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, v, zero);
  };
  assertAtRunTime(ctx,
                  arith::AndIOp::create(b, loc, positive(binsV),
                                        arith::AndIOp::create(b, loc, positive(lengthV),
                                                              positive(rateV))),
                  "num_mel_bins, dft_length and sample_rate must be positive");

  // The edges' mel values in f32 (log10 rounded from f64), their
  // frequencies in f64, floored to spectrogram bins.
  auto toMel = [&](Value hz) -> Value {
    Value ratio = ctx.build<AddOp>({f32c(1), ctx.build<DivOp>({cast(hz, f32), f32c(700)})});
    Value log10 = ctx.build<DivOp>({ctx.build<LogOp>({cast(ratio, f64)}), f64c(std::log(10.0))});
    return ctx.build<MulOp>({f32c(2595), cast(log10, f32)});
  };
  Value lowMel = toMel(in[3]);
  Value edgeCount = ctx.build<AddOp>({bins, ctx.constantI64({2}, true)});
  Value step = ctx.build<DivOp>(
      {ctx.build<SubOp>({toMel(in[4]), lowMel}), cast(edgeCount, f32)});
  auto range = [&](Value start, Value limit) {
    return i64Range(ctx, start, limit, ctx.constantI64({1}, true));
  };
  Value mel = ctx.build<AddOp>(
      {ctx.build<MulOp>({cast(range(ctx.constantI64({0}, true), edgeCount), f64),
                         cast(step, f64)}),
       cast(lowMel, f64)});
  Value hz = ctx.build<MulOp>(
      {f64c(700), ctx.build<SubOp>({ctx.build<PowOp>({f64c(10), ctx.build<DivOp>({mel, f64c(2595)})}),
                                    f64c(1)})});
  Value lengthPlus1 = cast(ctx.build<AddOp>({length, ctx.constantI64({1}, true)}), f64);
  Value edges = ctx.build<FloorOp>(
      {ctx.build<DivOp>({ctx.build<MulOp>({lengthPlus1, hz}), cast(rate, f64)})});
  // Filter i spans edges i (low), i + 1 (center) and i + 2 (high).
  auto edgesFrom = [&](int64_t first) {
    Value start = ctx.constantI64({first}, true);
    Value e = ctx.build<GatherOp>({edges, range(start, ctx.build<AddOp>({bins, start}))},
                                  {ctx.namedAttr("axis", b.getI64IntegerAttr(0))});
    return reshapeTo(ctx, e, {1, ShapedType::kDynamic});
  };
  Value lo = edgesFrom(0), center = edgesFrom(1), hi = edgesFrom(2);
  Value spectrogramBins = ctx.build<AddOp>(
      {ctx.build<DivOp>({length, ctx.constantI64({2}, true)}), ctx.constantI64({1}, true)});
  Value j = reshapeTo(ctx, cast(range(ctx.constantI64({0}, true), spectrogramBins), f64),
                      {ShapedType::kDynamic, 1});
  if (!edges || !center || !spectrogramBins || !j || !lo || !hi)
    return failure();
  // Every edge in [0, bins], every center below it.
  auto reduced = [&](auto op, Value v) -> Value {
    Value r = ctx.build<decltype(op)>(
        {v}, {ctx.namedAttr("axes", ctx.i64Array(llvm::to_vector(
                                        llvm::seq<int64_t>(0, NodeContext::typeOf(v).getRank()))))},
        {RankedTensorType::get({}, f64)});
    return r ? tensor::ExtractOp::create(b, loc, r, ValueRange{}).getResult() : Value();
  };
  Value minEdge = reduced(ReduceMinOp(), edges), maxEdge = reduced(ReduceMaxOp(), edges),
        maxCenter = reduced(ReduceMaxOp(), center);
  if (!minEdge || !maxEdge || !maxCenter)
    return failure();
  Value binsF = arith::SIToFPOp::create(
      b, loc, f64, tensor::ExtractOp::create(b, loc, spectrogramBins, ValueRange{}));
  auto cmpf = [&](arith::CmpFPredicate p, Value x, Value y) -> Value {
    return arith::CmpFOp::create(b, loc, p, x, y);
  };
  assertAtRunTime(
      ctx,
      arith::AndIOp::create(
          b, loc, cmpf(arith::CmpFPredicate::OGE, minEdge,
                         arith::ConstantFloatOp::create(b, loc, b.getF64Type(), APFloat(0.0))),
          arith::AndIOp::create(b, loc, cmpf(arith::CmpFPredicate::OLE, maxEdge, binsF),
                                cmpf(arith::CmpFPredicate::OLT, maxCenter, binsF))),
      "mel edges outside the spectrogram bins");

  // Rising from low to center, 1 at the center (when either side is not
  // empty), falling to high.
  auto is = [&](ComparePredicate p, Value x, Value y) { return compareValues(ctx, p, x, y); };
  auto both = [&](Value x, Value y) { return ctx.build<AndOp>({x, y}); };
  Value up = ctx.build<DivOp>({ctx.build<SubOp>({j, lo}), ctx.build<SubOp>({center, lo})});
  Value down = ctx.build<DivOp>({ctx.build<SubOp>({hi, j}), ctx.build<SubOp>({hi, center})});
  Value atCenter = both(is(ComparePredicate::eq, j, center),
                        ctx.build<OrOp>({is(ComparePredicate::ge, center, lo),
                                         is(ComparePredicate::gt, hi, center)}));
  Value rising = both(is(ComparePredicate::ge, j, lo), is(ComparePredicate::lt, j, center));
  Value falling = both(is(ComparePredicate::gt, j, center), is(ComparePredicate::lt, j, hi));
  Value w = ctx.build<SelectOp>(
      {atCenter, f64c(1),
       ctx.build<SelectOp>({rising, up, ctx.build<SelectOp>({falling, down, f64c(0)})})});
  results.push_back(cast(w, element));
  return success(results.back() != nullptr);
}

/// The [dft_length / 2 + 1, num_mel_bins] matrix of triangular filters
/// evenly spaced on the mel scale, computed as the ONNX reference does
/// (the edge frequencies in float32, the bin positions in double, floored).
LogicalResult melWeightMatrix(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Type> element = outputDatatype(ctx);
  if (failed(element))
    return failure();
  std::optional<double> mel = constantScalar(ctx, ctx.input(0)),
                        dftLen = constantScalar(ctx, ctx.input(1)),
                        rate = constantScalar(ctx, ctx.input(2)),
                        lowHz = constantScalar(ctx, ctx.input(3)),
                        highHz = constantScalar(ctx, ctx.input(4));
  if (!mel || !dftLen || !rate || !lowHz || !highHz)
    return runtimeMelWeightMatrix(ctx, results, *element);
  int64_t bins = toInt(*mel), length = toInt(*dftLen);
  int64_t sampleRate = toInt(*rate);
  if (bins <= 0 || length <= 0 || sampleRate <= 0)
    return ctx.invalid("num_mel_bins, dft_length and sample_rate must be positive");
  int64_t spectrogramBins = length / 2 + 1;
  if (failed(checkMaterializedSize(ctx, {spectrogramBins, bins})))
    return failure();
  auto toMel = [](float hz) {
    return 2595.0f * std::log10(1.0f + hz / 700.0f);
  };
  float lowMel = toMel(static_cast<float>(*lowHz));
  float step = (toMel(static_cast<float>(*highHz)) - lowMel) / static_cast<float>(bins + 2);
  SmallVector<int64_t> edges;
  for (int64_t i = 0; i < bins + 2; ++i) {
    double m = static_cast<double>(i) * step + lowMel;
    double hz = 700.0 * (std::pow(10.0, m / 2595.0) - 1.0);
    edges.push_back(toInt(std::floor((length + 1) * hz / sampleRate)));
  }
  SmallVector<double> w(spectrogramBins * bins, 0.0);
  auto set = [&](int64_t j, int64_t i, double v) -> LogicalResult {
    if (j < 0 || j >= spectrogramBins)
      return ctx.unsupported("mel edges outside the spectrogram bins");
    w[j * bins + i] = v;
    return success();
  };
  for (int64_t i = 0; i < bins; ++i) {
    int64_t lo = edges[i], center = edges[i + 1], hi = edges[i + 2];
    if (center == lo) {
      if (failed(set(center, i, 1.0)))
        return failure();
    } else {
      for (int64_t j = lo; j <= center; ++j)
        if (failed(set(j, i, double(j - lo) / double(center - lo))))
          return failure();
    }
    for (int64_t j = center; j < hi; ++j)
      if (failed(set(j, i, double(hi - j) / double(hi - center))))
        return failure();
  }
  results.push_back(constantOf(ctx, {spectrogramBins, bins}, *element, w));
  return success();
}
} // namespace

void mlir::tc::onnx::registerSignalHandlers(OpRegistry &r) {
  r.add("HannWindow", 17, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    // sin^2(pi n / N) = 0.5 - 0.5 cos(2 pi n / N).
    return cosineWindow(ctx, results, 0.5, 0.5, 0.0);
  });
  r.add("HammingWindow", 17, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    return cosineWindow(ctx, results, 25.0 / 46.0, 21.0 / 46.0, 0.0);
  });
  r.add("BlackmanWindow", 17, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    return cosineWindow(ctx, results, 0.42, 0.5, 0.08);
  });
  r.add("DFT", 17, dft);
  r.add("STFT", 17, stft);
  r.add("MelWeightMatrix", 17, melWeightMatrix);
}
