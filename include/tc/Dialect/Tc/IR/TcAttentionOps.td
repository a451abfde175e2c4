//===- TcAttentionOps.td - scaled dot-product attention ------------------===//
//
// Exporters spell attention as batch_matmul, scale, mask add, softmax and a
// second batch_matmul; --tc-fuse-attention folds that chain into one op so
// that code generation sees the whole computation (and can avoid writing
// the scores out).
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCATTENTIONOPS_TD
#define TC_DIALECT_TC_IR_TCATTENTIONOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

def Tc_AttentionOp : Tc_Op<"attention", [Tc_InferResultType,
    AllElementTypesMatch<["query", "key", "value", "result"]>]> {
  let summary = "scaled dot-product attention";
  let description = Tc_Doc<[{
    `softmax(scale * query @ key^T + mask) @ value`, the softmax over the
    last axis. `query` is `[batch..., Lq, D]`, `key` is `[batch..., Lk, D]`,
    or with `key_transposed` `[batch..., D, Lk]` (key^T, the layout whose
    keys are contiguous, as exporters compute it for the scores' matmul),
    and `value` is `[batch..., Lk, Dv]`, all of one rank
    R >= 2; their batch dimensions broadcast like `tc.batch_matmul`'s and
    the result is `[batch..., Lq, Dv]`. The optional additive `mask` (use
    `-inf` or a large negative value to hide a position) has the element
    type of `query` and broadcasts to the scores' shape `[batch..., Lq, Lk]`
    without enlarging it.
  }], [{%r = tc.attention %q, %k, %v, %mask {scale = 0.125 : f32}
     : (tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>,
        tensor<2x1x1x16xf32>) -> tensor<2x8x16x64xf32>}]>.doc;
  let arguments = (ins Tc_FloatTensor:$query, Tc_FloatTensor:$key,
                       Tc_FloatTensor:$value, Optional<Tc_FloatTensor>:$mask,
                       F32Attr:$scale, UnitAttr:$key_transposed);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$query `,` $key `,` $value (`,` $mask^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

#endif // TC_DIALECT_TC_IR_TCATTENTIONOPS_TD
