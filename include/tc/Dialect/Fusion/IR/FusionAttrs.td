//===- FusionAttrs.td - kernel configurations ----------------------------===//

#ifndef TC_DIALECT_FUSION_IR_FUSIONATTRS_TD
#define TC_DIALECT_FUSION_IR_FUSIONATTRS_TD

include "tc/Dialect/Fusion/IR/FusionBase.td"
include "mlir/IR/AttrTypeBase.td"

def Fusion_KernelConfigAttr : AttrDef<Fusion_Dialect, "KernelConfig"> {
  let mnemonic = "kernel_config";
  let summary = "How one kernel is code-generated: strategy, tiles, workgroups";
  let description = [{
    The configuration of the kernel a `fusion.group` becomes, chosen by a
    target's configuration pass (`--tc-cpu-configure-kernels`,
    `--tc-gpu-configure-kernels`) or written by hand, and read by the
    passes that build the kernel. It sits, as `fusion.config`, on the op
    that anchors the kernel (its contraction), which carries it through
    tiling, bufferization and outlining to the pass that builds it.

    `strategy` says how the kernel is built:
    - `register-tile`: a CPU
      multiply-add or pooling kernel computed in register tiles of
      `tile = [rows, lanes]` accumulators (lanes in 32-bit elements);
      `workgroups`: the most workgroups the kernel is split into.
    - `tiled-contraction`: a GPU contraction whose block computes an
      M x N output tile, staging K-deep tiles of its operands in shared
      memory (`tile = [M, N, K]`); `workgroups = 0`: as many blocks as the
      extents need; `stages`: the sets of shared tiles its pipeline keeps
      (2: the next step staged through registers; 3: asynchronous copies,
      two steps in flight), absent (0) for the build's default.

    ```mlir
    linalg.generic {...} attrs = {fusion.config = #fusion.kernel_config<
        strategy = "register-tile", tile = [4, 32], workgroups = 64>}
    ```
  }];
  let parameters = (ins StringRefParameter<"how the kernel is built">:$strategy,
                        ArrayRefParameter<"int64_t", "tile sizes">:$tile,
                        "int64_t":$workgroups,
                        DefaultValuedParameter<"int64_t", "0",
                                               "pipeline stages">:$stages);
  let assemblyFormat = [{
    `<` `strategy` `=` $strategy `,` `tile` `=` `[` $tile `]` `,`
    `workgroups` `=` $workgroups (`,` `stages` `=` $stages^)? `>`
  }];
  let genVerifyDecl = 1;
}

#endif // TC_DIALECT_FUSION_IR_FUSIONATTRS_TD
