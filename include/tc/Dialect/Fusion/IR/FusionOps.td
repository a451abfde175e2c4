//===- FusionOps.td - fusion.group and fusion.yield -----------------------===//

#ifndef TC_DIALECT_FUSION_IR_FUSIONOPS_TD
#define TC_DIALECT_FUSION_IR_FUSIONOPS_TD

include "tc/Dialect/Fusion/IR/FusionBase.td"
include "tc/Dialect/Fusion/IR/FusionAttrs.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Fusion_GroupOp : Fusion_Op<"group", [
    IsolatedFromAbove, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a set of tensor ops that runs as one kernel";
  let description = [{
    The body computes the group's results from its block arguments, which
    are bound one to one to the group's operands; `fusion.yield` returns the
    results. `kind` names what anchors the group (a matmul, a conv, a
    reduction, ...) and `reason` records why the fusion pass formed it, for
    reports. `name` is a stable label used in kernel names and dumps.

    Example:

    ```mlir
    %r = fusion.group "mm0" matmul (%a = %x, %b = %w, %c = %bias
        : tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>)
        -> tensor<8x32xf32> reason("matmul with bias+relu epilogue") {
      %0 = tc.matmul %a, %b : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
      %1 = tc.add %0, %c : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
      %2 = tc.relu %1 : tensor<8x32xf32>
      fusion.yield %2 : tensor<8x32xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$name,
                       Fusion_GroupKind:$kind, StrAttr:$reason);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // Creates the group with an entry block whose arguments mirror `inputs`;
    // the caller fills the body and its fusion.yield.
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs, "::llvm::StringRef":$name,
                   "::mlir::fusion::GroupKind":$kind,
                   "::llvm::StringRef":$reason)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    YieldOp getYield();
  }];
}

def Fusion_YieldOp : Fusion_Op<"yield", [Pure, ReturnLike, Terminator,
                                         HasParent<"GroupOp">]> {
  let summary = "return the results of a fusion.group";
  let description = [{
    Terminates a `fusion.group` body; its operands become the group's
    results, in order and with the same types.

    Example: `fusion.yield %0, %1 : tensor<4xf32>, tensor<4xi1>`
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* empty yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // TC_DIALECT_FUSION_IR_FUSIONOPS_TD
