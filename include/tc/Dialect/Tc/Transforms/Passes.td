//===- Passes.td - graph-level passes on the tc dialect -------------------===//

#ifndef TC_DIALECT_TC_TRANSFORMS_PASSES_TD
#define TC_DIALECT_TC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TcInferShapesPass : Pass<"tc-infer-shapes", "func::FuncOp"> {
  let summary = "Refine tc result types from their operands";
  let description = [{
    Walks each function in order and gives every op that implements
    `InferTypeOpInterface` the most static result type inference can prove,
    keeping a declared type where it is already more static. Refined values
    flow on to their users; the function's signature is updated when a
    returned value became more static. Running it after constants fold turns
    the `?` sizes of dynamic-looking exported graphs into static ones.
  }];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcFoldShapeArithmeticPass : Pass<"tc-fold-shape-arithmetic", "func::FuncOp"> {
  let summary = "Fold the shape computations of dynamic-axis exports element "
                "by element";
  let description = [{
    With a dynamic axis, `Shape` is no longer constant, so the chains that
    exporters compute Reshape, Expand and Slice shapes with (Shape, Gather,
    Unsqueeze, Concat, arithmetic, Where) stop folding and every size they
    produce becomes `?`, the static ones too. This pass tracks each element
    of small integer tensors (rank 0 or 1, up to 64 elements) and knows it
    when it follows from constants and static sizes, whatever the others
    are. A value with every element known becomes a constant; a
    `tc.reshape` or `tc.broadcast` takes the known elements of its shape
    operand as static sizes (and drops the operand when all are static); a
    `tc.dynamic_slice` with known bounds becomes a `tc.slice`. Shape
    inference and canonicalization then carry the refined types on, and the
    pass repeats until nothing changes.

    Example: `shape_of` of `tensor<?x32x768xf32>` is `[?, 32, 768]`, so
    `gather(%shape, 2) / 12` is the constant 64 and a reshape to
    `concat(gather(%shape, 0), gather(%shape, 1), 12, 64)` has the type
    `tensor<?x32x12x64xf32>`.
  }];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcFoldConstantsPass : Pass<"tc-fold-constants", "func::FuncOp"> {
  let summary = "Evaluate layout ops and narrowing casts on weights at "
                "compile time";
  let description = [{
    Replaces a `tc.transpose` of a constant (a `dense_resource` blob or a
    dense attribute) that nothing else reads by a constant holding the
    permuted elements, so that a weight stored in another layout (Gemm with
    `transB`, a transposed MatMul initializer) is not permuted on every
    run. A `tc.cast` of an f32 constant to f16 or bf16 (what
    `tc-apply-precision` puts before a weight) becomes a constant of the
    rounded elements, so the weight is stored and read at half the size,
    and a `tc.round_to_tf32` of a constant (`--precision=tf32`) the rounded
    f32 elements. Splats and small dense constants already fold through the canonicalizer.
  }];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcChannelsLastPass : Pass<"tc-channels-last", "func::FuncOp"> {
  let summary = "Compute the convolutions of depthwise-separable and "
                "bottleneck networks channels-last";
  let description = [{
    In a function with a depthwise convolution (channel multiplier 1), or
    with at least 40 % of its convolution multiply-adds in pointwise ones
    (ResNet-50's bottlenecks), gives
    every depthwise, every pointwise (1x1, unit strides, no padding) and
    every stem (ungrouped, at most 4 input channels) convolution with
    static sizes (the batch aside) the `channels_last` form between two
    transposes (NCHW -> NHWC -> NCHW), then sinks the transposes after the
    convolutions through elementwise ops and keepdims spatial means (the
    other operands must be rank 0, transposed the same way, constants or
    of at most one extent > 1), turns transposes that keep the order of
    their extents > 1 into reshapes, and composes transposes, so that
    consecutive convolutions exchange NHWC tensors. Other dense
    convolutions keep NCHW. `force` converts in any function.
  }];
  let options = [
    Option<"force", "force", "bool", /*default=*/"false",
           "convert in a function with neither depthwise convolutions nor "
           "mostly pointwise ones too">,
  ];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcFuseGeluPass : Pass<"tc-fuse-gelu", "func::FuncOp"> {
  let summary = "Fold exporters' elementwise GELU chains into tc.gelu";
  let description = [{
    Recognizes `x * 0.5 * (1 + erf(x / sqrt(2)))` (PyTorch: Div, Erf, Add,
    Mul, Mul, the two Muls in either order; the division may be a
    multiplication by `1 / sqrt(2)`) and the tanh approximation
    `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))` (`x^3` as
    `pow(x, 3)` or two multiplications) and replaces each by `tc.gelu`
    (`approximate_tanh` for the latter). Constants may be scalars or
    one-element tensors of any rank that does not broadcast `x`, and must
    match within a relative tolerance of 1e-4. Every intermediate value must
    have no other use, so nothing is computed twice.
  }];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcFuseLayerNormPass : Pass<"tc-fuse-layer-norm", "func::FuncOp"> {
  let summary = "Fold exporters' layer normalization chains into tc.layer_norm";
  let description = [{
    Recognizes `mean = reduce_mean(x)`, `d = x - mean`,
    `var = reduce_mean(d * d)` (or `pow(d, 2)`), `d / sqrt(var + eps)` (or
    `d * rsqrt(var + eps)`, `d * reciprocal(sqrt(var + eps))`), both means
    with `keepdims` over the same trailing axes `[axis, rank)`, optionally
    followed by `* gamma` and `+ beta`, and replaces it by `tc.layer_norm`
    with that axis and epsilon. Without `gamma` the scale is a constant of
    ones. Means over other axes are left alone (tc.layer_norm normalizes
    trailing axes only); so is a chain whose intermediates have other uses,
    and `gamma`/`beta` that would broadcast `x` to a larger shape.
  }];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcFuseAttentionPass : Pass<"tc-fuse-attention", "func::FuncOp"> {
  let summary = "Fold scaled dot-product attention chains into tc.attention";
  let description = [{
    Recognizes `batch_matmul(softmax(scale(batch_matmul(Q, K^T)) + mask),
    V)` with the softmax over the last axis and replaces it by
    `tc.attention` with `key_transposed`: the key is `K^T` as the scores'
    matmul read it (keys contiguous, the lanes of the scores' register
    tiles), the result of a `tc.transpose` that only the chain reads kept
    as the key's own, any other value as it is. The
    scale is optional: a multiplication or division by a scalar constant of
    the scores, of Q or of K^T (the latter two only where nothing else
    reads the scaled operand); several of them multiply. The additive mask
    is optional and must not enlarge the scores. Intermediate values (the
    scores, the scaled scores, the masked scores, the probabilities) must
    have no other use.
  }];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcCalibrationProbesPass : Pass<"tc-calibration-probes", "ModuleOp"> {
  let summary = "Make @main return the magnitudes a calibration run measures";
  let description = [{
    For a calibration run of `tc-compile --calibrate`: @main instead returns
    one `tensor<Nxf32>`, element i the largest magnitude (`reduce_max` of
    `abs`) among the result and the operands (but constants, which the
    policy checks at compile time) of the i-th op that
    `tc-apply-precision` would narrow (in walk order, as
    `precisionPolicyOps` lists them). The model's own outputs are dropped,
    and with them whatever only they need. A model with no such op returns
    an empty tensor.
  }];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

def TcApplyPrecisionPass : Pass<"tc-apply-precision", "func::FuncOp"> {
  let summary = "Run contractions in TF32 or a 16-bit float type (the "
                "--precision policy)";
  let description = [{
    The mixed-precision policy of `tc-compile --precision`, with the
    semantics of PyTorch's autocast made explicit. With `precision=fp16` or
    `bf16`, every `tc.matmul`, `tc.batch_matmul`, `tc.conv`,
    `tc.conv_transpose` and `tc.attention` whose operands are all f32 reads
    them cast to the 16-bit type, computes in it with f32 accumulation (the
    lowering of those ops accumulates f16/bf16 in f32), and its result,
    rounded to the 16-bit type as autocast's is, is cast back to f32.
    Everything else (softmax outside attention, normalizations, reductions,
    exp/log/pow, elementwise arithmetic) stays in f32, so the model's
    inputs and outputs keep their types; code generation fuses the casts
    into the neighbouring kernels, and `tc-fold-constants` converts the
    weights' casts at compile time.

    fp16's range ends at 65504: a contraction with a constant operand
    (through reshapes and transposes) holding a larger finite magnitude
    keeps f32, and the pass reports its node with a remark; so does one
    whose `tc.calibrated_max` (an activation's magnitude in a calibration
    run, `tc-compile --calibrate`) is beyond it. bf16 has f32's
    range.

    With `precision=tf32` (PyTorch's `allow_tf32`), the factors of those
    ops (not a convolution's bias or attention's mask) are rounded by
    `tc.round_to_tf32` and stay f32, as is the result: the products of two
    TF32 values are exact in f32 and accumulate in f32, which is what
    tensor cores compute, so every target agrees. Weights are rounded at
    compile time (`tc-fold-constants`). `precision=fp32` changes nothing.
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "fp32, tf32, fp16 or bf16">,
  ];
  let dependentDialects = ["::mlir::tc::TcDialect"];
}

#endif // TC_DIALECT_TC_TRANSFORMS_PASSES_TD
