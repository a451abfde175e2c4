//===- Utils.h - shared helpers of the tc-to-linalg conversion ------------===//
//
// The op-family files (Elementwise.cpp, Contraction.cpp, ...) build linalg on
// tensors with these helpers: result buffers (tensor.empty with the dynamic
// sizes taken from operands), numpy broadcasting maps, typed scalar
// constants, and the arith op that matches a tc element type's signedness.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_CONVERSION_TCTOLINALG_UTILS_H
#define TC_LIB_CONVERSION_TCTOLINALG_UTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tc/Dialect/Tc/IR/NodeNames.h"

namespace mlir::tc::to_linalg {

/// Maps tc's unsigned integer element types (ui8...) to signless ones;
/// everything else is kept. Unsignedness lives on in the tc op being
/// converted, which the patterns read through `op->getOperandTypes()`.
class TcTypeConverter : public TypeConverter {
public:
  TcTypeConverter();
};

/// Registers every family's patterns (one populate function per file).
void populateElementwisePatterns(TcTypeConverter &, RewritePatternSet &);
void populateContractionPatterns(TcTypeConverter &, RewritePatternSet &,
                                 bool collapseSharedWeightBatch = false,
                                 bool denseStridedPointwise = false);
void populatePoolingPatterns(TcTypeConverter &, RewritePatternSet &);
void populateReductionPatterns(TcTypeConverter &, RewritePatternSet &);
void populateNormalizationPatterns(TcTypeConverter &, RewritePatternSet &);
void populateAttentionPatterns(TcTypeConverter &, RewritePatternSet &);
void populateShapePatterns(TcTypeConverter &, RewritePatternSet &);
void populateIndexingPatterns(TcTypeConverter &, RewritePatternSet &);
void populateTensorPatterns(TcTypeConverter &, RewritePatternSet &);
void populateResizePatterns(TcTypeConverter &, RewritePatternSet &);
void populateSamplingPatterns(TcTypeConverter &, RewritePatternSet &);
void populateScanPatterns(TcTypeConverter &, RewritePatternSet &);
void populateScatterPatterns(TcTypeConverter &, RewritePatternSet &);
void populateUniquePatterns(TcTypeConverter &, RewritePatternSet &);
void populateNonMaxSuppressionPatterns(TcTypeConverter &, RewritePatternSet &);
void populateLinearAlgebraPatterns(TcTypeConverter &, RewritePatternSet &);
void populateRandomPatterns(TcTypeConverter &, RewritePatternSet &);
void populateImagePatterns(TcTypeConverter &, RewritePatternSet &);

/// True for tc's unsigned integer element types.
bool isUnsignedInt(Type elementType);
/// The element type of a (tc) tensor value or type.
Type elementTypeOf(Value value);

/// `index`-typed extent of `tensor` along `dim` (a constant when static).
Value dimValue(OpBuilder &b, Location loc, Value tensor, int64_t dim);


/// A run-time check (cf.assert, which --tc-cpu-lower-checks turns into the
/// model's error code): `holds` must be true, else the run fails with
/// "<describeNode(op)>: <message>". Constant-true checks fold away.
void checkAtRunTime(OpBuilder &b, Location loc, Operation *op, Value holds,
                    const Twine &message);

/// The run-time output extent of spatial axis `axis` (dim 2 + axis of
/// `input`) of a convolution or pooling window, as ShapeUtils'
/// getWindowedOutputSize computes static ones: (D + pads - span) / stride +
/// 1, with ceil_mode one more where that leaves a remainder and the extra
/// window starts inside the input or its begin padding. When the padded
/// input is shorter than the window (span = dilation * (window - 1) + 1) it
/// is 0 and a run-time check fails ("... is shorter than the <windowName>").
Value windowedOutputSize(OpBuilder &b, Location loc, Operation *op, Value input,
                         int64_t axis, int64_t window, int64_t stride,
                         int64_t dilation, int64_t padBegin, int64_t padEnd,
                         bool ceilMode, StringRef windowName);

/// Checks that axis `xAxis` of `x` and axis `yAxis` of `y` have the same
/// extent when either is only known at run time ("<what> differ"); two
/// static extents were checked by the op's verifier.
void checkSameExtent(OpBuilder &b, Location loc, Operation *op, Value x,
                     int64_t xAxis, Value y, int64_t yAxis, const Twine &what);

/// Checks that every dynamic extent of `operands` equals the extent of the
/// broadcast result `result` on the same axis: numpy broadcasting of an
/// extent that is only known at run time to be 1 is not supported, and must
/// fail rather than read out of bounds.
void checkBroadcastExtents(OpBuilder &b, Location loc, Operation *op,
                           Value result, ValueRange operands);
/// All extents of `tensor` as OpFoldResults (static ones as attributes).
SmallVector<OpFoldResult> mixedSizes(OpBuilder &b, Location loc, Value tensor);

/// The extents of `tensor`'s dynamic dims, in order, leaving out `skip`
/// (for results where that dim gets another size).
SmallVector<Value> dynamicSizesOf(OpBuilder &b, Location loc, Value tensor,
                                  std::optional<int64_t> skip = std::nullopt);

/// tensor.empty of `type`, taking each dynamic extent from `dynamicSizes`
/// (exactly one value per `?`).
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange dynamicSizes);
/// tensor.empty of `type` whose dynamic extents come from the numpy broadcast
/// of `operands` (aligned at the trailing dimension).
Value emptyBroadcastResult(OpBuilder &b, Location loc, RankedTensorType type,
                           ValueRange operands);
