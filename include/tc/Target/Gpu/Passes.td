//===- Passes.td - GPU code generation passes --------------*- tablegen -*-===//
//
// The vendor-neutral part of GPU code generation: buffers to gpu.launch
// kernels, checks on what stays on the host. The vendor-specific device
// lowering (NVVM, ROCDL) sits behind tc/Target/Gpu/GpuTarget.h.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_PASSES
#define TC_TARGET_GPU_PASSES

include "mlir/Pass/PassBase.td"

def GpuKeepHostArraysPass : Pass<"tc-gpu-keep-host-arrays", "ModuleOp"> {
  let summary = "Keep the host's bookkeeping arrays in host memory";
  let description = [{
    Runs after bufferization and deallocation, before
    --tc-gpu-map-kernels. A static memref.alloc that is only loaded,
    stored, freed and passed (perhaps through memref.cast) to private
    functions that only load, store and compute scalars (the deallocation's
    `dealloc_helper`, which compares buffer addresses to decide what to
    free) is host bookkeeping, not tensor data: it becomes a memref.alloca
    at its function's entry, its deallocations go, and the helpers are
    marked `tc.host_function`, which --tc-gpu-map-kernels,
    --tc-gpu-transfer-host-values and --tc-gpu-verify-host-code leave
    alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GpuFormAttentionPass : Pass<"tc-gpu-form-attention", "func::FuncOp"> {
  let summary = "Give each 16-bit tc.attention the flash-attention kernel";
  let description = [{
    Runs on the tc dialect, before --convert-tc-to-linalg. A tc.attention
    whose operands are f16 or bf16 with static head sizes of at most 128
    (sequence lengths and batch dims static or dynamic, none statically 0)
    becomes `tc_gpu.attention` into a `tensor.empty`: one kernel that keeps
    the scores in the block (--tc-gpu-map-kernels builds it) instead of the
    scores' contraction, the softmax and the second contraction, which
    write and read the [batch..., Lq, Lk] scores in device memory. Each
    dynamic extent of the operands is checked at run time (`cf.assert`,
    naming the node) against the one it meets, as the general lowering's
    broadcasts are. Other attentions keep tc.attention's general lowering.
  }];
  let dependentDialects = ["::mlir::tc_gpu::TcGpuDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def GpuFillPerUsePass : Pass<"tc-gpu-fill-per-use", "func::FuncOp"> {
  let summary = "Give every op that accumulates into a fill its own fill";
  let description = [{
    Runs on tensors, before bufferization. Every op that takes a
    linalg.fill as its init gets a clone of the fill (with the tensor.empty
    it fills) just before it; a fill left without uses goes. CSE shares
    the zero tensors of reductions and matmuls, and bufferization would
    otherwise copy one shared filled buffer into each op's buffer; now it
    fills each in place, next to the op, whose kernel takes the fill over
    (ContractionFusion.h): neither the fill nor a copy is a kernel.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GpuHoistChecksPass : Pass<"tc-gpu-hoist-checks", "func::FuncOp"> {
  let summary = "Move each run-time check of a function's body up to where "
                "its condition can be computed";
  let description = [{
    Runs on buffers, before --tc-cpu-lower-checks, which splits the block
    at each top-level cf.assert (a failed check ends the run there). That
    split would keep a contraction's kernel from doing the elementwise op
    after it when a check stands between them (with a symbolic batch,
    each residual add follows a check that the two batches match). Each
    top-level cf.assert moves up, with the pure ops that compute its
    condition (extents, comparisons), to just after what those use, but
    never above the check before it: the first failing check in the
    model's order is still the one reported.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect"];
}

def GpuPlaceInputProducersPass
    : Pass<"tc-gpu-place-input-producers", "func::FuncOp"> {
  let summary = "Move the pads and transposes of a contraction's inputs "
                "next to it, its outputs' allocations above them";
  let description = [{
    Runs after bufferization, before the arena plan
    (--tc-cpu-plan-memory). --tc-gpu-map-kernels lets a contraction's
    kernel read a padded or transposed input's source itself instead of
    the buffer the pad (a fill and a copy into its interior) or the
    transpose wrote (ContractionFusion.h), but only when nothing that
    kernel writes, and nothing between the producer and the contraction,
    can share memory with the source. The plan sees the source's last use
    at the producer and may give its memory to any buffer allocated
    after. This pass moves each such producer (of an allocation only it
    writes and only the contraction reads; for a transpose of a reshape of
    a buffer only a copy writes, that copy too) down to just before the
    contraction, or before the fill of the contraction's output right
    before it, when nothing in between touches the produced buffer or
    writes the source, and moves the allocations of the contraction's
    outputs and of the outputs of the elementwise op that reads its result
    right after it above the producers (where their sizes are defined
    there). The results are unchanged; the plan keeps the source apart
    from everything live until the contraction.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GpuConfigureKernelsPass
    : Pass<"tc-gpu-configure-kernels", "func::FuncOp"> {
  let summary = "Choose the contraction tiles the GPU targets of a build need";
  let description = [{
    Runs on buffers before --tc-gpu-map-kernels. The kernels of one model
    serve every GPU target it is compiled for (`targets`, comma-separated
    --target spellings), so a contraction's tile must suit them all. A
    contraction whose block multiplies on matrix cores (f16, bf16 or TF32
    factors) needs, per thread, as many accumulators as the largest
    matrix instruction of the targets gives a lane (its m n / subgroup
    size): RDNA 3's WMMA gives 8, more than the 32 x 32 tile's 4, so on
    such a target the contraction gets `#fusion.kernel_config<strategy =
    "tiled-contraction", tile = [64, 64, 16], workgroups = 0>` (the wide
    tile, whose threads hold 16) when its M and N are not both static and
    below 64, and the wide tile's shared memory fits every target
    (GpuTargetInfo); otherwise it keeps the heuristics (the wide tile for
    large extents, decided at compile or run time). A configuration
    written by hand stays.

    With `candidates=N`, every contraction without a configuration also
    gets `fusion.candidates`, up to N configurations the kernel can be
    built in on every target (tiles from the largest down, each with three
    and two stages where every target copies asynchronously), and its
    `fusion.kernel_key` ("gpu-" and a hash of its computation), the name a
    tuning table knows it by. --tc-gpu-map-kernels builds each of them
    beside the heuristic kernel, and the host code runs the one a
    `tc_gpu.tuned_choice` picks.
  }];
  let options = [
    Option<"targets", "targets", "std::string", /*default=*/"\"\"",
           "the GPU targets of the build (cuda:sm_90,rocm:gfx1100); none: "
           "nothing to configure">,
    Option<"candidates", "candidates", "int64_t", /*default=*/"0",
           "alternative configurations per contraction for the tuner "
           "(0: none)">,
  ];
  let dependentDialects = ["::mlir::fusion::FusionDialect"];
}

def GpuMapKernelsPass : Pass<"tc-gpu-map-kernels", "func::FuncOp"> {
  let summary = "Turn every linalg op on buffers into a gpu.launch";
  let description = [{
    Runs after bufferization on the functions that are neither declarations
    nor host functions: every linalg op (and every memref.copy, first
    rewritten as linalg.copy) becomes one kernel. It runs the phases of
    KernelMapping.h in order, which the GPU pipeline runs as passes of
    their own: --tc-gpu-prepare-kernel-ops, --tc-gpu-build-attention-kernels,
    --tc-gpu-build-reduction-kernels, --tc-gpu-build-elementwise-kernels and
    --tc-gpu-map-kernel-loops (their descriptions say what each builds).
    Contractions get a kernel that stages tiles of their operands in shared
    memory; reductions along one loop of at least `min-block-reduction`
    elements a block per output element; a contraction's kernel also does
    the work of the op that fills its output just before it and of the
    elementwise op that reads its result just after it (a bias, an
    activation, a residual add; ContractionFusion.h), and reads a padded
    input's source itself (see --tc-gpu-place-input-producers). Every other
    op's parallel loops become one loop, tiled by `block-size` and mapped
    to blocks and threads; upstream's --convert-parallel-loops-to-gpu then
    builds the gpu.launch ops.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
    Option<"minBlockReduction", "min-block-reduction", "int64_t",
           /*default=*/"32",
           "Shortest static reduction that gets a block of threads per output "
           "element">,
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"false",
           "Every target of the build copies into shared memory "
           "asynchronously: contraction kernels copy their vector-staged "
           "operands by tc_gpu.async_copy, three steps in flight">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuPrepareKernelOpsPass : Pass<"tc-gpu-prepare-kernel-ops", "func::FuncOp"> {
  let summary = "Make every kernel a linalg op; run buffer-touching host loops in one GPU thread";
  let description = [{
    The first phase of --tc-gpu-map-kernels (KernelMapping.h), on the
    functions that are neither declarations nor host functions: a
    `bufferization.clone` becomes an allocation and a `memref.copy`, each
    `memref.copy` a `linalg.copy`, and the outermost host loops and
    conditionals that read or write buffer elements outside linalg
    (scatters lowered to scf, the counts of NonZero) without allocating run
    in one thread of one block, their linalg ops as sequential loops and
    their scalar results handed back through device cells.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuBuildAttentionKernelsPass : Pass<"tc-gpu-build-attention-kernels", "func::FuncOp"> {
  let summary = "Build the fused kernel of each tc_gpu.attention";
  let description = [{
    The second phase of --tc-gpu-map-kernels: each `tc_gpu.attention`
    (--tc-gpu-form-attention) becomes one flash-style kernel
    (AttentionKernel.h).
  }];
  let options = [
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"false",
           "Every target of the build copies into shared memory "
           "asynchronously: contraction kernels copy their vector-staged "
           "operands by tc_gpu.async_copy, three steps in flight">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuBuildReductionKernelsPass : Pass<"tc-gpu-build-reduction-kernels", "func::FuncOp"> {
  let summary = "Build the kernels of the linalg ops with reduction loops, with the ops they fuse";
  let description = [{
    The third phase of --tc-gpu-map-kernels. Each linalg op with reduction
    loops becomes, with the fill before it and the elementwise op after it
    (ContractionFusion.h), a tiled contraction (its `fusion.config`, or
    the heuristics; with `fusion.candidates`, its alternatives beside the
    heuristic kernel), else a row chain or a block reduction (the
    reductions of a normalization or a softmax and the elementwise op after
    them in one kernel, a block per row; CooperativeKernels.h), else the
    fused ops' loops, one thread per output, marked for
    --tc-gpu-map-kernel-loops. Ops it cannot build stay for the next phase.
  }];
  let options = [
    Option<"minBlockReduction", "min-block-reduction", "int64_t",
           /*default=*/"32",
           "Shortest static reduction that gets a block of threads per output "
           "element">,
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"false",
           "Every target of the build copies into shared memory "
           "asynchronously: contraction kernels copy their vector-staged "
           "operands by tc_gpu.async_copy, three steps in flight">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuBuildElementwiseKernelsPass : Pass<"tc-gpu-build-elementwise-kernels", "func::FuncOp"> {
  let summary = "Make every remaining linalg op a kernel loop";
  let description = [{
    The fourth phase of --tc-gpu-map-kernels: each linalg op the earlier
    phases left (none inside a kernel) becomes a kernel loop, marked for
    --tc-gpu-map-kernel-loops: an elementwise op whose operands are
    contiguous and aligned along the innermost loop gives each thread a
    vector of up to 16 bytes (ElementwiseKernel.h); any other op's
    parallel loops, moved outermost, become one scf.parallel with its
    reduction loops sequential inside.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuMapKernelLoopsPass : Pass<"tc-gpu-map-kernel-loops", "func::FuncOp"> {
  let summary = "Map the marked kernel loops to GPU blocks and threads";
  let description = [{
    The last phase of --tc-gpu-map-kernels: each scf.parallel the kernel
    phases marked has its parallel dimensions collapsed into one, tiled by
    `block-size` (fewer threads, in whole warps, for a short static loop),
    the tile loop mapped to blocks (x) and the loop within a tile to
    threads (x), so that consecutive threads touch consecutive elements of
    the innermost dimension. Upstream's --convert-parallel-loops-to-gpu
    then builds the gpu.launch ops.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuMergeKernelModulesPass
    : Pass<"tc-gpu-merge-kernel-modules", "ModuleOp"> {
  let summary = "Move every outlined kernel into one gpu.module";
  let description = [{
    Kernel outlining gives each kernel its own gpu.module. This pass moves
    every gpu.func into the first gpu.module (named `kernels`) and points
    the gpu.launch_func ops at it, so that each target gets one binary
    (one module load, one symbol table) instead of one per kernel.
  }];
}

def GpuAlignWorkgroupMemoryPass
    : Pass<"tc-gpu-align-workgroup-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Align the kernels' shared memory to 16 bytes";
  let description = [{
    Gives every workgroup attribution of the kernels an `llvm.align` of 16
    (kWorkgroupAlignment), which the GPU-to-LLVM lowering puts on the
    shared-memory global: without it the global is aligned to its element
    (`.shared .align 4` for f32), and the 16-byte vector reads of the
    contraction's A tile would be split (or, asserted aligned, fault).
    Alignments set before and larger stay.
  }];
}

def GpuExpandBlockMmaPass
    : Pass<"tc-gpu-expand-block-mma", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Block matrix products as one target's matrix instructions";
  let description = [{
    Rewrites `tc_gpu.block_mma`, `tc_gpu.block_mma_store` and
    `tc_gpu.block_mma_scale_rows` for `target`
    ("cuda:sm_90", "rocm:gfx942"; empty: none). With the target's matrix
    instruction (its back end's description: shape, subgroup size, the
    lanes' layouts of each operand), the block's subgroups share the tile
    as a grid, load their fragments from the shared tiles, and multiply by
    `tc_gpu.subgroup_mma`; the accumulator holds each subgroup tile's
    result fragment in turn. A target without matrix cores for the tiles'
    type, or a tile the instruction does not divide, gets scalar code:
    each thread multiply-adds its own block of the tile in f32.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"",
           "the GPU target whose matrix instruction to use (empty: none)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuLowerSubgroupMmaPass
    : Pass<"tc-gpu-lower-subgroup-mma", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Matrix instructions as the vendor's intrinsics";
  let description = [{
    Replaces each `tc_gpu.subgroup_mma` by the intrinsic of `target`'s back
    end: `nvvm.mma.sync` (m16n8k16) for NVIDIA, `amdgpu.mfma` (16x16x16)
    for AMD. An op whose layouts are not the target's is an error. Each
    `tc_gpu.subgroup_load_matrices` becomes the back end's load
    (`nvgpu.ldmatrix` with `transpose` for NVIDIA); on a target whose
    instruction does not offer those loads it is an error. Each
    `tc_gpu.min_blocks_hint` is applied to its kernel by the back end
    (NVIDIA: `nvvm.minctasm`) and erased. `tc_gpu.async_copy`,
    `async_commit` and `async_wait` become the back end's asynchronous
    copies (NVIDIA: `cp.async` and its groups); on a target without them
    they are an error.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"",
           "the GPU target (\"cuda:sm_90\", \"rocm:gfx942\")">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::amdgpu::AMDGPUDialect"];
}

def GpuContractFloatOpsPass
    : Pass<"tc-gpu-contract-float-ops", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Let the GPU back ends fuse multiplies and adds into FMAs";
  let description = [{
    Marks every float arith op of the kernels `fastmath<contract>`, which
    lets LLVM's NVPTX and AMDGPU back ends fuse a multiply and the add of
    its product into one fused multiply-add, rounded once: one instruction
    instead of two in every contraction's inner loop, and the default of
    nvcc (-fmad=true) and hipcc (-ffp-contract=fast-honor-pragmas).
    Without the flag, LLVM emits NVIDIA's `mul.rn` and `add.rn`, which
    ptxas may not fuse either. Nothing else is relaxed (no reassociation,
    no assumptions about NaNs or infinities). `tc-compile
    --gpu-fp-contract=false` skips this pass for separately rounded
    results.
  }];
}

def GpuTransferHostValuesPass
    : Pass<"tc-gpu-transfer-host-values", "ModuleOp"> {
  let summary = "Copy the tensor elements host code reads or writes";
  let description = [{
    After kernel outlining, on the host functions (func.func outside the
    gpu.module), whose buffers are device memory: each memref.load of a
    buffer becomes a download of that element into a host cell (a 0-d
    memref.alloca at the function's entry) and a load of the cell; each
    memref.store becomes a store into a cell and an upload. The copies are
    `tc_gpu.download` and `tc_gpu.upload` of the element's bytes, the device
    element a 0-d view with a dynamic offset. --tc-gpu-lower-host-ops
    lowers them to env->download and env->upload (module_abi.h),
    --tc-gpu-emulate-kernels to memref.copy. Loads and stores of host
    cells (memref.alloca) are left alone.
  }];
  let dependentDialects = ["::mlir::tc_gpu::TcGpuDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def GpuStageHostBuffersPass
    : Pass<"tc-gpu-stage-host-buffers", "ModuleOp"> {
  let summary = "Copy the buffers host helpers read or write through host memory";
  let description = [{
    On buffers, before the run-time checks are lowered. A call of a host
    helper marked `tc.reads_buffer = i` or `tc.writes_buffer = i` (the image
    decoder: TcToLinalg's Image.cpp) takes, as operand i, the address of a
    buffer (an i64 from memref.extract_aligned_pointer_as_index), which on
    a GPU target is device memory. Around each such call this pass
    allocates a host buffer of the same byte size (`tc_gpu.stage_alloc`),
    checks the allocation (cf.assert, naming the ONNX node), copies the
    buffer into it before a reading call (`tc_gpu.stage_copy {download}`),
    passes its address instead, copies it back after a writing call
    (`tc_gpu.stage_copy`) and frees it (`tc_gpu.stage_free`).
    --tc-gpu-emit-entry lowers these ops to malloc, env->download,
    env->upload and free; --tc-gpu-emulate-kernels to malloc, memcpy and
    free. Buffers must have an identity layout.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::tc_gpu::TcGpuDialect"];
}

def GpuVerifyHostCodePass : Pass<"tc-gpu-verify-host-code", "ModuleOp"> {
  let summary = "Reject host code that reads or writes tensor data";
  let description = [{
    After kernel outlining and --tc-gpu-transfer-host-values, the host
    functions may only compute shapes, allocate buffers, launch kernels and
    copy single values through host cells: tensor data lives in device
    memory. Any remaining access to a buffer's elements outside a
    gpu.module (a memref.copy, a linalg or vector op, a buffer's address
    handed to a host helper that --tc-gpu-stage-host-buffers did not stage)
    is reported at its
    location, which names the ONNX node, and the pass fails. Accesses to
    host cells (memref.alloca) are allowed.
  }];
}

def GpuEmulateKernelsPass : Pass<"tc-gpu-emulate-kernels", "ModuleOp"> {
  let summary = "Run the outlined GPU kernels as CPU functions (testing)";
  let description = [{
    For the `gpu-emulation` target, which checks the numerics of GPU code
    generation on machines without a GPU: each gpu.func becomes a
    func.func `@__tc_emulated_<name>(kernel operands..., grid x/y/z,
    block x/y/z)` whose body runs every block and thread in turn (nested
    scf.for loops, thread ids and dimensions substituted), and each
    gpu.launch_func becomes a call of it; the gpu.module is erased.
    Barriers split a block's work into stretches that every thread runs in
    turn before any runs the next; loops around barriers are re-created
    around their stretches. A value a thread keeps across a barrier (a
    register on a GPU: a loop's carried value, a loaded element) goes
    through a slot per thread, unless it is recomputed from ids and
    arguments by pure ops; shuffles become exchanges through shared memory.
    A kernel outside these rules (a barrier under a condition) is an error
    that names the op. The host-value copies of --tc-gpu-transfer-host-values
    become memref.copy (host and device memory are the same memory here).

    With `reverse-order`, blocks and threads run from the last to the
    first. A kernel is race-free only if its results do not depend on the
    order in which its threads (between barriers) and blocks run: one that
    reads what another thread writes without a barrier between, or what
    another block writes, gives different results in the two orders, which
    is how the `gpu-emulation:reverse` target finds such races without a
    GPU.
  }];
  let options = [
    Option<"reverseOrder", "reverse-order", "bool", /*default=*/"false",
           "run blocks and threads from the last to the first (race check)">,
    Option<"matrixTarget", "matrix-target", "std::string", /*default=*/"",
           "the GPU target whose matrix instructions the block matrix "
           "products use, executed by scalar code (empty: none)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GpuLowerTunedChoicesPass
    : Pass<"tc-gpu-lower-tuned-choices", "ModuleOp"> {
  let summary = "Fix which alternative kernel each tc_gpu.tuned_choice runs";
  let description = [{
    Replaces each `tc_gpu.tuned_choice` by a constant: `candidate` where the
    kernel has that many alternatives (0 is the first), else -1, the
    heuristic kernel; the canonicalizer then keeps that kernel's branch of
    the host code's `scf.index_switch`. A trial build of a tuner runs every
    kernel at its c-th candidate this way (`tc-compile --gpu-candidate=c`);
    the default, -1, runs the heuristic kernels.
  }];
  let options = [
    Option<"candidate", "candidate", "int64_t", /*default=*/"-1",
           "the alternative each kernel runs (-1: the heuristic one)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GpuPrepareHostPass : Pass<"tc-gpu-prepare-host", "ModuleOp"> {
  let summary = "Turn kernel launches and constants into runtime operations";
  let description = [{
    After kernel outlining and merging, on the host side of the module:
    @main gets the runtime environment (`!llvm.ptr`, a tc_gpu_env_v3) as
    its first argument; each gpu.launch_func becomes a `tc_gpu.launch` of
    kernel K, its index in the module attribute `tc.gpu_kernels` (the
    kernel names, in the order of the image's kernel table), and each
    `memref.get_global` a `tc_gpu.device_constant` (kernels read device
    copies of constants); the gpu.module is erased (its kernels are
    compiled per target from the module before this pass).
    --tc-gpu-lower-host-ops lowers both ops. Each `tc_gpu.tuned_choice`
    left (a tunable kernel whose choice the build did not fix) gets the
    environment and its site number, and the module gets
    `tc_module_gpu_site_count_v1` and `tc_module_gpu_sites_v2`: each site's
    kernel key, its alternatives' configurations (one per line) and the
    kernel each alternative launches, and the kernels the heuristic one may
    launch (no kernel launched by two sites).
  }];
  let dependentDialects = ["::mlir::tc_gpu::TcGpuDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GpuLowerHostOpsPass : Pass<"tc-gpu-lower-host-ops", "ModuleOp"> {
  let summary = "Lower tc_gpu host ops (launches, constants, copies) to runtime calls";
  let description = [{
    Part of the host code's lowering to the LLVM dialect, after the memref
    and func conversions (the ops' memrefs are then descriptors behind
    casts). `tc_gpu.launch` stores its arguments, memrefs expanded as the
    kernel's parameters are (allocated and aligned pointers, offset, sizes,
    strides), in one stack struct, points a stack array at its fields (the
    kernel parameter convention of cuLaunchKernel and hipModuleLaunchKernel)
    and calls the environment's `launch` with the grid and block extents;
    `tc_gpu.device_constant` calls the environment's `constant` with the
    host buffer and builds the device copy's descriptor around its result;
    `tc_gpu.download` and `tc_gpu.upload` (in @main, whose first argument is
    the environment) call its `download` and `upload` with the two
    elements' addresses.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GpuEmitEntryPass : Pass<"tc-gpu-emit-entry", "ModuleOp"> {
  let summary = "Emit the GPU entry point of model.so: launches, allocations";
  let description = [{
    Runs last on the host side of a GPU target, on the LLVM dialect, and
    gives it the GPU part of the ABI of include/tc-runtime/module_abi.h:
    `tc_module_gpu_run_v2` (the same marshalling of inputs and outputs as
    tc_module_run_v1, on device pointers); @main's malloc and free become the
    environment's device `alloc` and `release`. The kernel images (module
    attribute `tc.gpu_images`, set by tc-compile) and the kernel names
    become `tc_module_gpu_images_v1` and `tc_module_gpu_kernels_v1`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TC_TARGET_GPU_PASSES
