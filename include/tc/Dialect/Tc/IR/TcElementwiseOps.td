//===- TcElementwiseOps.td - elementwise unary, binary, ternary ops ------===//
//
// Unary ops keep their operand's type. Binary and ternary ops broadcast their
// operands like numpy: shapes are aligned at the trailing dimension and a
// dimension of size 1 stretches to the other operand's size.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCELEMENTWISEOPS_TD
#define TC_DIALECT_TC_IR_TCELEMENTWISEOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

class Tc_UnaryOp<string mnemonic, Type type, string what,
                 list<Trait> traits = []>
    : Tc_Op<mnemonic, !listconcat(traits, [SameOperandsAndResultType,
                                           Elementwise])> {
  let summary = what;
  let description = Tc_Doc<
      "Applies " # what # " to every element of `input`. The result has "
      # "the input's type.",
      "%r = tc." # mnemonic # " %x : tensor<4x?xf32>">.doc;
  let arguments = (ins type:$input);
  let results = (outs type:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

// Numeric ops on floats and integers.
def Tc_AbsOp : Tc_UnaryOp<"abs", Tc_Tensor, "absolute value"> {
  let hasFolder = 1;
}
def Tc_NegOp : Tc_UnaryOp<"neg", Tc_Tensor, "negation"> {
  let hasFolder = 1;
}
def Tc_SignOp : Tc_UnaryOp<"sign", Tc_Tensor, "sign (-1, 0 or 1)">;
def Tc_ReluOp : Tc_UnaryOp<"relu", Tc_Tensor, "max(x, 0)">;

// Float math.
def Tc_ExpOp : Tc_UnaryOp<"exp", Tc_FloatTensor, "e to the power x">;
def Tc_LogOp : Tc_UnaryOp<"log", Tc_FloatTensor, "natural logarithm">;
def Tc_SqrtOp : Tc_UnaryOp<"sqrt", Tc_FloatTensor, "square root">;
def Tc_RsqrtOp : Tc_UnaryOp<"rsqrt", Tc_FloatTensor, "reciprocal square root">;
def Tc_ReciprocalOp : Tc_UnaryOp<"reciprocal", Tc_FloatTensor, "1 / x">;
def Tc_TanhOp : Tc_UnaryOp<"tanh", Tc_FloatTensor, "hyperbolic tangent">;
def Tc_SigmoidOp : Tc_UnaryOp<"sigmoid", Tc_FloatTensor, "1 / (1 + exp(-x))">;
def Tc_ErfOp : Tc_UnaryOp<"erf", Tc_FloatTensor, "the Gauss error function">;
def Tc_SinOp : Tc_UnaryOp<"sin", Tc_FloatTensor, "sine">;
def Tc_CosOp : Tc_UnaryOp<"cos", Tc_FloatTensor, "cosine">;
def Tc_TanOp : Tc_UnaryOp<"tan", Tc_FloatTensor, "tangent">;
def Tc_AsinOp : Tc_UnaryOp<"asin", Tc_FloatTensor, "arcsine">;
def Tc_AcosOp : Tc_UnaryOp<"acos", Tc_FloatTensor, "arccosine">;
def Tc_AtanOp : Tc_UnaryOp<"atan", Tc_FloatTensor, "arctangent">;
def Tc_SinhOp : Tc_UnaryOp<"sinh", Tc_FloatTensor, "hyperbolic sine">;
def Tc_CoshOp : Tc_UnaryOp<"cosh", Tc_FloatTensor, "hyperbolic cosine">;
def Tc_AsinhOp : Tc_UnaryOp<"asinh", Tc_FloatTensor, "inverse hyperbolic sine">;
def Tc_AcoshOp : Tc_UnaryOp<"acosh", Tc_FloatTensor, "inverse hyperbolic cosine">;
def Tc_AtanhOp : Tc_UnaryOp<"atanh", Tc_FloatTensor, "inverse hyperbolic tangent">;
def Tc_FloorOp : Tc_UnaryOp<"floor", Tc_FloatTensor, "rounding toward -inf">;
def Tc_CeilOp : Tc_UnaryOp<"ceil", Tc_FloatTensor, "rounding toward +inf">;
def Tc_RoundOp : Tc_UnaryOp<"round", Tc_FloatTensor,
                            "rounding to nearest, ties to even">;
def Tc_RoundToTf32Op : Tc_UnaryOp<"round_to_tf32", RankedTensorOf<[F32]>,
                                  "rounding to TF32's precision"> {
  let description = Tc_Doc<[{
    Rounds every f32 element to the nearest value that TF32 holds (10
    explicit mantissa bits, f32's exponent), ties to even, and keeps it in
    f32: the operands of a contraction that `--precision=tf32` computes as
    tensor cores do. Values beyond TF32's largest finite one become
    infinity; infinities and NaN pass through.
  }], "%r = tc.round_to_tf32 %x : tensor<4x?xf32>">.doc;
}
def Tc_SoftplusOp : Tc_UnaryOp<"softplus", Tc_FloatTensor, "log(1 + exp(x))">;
def Tc_SoftsignOp : Tc_UnaryOp<"softsign", Tc_FloatTensor, "x / (1 + |x|)">;

// Logical and bitwise.
def Tc_NotOp : Tc_UnaryOp<"not", Tc_IntTensor,
                          "logical not on i1, bitwise not on wider integers">;

// Parameterized activations.
def Tc_LeakyReluOp : Tc_UnaryOp<"leaky_relu", Tc_FloatTensor,
                                "x if x >= 0 else alpha * x"> {
  let arguments = (ins Tc_FloatTensor:$input,
                       DefaultValuedAttr<F32Attr, "0.01">:$alpha);
}
def Tc_EluOp : Tc_UnaryOp<"elu", Tc_FloatTensor,
                          "x if x > 0 else alpha * (exp(x) - 1)"> {
  let arguments = (ins Tc_FloatTensor:$input,
                       DefaultValuedAttr<F32Attr, "1.0">:$alpha);
}
def Tc_HardSigmoidOp : Tc_UnaryOp<"hard_sigmoid", Tc_FloatTensor,
                                  "max(0, min(1, alpha * x + beta))"> {
  let arguments = (ins Tc_FloatTensor:$input,
                       DefaultValuedAttr<F32Attr, "0.2">:$alpha,
                       DefaultValuedAttr<F32Attr, "0.5">:$beta);
}
def Tc_GeluOp : Tc_UnaryOp<"gelu", Tc_FloatTensor,
                           "the Gaussian error linear unit"> {
  let description = Tc_Doc<[{
    x * Phi(x), where Phi is the standard normal CDF. With
    `approximate_tanh` Phi is replaced by the tanh approximation
    `0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`.
  }], "%r = tc.gelu %x {approximate_tanh} : tensor<2x8xf32>">.doc;
  let arguments = (ins Tc_FloatTensor:$input, UnitAttr:$approximate_tanh);
}

//===----------------------------------------------------------------------===//
// Binary, with numpy broadcasting
//===----------------------------------------------------------------------===//

class Tc_BinaryOp<string mnemonic, Type type, string what,
                  list<Trait> traits = []>
    : Tc_Op<mnemonic, !listconcat(traits, [Tc_InferResultType])> {
  let summary = what;
  let description = Tc_Doc<
      "Computes " # what # " elementwise. `lhs` and `rhs` broadcast like "
      # "numpy; the result has the broadcast shape.",
      "%r = tc." # mnemonic
      # " %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>">.doc;
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

// lhs, rhs and result share one element type.
class Tc_ArithOp<string mnemonic, Type type, string what,
                 list<Trait> traits = []>
    : Tc_BinaryOp<mnemonic, type, what,
                  !listconcat(traits, [AllElementTypesMatch<["lhs", "rhs",
                                                             "result"]>])>;

def Tc_AddOp : Tc_ArithOp<"add", Tc_Tensor, "lhs + rhs", [Commutative]> {
  let hasFolder = 1;
}
def Tc_SubOp : Tc_ArithOp<"sub", Tc_Tensor, "lhs - rhs"> {
  let hasFolder = 1;
}
def Tc_MulOp : Tc_ArithOp<"mul", Tc_Tensor, "lhs * rhs", [Commutative]> {
  let hasFolder = 1;
}
def Tc_DivOp : Tc_ArithOp<"div", Tc_Tensor,
                          "lhs / rhs (integers truncate toward zero)"> {
  let hasFolder = 1;
}
def Tc_MaxOp : Tc_ArithOp<"max", Tc_Tensor, "max(lhs, rhs)", [Commutative]> {
  let hasFolder = 1;
}
def Tc_MinOp : Tc_ArithOp<"min", Tc_Tensor, "min(lhs, rhs)", [Commutative]> {
  let hasFolder = 1;
}
def Tc_ModOp : Tc_ArithOp<"mod", Tc_Tensor, "the remainder of lhs / rhs"> {
  let description = Tc_Doc<[{
    The remainder of `lhs / rhs`, broadcast like numpy. With `fmod = false`
    (integers only) the result takes the sign of the divisor, as Python's `%`;
    with `fmod = true` it takes the sign of the dividend, as C's `fmod`.
  }], "%r = tc.mod %a, %b {fmod} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>">.doc;
  let arguments = (ins Tc_Tensor:$lhs, Tc_Tensor:$rhs, UnitAttr:$fmod);
  let hasVerifier = 1;
}
def Tc_PreluOp : Tc_ArithOp<"prelu", Tc_FloatTensor,
                            "lhs if lhs >= 0 else rhs * lhs (rhs is the slope)">;
def Tc_AndOp : Tc_ArithOp<"and", Tc_IntTensor,
    "logical and on i1, bitwise and on wider integers", [Commutative]>;
def Tc_OrOp : Tc_ArithOp<"or", Tc_IntTensor,
    "logical or on i1, bitwise or on wider integers", [Commutative]>;
def Tc_XorOp : Tc_ArithOp<"xor", Tc_IntTensor,
    "logical xor on i1, bitwise xor on wider integers", [Commutative]>;
def Tc_ShiftLeftOp : Tc_ArithOp<"shift_left", Tc_IntTensor, "lhs << rhs">;
def Tc_ShiftRightOp : Tc_ArithOp<"shift_right", Tc_IntTensor,
    "lhs >> rhs (logical for unsigned, arithmetic for signed)">;

def Tc_PowOp : Tc_BinaryOp<"pow", Tc_Tensor, "lhs to the power rhs"> {
  let description = Tc_Doc<[{
    `lhs` raised to the power `rhs`, broadcast like numpy. As in ONNX the
    exponent may have another element type than the base; the result has the
    base's element type.
  }], "%r = tc.pow %x, %e : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>">.doc;
}

def Tc_CompareOp : Tc_Op<"compare", [Tc_InferResultType,
                                     AllElementTypesMatch<["lhs", "rhs"]>]> {
  let summary = "elementwise comparison";
  let description = Tc_Doc<[{
    Compares `lhs` and `rhs` elementwise with `predicate` (eq, ne, lt, le,
    gt, ge) and yields an `i1` tensor of the broadcast shape. Unsigned integer
    types compare unsigned; floats compare ordered (any NaN gives false,
    except `ne`, which gives true).
  }], "%r = tc.compare lt, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>">.doc;
  let arguments = (ins Tc_ComparePredicate:$predicate, Tc_Tensor:$lhs,
                       Tc_Tensor:$rhs);
  let results = (outs Tc_BoolTensor:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` "
                       "functional-type(operands, results)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Ternary
//===----------------------------------------------------------------------===//

def Tc_SelectOp : Tc_Op<"select", [Tc_InferResultType,
    AllElementTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "elementwise choice between two tensors";
  let description = Tc_Doc<[{
    Yields `on_true` where `condition` is true and `on_false` elsewhere; the
    three operands broadcast like numpy (ONNX `Where`).
  }], "%r = tc.select %c, %a, %b : (tensor<4x1xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>">.doc;
  let arguments = (ins Tc_BoolTensor:$condition, Tc_Tensor:$on_true,
                       Tc_Tensor:$on_false);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$condition `,` $on_true `,` $on_false attr-dict `:` "
                       "functional-type(operands, results)";
  let hasFolder = 1;
}

def Tc_ClampOp : Tc_Op<"clamp", [Tc_InferResultType,
    AllElementTypesMatch<["input", "min", "max", "result"]>]> {
  let summary = "elementwise clamp to [min, max]";
  let description = Tc_Doc<[{
    min(max(input, min), max) with scalar bounds (ONNX `Clip`). The result
    has the input's type.
  }], "%r = tc.clamp %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>">.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_ScalarTensor:$min,
                       Tc_ScalarTensor:$max);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $min `,` $max attr-dict `:` "
                       "functional-type(operands, results)";
}

#endif // TC_DIALECT_TC_IR_TCELEMENTWISEOPS_TD
