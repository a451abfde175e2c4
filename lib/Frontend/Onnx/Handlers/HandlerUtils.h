//===- HandlerUtils.h - helpers shared by the ONNX op handlers ------------===//

#ifndef TC_LIB_FRONTEND_ONNX_HANDLERS_HANDLERUTILS_H
#define TC_LIB_FRONTEND_ONNX_HANDLERS_HANDLERUTILS_H

#include "../NodeContext.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::onnx {

/// `v` reshaped to `shape` (at most one dynamic size), or `v` itself; null
/// for a null `v` or after recording why the reshape is invalid.
Value reshapeTo(NodeContext &ctx, Value v, ArrayRef<int64_t> shape);

/// `v` reshaped to extents read at run time: `sizes` holds one i64 value per
/// dimension (a constant where `shape` is static); null for a null `v` or
/// size.
Value reshapeToValues(NodeContext &ctx, Value v, ArrayRef<Value> sizes,
                      ArrayRef<int64_t> shape);

/// The i64 value `v` as a 0-d tensor (an operand of tc.range and the like).
Value i64Scalar(NodeContext &ctx, Value v);

/// tc.range(start, limit, step) of 0-d i64 tensors: a 1-D i64 tensor of
/// run-time length.
Value i64Range(NodeContext &ctx, Value start, Value limit, Value step);

/// `v` reshaped to `shape`, where each size either is static or copies the
/// size of `v`'s dimension `sources[i]` (Squeeze, Unsqueeze): with several
/// dynamic sizes the reshape gets a shape operand built from shape_of(v).
Value reshapeKeeping(NodeContext &ctx, Value v, ArrayRef<int64_t> shape,
                     ArrayRef<int64_t> sources);

/// The tc.slice ends that take every dimension of `type` whole: the static
/// sizes, and for a dynamic one the largest bound, which the slice clamps
/// when it runs (the size itself, kDynamic, would take nothing).
SmallVector<int64_t> wholeSliceEnds(RankedTensorType type);

/// Explicit begin/end pads of a windowed op: from `pads` for
/// auto_pad=NOTSET, computed for SAME_UPPER/SAME_LOWER, zero for VALID.
FailureOr<SmallVector<int64_t>>
resolveWindowPads(NodeContext &ctx, ArrayRef<int64_t> inputSpatial,
                  ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> dilations);

/// tc.conv of `x` and `w` (and `bias`) with the node's Conv attributes
/// (kernel_shape, strides, dilations, pads or auto_pad, group); null after
/// recording a problem.
Value buildConv(NodeContext &ctx, Value x, Value w, Value bias);

/// The window attributes of a pooling node on an input of type `input`
/// (kernel_shape, strides, explicit padding, dilations, ceil_mode) as tc
/// attributes.
FailureOr<SmallVector<NamedAttribute>> readPoolAttributes(NodeContext &ctx,
                                                          RankedTensorType input);

/// Axes given as an attribute (older opsets) or as a constant input
/// (newer ones), normalized against `rank` and sorted. std::nullopt when
/// neither is given; failure (recorded) when an input is not constant or an
/// axis is out of range.
FailureOr<std::optional<SmallVector<int64_t>>>
readAxes(NodeContext &ctx, bool fromInput, size_t inputIndex, int64_t rank);

/// `axes` when its values are known only at run time but its length is
/// static and not zero (a 1-D i64 tensor): what the helpers below take.
Value runtimeAxesInput(NodeContext &ctx, Value axes);

/// A run-time check (cf.assert): the run fails with "node '<name>' (<op
/// type>): <message>" unless `holds`.
void assertAtRunTime(NodeContext &ctx, Value holds, const llvm::Twine &message);

/// A one-element input read at run time: as an i64 scalar tensor (a float
/// truncated, a narrower integer sign-extended) and its value; nulls if an
/// op could not be built.
std::pair<Value, Value> runtimeI64Scalar(NodeContext &ctx, Value in);

