//===- TcPoolingOps.td - windowed max and average pooling ----------------===//

#ifndef TC_DIALECT_TC_IR_TCPOOLINGOPS_TD
#define TC_DIALECT_TC_IR_TCPOOLINGOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

class Tc_PoolOp<string mnemonic, string what, Type type>
    : Tc_Op<mnemonic, [Tc_InferResultType, SameOperandsAndResultElementType]> {
  let summary = what # " pooling over the spatial dimensions";
  code commonArgsDoc = [{
    `input` is `[N, C, D1..DS]`. `kernel_shape`, `strides` and `dilations`
    have S entries, `padding` 2*S (begin pads, then end pads). Each output
    size is `(D + pads - dilation * (K - 1) - 1) / stride + 1`, rounded down,
    or up with `ceil_mode` (a window that would start in the end padding is
    dropped).
  }];
  let results = (outs type:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Tc_MaxPoolOp : Tc_PoolOp<"max_pool", "max", Tc_Tensor> {
  let description = Tc_Doc<"Takes the maximum of each window. " # commonArgsDoc,
    [{%r = tc.max_pool %x {kernel_shape = array<i64: 3, 3>,
       strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
     : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, DenseI64ArrayAttr:$kernel_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       UnitAttr:$ceil_mode);
}

def Tc_AvgPoolOp : Tc_PoolOp<"avg_pool", "average", Tc_FloatTensor> {
  let description = Tc_Doc<
    "Averages each window; padded positions count towards the divisor only "
    # "with `count_include_pad`. " # commonArgsDoc,
    [{%r = tc.avg_pool %x {kernel_shape = array<i64: 2, 2>,
       strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>}]>.doc;
  let arguments = (ins Tc_FloatTensor:$input, DenseI64ArrayAttr:$kernel_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       UnitAttr:$ceil_mode, UnitAttr:$count_include_pad);
}

#endif // TC_DIALECT_TC_IR_TCPOOLINGOPS_TD
