//===- TcDialect.cpp - tc dialect registration, constants, attributes -----===//

#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/IR/TcSignature.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tc;

#include "tc/Dialect/Tc/IR/TcDialect.cpp.inc"

void TcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tc/Dialect/Tc/IR/TcOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *TcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

//===----------------------------------------------------------------------===//
// The tc.* attributes
//===----------------------------------------------------------------------===//

ArrayRef<AttrDeclaration> mlir::tc::tcAttributes() {
  static const AttrDeclaration declarations[] = {
      {kNameAttr, AttrKind::String, true},
      {kDimParamsAttr, AttrKind::StringArray, true},
      {kTf32FactorsAttr, AttrKind::Unit, false},
      {kCalibratedMaxAttr, AttrKind::Float, false},
      {kReadsBufferAttr, AttrKind::Integer, false},
      {kWritesBufferAttr, AttrKind::Integer, false},
      {kRegisterTileMarker, AttrKind::Unit, false},
      {kElementwiseTileMarker, AttrKind::Unit, false},
      {kTransposeTileMarker, AttrKind::Unit, false},
      {kReductionTileMarker, AttrKind::Unit, false},
      {kGpuKernelMarker, AttrKind::Unit, false},
      {kArenaBufferAttr, AttrKind::Integer, false},
      {kArenaBytesAttr, AttrKind::Integer, false},
      {kBucketGuardAttr, AttrKind::I64Array, false},
      {kCheckOffsetAttr, AttrKind::Integer, false},
      {kCheckMessagesAttr, AttrKind::StringArray, false},
      {kSignatureAttr, AttrKind::Signature, false},
      {kGpuKernelsAttr, AttrKind::StringArray, false},
      {kGpuImagesAttr, AttrKind::DictionaryArray, false},
      {kHostFunctionAttr, AttrKind::Unit, false},
  };
  return declarations;
}

namespace {

template <typename Element> bool arrayOf(Attribute value) {
  auto array = dyn_cast<ArrayAttr>(value);
  return array && llvm::all_of(array.getValue(), llvm::IsaPred<Element>);
}

/// What each kind accepts, and how an error names it.
struct KindInfo {
  AttrKind kind;
  StringLiteral name;
  bool (*accepts)(Attribute);
};

constexpr KindInfo kKinds[] = {
    {AttrKind::Unit, "a unit attribute",
     [](Attribute v) { return isa<UnitAttr>(v); }},
    {AttrKind::String, "a string",
     [](Attribute v) { return isa<StringAttr>(v); }},
    {AttrKind::Integer, "an integer",
     [](Attribute v) { return isa<IntegerAttr>(v); }},
    {AttrKind::Float, "a float", [](Attribute v) { return isa<FloatAttr>(v); }},
    {AttrKind::StringArray, "an array of strings", arrayOf<StringAttr>},
    {AttrKind::DictionaryArray, "an array of dictionaries",
     arrayOf<DictionaryAttr>},
    {AttrKind::I64Array, "an array<i64>",
     [](Attribute v) { return isa<DenseI64ArrayAttr>(v); }},
    {AttrKind::Signature, "a #tc.signature",
     [](Attribute v) { return isa<SignatureAttr>(v); }},
};

const KindInfo &kindInfo(AttrKind kind) {
  return *llvm::find_if(kKinds,
                        [&](const KindInfo &k) { return k.kind == kind; });
}

} // namespace

std::string mlir::tc::checkTcAttribute(StringRef name, Attribute value,
                                       bool onArgument) {
  if (!name.starts_with("tc."))
    return "";
  for (const AttrDeclaration &declaration : tcAttributes()) {
    if (declaration.name != name)
      continue;
    if (declaration.onArguments != onArgument)
      return ("'" + name + "' belongs on " +
              (declaration.onArguments ? "function arguments and results"
                                       : "operations"))
          .str();
    const KindInfo &kind = kindInfo(declaration.kind);
    if (!kind.accepts(value))
      return ("'" + name + "' must be " + kind.name).str();
    return "";
  }
  return ("unknown tc attribute '" + name +
          "' (the tc attributes are declared in TcAttributes.h)")
      .str();
}

LogicalResult TcDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  std::string problem =
      checkTcAttribute(attr.getName(), attr.getValue(), /*onArgument=*/false);
  if (problem.empty())
    return success();
  return op->emitError() << problem;
}

LogicalResult TcDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                  unsigned,
                                                  NamedAttribute attr) {
  std::string problem =
      checkTcAttribute(attr.getName(), attr.getValue(), /*onArgument=*/true);
  if (problem.empty())
    return success();
  return op->emitError() << problem;
}

LogicalResult TcDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                     unsigned,
                                                     NamedAttribute attr) {
  return verifyRegionArgAttribute(op, 0, 0, attr);
}
