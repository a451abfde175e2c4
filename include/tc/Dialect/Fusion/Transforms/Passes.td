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

#endif // TC_DIALECT_FUSION_TRANSFORMS_PASSES_TD
