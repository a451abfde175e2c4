//===- Passes.td - passes on fusion groups --------------------------------===//

#ifndef TC_DIALECT_FUSION_TRANSFORMS_PASSES_TD
#define TC_DIALECT_FUSION_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FusionInlineGroupsPass : Pass<"fusion-inline-groups"> {
  let summary = "Dissolve fusion.group regions back into their parent block";
  let description = [{
    Replaces every `fusion.group` by its body: block arguments become the
    group's operands and the group's results become the yielded values. This
    is the way back from a partitioned graph to a flat one, used by the
    reference path and to compare a fused graph with the unfused one.
  }];
}

def FusionPartitionPass : Pass<"fusion-partition", "func::FuncOp"> {
  let summary = "Partition the tc graph into fusion.group kernels";
  let description = [{
    Walks the function's top-level tc ops from the last to the first; each op
    not yet placed starts a group and pulls in its producers while every use
    of the producer lies inside the group:
      - an anchor (matmul, conv, pooling, reduction, softmax, normalization,
        gather) joins a group that so far holds only elementwise ops: the
        anchor with its elementwise epilogue;
      - an elementwise op (or a broadcast) joins when the group members that
        read it are elementwise or read it row by row (reductions,
        softmax, normalizations): elementwise chains and prologues. It does
        not join as the input of a matmul, conv, pooling or gather, whose
        tiles would each need it whole.
    Reshapes and slices with positive steps become `view` groups (no
    kernel); other data movement (transpose, concat, pad...) gets an `opaque`
    group of its own; constants stay outside and
    enter groups as inputs. Ops inside control flow regions are left alone.
    Each group records its kind and why it was formed.
  }];
  let dependentDialects = ["::mlir::fusion::FusionDialect"];
}

#endif // TC_DIALECT_FUSION_TRANSFORMS_PASSES_TD
