//===- TcNormalizationOps.td - softmax and normalizations ----------------===//
//
// Reductions followed by elementwise work, kept whole so that fusion can
// emit them as one kernel with block-level reductions.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCNORMALIZATIONOPS_TD
#define TC_DIALECT_TC_IR_TCNORMALIZATIONOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

class Tc_SoftmaxLikeOp<string mnemonic, string what>
    : Tc_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = what # " along one axis";
  let description = Tc_Doc<
    "Computes " # what # " of `input` along `axis` (in `[0, rank)`), "
    # "subtracting the maximum first for stability.",
    "%r = tc." # mnemonic # " %x {axis = 3 : i64} : tensor<2x4x16x16xf32>">.doc;
  let arguments = (ins Tc_FloatTensor:$input, I64Attr:$axis);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Tc_SoftmaxOp : Tc_SoftmaxLikeOp<"softmax",
                                    "exp(x) / sum(exp(x))">;
def Tc_LogSoftmaxOp : Tc_SoftmaxLikeOp<"log_softmax",
                                       "x - log(sum(exp(x)))">;

def Tc_LayerNormOp : Tc_Op<"layer_norm", [
    AllTypesMatch<["input", "result"]>,
    AllElementTypesMatch<["input", "scale"]>]> {
  let summary = "layer normalization over the trailing axes";
  let description = Tc_Doc<[{
    Normalizes `input` over the dimensions `[axis, rank)` to zero mean and
    unit variance (`epsilon` is added to the variance), then multiplies by
    `scale` and adds the optional `bias`. `scale` and `bias` have the
    normalized dimensions' shape.
  }], [{%r = tc.layer_norm %x, %gamma, %beta {axis = 2 : i64, epsilon = 1.0e-05 : f32}
     : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>}]>.doc;
  let arguments = (ins Tc_FloatTensor:$input, Tc_FloatTensor:$scale,
                       Optional<Tc_FloatTensor>:$bias, I64Attr:$axis,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale (`,` $bias^)? attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tc_BatchNormOp : Tc_Op<"batch_norm", [
    AllTypesMatch<["input", "result"]>,
    AllTypesMatch<["scale", "bias", "mean", "variance"]>,
    AllElementTypesMatch<["input", "scale"]>]> {
  let summary = "inference-mode batch normalization";
  let description = Tc_Doc<[{
    `(input - mean) / sqrt(variance + epsilon) * scale + bias`, with the
    per-channel operands (each `[C]`) broadcast along dimension 1 of
    `input` (`[N, C, ...]`).
  }], [{%r = tc.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f32}
     : (tensor<1x32x56x56xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>,
        tensor<32xf32>) -> tensor<1x32x56x56xf32>}]>.doc;
  let arguments = (ins Tc_FloatTensor:$input, Tc_FloatTensor:$scale,
                       Tc_FloatTensor:$bias, Tc_FloatTensor:$mean,
                       Tc_FloatTensor:$variance,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $bias `,` $mean `,` $variance "
                       "attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // TC_DIALECT_TC_IR_TCNORMALIZATIONOPS_TD
