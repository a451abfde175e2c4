//===- TcReductionOps.td - reductions over axes and arg-reductions -------===//

#ifndef TC_DIALECT_TC_IR_TCREDUCTIONOPS_TD
#define TC_DIALECT_TC_IR_TCREDUCTIONOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

class Tc_ReduceOp<string mnemonic, string what, Type type>
    : Tc_Op<mnemonic, [Tc_InferResultType, SameOperandsAndResultElementType]> {
  let summary = what # " over the given axes";
  let description = Tc_Doc<
    "Reduces `input` with " # what # " over `axes` (distinct, in "
    # "`[0, rank)`). With `keepdims` each reduced dimension stays with size 1; "
    # "otherwise it is dropped. Empty `axes` reduce nothing.",
    "%r = tc." # mnemonic # " %x {axes = array<i64: 1>, keepdims} "
    # ": (tensor<4x?x8xf32>) -> tensor<4x1x8xf32>">.doc;
  let arguments = (ins type:$input, DenseI64ArrayAttr:$axes, UnitAttr:$keepdims);
  let results = (outs type:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_ReduceSumOp : Tc_ReduceOp<"reduce_sum", "sum", Tc_Tensor>;
def Tc_ReduceMeanOp : Tc_ReduceOp<"reduce_mean", "arithmetic mean", Tc_Tensor>;
def Tc_ReduceMaxOp : Tc_ReduceOp<"reduce_max", "maximum", Tc_Tensor>;
def Tc_ReduceMinOp : Tc_ReduceOp<"reduce_min", "minimum", Tc_Tensor>;
def Tc_ReduceProdOp : Tc_ReduceOp<"reduce_prod", "product", Tc_Tensor>;

class Tc_ArgReduceOp<string mnemonic, string what>
    : Tc_Op<mnemonic, [Tc_InferResultType]> {
  let summary = "index of the " # what # " along an axis";
  let description = Tc_Doc<
    "Yields the `i64` index of the " # what # " of `input` along `axis`; "
    # "ties resolve to the first occurrence, or the last with "
    # "`select_last_index`. `keepdims` keeps the axis with size 1.",
    "%r = tc." # mnemonic # " %x {axis = 1 : i64} : (tensor<4x10xf32>) -> tensor<4xi64>">.doc;
  let arguments = (ins Tc_Tensor:$input, I64Attr:$axis, UnitAttr:$keepdims,
                       UnitAttr:$select_last_index);
  let results = (outs TensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Tc_ArgMaxOp : Tc_ArgReduceOp<"argmax", "maximum">;
def Tc_ArgMinOp : Tc_ArgReduceOp<"argmin", "minimum">;

def Tc_CumSumOp : Tc_Op<"cumsum", [SameOperandsAndResultType]> {
  let summary = "cumulative sum along an axis";
  let description = Tc_Doc<[{
    `result[..., i, ...] = sum of input[..., j, ...]` for `j <= i` along
    `axis` (`j < i` with `exclusive`; from the end with `reverse`).
  }], "%r = tc.cumsum %x {axis = 1 : i64, exclusive} : tensor<2x5xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, I64Attr:$axis, UnitAttr:$exclusive,
                       UnitAttr:$reverse);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Tc_TopKOp : Tc_Op<"top_k", [Tc_InferResultType]> {
  let summary = "the k largest (or smallest) elements along an axis";
  let description = Tc_Doc<[{
    Yields the `k` largest elements along `axis` (the smallest with
    `smallest`) and their `i64` indices; sorted from the top unless
    `unsorted`. Ties keep the lower index first.
  }], "%v, %i = tc.top_k %x {k = 3 : i64, axis = 1 : i64} : (tensor<2x10xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)">.doc;
  let arguments = (ins Tc_Tensor:$input, I64Attr:$k, I64Attr:$axis,
                       UnitAttr:$smallest, UnitAttr:$unsorted);
  let results = (outs Tc_Tensor:$values, TensorOf<[I64]>:$indices);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Tc_NonZeroOp : Tc_Op<"non_zero", [Tc_InferResultType]> {
  let summary = "the indices of the non-zero elements";
  let description = Tc_Doc<[{
    ONNX NonZero: a `[rank, n]` tensor of `i64` whose column `j` holds the
    indices of the `j`-th non-zero element of `input` in row-major order
    (NaN counts as non-zero). `n` is known only at run time.
  }], "%i = tc.non_zero %x : (tensor<2x3xf32>) -> tensor<2x?xi64>">.doc;
  let arguments = (ins Tc_Tensor:$input);
  let results = (outs TensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Tc_UniqueOp : Tc_Op<"unique", [Tc_InferResultType,
    AllElementTypesMatch<["input", "values"]>]> {
  let summary = "the distinct elements or slices of a tensor (ONNX Unique)";
  let description = Tc_Doc<[{
    Without `axis`, the distinct elements of the flattened `input`; with
    `axis`, its distinct slices along that axis (compared element by
    element, ordered lexicographically in row-major order). `values` holds
    them sorted ascending, or in order of first occurrence with `unsorted`;
    `indices` the position of each one's first occurrence,
    `inverse_indices` for every element (slice) of the input the position
    of its value in `values`, and `counts` how often each occurs. How many
    there are is known only at run time. Floats compare with ordered
    comparisons: each NaN is distinct.
  }], [{%y, %i, %inv, %c = tc.unique %x : (tensor<6xf32>)
     -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)}]>.doc;
  let arguments = (ins Tc_Tensor:$input, OptionalAttr<I64Attr>:$axis,
                       UnitAttr:$unsorted);
  let results = (outs Tc_Tensor:$values, TensorOf<[I64]>:$indices,
                      TensorOf<[I64]>:$inverse_indices, TensorOf<[I64]>:$counts);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // TC_DIALECT_TC_IR_TCREDUCTIONOPS_TD
