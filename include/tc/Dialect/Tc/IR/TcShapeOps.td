//===- TcShapeOps.td - ops that move data without arithmetic -------------===//
//
// Reshape, transpose, concat, slice, gather, broadcast, pad and shape_of.
// Fusion turns many of them into views (index remapping) instead of copies.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCSHAPEOPS_TD
#define TC_DIALECT_TC_IR_TCSHAPEOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

def Tc_ReshapeOp : Tc_Op<"reshape", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "reinterpret the elements under a new shape";
  let description = Tc_Doc<[{
    Keeps the elements in row-major order and gives them the result type's
    shape. When both shapes are static their element counts must agree. A
    result with one dynamic dimension gets it from the element count; with
    more, the optional 1-D `shape` operand supplies the runtime sizes.
  }], [{%r = tc.reshape %x : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
%s = tc.reshape %y, %shape : (tensor<?x?x64xf32>, tensor<4xi64>) -> tensor<?x?x4x16xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, Optional<Tc_ShapeTensor>:$shape);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input (`,` $shape^)? attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tc_TransposeOp : Tc_Op<"transpose", [Tc_InferResultType,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "permute dimensions";
  let description = Tc_Doc<[{
    `result` dimension `i` is `input` dimension `permutation[i]`.
  }], "%r = tc.transpose %x {permutation = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tc_ConcatOp : Tc_Op<"concat", [Tc_InferResultType,
                                   SameOperandsAndResultElementType]> {
  let summary = "join tensors along an axis";
  let description = Tc_Doc<[{
    Concatenates one or more tensors of equal rank along `axis` (in
    `[0, rank)`); every other dimension must agree.
  }], "%r = tc.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>">.doc;
  let arguments = (ins Variadic<Tc_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_SliceOp : Tc_Op<"slice", [Tc_InferResultType,
                                 AllElementTypesMatch<["input", "result"]>]> {
  let summary = "strided slice with one start, end and step per dimension";
  let description = Tc_Doc<[{
    Takes, in every dimension `i`, the indices `starts[i], starts[i] +
    steps[i], ...` up to but excluding `ends[i]`. Steps are non-zero and may
    be negative. For a static dimension of size D the bounds are already
    clamped: `0 <= start <= D` and `0 <= end <= D` for positive steps,
    `0 <= start < D` and `-1 <= end < D` for negative steps. A dynamic
    dimension keeps ONNX's unclamped bounds and gives a dynamic size.
  }], [{%r = tc.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 4, 7>,
       steps = array<i64: 1, 2>} : (tensor<4x8xf32>) -> tensor<4x3xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_DynamicSliceOp : Tc_Op<"dynamic_slice", [Tc_InferResultType,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "strided slice whose bounds are known only at run time";
  let description = Tc_Doc<[{
    ONNX `Slice` with `starts` and `ends` computed at run time: 1-D integer
    tensors with one bound per dimension listed in `axes`, read with ONNX's
    rules (negative bounds count from the end, then clamp to the
    dimension). The steps (one per axis, non-zero, possibly negative) are
    constants in `steps`, or, when `steps` is empty, read at run time from
    `step_values` (a zero step is a run-time error). The sliced dimensions
    get dynamic sizes; the others are kept.
  }], [{%r = tc.dynamic_slice %x, %s, %e {axes = array<i64: 1>, steps = array<i64: 1>}
     : (tensor<4x8xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x?xf32>
%v = tc.dynamic_slice %x, %s, %e steps(%k) {axes = array<i64: 1>, steps = array<i64>}
     : (tensor<4x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x?xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_IndexTensor:$starts,
                       Tc_IndexTensor:$ends,
                       Optional<Tc_IndexTensor>:$step_values,
                       DenseI64ArrayAttr:$axes, DenseI64ArrayAttr:$steps);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $starts `,` $ends (`steps` `(` $step_values^ `)`)? "
                       "attr-dict `:` functional-type(operands, results)";
}

def Tc_GatherOp : Tc_Op<"gather", [Tc_InferResultType,
                                   AllElementTypesMatch<["input", "result"]>]> {
  let summary = "take slices of a tensor at indices along one axis";
  let description = Tc_Doc<[{
    ONNX `Gather`: the result shape is `input.shape[:axis] + indices.shape +
    input.shape[axis+1:]`. Negative indices count from the end of the axis.
  }], "%r = tc.gather %table, %ids {axis = 0 : i64} : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $indices attr-dict `:` "
                       "functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_GatherElementsOp : Tc_Op<"gather_elements", [Tc_InferResultType,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "take single elements at indices along one axis";
  let description = Tc_Doc<[{
    ONNX `GatherElements`: `indices` has the input's rank and the result has
    the shape of `indices`; along `axis` the index comes from `indices`, in
    every other dimension it is the position itself (indices' sizes there
    must not exceed the input's). Negative indices count from the end.
  }], "%r = tc.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $indices attr-dict `:` "
                       "functional-type(operands, results)";
}

def Tc_GatherNDOp : Tc_Op<"gather_nd", [Tc_InferResultType,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "take slices at multi-dimensional indices";
  let description = Tc_Doc<[{
    ONNX `GatherND`: the last dimension of `indices` (size q) indexes the
    input's dimensions after the first `batch_dims`; the result shape is
    `indices.shape[:-1] + input.shape[batch_dims + q:]`.
  }], "%r = tc.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $indices attr-dict `:` "
                       "functional-type(operands, results)";
}

class Tc_ScatterOp<string mnemonic, string what> : Tc_Op<mnemonic, [
    Tc_InferResultType, AllElementTypesMatch<["input", "updates", "result"]>]> {
  let summary = what;
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $indices `,` $updates attr-dict `:` "
                       "functional-type(operands, results)";
}

def Tc_ScatterElementsOp : Tc_ScatterOp<"scatter_elements",
    "write single elements at indices along one axis"> {
  let description = Tc_Doc<[{
    ONNX `ScatterElements`: a copy of `input` where, for every position of
    `indices` (same rank as the input), the element at that position with
    its `axis` coordinate replaced by the index receives the update,
    combined by `reduction` (none, add, mul, max, min).
  }], "%r = tc.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_IndexTensor:$indices,
                       Tc_Tensor:$updates, I64Attr:$axis,
                       DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
}

def Tc_ScatterNDOp : Tc_ScatterOp<"scatter_nd",
    "write slices at multi-dimensional indices"> {
  let description = Tc_Doc<[{
    ONNX `ScatterND`: a copy of `input` where each index vector (the last
    dimension of `indices`) selects a slice that receives the matching slice
    of `updates` (shape `indices.shape[:-1] + input.shape[q:]`), combined by
    `reduction` (none, add, mul, max, min).
  }], "%r = tc.scatter_nd %x, %i, %u : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_IndexTensor:$indices,
                       Tc_Tensor:$updates,
                       DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
}

def Tc_BroadcastOp : Tc_Op<"broadcast", [
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "broadcast to a larger shape";
  let description = Tc_Doc<[{
    Stretches `input` to the result shape by numpy rules: the input's
    dimensions align with the result's trailing ones, and each is 1 or equal
    to the result's size. Dynamic result sizes come from the optional 1-D
    `shape` operand (ONNX `Expand`).
  }], "%r = tc.broadcast %x : (tensor<1x8xf32>) -> tensor<4x3x8xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, Optional<Tc_ShapeTensor>:$shape);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input (`,` $shape^)? attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tc_PadOp : Tc_Op<"pad", [Tc_InferResultType,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "pad the edges of a tensor";
  let description = Tc_Doc<[{
    Adds `padding[i]` elements before and `padding[rank + i]` after
    dimension `i` (all non-negative). `mode` is `constant` (fill with the
    scalar `value`, zero when absent), `reflect` (mirror without the edge),
    `edge` (repeat the edge) or `wrap` (continue periodically).
  }], [{%r = tc.pad %x, %zero {padding = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>}
     : (tensor<1x8x32x32xf32>, tensor<f32>) -> tensor<1x8x34x34xf32>
%e = tc.pad %x mode(edge) {padding = array<i64: 0, 0, 2, 2, 0, 0, 2, 2>}
     : (tensor<1x8x32x32xf32>) -> tensor<1x8x36x36xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, Optional<Tc_ScalarTensor>:$value,
                       DenseI64ArrayAttr:$padding,
                       DefaultValuedAttr<Tc_PadMode,
                         "::mlir::tc::PadMode::constant">:$mode);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input (`,` $value^)? (`mode` `(` $mode^ `)`)? attr-dict `:` "
                       "functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_DynamicPadOp : Tc_Op<"dynamic_pad",
    [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "pad or crop the edges of a tensor by amounts known only at run time";
  let description = Tc_Doc<[{
    ONNX `Pad` with `pads` computed at run time: `pads` (i64, begin amounts
    of every dimension, then end amounts) adds elements before and after
    each dimension, or removes them where negative. Output extent `i` is
    `size[i] + pads[i] + pads[rank + i]`, which must not be negative (the
    importer checks at run time); the result's static dimensions must equal
    it. `mode` and `value` are tc.pad's.
  }], [{%r = tc.dynamic_pad %x, %pads, %zero
     : (tensor<1x8x32x32xf32>, tensor<8xi64>, tensor<f32>) -> tensor<?x?x?x?xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, TensorRankOf<[I64], [1]>:$pads,
                       Optional<Tc_ScalarTensor>:$value,
                       DefaultValuedAttr<Tc_PadMode,
                         "::mlir::tc::PadMode::constant">:$mode);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $pads (`,` $value^)? (`mode` `(` $mode^ `)`)? "
                       "attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tc_ResizeOp : Tc_Op<"resize", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "resample a tensor by interpolation (ONNX Resize)";
  let description = Tc_Doc<[{
    Resamples every dimension `d` by `scales[d]` (1 keeps it); the result
    type gives the output sizes. Output coordinate `x` maps to an input
    coordinate by `coordinate_transformation_mode` (half_pixel,
    half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric,
    tf_crop_and_resize with `roi`), then `mode` interpolates: nearest (rounded
    by `nearest_mode`), linear or cubic (`cubic_coeff_a`,
    `exclude_outside`), optionally with an antialiasing filter when
    downsampling.
  }], [{%r = tc.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 2.0>, mode = "linear"}
     : (tensor<1x3x16x16xf32>) -> tensor<1x3x32x32xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, DenseF32ArrayAttr:$scales,
      DefaultValuedAttr<StrAttr, "\"nearest\"">:$mode,
      DefaultValuedAttr<StrAttr, "\"half_pixel\"">:$coordinate_transformation_mode,
      DefaultValuedAttr<StrAttr, "\"round_prefer_floor\"">:$nearest_mode,
      DefaultValuedAttr<F32Attr, "-0.75">:$cubic_coeff_a,
      UnitAttr:$exclude_outside,
      DefaultValuedAttr<F32Attr, "0.0">:$extrapolation_value,
      UnitAttr:$antialias,
      OptionalAttr<DenseF32ArrayAttr>:$roi);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tc_DynamicResizeOp : Tc_Op<"dynamic_resize",
    [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "resample a tensor by scales known only at run time";
  let description = Tc_Doc<[{
    ONNX `Resize` or `Upsample` whose `scales`, `sizes` or `roi` are
    computed at run time: `tc.resize` with the per-dimension scales (f64,
    one per dimension, positive) and output sizes (i64, one per dimension,
    non-negative) as operands, and for `tf_crop_and_resize` the region of
    interest (f64, every dimension's start, then every end). The result's
    dynamic dimensions take their extents from `sizes`; its static ones
    must equal them. The other attributes are tc.resize's; with
    `antialias`, the filter's width follows the scale read at run time.
  }], [{%r = tc.dynamic_resize %x, %scales, %sizes {mode = "linear"}
     : (tensor<1x3x16x16xf32>, tensor<4xf64>, tensor<4xi64>) -> tensor<1x3x?x?xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, TensorRankOf<[F64], [1]>:$scales,
      TensorRankOf<[I64], [1]>:$sizes,
      Optional<TensorRankOf<[F64], [1]>>:$roi,
      DefaultValuedAttr<StrAttr, "\"nearest\"">:$mode,
      DefaultValuedAttr<StrAttr, "\"half_pixel\"">:$coordinate_transformation_mode,
      DefaultValuedAttr<StrAttr, "\"round_prefer_floor\"">:$nearest_mode,
      DefaultValuedAttr<F32Attr, "-0.75">:$cubic_coeff_a,
      UnitAttr:$exclude_outside,
      DefaultValuedAttr<F32Attr, "0.0">:$extrapolation_value,
      UnitAttr:$antialias);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $scales `,` $sizes (`,` $roi^)? attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tc_ShapeOfOp : Tc_Op<"shape_of", [Tc_InferResultType]> {
  let summary = "the shape of a tensor as a 1-D i64 tensor";
  let description = Tc_Doc<[{
    ONNX `Shape` without `start`/`end` (use `tc.slice` on the result). Folds
    to a constant when the input shape is static.
  }], "%s = tc.shape_of %x : (tensor<?x128xf32>) -> tensor<2xi64>">.doc;
  let arguments = (ins Tc_Tensor:$input);
  let results = (outs TensorRankOf<[I64], [1]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_TensorScatterOp : Tc_Op<"tensor_scatter", [Tc_InferResultType,
    AllElementTypesMatch<["cache", "update", "result"]>]> {
  let summary = "write a run of updates into a cache (ONNX TensorScatter)";
  let description = Tc_Doc<[{
    A copy of `cache` (`[B, ..., max_len, ...]`, the sequence at `axis`,
    which is not 0) where `update` (the same shape, `len <= max_len` at
    `axis`) is written at positions `write_indices[b] + i` of batch `b`
    (`write_indices` is `[B]`, zeros when absent). With `circular` the
    positions wrap around modulo `max_len`; without, positions past the end
    are dropped.
  }], [{%r = tc.tensor_scatter %cache, %u, %w {axis = 2 : i64}
     : (tensor<2x4x8x16xf32>, tensor<2x4x1x16xf32>, tensor<2xi64>) -> tensor<2x4x8x16xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$cache, Tc_Tensor:$update,
                       Optional<Tc_IndexTensor>:$write_indices, I64Attr:$axis,
                       UnitAttr:$circular);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$cache `,` $update (`,` $write_indices^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

#endif // TC_DIALECT_TC_IR_TCSHAPEOPS_TD
