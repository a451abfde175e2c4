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

#endif // TC_DIALECT_TC_TRANSFORMS_PASSES_TD
