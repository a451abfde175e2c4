//===- FusionBase.td - the fusion dialect ---------------------------------===//

#ifndef TC_DIALECT_FUSION_IR_FUSIONBASE_TD
#define TC_DIALECT_FUSION_IR_FUSIONBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Fusion_Dialect : Dialect {
  let name = "fusion";
  let cppNamespace = "::mlir::fusion";
  let summary = "Kernel boundaries: which tensor ops run together";
  let description = [{
    The `fusion` dialect partitions a tc graph into `fusion.group` regions.
    One group becomes exactly one GPU kernel and one parallel loop nest on the
    CPU. A group is isolated from above: everything it reads comes in through
    its operands, so each group can be code-generated on its own.

    Its attribute `#fusion.kernel_config` says how a group's kernel is
    built; `fusion.config` (that attribute), `fusion.candidates` (a
    non-empty array of them: the alternatives a kernel is built in beside
    its heuristic one, for the run-time tuner to choose among) and
    `fusion.kernel_key` (a string that names the kernel's computation in a
    tuning table) are verified where they appear on an op.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The discardable attributes of a configured kernel's anchor op.
    static constexpr ::llvm::StringLiteral kConfigAttr = "fusion.config";
    static constexpr ::llvm::StringLiteral kKernelKeyAttr = "fusion.kernel_key";
    static constexpr ::llvm::StringLiteral kCandidatesAttr = "fusion.candidates";

  private:
    void registerAttributes();

  public:
  }];
}

def Fusion_GroupKind : I32EnumAttr<"GroupKind", "what anchors a fusion group", [
    I32EnumAttrCase<"elementwise", 0>, I32EnumAttrCase<"matmul", 1>,
    I32EnumAttrCase<"conv", 2>, I32EnumAttrCase<"reduction", 3>,
    I32EnumAttrCase<"softmax", 4>, I32EnumAttrCase<"normalization", 5>,
    I32EnumAttrCase<"pooling", 6>, I32EnumAttrCase<"view", 7>,
    I32EnumAttrCase<"gather", 8>, I32EnumAttrCase<"opaque", 9>]> {
  let cppNamespace = "::mlir::fusion";
}

class Fusion_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fusion_Dialect, mnemonic, traits>;

#endif // TC_DIALECT_FUSION_IR_FUSIONBASE_TD
