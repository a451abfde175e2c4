//===- TcGpuOps.td - matrix-core operations of GPU kernels ----------------===//

#ifndef TC_DIALECT_TCGPU_IR_TCGPUOPS_TD
#define TC_DIALECT_TCGPU_IR_TCGPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"

def TcGpu_Dialect : Dialect {
  let name = "tc_gpu";
  let cppNamespace = "::mlir::tc_gpu";
  let summary = "Matrix products inside GPU kernels; launches on the host";
  // The host ops' environment is an !llvm.ptr.
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let description = [{
    The ops a vendor-neutral GPU kernel uses to multiply matrices on matrix
    cores (NVIDIA's mma, AMD's MFMA) without naming a vendor.
    `tc_gpu.block_mma` is what the kernel builder emits: the block's threads
    together multiply two tiles in shared memory into an accumulator that
    they hold in registers, in an order the target chooses.
    `--tc-gpu-expand-block-mma` rewrites it, for one target, into fragment
    loads and `tc_gpu.subgroup_mma`, one matrix instruction of one subgroup
    whose operand layouts are attributes; the vendor's back end lowers that
    to its intrinsic, and the GPU emulation executes it with scalar code.

    On the host side of a GPU target, `tc_gpu.launch` and
    `tc_gpu.device_constant` are what `--tc-gpu-prepare-host` makes of kernel
    launches and constants, and `tc_gpu.download` and `tc_gpu.upload` what
    `--tc-gpu-transfer-host-values` makes of the host's accesses to device
    elements: calls into the runtime's environment, which
    `--tc-gpu-lower-host-ops` lowers by patterns with the rest of the host
    code's lowering to the LLVM dialect (the GPU emulation makes the copies
    memref.copy).
  }];
}

class TcGpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<TcGpu_Dialect, mnemonic, traits>;

// A shared tile of factors: f16, bf16, or f32 holding TF32 values.
def TcGpu_FactorTile : MemRefRankOf<[F16, BF16, F32], [2]>;
def TcGpu_Accumulator : VectorOfRankAndType<[1], [F32]>;

def TcGpu_BlockMmaOp : TcGpu_Op<"block_mma", [
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "The block's accumulator tile plus the product of two shared tiles";
  let description = [{
    `tile = [M, N, K]`. `lhs` holds the first operand transposed, K rows of
    at least M elements (`lhs[k][m]`), or, with `lhs_k_inner`, as it is,
    M rows of at least K (`lhs[m][k]`); `rhs` the second, K rows of at
    least N (`rhs[k][n]`), or, with `rhs_k_inner`, N rows of at least K
    (`rhs[n][k]`). Both are in shared memory and both written before (a
    barrier between). A tile keeps K along its rows or along its columns
    as the operand's global layout makes its copy contiguous. The block's threads together hold an M x N f32 tile
    C, each thread `acc`'s elements of it, and each gets back its elements
    of C + sum over k of lhs[k][m] rhs[k][n]. So the block has
    M N / size(acc) threads, and every one of them must reach this op with
    the same operands. Which elements of C a thread holds is the target's
    choice (its matrix instruction's layout); `tc_gpu.block_mma_store` is
    the only way to read them. The tiles are f16 or bf16, or f32 holding
    TF32 values (`--precision=tf32` rounded them: their 13 low mantissa
    bits are zero), which a target may multiply with TF32 instructions,
    since those read only TF32's bits.
  }];
  let arguments = (ins Arg<TcGpu_FactorTile, "", [MemRead]>:$lhs,
                       Arg<TcGpu_FactorTile, "", [MemRead]>:$rhs,
                       TcGpu_Accumulator:$acc,
                       DenseI64ArrayAttr:$tile,
                       UnitAttr:$lhs_k_inner,
                       UnitAttr:$rhs_k_inner);
  let results = (outs TcGpu_Accumulator:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getM() { return getTile()[0]; }
    int64_t getN() { return getTile()[1]; }
    int64_t getK() { return getTile()[2]; }
    /// The block's threads.
    int64_t getThreads();
  }];
}

