//===- TcAttrDefs.td - the signature of a compiled model -----------------===//
//
// What a model.so tells the runtime about itself (module_abi.h) travels
// through the compiler as these attributes, on the module, and becomes the
// metadata text only when the entry point is emitted: passes read and
// extend a typed value instead of parsing text back.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCATTRDEFS_TD
#define TC_DIALECT_TC_IR_TCATTRDEFS_TD

include "tc/Dialect/Tc/IR/TcBase.td"
include "mlir/IR/AttrTypeBase.td"

class Tc_Attr<string name, string attrMnemonic> : AttrDef<Tc_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Tc_SlotAttr : Tc_Attr<"Slot", "slot"> {
  let summary = "An input or output of a compiled model";
  let description = [{
    Its ONNX name, its type as the caller sees it (element types the module
    ABI carries, unsigned integers as `ui8`..`ui64`), and for each dimension
    the symbol (ONNX dim_param) that ties a dynamic extent to others, ""
    for a static or anonymous one. `symbols` is left out when no dimension
    has one.

    ```mlir
    #tc.slot<"input" : tensor<?x3x224x224xf32>, symbols = ["batch", "", "", ""]>
    ```
  }];
  let parameters = (ins StringRefParameter<"the ONNX name">:$name,
                        "RankedTensorType":$type,
                        OptionalParameter<"ArrayAttr", "dimension symbols">:$symbols);
  let assemblyFormat = [{
    `<` $name `:` $type (`,` `symbols` `=` $symbols^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The symbol of dimension `dim`, "" when it has none.
    ::llvm::StringRef getSymbol(int64_t dim) const;
  }];
}

def Tc_SignatureAttr : Tc_Attr<"Signature", "signature"> {
  let summary = "What a compiled model tells its runtime about itself";
  let description = [{
    The module attribute `tc.signature`: set by tc-compile from the tc-level
    `@main` (`buildSignature`), extended by the passes that add to what the
    runtime must know (shape buckets), and written as the metadata text of
    `include/tc-runtime/module_abi.h` by the entry-point emitters, which read
    the inputs' and outputs' ranks and element sizes from it.

    - `name`: the model's name;
    - `inputs`, `outputs`: `#tc.slot`s, in `@main`'s order;
    - `targets`: "cpu", then each GPU target ("cuda:sm_90");
    - `compiler`, `cpu`, `features`: the compiler's version, and the CPU the
      code was compiled for with the features it may use (the runtime
      refuses the module on a CPU lacking any);
    - `mode`: the tc-compile `--mode` (`default`, `reduce-overhead`,
      `max-autotune`);
    - `buckets`: one dictionary per shape bucket, symbol -> extent.

    ```mlir
    module attributes {tc.signature = #tc.signature<name = "m",
        inputs = [#tc.slot<"x" : tensor<?x4xf32>, symbols = ["n", ""]>],
        outputs = [#tc.slot<"y" : tensor<?x4xf32>, symbols = ["n", ""]>],
        targets = ["cpu"], mode = "reduce-overhead", buckets = [ {n = 1} ]>}
    ```
  }];
  let parameters = (ins
      StringRefParameter<"the model's name">:$name,
      "ArrayAttr":$inputs,
      "ArrayAttr":$outputs,
      "ArrayAttr":$targets,
      OptionalParameter<"StringAttr", "the compiler">:$compiler,
      OptionalParameter<"StringAttr", "the CPU compiled for">:$cpu,
      OptionalParameter<"ArrayAttr", "the CPU features used">:$features,
      StringRefParameter<"the compile mode", "\"default\"">:$mode,
      OptionalParameter<"ArrayAttr", "shape buckets">:$buckets);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The inputs and outputs as slots.
    auto getInputSlots() const { return getInputs().getAsRange<SlotAttr>(); }
    auto getOutputSlots() const { return getOutputs().getAsRange<SlotAttr>(); }
    /// This signature with one more shape bucket (symbol -> extent).
    SignatureAttr withBucket(::mlir::DictionaryAttr bucket) const;
  }];
}

#endif // TC_DIALECT_TC_IR_TCATTRDEFS_TD
