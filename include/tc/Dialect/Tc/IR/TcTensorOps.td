//===- TcTensorOps.td - constants and element type casts -----------------===//

#ifndef TC_DIALECT_TC_IR_TCTENSOROPS_TD
#define TC_DIALECT_TC_IR_TCTENSOROPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

def Tc_ConstantOp : Tc_Op<"constant", [ConstantLike, Tc_InferResultType]> {
  let summary = "a constant tensor";
  let description = Tc_Doc<[{
    Materializes `value`, any elements attribute with a static shape. Model
    weights use `dense_resource` blobs so that large tensors are neither
    printed nor parsed as text.
  }], [{%w = tc.constant dense_resource<conv1_weight> : tensor<32x3x3x3xf32>
%c = tc.constant dense<[1, 2, 3]> : tensor<3xi64>}]>.doc;
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Tc_RangeOp : Tc_Op<"range", [Tc_InferResultType,
    AllTypesMatch<["start", "limit", "delta"]>]> {
  let summary = "evenly spaced values in [start, limit)";
  let description = Tc_Doc<[{
    ONNX `Range`: `start, start + delta, ...` while below `limit` (above it
    for a negative `delta`); the length is
    `max(ceil((limit - start) / delta), 0)`, dynamic unless the operands
    are constants.
  }], "%r = tc.range %start, %limit, %delta : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>">.doc;
  let arguments = (ins Tc_ScalarTensor:$start, Tc_ScalarTensor:$limit,
                       Tc_ScalarTensor:$delta);
  let results = (outs TensorRankOf<[Tc_Element], [1]>:$result);
  let assemblyFormat = "$start `,` $limit `,` $delta attr-dict `:` "
                       "functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The number of elements for constant operands, or std::nullopt.
    static std::optional<int64_t> getStaticLength(::mlir::Attribute start,
                                                  ::mlir::Attribute limit,
                                                  ::mlir::Attribute delta);
  }];
}

def Tc_CastOp : Tc_Op<"cast", [SameOperandsAndResultShape]> {
  let summary = "convert element type";
  let description = Tc_Doc<[{
    Converts every element to the result's element type. Float to integer
    truncates toward zero; to `i1` anything non-zero is true; float
    narrowing rounds to nearest even. Integer narrowing wraps (keeps the low
    bits), also to the 4- and 2-bit types; floats to those truncate toward
    zero and wrap, NaN and infinities giving 0.

    Results of a float8 type follow ONNX Cast's `saturate`: with the
    `saturate` unit attribute, values beyond the format's largest finite
    value, infinities included, become that value (signed); without it they
    become infinity (`f8E5M2`) or NaN (the others). NaN stays NaN either
    way; the FNUZ formats have no negative zero. `f4E2M1FN`, which has no
    NaN or infinity, always saturates (NaN becomes a zero). `f8E8M0FNU`
    takes the power of two at or above the value (ONNX round_mode "up"), the
    sign ignored; saturating keeps its largest power for overflow and
    infinity instead of NaN.
  }], "%r = tc.cast %x {saturate} : (tensor<4x?xf32>) -> tensor<4x?xf8E4M3FN>">.doc;
  let arguments = (ins Tc_Tensor:$input, UnitAttr:$saturate);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_RandomUniformOp : Tc_Op<"random_uniform", []> {
  let summary = "a tensor of uniformly distributed random numbers";
  let description = Tc_Doc<[{
    Each element is drawn uniformly from [`low`, `high`). The result's
    shape is static or, given `like`, that of `like` (whose values are not
    read). Numbers come from a counter-based generator (SplitMix64 of the
    element's position, keyed by `seed`), so a seed gives the same tensor on
    every call, device and thread count. (The importer derives a seed from
    the ONNX node's name and outputs when the node has none.)
  }], [{%r = tc.random_uniform {low = 0.0 : f64, high = 1.0 : f64, seed = 7 : i64} : () -> tensor<4x4xf32>
%s = tc.random_uniform %x {low = 0.0 : f64, high = 1.0 : f64, seed = 3 : i64} : (tensor<?x8xf16>) -> tensor<?x8xf32>}]>.doc;
  let arguments = (ins Optional<Tc_Tensor>:$like, F64Attr:$low, F64Attr:$high,
                       I64Attr:$seed);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "($like^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tc_ImageDecodeOp : Tc_Op<"image_decode", [Tc_InferResultType]> {
  let summary = "decode an encoded image (ONNX ImageDecoder)";
  let description = Tc_Doc<[{
    Decodes the bytes of an image file (BMP, JPEG, JPEG 2000, PNG, PNM,
    TIFF, WebP, ...) into `[height, width, channels]` pixels:
    `pixel_format` "RGB" and "BGR" give 3 channels in that order,
    "Grayscale" one (ITU-R 601 luma, as Pillow's "L"). Height and width are
    known only at run time. The CPU code decodes with FreeImage
    (libfreeimage.so.3), loaded when the model first decodes; a missing
    library or undecodable data fails the run with an error naming the node.
  }], [{%img = tc.image_decode %bytes {pixel_format = "RGB"} : (tensor<?xui8>) -> tensor<?x?x3xui8>}]>.doc;
  let arguments = (ins TensorRankOf<[UI8], [1]>:$data,
                       DefaultValuedStrAttr<StrAttr, "RGB">:$pixel_format);
  let results = (outs TensorRankOf<[UI8], [3]>:$result);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
}

#endif // TC_DIALECT_TC_IR_TCTENSOROPS_TD
