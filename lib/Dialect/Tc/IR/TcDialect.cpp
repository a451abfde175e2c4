//===- TcDialect.cpp - tc dialect registration, constants, attributes -----===//

#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tc;

#include "tc/Dialect/Tc/IR/TcDialect.cpp.inc"

void TcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tc/Dialect/Tc/IR/TcOps.cpp.inc"
      >();
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
      {kWorkgroupAttr, AttrKind::String, false},
      {kKernelOpsAttr, AttrKind::String, false},
      {kKernelNodesAttr, AttrKind::String, false},
      {kBucketGuardAttr, AttrKind::I64Array, false},
      {kCheckOffsetAttr, AttrKind::Integer, false},
      {kCheckMessagesAttr, AttrKind::StringArray, false},
      {kModuleMetadataAttr, AttrKind::String, false},
      {kGpuKernelsAttr, AttrKind::StringArray, false},
      {kGpuImagesAttr, AttrKind::DictionaryArray, false},
      {kHostFunctionAttr, AttrKind::Unit, false},
  };
  return declarations;
}

namespace {

bool hasKind(Attribute value, AttrKind kind) {
  auto arrayOf = [&](auto isElement) {
    auto array = dyn_cast<ArrayAttr>(value);
    return array && llvm::all_of(array.getValue(), isElement);
  };
  switch (kind) {
  case AttrKind::Unit:
    return isa<UnitAttr>(value);
  case AttrKind::String:
    return isa<StringAttr>(value);
  case AttrKind::Integer:
    return isa<IntegerAttr>(value);
  case AttrKind::Float:
    return isa<FloatAttr>(value);
  case AttrKind::StringArray:
    return arrayOf([](Attribute a) { return isa<StringAttr>(a); });
  case AttrKind::DictionaryArray:
    return arrayOf([](Attribute a) { return isa<DictionaryAttr>(a); });
  case AttrKind::I64Array:
    return isa<DenseI64ArrayAttr>(value);
  }
  llvm_unreachable("unknown attribute kind");
}

StringRef kindName(AttrKind kind) {
  switch (kind) {
  case AttrKind::Unit:
    return "a unit attribute";
  case AttrKind::String:
    return "a string";
  case AttrKind::Integer:
    return "an integer";
  case AttrKind::Float:
    return "a float";
  case AttrKind::StringArray:
    return "an array of strings";
  case AttrKind::DictionaryArray:
    return "an array of dictionaries";
  case AttrKind::I64Array:
    return "an array<i64>";
  }
  llvm_unreachable("unknown attribute kind");
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
    if (!hasKind(value, declaration.kind))
      return ("'" + name + "' must be " + kindName(declaration.kind)).str();
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