def TcGpu_BlockMmaStoreOp : TcGpu_Op<"block_mma_store"> {
  let summary = "Writes the block's accumulator tile to memory";
  let description = [{
    Each thread stores its elements of the M x N tile that `acc` holds at
    their row and column of `dest`, so that after a barrier the whole tile
    is there. `tile = [M, N, K]` and `operand_type` (the tiles' element
    type) are those of the `tc_gpu.block_mma` that produced `acc`: the
    target's layout of the accumulator depends on them.
  }];
  let arguments = (ins TcGpu_Accumulator:$acc,
                       Arg<MemRefRankOf<[F32], [2]>, "", [MemWrite]>:$dest,
                       DenseI64ArrayAttr:$tile,
                       TypeAttr:$operand_type);
  let assemblyFormat = [{
    $acc `,` $dest attr-dict `:` type($acc) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def TcGpu_BlockMmaForEachOp : TcGpu_Op<"block_mma_for_each", [
    SingleBlockImplicitTerminator<"::mlir::tc_gpu::YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "Runs a body on each element of the block's accumulator tile";
  let description = [{
    Each thread runs `body` once for each of its elements of the M x N tile
    that `acc` holds, with the element's row and column in the tile and its
    value: a contraction's epilogue (start value, fused ops, the store)
    straight from the registers, without writing the tile to shared memory
    first. `tile` and `operand_type` are those of the `tc_gpu.block_mma`
    that produced `acc`, as for `tc_gpu.block_mma_store`;
    `--tc-gpu-expand-block-mma` inlines the body once per element at the
    target's positions.

        tc_gpu.block_mma_for_each %acc {tile = array<i64: 64, 64, 16>, operand_type = f16} : vector<16xf32> {
        ^bb0(%row: index, %column: index, %value: f32):
          ...
        }
  }];
  let arguments = (ins TcGpu_Accumulator:$acc,
                       DenseI64ArrayAttr:$tile,
                       TypeAttr:$operand_type);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $acc attr-dict `:` type($acc) $body
  }];
  let hasVerifier = 1;
}

def TcGpu_YieldOp : TcGpu_Op<"yield", [Pure, Terminator,
    HasParent<"BlockMmaForEachOp">]> {
  let summary = "Ends the body of tc_gpu.block_mma_for_each";
  let assemblyFormat = "attr-dict";
}

def TcGpu_BlockMmaScaleRowsOp : TcGpu_Op<"block_mma_scale_rows", [
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "Multiplies each row of the block's accumulator tile by a factor";
  let description = [{
    Each thread multiplies its elements of the M x N tile that `acc` holds
    by `factors[row]`, `row` being the element's row in the tile, so that
    the accumulator can be rescaled (an online softmax's correction) without
    leaving the registers. `factors` (at least M elements, written before,
    a barrier between) is read by every thread; `tile` and `operand_type`
    are those of the `tc_gpu.block_mma` that produced `acc`, as for
    `tc_gpu.block_mma_store`.
  }];
  let arguments = (ins TcGpu_Accumulator:$acc,
                       Arg<MemRefRankOf<[F32], [1]>, "", [MemRead]>:$factors,
                       DenseI64ArrayAttr:$tile,
                       TypeAttr:$operand_type);
  let results = (outs TcGpu_Accumulator:$result);
  let assemblyFormat = [{
    $acc `,` $factors attr-dict `:` type($acc) `,` type($factors)
  }];
  let hasVerifier = 1;
}

def TcGpu_SubgroupMmaOp : TcGpu_Op<"subgroup_mma", [Pure,
    AllTypesMatch<["c", "result"]>]> {
  let summary = "One matrix instruction of one subgroup";
  let description = [{
    The subgroup's `subgroup_size` lanes together compute D = A B + C for
    `shape = [m, n, k]` (A m x k, B k x n, C and D m x n, f32). Each lane
    holds some elements of each: element `i` of a lane's `a` is
    A[r][c] with (r, c) = a_layout(lane, i), and so for `b`, `c` and the
    result (`c_layout`). Lanes may hold copies of an element: RDNA's WMMA
    gives the whole of A and of B to each half of its 32-lane wave, so each
    lane's `a` and `b` have 16 elements of a 16 x 16 matrix. f32 factors
    hold TF32 values (as `tc_gpu.block_mma`'s). Every lane of the subgroup
    must execute it.
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F16, BF16, F32]>:$a,
                       VectorOfRankAndType<[1], [F16, BF16, F32]>:$b,
                       TcGpu_Accumulator:$c,
                       DenseI64ArrayAttr:$shape,
                       I64Attr:$subgroup_size,
                       AffineMapAttr:$a_layout,
                       AffineMapAttr:$b_layout,
                       AffineMapAttr:$c_layout);
  let results = (outs TcGpu_Accumulator:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

def TcGpu_SubgroupLoadMatricesOp : TcGpu_Op<"subgroup_load_matrices", [
    MemoryEffects<[MemRead]>]> {
  let summary = "A subgroup's load of 8 x 8 matrices of 16-bit elements";
  let description = [{
    The 32 lanes of a subgroup together load `offsets.size() / 2` (1, 2 or
    4) matrices of 8 x 8 16-bit elements from `tile`, matrix `i` starting
    at (`row` + `offsets[2 i]`, `column` + `offsets[2 i + 1]`), and each
    lane takes two elements of each: lane `l`'s elements `2 i` and
    `2 i + 1` are, for j = 0 and 1,

        tile[row + offsets[2 i] + l / 4][column + offsets[2 i + 1] + 2 (l % 4) + j]

    or, with `transpose`,

        tile[row + offsets[2 i] + 2 (l % 4) + j][column + offsets[2 i + 1] + l / 4]

    So a lane gets the pairs of neighbouring k that a matrix instruction's
    fragment holds from a tile that stores K along its columns (a row of
    the operand per tile row), or, with `transpose`, from one that stores
    K along its rows. Every lane of the subgroup must execute it with the
    same `row` and `column`, and each matrix row (8 elements) must be
    16-byte aligned. `tc_gpu.block_mma`'s expansion emits it where the
    target's instruction says it has such loads and the fragment's layout
    is theirs; the target lowers it (NVIDIA: `ldmatrix`, with `.trans` for
    `transpose`), the emulation loads each lane's elements as written
    above.
  }];
  let arguments = (ins Arg<MemRefRankOf<[F16, BF16], [2]>, "", [MemRead]>:$tile,
                       Index:$row, Index:$column,
                       DenseI64ArrayAttr:$offsets,
                       UnitAttr:$transpose);
  let results = (outs VectorOfRankAndType<[1], [F16, BF16]>:$result);
  let assemblyFormat = [{
    $tile `[` $row `,` $column `]` attr-dict `:` type($tile) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of 8 x 8 matrices.
    int64_t getNumMatrices() { return getOffsets().size() / 2; }
  }];
}

def TcGpu_AsyncCopyOp : TcGpu_Op<"async_copy", [AttrSizedOperandSegments]> {
  let summary = "Starts a thread's copy of a few elements into shared memory";
  let description = [{
    Starts copying `elements` consecutive elements (4, 8 or 16 bytes) from
    `source` at `source_indices` to `dest` (shared memory) at
    `dest_indices`, or, where `valid` is false, zeros (nothing is read
    then). The copy belongs to the thread's group that the next
    `tc_gpu.async_commit` closes, and is done once a
    `tc_gpu.async_wait` has seen its group complete; only then may the
    thread read the elements, and other threads only after a barrier that
    follows the wait. Both ends are aligned to the copy's size. The back
    end lowers it (NVIDIA, sm_80 and later: `cp.async`); where a target has
    no such copy it is a load and a store in place, which the ordering
    rules above allow.

        tc_gpu.async_copy %a[%i, %k], %tile[%r, %c], %inside {elements = 8}
            : memref<128x64xf16>, memref<128x24xf16, #gpu.address_space<workgroup>>
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Variadic<Index>:$source_indices,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Variadic<Index>:$dest_indices,
                       I1:$valid,
                       I64Attr:$elements);
  let assemblyFormat = [{
    $source `[` $source_indices `]` `,` $dest `[` $dest_indices `]` `,` $valid
    attr-dict `:` type($source) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def TcGpu_AsyncCommitOp : TcGpu_Op<"async_commit"> {
  let summary = "Closes the thread's group of asynchronous copies";
  let description = [{
    The `tc_gpu.async_copy` ops the thread started since its last commit
    form one group, which `tc_gpu.async_wait` counts. A commit with no
    copies forms an empty group.
  }];
  let assemblyFormat = "attr-dict";
}

def TcGpu_AsyncWaitOp : TcGpu_Op<"async_wait"> {
  let summary = "Waits for the thread's older groups of asynchronous copies";
  let description = [{
    Waits until at most `pending` of the thread's committed groups (the
    newest ones) are still in flight: every older group's copies are done.
    A multi-stage pipeline with S buffers waits with `pending = S - 2`
    before a barrier and the step's reads.
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TcGpu_StageAllocOp : TcGpu_Op<"stage_alloc"> {
  let summary = "Host memory for a copy of a device buffer that host code uses";
  let description = [{
    Host code that reads or writes a device buffer through a plain pointer
    (a host helper such as the image decoder) gets a host copy of it
    (--tc-gpu-stage-host-buffers): this op allocates `bytes` (at least 1)
    of host memory and gives its address, 0 when none is left. The host
    lowering makes it a malloc.

        %host = tc_gpu.stage_alloc %bytes
  }];
  let arguments = (ins I64:$bytes);
  let results = (outs I64:$host);
  let assemblyFormat = "$bytes attr-dict";
}

def TcGpu_StageFreeOp : TcGpu_Op<"stage_free"> {
  let summary = "Frees a staging copy's host memory";
  let description = [{
    Frees what `tc_gpu.stage_alloc` gave (`host`), right after the helper
    call that used it.
  }];
  let arguments = (ins I64:$host);
  let assemblyFormat = "$host attr-dict";
}

def TcGpu_StageCopyOp : TcGpu_Op<"stage_copy"> {
  let summary = "Copies a staged buffer between device and host memory";
  let description = [{
    Copies `bytes` from `source` to `destination` (addresses as i64): with
    `download`, from a device buffer into its host copy, before a helper
    reads it; without, from the host copy back into the device buffer,
    after a helper wrote it. The host lowering makes it the runtime's copy
    (the emulation, whose device memory is host memory, a memcpy).

        tc_gpu.stage_copy %host, %device, %bytes {download}
        tc_gpu.stage_copy %device, %host, %bytes
  }];
  let arguments = (ins I64:$destination, I64:$source, I64:$bytes,
                       UnitAttr:$download);
  let assemblyFormat = "$destination `,` $source `,` $bytes attr-dict";
}

def TcGpu_MinBlocksHintOp : TcGpu_Op<"min_blocks_hint"> {
  let summary = "Asks that a kernel's blocks fit several to a multiprocessor";
  let description = [{
    In a kernel's body: compile the kernel so that at least `blocks` of its
    blocks can run on one multiprocessor at a time. NVIDIA's back end makes
    it the kernel's `.minnctapersm` (`nvvm.minctasm`): told nothing, ptxas
    may trade a few bytes of spills for more blocks than that; other
    targets and the emulation drop it. `--tc-gpu-lower-subgroup-mma`
    applies and erases it.
  }];
  let arguments = (ins I64Attr:$blocks);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fused kernels
//===----------------------------------------------------------------------===//

def TcGpu_AttentionOp : TcGpu_Op<"attention", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Scaled dot-product attention as one flash-style GPU kernel";
  let description = [{
    `init = softmax(scale * query key^T + mask) value`, computed as one
    kernel that never writes the scores to memory: each block takes a tile
    of query rows and walks the keys in tiles, keeping the rows' running
    maximum and sum (an online softmax) and the output's f32 accumulator.
    `query` is `[batch..., Lq, D]`, `key` `[batch..., Lk, D]` or with
    `key_transposed` `[batch..., D, Lk]`, `value` `[batch..., Lk, Dv]`,
    `init` `[batch..., Lq, Dv]`; a batch extent of 1 broadcasts. The
    optional additive `mask` broadcasts to `[batch..., Lq, Lk]`. Operands
    are f16 or bf16 (one type); products accumulate in f32, the softmax is
    f32, and the probabilities are rounded to the operands' type before
    they multiply `value`, as tc.attention's 16-bit lowering rounds them.

    The shapes above are logical: `query_permutation`, `key_permutation`,
    `value_permutation` and `init_permutation` (absent: the identity) say
    which dimension of the stored operand holds each logical one (logical
    dimension `i` is stored dimension `permutation[i]`), so that the kernel
    reads the heads where a transpose would have put them ([batch, L, heads,
    D] for [batch, heads, L, D]) and writes its result likewise.

    Destination-style: on tensors it returns the result, on buffers it
    writes `init` (`--tc-gpu-map-kernels` makes the kernel of it then).
  }];
  let arguments = (ins AnyShaped:$query, AnyShaped:$key, AnyShaped:$value,
                       Optional<AnyShaped>:$mask, AnyShaped:$init,
                       F32Attr:$scale, UnitAttr:$key_transposed,
                       OptionalAttr<DenseI64ArrayAttr>:$query_permutation,
                       OptionalAttr<DenseI64ArrayAttr>:$key_permutation,
                       OptionalAttr<DenseI64ArrayAttr>:$value_permutation,
                       OptionalAttr<DenseI64ArrayAttr>:$init_permutation);
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    `into` $init attr-dict `:` type($query) `,` type($key) `,` type($value)
    `,` type($init) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The logical shape of `operand` (query, key, value or init).
    SmallVector<int64_t> getLogicalShape(OpOperand &operand);
    /// `operand`'s permutation (the identity when absent, and for the mask).
    SmallVector<int64_t> getPermutationOf(OpOperand &operand);
    MutableOperandRange getDpsInitsMutable() {
      return MutableOperandRange(getInitMutable());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Host code
//===----------------------------------------------------------------------===//

def TcGpu_LaunchOp : TcGpu_Op<"launch"> {
  let summary = "Launch kernel `kernel` of the model's table through the runtime";
  let description = [{
    Runs kernel `kernel` (its index in the module's `tc.gpu_kernels`) on a
    grid of `grid` blocks of `block` threads, through the environment `env`
    of `tc_module_gpu_run_v2` (`env->launch`, include/tc-runtime/
    module_abi.h). A memref argument is passed as the kernel's parameters
    expect it: allocated pointer, aligned pointer, offset, sizes, strides.

    ```mlir
    tc_gpu.launch 3 %env grid(%gx, %c1, %c1) block(%c256, %c1, %c1)
        args(%a, %n : memref<?xf32>, index)
    ```
  }];
  let arguments = (ins I32Attr:$kernel, LLVM_DefaultPointer:$env,
                       Index:$gridX, Index:$gridY, Index:$gridZ,
                       Index:$blockX, Index:$blockY, Index:$blockZ,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel $env `grid` `(` $gridX `,` $gridY `,` $gridZ `)`
    `block` `(` $blockX `,` $blockY `,` $blockZ `)`
    (`args` `(` $args^ `:` type($args) `)`)? attr-dict
  }];
}

def TcGpu_TunedChoiceOp : TcGpu_Op<"tuned_choice",
    [MemoryEffects<[MemRead]>]> {
  let summary = "Which of a kernel's alternative configurations to run";
  let description = [{
    A contraction built with `fusion.candidates` has a kernel for each of
    its `candidates` (`#fusion.kernel_config`s) beside its heuristic one;
    the host code runs the one this op picks, in an `scf.index_switch`:
    candidate 0, 1, ..., or -1 for the heuristic kernel. `key` is the
    kernel's `fusion.kernel_key`, the name a tuning table knows it by.
    `--tc-gpu-lower-tuned-choices` fixes the choice for a build; otherwise
    `--tc-gpu-prepare-host` numbers it (`site`, its entry in the module's
    `tc_module_gpu_sites_v2`) and gives it the runtime's environment `env`,
    and `--tc-gpu-lower-host-ops` reads the choice from `env->choices`.

    ```mlir
    %c = tc_gpu.tuned_choice "gpu-0123456789abcdef" [
        #fusion.kernel_config<strategy = "tiled-contraction",
                              tile = [64, 64, 16], workgroups = 0>]
    %d = tc_gpu.tuned_choice "gpu-0123456789abcdef" [...] env %env {site = 0 : i32}
    ```
  }];
  let arguments = (ins StrAttr:$key, ArrayAttr:$candidates,
                       Optional<LLVM_DefaultPointer>:$env,
                       OptionalAttr<I32Attr>:$site);
  let results = (outs Index:$choice);
  let assemblyFormat = "$key $candidates (`env` $env^)? attr-dict";
  let hasVerifier = 1;
}

def TcGpu_DeviceConstantOp : TcGpu_Op<"device_constant",
    [AllTypesMatch<["host", "device"]>]> {
  let summary = "The device copy of a constant the host code holds";
  let description = [{
    Kernels read weights and other constants from device memory: this is
    the device copy of `host` (`bytes` long), constant `index` of the
    module, which the runtime uploads on first use and keeps with the
    loaded kernels (`env->constant`).

    ```mlir
    %w = tc_gpu.device_constant 0 %env, %bytes, %host : memref<64x64xf32>
    ```
  }];
  let arguments = (ins I32Attr:$index, LLVM_DefaultPointer:$env, Index:$bytes,
                       AnyStaticShapeMemRef:$host);
  let results = (outs AnyStaticShapeMemRef:$device);
  let assemblyFormat = [{
    $index $env `,` $bytes `,` $host attr-dict `:` type($host)
  }];
  let builders = [
    OpBuilder<(ins "uint32_t":$index, "Value":$env, "Value":$bytes,
                   "Value":$host), [{
      build($_builder, $_state, host.getType(), index, env, bytes, host);
    }]>
  ];
}

// One element of device memory and a host cell (a 0-d memref.alloca).
def TcGpu_Element : MemRefRankOf<[AnyType], [0]>;

def TcGpu_DownloadOp : TcGpu_Op<"download"> {
  let summary = "Copy one element of device memory into a host cell";
  let description = [{
    `bytes` bytes of `element`, a device buffer's element, into `cell`, host
    memory; the runtime's `env->download`, which waits for the kernels
    launched before it.

    ```mlir
    tc_gpu.download %element to %cell, %c8 : memref<i64, strided<[], offset: ?>>, memref<i64>
    ```
  }];
  let arguments = (ins TcGpu_Element:$element, TcGpu_Element:$cell,
                       Index:$bytes);
  let assemblyFormat = [{
    $element `to` $cell `,` $bytes attr-dict `:` type($element) `,` type($cell)
  }];
}

def TcGpu_UploadOp : TcGpu_Op<"upload"> {
  let summary = "Copy a host cell into one element of device memory";
  let description = [{
    `bytes` bytes of `cell`, host memory, into `element`, a device buffer's
    element; the runtime's `env->upload`.

    ```mlir
    tc_gpu.upload %cell to %element, %c4 : memref<f32>, memref<f32, strided<[], offset: ?>>
    ```
  }];
  let arguments = (ins TcGpu_Element:$cell, TcGpu_Element:$element,
                       Index:$bytes);
  let assemblyFormat = [{
    $cell `to` $element `,` $bytes attr-dict `:` type($cell) `,` type($element)
  }];
}

#endif // TC_DIALECT_TCGPU_IR_TCGPUOPS_TD
