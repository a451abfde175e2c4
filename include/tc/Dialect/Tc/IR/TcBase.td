//===- TcBase.td - tc dialect definition, type constraints, base classes -===//
//
// The tc dialect is the tensor-level IR that ONNX models are imported into.
// Every value is a ranked tensor with value semantics; every op is pure.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCBASE_TD
#define TC_DIALECT_TC_IR_TCBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tc_Dialect : Dialect {
  let name = "tc";
  let cppNamespace = "::mlir::tc";
  let summary = "Tensor-level operations of ML inference graphs";
  let description = [{
    The `tc` dialect models the operators of ONNX inference graphs at tensor
    level, with value semantics. Shapes may be static or dynamic (`?`);
    elementwise binary and ternary ops broadcast like numpy. Integer tensors
    use signless integers for ONNX's signed types and `ui8`..`ui64` for its
    unsigned types; `i1` is ONNX's bool.

    Ops whose result type follows from their operands implement
    `InferTypeOpInterface`. A declared result type may be more static than the
    inferred one (an importer may know more than inference can prove), but
    never contradict it.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  // The discardable tc.* attributes (TcAttributes.h) are checked wherever
  // they appear: on ops, function arguments and results.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes of TcAttrDefs.td (Signature.cpp).
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tc_Element : AnyTypeOf<[AnyFloat, AnyInteger], "float or integer">;
def Tc_Tensor : RankedTensorOf<[Tc_Element]>;
def Tc_FloatTensor : RankedTensorOf<[AnyFloat]>;
def Tc_IntTensor : RankedTensorOf<[AnyInteger]>;
def Tc_BoolTensor : RankedTensorOf<[I1]>;
def Tc_IndexTensor : RankedTensorOf<[AnySignlessInteger]>;
def Tc_ShapeTensor : TensorRankOf<[AnySignlessInteger], [1]>;
def Tc_ScalarTensor : 0DTensorOf<[Tc_Element]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tc_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "comparison predicate", [
      I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
      I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
      I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mlir::tc";
}

def Tc_PadMode : I32EnumAttr<"PadMode", "padding mode", [
      I32EnumAttrCase<"constant", 0>, I32EnumAttrCase<"reflect", 1>,
      I32EnumAttrCase<"edge", 2>, I32EnumAttrCase<"wrap", 3>]> {
  let cppNamespace = "::mlir::tc";
}

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Tc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tc_Dialect, mnemonic, !listconcat(traits, [Pure])>;

// Result-type inference that accepts a declared result type which is more
// static than the inferred one (see the dialect description). Verification
// runs the inference first, so its precise diagnostics are the ones reported.
def Tc_VerifyByInference : NativeOpTrait<"VerifyByInference"> {
  let cppNamespace = "::mlir::tc::OpTrait";
}
def Tc_InferResultType : TraitList<
    [Tc_VerifyByInference] # InferTypeOpAdaptorBase<[{
    static bool isCompatibleReturnTypes(::mlir::TypeRange l,
                                        ::mlir::TypeRange r) {
      return ::mlir::tc::areCompatibleReturnTypes(l, r);
    }
  }]>.traits>;

// Produces a description with an example from the pieces each op supplies.
class Tc_Doc<string text, string example> {
  string doc = text # "\n\nExample:\n\n```mlir\n" # example # "\n```\n";
}

#endif // TC_DIALECT_TC_IR_TCBASE_TD
