//===- Passes.td - CPU code generation passes -----------------------------===//

#ifndef TC_TARGET_CPU_PASSES_TD
#define TC_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def CpuFuseElementwisePass : Pass<"tc-cpu-fuse-elementwise"> {
  let summary = "Fuse elementwise producers into consumers that read each element once";
  let description = [{
    Upstream elementwise fusion (a producer generic is inlined into its
    consumer's body), restricted to consumers that read every element of the
    fused operand exactly once: the operand's indexing map is a permutation
    of all the consumer's loops. Inlining a producer into a contraction would
    recompute it once per reduction step (a GELU inside the next matmul, K
    times per element). Then reshapes between a contraction and its
    elementwise neighbours move to the neighbours' far sides (a 1x1
    convolution's bias and activation in its matmul's collapsed shape; an
    epilogue reading a packed contraction through its panel collapse, and
    through the expand of a shared-weight batch matmul's collapsed batch),
    so that the epilogue shares the contraction's workgroups.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::affine::AffineDialect"];
}

def CpuWinogradConvPass : Pass<"tc-cpu-winograd-conv"> {
  let summary = "Compute 3x3 convolutions with Winograd's F(4x4, 3x3) or F(2x2, 3x3)";
  let description = [{
    For an ungrouped f32 2-D convolution on tensors (from
    --convert-tc-to-linalg), static but for the batch (a dynamic batch
    counts as 1 in the tile counts below), with a 3x3 constant filter read
    only here, unit strides and dilations, zero padding, input and output channels in
    multiples of L (the register tile's 32 lanes) and at least `min-tiles`
    output tiles of 4x4 (F(4x4, 3x3)) or else of 2x2 (F(2x2, 3x3)), and
    estimated faster than the direct convolution (the larger of the
    operations and the weight bytes times `flops-per-byte`, for each): the
    input is packed into channel blocks [N, C / L, H, W, L] and transformed
    (B^T d B, one generic reading the constant B^T twice), each of the
    alpha x alpha transformed positions (36 or 16) is a matmul over the
    channels with the filter transformed at compile time (G g G^T, stored
    as [alpha^2, F / L, C, L]), the products are transformed back
    (A^T m A) and unpacked to [N, F, OH, OW] with the convolution's init
    (its bias) added. F(4x4, 3x3) takes 36 products per 4x4 tile and
    channel pair instead of 144, F(2x2, 3x3) 16 per 2x2 tile instead of 36.
  }];
  let options = [
    Option<"minTiles", "min-tiles", "int64_t", /*default=*/"16",
           "The fewest output tiles (over the batch) a convolution needs, "
           "of 4x4 for F(4x4, 3x3), else of 2x2 for F(2x2, 3x3): with fewer, "
           "reading the transformed filter costs more than the multiplies "
           "saved">,
    Option<"flopsPerByte", "flops-per-byte", "double", /*default=*/"20.0",
           "The multiply-adds a core does while it reads one byte of weights "
           "from memory: a convolution whose transformed filter is estimated "
           "to take longer to read than the direct convolution's multiply-adds "
           "(or its own filter's read) stays direct">,
    Option<"releaseReplaced", "release-replaced", "bool", /*default=*/"false",
           "Free each original filter's bytes once transformed, when no other "
           "op refers to them (only for a context with no other module)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def CpuBlockConvChannelsPass : Pass<"tc-cpu-block-conv-channels"> {
  let summary = "Compute convolutions over narrow images in channel blocks";
  let description = [{
    For an ungrouped f32 convolution on tensors (from
    --convert-tc-to-linalg), static but for the batch, whose output
    channels are a multiple of L (the
    register tile's 32 lanes), with a constant filter read only here, and
    whose output width is below the 8 columns an image-width register tile
    needs, or, for a strided one with a window wider than 1x1, divided by
    the rows of its register tile (below 16 columns, or from 16 input
    channels on, when the convolution reads a channels-last copy
    [N, I..., C] of its input, made by a transposing generic), and for a
    pointwise one in the matmul form --convert-tc-to-linalg gives it
    (loops (n, f, p, c) over the collapsed image), from 8 to 63 pixels that
    are not whole 16-lane vectors and divide into register-tile rows: the filter is
    stored at compile time as [F / L, C, K..., L], the convolution writes
    [N, F / L, O..., L] (its init read into that layout), and its result is
    unpacked to [N, F, O...] by an elementwise generic (through
    [N, F / L, L, O...] and tensor.collapse_shape). The register tile then
    takes output channels as lanes and image columns as rows.
  }];
  let options = [
    Option<"releaseReplaced", "release-replaced", "bool", /*default=*/"false",
           "Free each original weight's bytes once re-laid out, when no other "
           "op refers to them (only for a context with no other module: "
           "tc-compile without GPU targets)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def CpuBlockDepthwiseConvsPass : Pass<"tc-cpu-block-depthwise-convs", "ModuleOp"> {
  let summary = "Compute depthwise convolutions on narrow images in a "
                "channel-blocked layout";
  let description = [{
    A depthwise convolution (one input and one output channel per group,
    f32, static but for the batch) whose output rows are not whole 16-lane
    vectors and narrower than 16 columns (14, 7), or than 32 (28) when it
    is strided or has a window of at least 25 taps, and whose channels fill
    blocks of L = 32 (else 16) lanes computes in
    the layout [N, C / L, O..., L]: the padded input is packed to
    [N, C / L, H, W, L] by a layout copy, the filter (a constant) is stored
    as [C / L, K..., L], the init is read into the blocked layout, and the
    result is unpacked to [N, C, 1, O...] by a layout copy. A padded
    input is packed first and padded after, and a fill or per-channel
    broadcast init is written in the blocked layout directly, so all of it
    fuses into the convolution's workgroups. The register tile then has L
    channels in its lanes and output columns as rows, where a 14-wide row
    filled vectors partly. Runs after
    --convert-tc-to-linalg, before --tc-cpu-pack-weights. With
    `release-replaced`, a filter blob replaced this way is released.
  }];
  let options = [
    Option<"releaseReplaced", "release-replaced", "bool", /*default=*/"false",
           "Free each original filter's bytes once re-laid out, when no "
           "other op refers to them (only for a context with no other "
           "module: tc-compile without GPU targets)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CpuPackWeightsPass : Pass<"tc-cpu-pack-weights"> {
  let summary = "Store matmul weights in panels of register-tile width";
  let description = [{
    For a multiply-add contraction on tensors whose N-side input (the one
    read along the output's last loop) is an f32, f16 or bf16 constant with
    two dims
    (N and K; others of extent 1; through reshapes and view groups), read
    [N, K] or read [K, N] with at least `min-bytes`, read only here (through a fusion.group argument or
    directly): the constant is rewritten at compile time as panels
    Wp[N / L][K][L] (L = the register tile's 32 lanes), and the op as a
    linalg.generic whose N loop is split into a panel loop and a lane loop,
    writing its output through tensor.expand_shape [..., N / L, L] and
    returning it collapsed back. A register tile then reads the weight as
    one contiguous stream instead of one row of L elements every N
    elements (a page apart for N >= 1024). Only when N is greater than L
    and the tile has rows (a static M). An N that is not a multiple of L
    (an LM head's 50257) gets a last panel padded with zero columns; the op
    then writes [..., N'] (N' the padded width, from a fill of an empty
    tensor) and returns tensor.extract_slice of its first N columns.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"65536",
           "Smallest weight (bytes) worth packing">,
    Option<"releaseReplaced", "release-replaced", "bool", /*default=*/"false",
           "Free each original weight's bytes once re-laid out, when no other "
           "op refers to them (only for a context with no other module: "
           "tc-compile without GPU targets)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}


def CpuWidenBroadcastOperandsPass : Pass<"tc-cpu-widen-broadcast-operands"> {
  let summary = "Widen the 16-bit operand a register tile broadcasts to f32";
  let description = [{
    For a multiply-add contraction on tensors that accumulates in f32 and
    has register-tile rows, whose input not read along the tile's lanes
    (the one broadcast per row and reduction step) is bf16 or f16 and only
    extended to f32 in the body: that input is extended by an elementwise
    generic before the contraction, which then reads f32 for it. The
    extension is exact. An f32 broadcast folds into the FMA as a memory
    operand where a 16-bit one costs a load, a shift and a broadcast per
    row and step. The lanes operand (the weight of a matmul) keeps its
    16-bit type. Named contractions are generalized first.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}
def CpuApproximateMathPass : Pass<"tc-cpu-approximate-math"> {
  let summary = "Replace f32 transcendental functions by polynomial approximations";
  let description = [{
    tanh, erf, exp, expm1, log, log1p, log2, sin, cos and atan on f32 (and
    f16/bf16 through f32) become MLIR's polynomial approximations: plain
    arithmetic that LLVM vectorizes, instead of one libm call per element.
    Other functions and f64 keep their libm calls. A sigmoid's
    `1 / (1 + exp(y))` on f32 vectors divides by the denominator clamped to
    at most 2^100 with fast-math `arcp` and `ninf`, which LLVM computes as a
    reciprocal estimate and a Newton step (about an ulp from the division,
    several times cheaper).
  }];
  let dependentDialects = ["::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CpuPrefetchPanelsPass : Pass<"tc-cpu-prefetch-panels"> {
  let summary = "Prefetch the next block of packed weights while a block computes";
  let description = [{
    For each register tile whose reduction loops (vector accumulators,
    from 0 by 1) read one row of packed weights per step, `W[i..., 0 ..
    lanes)` of a static contiguous buffer larger than a core's own cache
    whose last dim is the tile's lanes, where the loops sweep a contiguous
    block of those rows (each sets one index, the last dims before the
    lanes in order, all but the outermost over the whole dim: a matmul's
    K for a panel, a convolution's block of input channels times its
    window): each of the T row tiles that read the block (the loops
    around it that the indices do not depend on) prefetches its share of
    the next block into the second-level cache, at step s of tile t the
    line holding element `floor((t * S + s) * lanes / T)` of it, and more
    lines per step where one does not cover the block. The next block is
    the one after in memory (after a panel's last block, the next panel's
    first), or further by the panels a workgroup steps through inside its
    row loop; past the end, the weights' last element. A loop over blocks
    outside the row loops may have any trip count (a workgroup's share of
    panels); the row loops, and block loops inside them, need static ones.
    A partial row tile without a loop prefetches only when it is the
    weights' one reader.
    Weights that came from memory (a transformer's, larger than the last-
    level cache; ResNet's deep 3x3 convolutions, 9.4 MB each) then arrive
    while the previous block computes from cache instead of stalling the
    first row tile of each block.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CpuConfigureKernelsPass : Pass<"tc-cpu-configure-kernels", "ModuleOp"> {
  let summary = "Choose each register-tiled kernel's #fusion.kernel_config";
  let description = [{
    For every multiply-add or pooling op on tensors that
    --tc-cpu-vectorize-contractions tiles for registers (a matmul, a
    convolution, a pooling window), sets `fusion.kernel_key`, a name of its
    computation that is the same in every compile (`cpu-` and a hash of its
    kind, operand types, indexing maps, iterators and body), and, unless
    it has one already (written by hand), `fusion.config`, a
    `#fusion.kernel_config<strategy = "register-tile", tile = [rows, lanes],
    workgroups = N>` that --tc-cpu-distribute and
    --tc-cpu-vectorize-contractions build the kernel from. The
    configuration is the kernel's entry in `table` when it has one (a
    tuning table that --mode=max-autotune writes), else its `candidate`-th
    candidate (registerTileCandidates: the heuristic one first, then
    other rows and fewer workgroups; the heuristic one for a kernel with
    fewer candidates), else the heuristics: 8 x 32 tiles and
    `max-workgroups`.

    A table is JSON: `{"kernels": {"<key>": {"tile": [rows, lanes],
    "workgroups": N}, ...}}`; other members are ignored.
  }];
  let options = [
    Option<"maxWorkgroups", "max-workgroups", "int64_t", /*default=*/"64",
           "the heuristics' largest number of workgroups per kernel">,
    Option<"candidate", "candidate", "int64_t", /*default=*/"-1",
           "give each kernel its candidate of this index (max-autotune's "
           "trial compiles); -1: the heuristics">,
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "a tuning table (JSON) whose entries override the choice">,
  ];
  let dependentDialects = ["::mlir::fusion::FusionDialect"];
}

def CpuDistributePass : Pass<"tc-cpu-distribute", "func::FuncOp"> {
  let summary = "Split each kernel into workgroups (scf.forall), fusing producers";
  let description = [{
    For every linalg op at the top level of the function or directly inside
    a `fusion.group` (whose ops can then only fuse with each other), from
    the last to the first: tiles one parallel loop into at most
    `max-workgroups` workgroups with `scf.forall` and fuses into the tile the
    producers that only it uses (fills, elementwise generics, pads,
    broadcasts), so that one forall is one kernel; a pad that every
    workgroup reads at the same offsets (a strided convolution split by
    output channels) is computed once, before the forall. A reduction's
    destination fill (zeros, a bias) is fused too; for a register-tiled
    kernel it fills a tensor of the workgroup's own instead of the
    workgroup's slice of the output: the tiles' accumulator, which
    --tc-cpu-fuse-into-register-tiles keeps in registers, so the output is
    written once. For a multiply-add
    kernel (or the elementwise epilogue of one) the loop is the static one
    that gives the most workgroups when each holds whole register tiles of
    --tc-cpu-vectorize-contractions (multiples of their rows, 8 or a
    divisor of the extent from 6 up, and of 32 lanes, or of 8 lanes where
    that divides evenly), with chunks that
    divide the loop evenly where possible: a convolution at batch 1 splits
    its image rows. A loop whose split makes workgroups read the same parts
    of a windowed input (the image rows a convolution's window overlaps, or
    a whole image for a split by output channels) counts half, so a
    depthwise convolution splits its channels. Other ops split their
    outermost static parallel loop with more than one iteration other than
    the innermost; failing that, their innermost dynamic parallel loop
    other than the last (the sequence of [batch, sequence, hidden], since a
    dynamic batch is often 1), then the last loop. Extents read off a
    producer's result (tensor.dim, also through its reshapes) are first
    read off its operands, so that such reads do not keep it out of its
    consumer's workgroups. Ops whose loop
    nest is smaller than `min-work` iterations stay whole; an elementwise
    op counts the work of a producer it consumes alone (a convolution's
    activation on a small image). Ops inside control flow (scf.if/while bodies)
    are left serial.
  }];
  let options = [
    Option<"maxWorkgroups", "max-workgroups", "int64_t", /*default=*/"64",
           "largest number of workgroups per kernel">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"65536",
           "loop nests with fewer static iterations stay serial">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def CpuFillPerUsePass : Pass<"tc-cpu-fill-per-use", "func::FuncOp"> {
  let summary = "Give every workgroup loop that accumulates into a shared "
                "zero fill its own";
  let description = [{
    Runs on tensors, after --tc-cpu-distribute and CSE, before
    bufferization. A fill distributed into workgroups (an `scf.forall`
    whose body only fills its slice of a `tensor.empty`) that CSE has made
    the shared init of several loops (the zero accumulators of the batched
    matmuls of a model's Winograd convolutions) is cloned, with its
    `tensor.empty`, before each of them but the first: bufferization then
    fills each buffer in place, where it copied the one filled buffer into
    each loop's (ResNet-50: nine copies a run).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CpuReadOnlyInputsPass : Pass<"tc-cpu-read-only-inputs", "ModuleOp"> {
  let summary = "Keep bufferization from writing into the model's inputs";
  let description = [{
    The model.so ABI only reads its inputs (the caller's memory, or a GPU
    buffer the runtime reuses): marks every tensor argument of @main
    `bufferization.writable = false`, so that one-shot bufferization
    copies an input before updating it in place (ScatterElements writing
    into its data input) instead of writing into, and returning, the
    caller's buffer. Runs before bufferization; shared by the CPU and GPU
    pipelines.
  }];
}

def CpuDenseOutputsPass : Pass<"tc-cpu-dense-outputs", "ModuleOp"> {
  let summary = "Copy @main's results that are strided views into dense buffers";
  let description = [{
    The model.so ABI hands each result's buffer back to the caller as a
    dense row-major array. One-shot bufferization with identity-layout
    function boundaries returns a view (a slice of an internal buffer) of
    dynamic shape through a `memref.cast` to the identity layout, which the
    verifier accepts but which keeps the view's strides and offset: the
    caller would read the wrong elements. Runs after bufferization: every
    result of @main that is, through casts, a value of a non-identity layout
    is copied into a fresh buffer of its shape. Shared by the CPU and GPU
    pipelines.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def CpuLowerChecksPass : Pass<"tc-cpu-lower-checks", "ModuleOp"> {
  let summary = "Turn run-time checks (cf.assert) into @main's error code";
  let description = [{
    Each `cf.assert` in @main records, when its condition is false, the
    index of its message (plus one) in a cell by an atomic max; @main
    returns the cell as an extra trailing i32 result, and the module gets
    the attribute `tc.check_messages` listing the messages. The run
    function of the model ABI (--tc-cpu-emit-entry, --tc-gpu-emit-entry)
    turns a non-zero code into TC_RUN_CHECK_FAILED + index and emits the
    messages for the runtime. Runs on buffers, after bufferization; shared
    by the CPU and GPU pipelines. With `in-kernels=false` (GPU targets),
    checks inside loops and linalg ops, which may become kernels, are
    dropped. A failed check in @main's own block (an extent) ends the run
    there: @main frees the buffers allocated so far and returns
    placeholder outputs with the code, since the code after it would index
    buffers with bounds that contradict them. Checks in loops and linalg
    ops (element checks) let the run go on: their lowerings keep accesses
    in bounds.
  }];
  let options = [
    Option<"inKernels", "in-kernels", "bool", /*default=*/"true",
           "keep the checks inside loops and linalg ops (element checks such "
           "as gather indices); false on GPU targets">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CpuPlanMemoryPass : Pass<"tc-cpu-plan-memory", "func::FuncOp"> {
  let summary = "Place the function's static intermediate buffers in one arena";
  let description = [{
    Runs on buffers, before deallocation. Every `memref.alloc` of static
    size in the function's top-level block whose buffer (through all its
    views) is used only by ops of that block and their regions, and is
    neither returned nor captured by anything else, gets a live range from
    its allocation to the last top-level op that uses it. Buffers are then
    placed, largest first, at the lowest 64-byte-aligned offset of one arena
    that no buffer with an overlapping live range occupies; each becomes a
    `memref.view` of the arena, allocated once at function entry. Returned
    buffers and buffers of dynamic size stay separate allocations.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def CpuOutlineWorkgroupsPass : Pass<"tc-cpu-outline-workgroups", "ModuleOp"> {
  let summary = "Outline each scf.forall on buffers into a workgroup function";
  let description = [{
    After bufferization, each top-level `scf.forall` of `@main` becomes a
    private function `@main_wg<N>(captured values..., %workgroup: index)`,
    and the loop is replaced by `tc_cpu.dispatch @main_wg<N>[%count] %env
    captures(captured values...) {kernel = "k<N>", ops, nodes}`. Each linalg
    op outside a forall (a kernel too small to split) becomes such a
    function too, dispatched with a count of 1, so that `@main` keeps only
    the dispatches. `@main` gets
    the runtime environment as a new first argument (`!llvm.ptr`).
    `--tc-cpu-emit-entry` later turns each dispatch into a call of the
    runtime's `parallel_for`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::tc_cpu::TcCpuDialect"];
}

def CpuConvertDispatchesToLLVMPass
    : Pass<"tc-cpu-convert-dispatches-to-llvm", "ModuleOp"> {
  let summary = "Convert the operands of tc_cpu.dispatch to LLVM types";
  let description = [{
    Runs with the host code's LLVM lowering, after the memref, func and
    control-flow conversions and before the unrealized casts are
    reconciled: each `tc_cpu.dispatch` gets its count as an i64 and its
    memref captures as their descriptors' fields, the arguments its
    workgroup function (now an `llvm.func`) takes. `--tc-cpu-emit-entry`
    lowers the dispatch itself once the whole module is LLVM.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ExpandDynamicReshapesPass : Pass<"tc-expand-dynamic-reshapes"> {
  let summary = "memref.expand_shape with several dynamic sizes in one "
                "group to memref.reinterpret_cast";
  let description = [{
    MLIR 22's `--expand-strided-metadata` computes the strides of an
    expanded group from the result type, assuming at most one dynamic size
    per group, and crashes (a null attribute in ReinterpretCastOp::build)
    when a group has more: the reshapes of exporters' dynamic-axis models,
    whose target shape is computed at run time (Shape -> Gather -> Concat
    -> Reshape), bufferize to exactly such expand_shapes. This pass rewrites
    each of them first as the view it is: `extract_strided_metadata` of the
    source and a `reinterpret_cast` with the output shape as sizes, and, in
    each group, the source dimension's stride for the innermost dimension
    and the running product of the inner sizes for the others. Offsets,
    sizes and strides that the result type fixes stay static. Every
    pipeline that runs `--expand-strided-metadata` (CPU, GPU host and
    kernels) runs it just before.

    Example:
    ```mlir
    %e = memref.expand_shape %m [[0, 1, 2]] output_shape [%a, %b, %c]
        : memref<?xf32> into memref<?x?x?xf32>
    // becomes
    %base, %offset, %size, %stride = memref.extract_strided_metadata %m
    %s1 = arith.muli %c, %c1          // folded: %c
    %s0 = arith.muli %s1, %b
    %e = memref.reinterpret_cast %base to offset: [0],
        sizes: [%a, %b, %c], strides: [%s0, %c, 1]
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CpuLowerCopiesPass : Pass<"tc-cpu-lower-copies"> {
  let summary = "Turn strided memref.copy into copy generics (loops)";
  let description = [{
    memref-to-llvm lowers a copy between buffers that are not both contiguous
    into a call of `memrefCopy` from MLIR's runner utilities, which a model.so
    does not link. As a copy generic it becomes a loop nest instead, which
    --tc-cpu-vectorize-elementwise vectorizes (the padded inputs copied per
    workgroup). Contiguous copies stay memref.copy (they become memcpy).
    A fill of a new buffer followed by a copy into its interior (a padded
    input) fills only the border the copy leaves.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CpuVectorizeTransformsPass : Pass<"tc-cpu-vectorize-transforms"> {
  let summary = "Vectorize Winograd's tile transforms with their coefficients folded in";
  let description = [{
    For a generic on buffers computing
    out[p, q, ...] += sum_{r, s} c1[p, r] c2[q, s] x[..., r, ..., s, ...]
    (the body out + (c1 * c2) * x) with c1 and c2 constant f32 matrices of
    at most 8x8 (memref.get_global of a constant global), static p, q, r,
    s and lanes (the others may be dynamic), and the output's last loop
    read by x in its last dimension, both contiguous: loops over the other loops (the lanes in steps of one
    vector register), and inside, the tile's loads, the 1-D transforms
    t[r, q] = sum_s c2[q, s] x[r, s] and out[p, q] += sum_r c1[p, r] t[r, q]
    fully unrolled with the coefficients folded (zeros skipped, ones as
    adds or subtracts, others as multiply-adds with constant vectors), and
    the stores. Winograd's B^T d B and A^T m A (--tc-cpu-winograd-conv).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CpuFuseIntoRegisterTilesPass : Pass<"tc-cpu-fuse-into-register-tiles"> {
  let summary = "Compute a register-tiled kernel's accumulator fill and its "
                "elementwise epilogue in its tiles' registers";
  let description = [{
    Runs after --tc-cpu-vectorize-contractions, on buffers. A workgroup's
    register tiles accumulate into a buffer of its own (a `memref.alloc`),
    each reading its block once before its reduction loops and writing it
    once after. An elementwise op that fills the whole buffer before them
    (a convolution's bias, broadcast) is computed instead where each tile
    reads its block, as vectors of the tile's shape; an elementwise op that
    reads the buffer after them (an activation, a residual add; identity
    maps on the buffer and its output) is applied where each tile writes
    its block, into the op's output. The fill, the epilogue and the buffer,
    when nothing else uses it, go away: a pass over the buffer fewer each.

    Only where the order change is exact: nothing between the fill, the
    tiles and the epilogue touches memory but the tiles; the tiles write
    only the buffer and do not read the epilogue's output; the fill's
    operands are not the buffer or that output; an epilogue operand on the
    output's memory is the output itself, read in place. Tiles whose
    accumulator stayed inside a loop, views of the buffer, or other users
    leave the buffer as it is.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CpuVectorizeContractionsPass : Pass<"tc-cpu-vectorize-contractions"> {
  let summary = "Register-tile contractions and vectorize them (vector dialect)";
  let description = [{
    For linalg contractions on buffers (matmul, batch matmul, the generics
    with a multiply-add body whose maps read loops, constants or
    convolution windows `o * s + k * d`) and pooling windows (one max, min
    or add of the input and the accumulator): tiles the output's last
    dimension by `lanes` (N), the output dimension that the N-side
    input does not read by `rows` (M; or, where `rows` does not divide a
    static M, by its largest divisor of at least 3/4 `rows`, 7 of 14 or 28,
    so that no partial tile follows), and every other loop (batch, image
    rows, kernel window, reductions; dynamic ones too) by 1, reductions
    innermost. A kernel without such an M (pooling, a depthwise
    convolution) tiles the image rows its window reads instead, 4 to 8 that
    divide them where possible: independent accumulators, one per row; its
    N may be as narrow as 4 lanes (a 7x7 image). N is
    first split (linalg::splitOp) into whole tiles, a multiple of 8 and
    powers of two, so that no tile has an odd vector width; a partial M
    tile, or that of a dynamic N (given an M: attention's key length), is
    peeled and taken one row or lane at a time, so that every tile has
    static sizes. Each tile drops its unit
    loops and dims (rank-reducing subviews; a strided window becomes a
    strided view, each row of it read as one contiguous vector and a
    shuffle), is vectorized to `vector.contract` (a multiply and an add
    become `vector.fma`), keeps its accumulator in registers
    across the reduction loops (the transfers are hoisted, also out of a
    reduction of dynamic length, which may run zero times), and the
    contraction is lowered to outer products, which become broadcast-FMA
    chains. Ops it does not handle (no multiply-add body, a dynamic N
    without an M, fewer than 8 lanes) keep their linalg form for
    --tc-cpu-interchange-loops and loops. An op whose body reads its loop
    indices (linalg.index) keeps its loops' order when tiled: upstream
    tiling offsets the indices by the loops in interchanged order.
  }];
  let options = [
    Option<"rows", "rows", "int64_t", /*default=*/"8",
           "Output rows per register tile (M)">,
    Option<"lanes", "lanes", "int64_t", /*default=*/"32",
           "Output columns per register tile (N), in 32-bit elements">,
    Option<"lowerContractions", "lower", "bool", /*default=*/"true",
           "Lower vector.contract to outer products and FMAs (off: stop at "
           "vector.contract, for tests)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CpuVectorizeTransposesPass : Pass<"tc-cpu-vectorize-transposes"> {
  let summary = "Vectorize elementwise kernels that read an input transposed";
  let description = [{
    For linalg.generic ops on buffers whose loops are all parallel, with
    one output (its last dimension read by loop n) and inputs that read n
    other than in their last dimension, all with the same loop m in their
    last dimension (static loops): tiles of one vector register square on
    (m, n) (16 x 16 for f32; the loops split first into parts the tiles
    divide, the last a partial tile), vectorized by upstream linalg
    vectorization; the transposed reads become contiguous reads and a
    vector.transpose.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def CpuVectorizeElementwisePass : Pass<"tc-cpu-vectorize-elementwise"> {
  let summary = "Vectorize elementwise kernels along their contiguous dimension";
  let description = [{
    For linalg.generic ops on buffers whose loops are all parallel, whose
    output's last dimension is a loop of at least 8 lanes (or becomes one
    when trailing loops that every operand's buffer reads contiguously are
    collapsed first: a 7x7 image's 49), or a dynamic one, that every
    input reads contiguously (as its last dimension) or not at all
    (broadcasts), and whose body has no memory accesses: splits that loop
    (linalg::splitOp) into whole vectors of `lanes` 32-bit lanes, a
    multiple of 8 and powers of two; tiles each part by its vector width
    on that loop and 1 on every other (innermost: the vector loop); drops
    the unit loops (rank-reducing subviews) and vectorizes each tile with
    upstream linalg vectorization. A dynamic loop is tiled by the vector
    width and its partial last tile, of a width known only at run time,
    peeled off and left to loops. Other ops (transposed reads, gathers,
    reductions) keep their linalg form.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"16",
           "Vector width in 32-bit lanes (scaled for narrower elements)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CpuVectorizeReductionsPass : Pass<"tc-cpu-vectorize-reductions"> {
  let summary = "Vectorize reductions along their contiguous dimension";
  let description = [{
    For linalg.generic ops on buffers with reduction loops, maps of loops
    and constants, and a body without memory accesses: picks the loop that
    an input reads as its last dimension (at least 8 lanes, or dynamic: its
    partial last tile is peeled off and left to loops) and
    that every input depending on it reads contiguously. When that loop is
    a reduction (a row reduced along its last dim: softmax, normalization,
    ReduceSum over the last axis, a dot product), each row is read in
    chunks of `row-lanes` 32-bit lanes and every chunk is reduced with one
    vector.reduction into the accumulator; when it is parallel and the
    output's last dimension (a reduction over leading dims), each step of
    the reduction loops is one vector operation on `lanes` accumulators.
    Like --tc-cpu-vectorize-elementwise, the loop is split into whole
    vectors (linalg::splitOp), every other loop is tiled by 1 and dropped,
    and each tile is vectorized by upstream linalg vectorization;
    vector.multi_reduction is lowered to vector.reduction (inner
    reduction). Kernels the vectorizer rejects (argmax's index-carrying
    bodies) keep their linalg form.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"16",
           "Accumulators per step of a reduction over leading dims, in 32-bit lanes">,
    Option<"rowLanes", "row-lanes", "int64_t", /*default=*/"128",
           "Lanes per chunk of a row reduction, in 32-bit lanes">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CpuInterchangeLoopsPass : Pass<"tc-cpu-interchange-loops"> {
  let summary = "Order contraction loops so the innermost loop is contiguous";
  let description = [{
    For linalg ops with reductions (contractions, convolutions) whose
    output's last dimension is a parallel loop that every input reads either
    contiguously (as its last dimension) or not at all: moves that loop
    innermost and the reductions just outside it. A matmul `(m, n, k)` runs
    as `(m, k, n)`, an axpy over contiguous rows that LLVM vectorizes, instead
    of a strided dot product per output element. Named ops are generalized
    first. Other ops keep their order.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CpuMoveBf16AsIntegersPass : Pass<"tc-cpu-move-bf16-as-integers", "ModuleOp"> {
  let summary = "Load and store bf16 vectors as i16 vectors";
  let description = [{
    Runs on the LLVM dialect. Each `llvm.load` of a vector of bf16 becomes a
    load of the i16 vector of the same bits and an `llvm.bitcast`, and each
    `llvm.store` of one a bitcast and a store of the i16 vector. The bits
    are the same; the point is LLVM 22's x86 back end, which aborts
    ("Do not know how to soft promote this operator's operand") on a
    load of <8k+1 x bfloat> stored unchanged (a copy of a 9-pixel bf16
    image row, say) when the CPU has AVX512-BF16. Integer vectors of any
    width are legal there.
  }];
}

def CpuEmitEntryPass : Pass<"tc-cpu-emit-entry", "ModuleOp"> {
  let summary = "Emit the model.so ABI: entry point, metadata, dispatches";
  let description = [{
    Runs on the LLVM dialect. Emits `tc_module_abi_version`,
    `tc_module_metadata_v1` (the text of the module's `tc.signature`
    attribute) and `tc_module_run_v1`, which reads the inputs' data pointers
    and extents, calls `@main`, and hands each result buffer to the caller
    (see include/tc-runtime/module_abi.h). Each `tc_cpu.dispatch` becomes a
    call of the environment's `parallel_for` with a trampoline that unpacks
    the captured values and runs workgroups `[begin, end)`, and an entry of
    the kernel table `tc_module_kernels_v1` (its name, ONNX op types and
    nodes, for the runtime's profile). A module
    with shape buckets merged in (functions with a `tc.bucket_guard`, see
    ShapeBuckets.h) gets one internal run function per entry and a
    `tc_module_run_v1` that calls the first bucket whose extents the inputs
    have, else `@main`'s.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TC_TARGET_CPU_PASSES_TD