/// A one-element integer axis read at run time, as the one-element i64
/// vector runtimeAxisFlags takes.
Value runtimeSingleAxis(NodeContext &ctx, Value axisIn);

/// The run-time `axes` (runtimeAxesInput) as i64 values in [0, rank),
/// after a run-time check that every axis is in [-rank, rank) and none
/// repeats (a cf.assert naming the node).
SmallVector<Value> normalizedRuntimeAxes(NodeContext &ctx, Value axes,
                                         int64_t rank);

/// One i1 per dimension of a rank-`rank` tensor: whether the run-time
/// `axes` (runtimeAxesInput) names it. Checks at run time that every axis
/// is in [-rank, rank) and none repeats (a cf.assert naming the node).
SmallVector<Value> runtimeAxisFlags(NodeContext &ctx, Value axes,
                                    int64_t rank);

/// `x` without the dimensions `flags` marks (each of extent 1 at run time),
/// `kept` of them remaining: a tc.reshape to extents computed at run time.
Value dropFlaggedDims(NodeContext &ctx, Value x, ArrayRef<Value> flags,
                      int64_t kept);

/// tc.dynamic_pad of `x` by `pads` (i64 values: every dimension's begin
/// amount, then every end amount; negative ones crop) into a result of
/// `shape`, after a run-time check (naming the node) that no extent goes
/// negative. `value` is the constant mode's fill, or null for zero.
LogicalResult buildDynamicPad(NodeContext &ctx, Value x, ArrayRef<Value> pads,
                              ArrayRef<int64_t> shape, PadMode mode, Value value,
                              SmallVectorImpl<Value> &results);

/// The importer builds some constants itself (iota vectors, masks, identity
/// matrices). Their size follows from the model's dimensions, which a
/// malformed or hostile model can make absurd: above this many elements the
/// node is reported instead of materialized.
constexpr int64_t kMaxMaterializedElements = int64_t(1) << 24;

/// A shape vector known only at run time gives its result one dimension
/// per element; its static length, a size a model can make absurd, is
/// bounded by this many.
constexpr int64_t kMaxShapeLength = 64;

/// Fails (recording why) when a constant of `factors` multiplied elements
/// (a count, or the sizes of a shape) would exceed kMaxMaterializedElements.
/// Pass the factors rather than their product: sizes from a hostile model
/// can overflow int64 and wrap around to a small count. Zero factors count
/// as 1, so every factor is bounded.
LogicalResult checkMaterializedSize(NodeContext &ctx, ArrayRef<int64_t> factors);

/// Statistics of a normalization over `axes` (kept as unit dims): the mean,
/// x - mean, and 1 / sqrt(variance + epsilon).
struct Moments {
  Value mean, invStdDev, centered;
};
FailureOr<Moments> moments(NodeContext &ctx, Value x, ArrayRef<int64_t> axes,
                           float epsilon);

/// tc.compare with `predicate`.
Value compareValues(NodeContext &ctx, ComparePredicate predicate, Value lhs,
                    Value rhs);

/// The run-time shape of `v` as a 1-D i64 tensor.
Value shapeOf(NodeContext &ctx, Value v);

/// tc.random_uniform over [low, high) shaped like `like`, with element type
/// `type`'s, keyed by the node's seed (or one hashed from the node);
/// `stream` picks an independent sequence for another draw of the same
/// node (RandomHandlers.cpp).
Value randomUniformLike(NodeContext &ctx, Value like, RankedTensorType type,
                        double low, double high, unsigned stream = 0);

/// Dropout whose training_mode is not a constant false: the output and
/// mask of `x` (RandomHandlers.cpp).
LogicalResult trainingDropout(NodeContext &ctx, Value x,
                              SmallVectorImpl<Value> &results);

} // namespace mlir::tc::onnx

#endif // TC_LIB_FRONTEND_ONNX_HANDLERS_HANDLERUTILS_H