/// tensor.empty of `type` filled with `value`.
Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   ValueRange dynamicSizes, Value value);

/// The indexing map of an operand broadcast (numpy rules, trailing
/// alignment) into a loop nest of `resultRank` dims: a static extent of 1
/// that the result does not share reads index 0.
AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType operandType,
                       ArrayRef<int64_t> resultShape);

/// A scalar constant of `type` (float or integer, signless) with `value`.
Value scalarConstant(OpBuilder &b, Location loc, Type type, double value);
/// The largest / smallest value of `type` (inf for floats), honoring the tc
/// element type's signedness (`tcType` may be unsigned).
Value maxValueOf(OpBuilder &b, Location loc, Type tcType);
Value minValueOf(OpBuilder &b, Location loc, Type tcType);

/// Converts a scalar between element types with ONNX Cast semantics (floats
/// to integers truncate toward zero, anything to bool is `!= 0`). `from` and
/// `to` are tc element types (they may be unsigned or narrow; narrow values
/// are their i8 storage). `saturate` is ONNX Cast's attribute: it only
/// matters for float8 results (see NarrowTypes.cpp).
Value castScalar(OpBuilder &b, Location loc, Value value, Type from, Type to,
                 bool saturate = false);

/// Narrow element types (NarrowTypes.cpp): f8*, f4E2M1FN, i4/ui4, i2/ui2.
/// After conversion they are stored as one i8 each (module_abi.h layout).
bool isByteStored(Type tcType);
/// i8 for byte-stored types, else null.
Type storageType(Type tcType);
/// The i8 storage of a narrow value as a value casts can use: f32 for the
/// floats, i8 (tc type i8/ui8, returned as the second member) for integers.
std::pair<Value, Type> decodeNarrow(OpBuilder &b, Location loc, Value byte,
                                    Type tcType);
/// `value` of tc type `from` encoded as the i8 storage of narrow type `to`.
Value encodeNarrow(OpBuilder &b, Location loc, Value value, Type from,
                   Type to, bool saturate);

/// The element type reductions and contractions accumulate in: f32 for f16
/// and bf16, the type itself otherwise.
Type accumulatorType(Type elementType);

/// Parallel iterator types for `n` loops.
SmallVector<utils::IteratorType> parallelIterators(unsigned n);

/// An index read from data (any integer type; `isUnsigned` for ui types)
/// as an in-bounds index into a dim of `size`: negative values count from
/// the end, anything still out of range is clamped, so a bad index reads a
/// wrong element instead of wild memory.
/// With `checkFor`, an index outside [-size, size) also fails a run-time
/// check naming that op (ONNX makes it an error; the clamped read keeps the
/// rest of the run in bounds).
Value normalizeIndex(OpBuilder &b, Location loc, Value index, Value size,
                     bool isUnsigned, Operation *checkFor = nullptr);

/// The row-major indices of position `flat` in a tensor of `extents` (the
/// inverse of linearizing them; scans over a tensor's elements use it).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat,
                               ArrayRef<Value> extents);

/// A value of integer type as an index, and back.
Value toIndex(OpBuilder &b, Location loc, Value value);
Value fromIndex(OpBuilder &b, Location loc, Value index, Type type);

/// Builds a linalg.generic whose only output is a fresh tensor of
/// `resultType` (dynamic sizes from `dynamicSizes`), over `inputs` with the
/// given maps (the output map is the identity); every loop is parallel.
Value buildParallelGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange dynamicSizes, ValueRange inputs, ArrayRef<AffineMap> inputMaps,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

} // namespace mlir::tc::to_linalg

#endif // TC_LIB_CONVERSION_TCTOLINALG_UTILS_H

namespace mlir::tc::to_linalg {
/// tensor.pad of `source` with static `low`/`high` amounts (non-negative)
/// and the scalar `padValue`; returns `source` itself when nothing is padded.
Value padTensor(OpBuilder &b, Location loc, Value source,
                ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value padValue);
/// Casts every element of `tensor` to `elementType` (both signless) with a
/// parallel generic; returns `tensor` when the types already agree.
Value castTensor(OpBuilder &b, Location loc, Value tensor, Type fromTcType,
                 Type toTcType);
} // namespace mlir::tc::to_linalg

namespace mlir::tc::to_linalg {
/// Reduces `input` over the sorted `axes` into a tensor of the other
/// dimensions (in order), element type `accType`, starting from `init` and
/// folding every element in with `combine(b, loc, element, accumulator)`.
Value reduceTensor(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    Type accType, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine);
/// The map from a loop nest over all dims of a rank-`rank` tensor to the
/// dims that are not in `axes` (how a reduced tensor is read back).
AffineMap dropAxesMap(MLIRContext *ctx, int64_t rank, ArrayRef<int64_t> axes);
/// Softmax (or log-softmax) of the float tensor `input` along `axis`, in
/// f32 for f16/bf16 inputs, as a tensor of `resultType` (Normalization.cpp;
/// also the middle of attention).
Value softmaxAlong(OpBuilder &b, Location loc, Value input, int64_t axis,
                   RankedTensorType resultType, bool isLog);
/// Reshapes a reduced tensor (the kept dims only) into `resultType`, which
/// has the same elements with size-1 dims inserted (keepdims).
Value expandTo(OpBuilder &b, Location loc, Value reduced,
               RankedTensorType resultType);
} // namespace mlir::tc::to_linalg
