//===- TcContractionOps.td - matmul, batch matmul and convolution --------===//
//
// The anchors of compute-bound fusion groups.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCCONTRACTIONOPS_TD
#define TC_DIALECT_TC_IR_TCCONTRACTIONOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

def Tc_MatmulOp : Tc_Op<"matmul", [Tc_InferResultType,
                                   AllElementTypesMatch<["lhs", "rhs"]>]> {
  let summary = "2-D matrix multiplication";
  let description = Tc_Doc<[{
    `result[m, n] = sum_k lhs[m, k] * rhs[k, n]`, in the operands' element
    type (code generation may accumulate in a wider type). Integer matmuls
    with a wider result (ONNX `MatMulInteger`) cast their operands first.
  }], "%r = tc.matmul %a, %b : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>">.doc;
  let arguments = (ins Tc_Tensor:$lhs, Tc_Tensor:$rhs);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Tc_BatchMatmulOp : Tc_Op<"batch_matmul", [Tc_InferResultType,
    AllElementTypesMatch<["lhs", "rhs"]>]> {
  let summary = "batched matrix multiplication with broadcast batch dims";
  let description = Tc_Doc<[{
    Both operands have the same rank R >= 3: `lhs` is `[batch..., M, K]` and
    `rhs` is `[batch..., K, N]`. The batch dimensions broadcast like numpy
    and the result is `[batch..., M, N]`, in the operands' element type.
  }], "%r = tc.batch_matmul %q, %k : (tensor<2x8x16x64xf32>, tensor<2x8x64x16xf32>) -> tensor<2x8x16x16xf32>">.doc;
  let arguments = (ins Tc_Tensor:$lhs, Tc_Tensor:$rhs);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Tc_ConvOp : Tc_Op<"conv", [Tc_InferResultType,
    AllElementTypesMatch<["input", "filter"]>]> {
  let summary = "N-D grouped convolution over NCHW-style tensors";
  let description = Tc_Doc<[{
    A convolution (cross-correlation) with S >= 1 spatial dimensions.
    `input` is `[N, C, D1..DS]`, `filter` is `[F, C / groups, K1..KS]` and
    the optional `bias` is `[F]`. `strides` and `dilations` have S entries,
    `padding` has 2*S: all the begin pads, then all the end pads (ONNX
    order). Each output size is
    `floor((D + pad_begin + pad_end - dilation * (K - 1) - 1) / stride) + 1`.
    `groups` divides both C and F; depthwise convolution is `groups = C`.

    With `channels_last` the input is `[N, D1..DS, C]` and the result
    `[N, O1..OS, F]` (NHWC); the filter keeps its `[F, C / groups, K...]`
    layout. The CPU pipeline gives this form to the convolutions of
    depthwise-separable networks (`--tc-channels-last`), whose kernels put
    channels in vector lanes; the importer never produces it.
  }], [{%r = tc.conv %x, %w, %b {strides = array<i64: 2, 2>,
       padding = array<i64: 1, 1, 1, 1>}
     : (tensor<1x3x224x224xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>)
     -> tensor<1x32x112x112xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_Tensor:$filter,
                       Optional<Tc_Tensor>:$bias,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       UnitAttr:$channels_last);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $filter (`,` $bias^)? attr-dict `:` "
                       "functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// Number of spatial dimensions.
    int64_t getSpatialRank() {
      return getInput().getType().getRank() - 2;
    }
    /// The input's and result's channel dimension: 1, or the last with
    /// `channels_last`.
    int64_t getChannelDim() {
      return getChannelsLast() ? getInput().getType().getRank() - 1 : 1;
    }
  }];
}

def Tc_ConvTransposeOp : Tc_Op<"conv_transpose", [Tc_InferResultType,
    AllElementTypesMatch<["input", "filter"]>]> {
  let summary = "N-D grouped transposed convolution (deconvolution)";
  let description = Tc_Doc<[{
    The gradient of `tc.conv` with respect to its input, used for upsampling.
    `input` is `[N, C, D1..DS]`, `filter` is `[C, F / groups, K1..KS]` and
    the optional `bias` is `[F]`. `strides`, `dilations` and
    `output_padding` have S entries, `padding` 2*S (begin pads, then end
    pads). Each output size is
    `stride * (D - 1) + output_padding + dilation * (K - 1) + 1 - pad_begin - pad_end`.
  }], [{%r = tc.conv_transpose %x, %w {strides = array<i64: 2, 2>,
       padding = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>}
     : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x16x16xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_Tensor:$filter,
                       Optional<Tc_Tensor>:$bias,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $filter (`,` $bias^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

def Tc_DetOp : Tc_Op<"det", [Tc_InferResultType,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "determinants of square matrices (ONNX Det)";
  let description = Tc_Doc<[{
    `input` is `[..., M, M]`; the result `[...]` holds the determinant of
    each matrix, computed by LU decomposition with partial pivoting (in f32
    for f16 and bf16 inputs).
  }], "%d = tc.det %x : (tensor<4x3x3xf32>) -> tensor<4xf32>">.doc;
  let arguments = (ins Tc_FloatTensor:$input);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // TC_DIALECT_TC_IR_TCCONTRACTIONOPS_TD
