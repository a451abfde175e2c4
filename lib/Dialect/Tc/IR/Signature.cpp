//===- Signature.cpp - #tc.signature and #tc.slot -------------------------===//

#include "tc/Dialect/Tc/IR/TcSignature.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tc;

#define GET_ATTRDEF_CLASSES
#include "tc/Dialect/Tc/IR/TcAttrDefs.cpp.inc"

void TcDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tc/Dialect/Tc/IR/TcAttrDefs.cpp.inc"
      >();
}

std::string mlir::tc::moduleDtypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  // The narrow floats travel as one byte of bits each (module_abi.h).
  if (isa<Float8E4M3FNType>(type))
    return "f8e4m3fn";
  if (isa<Float8E4M3FNUZType>(type))
    return "f8e4m3fnuz";
  if (isa<Float8E5M2Type>(type))
    return "f8e5m2";
  if (isa<Float8E5M2FNUZType>(type))
    return "f8e5m2fnuz";
  if (isa<Float8E8M0FNUType>(type))
    return "f8e8m0fnu";
  if (isa<Float4E2M1FNType>(type))
    return "f4e2m1fn";
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width == 1)
      return "bool";
    if (llvm::is_contained({2u, 4u, 8u, 16u, 32u, 64u}, width))
      return (intType.isUnsigned() ? "u" : "i") + std::to_string(width);
  }
  return "";
}

//===----------------------------------------------------------------------===//
// #tc.slot
//===----------------------------------------------------------------------===//

LogicalResult SlotAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringRef name, RankedTensorType type,
                               ArrayAttr symbols) {
  if (moduleDtypeName(type.getElementType()).empty())
    return emitError() << "'" << name << "' has element type "
                       << type.getElementType()
                       << ", which compiled models cannot take or return";
  if (!symbols)
    return success();
  if (static_cast<int64_t>(symbols.size()) != type.getRank())
    return emitError() << "'" << name << "' has " << symbols.size()
                       << " dimension symbols for rank " << type.getRank();
  for (auto [dim, symbol] : llvm::enumerate(symbols)) {
    auto text = dyn_cast<StringAttr>(symbol);
    if (!text)
      return emitError() << "'" << name << "': dimension symbols are strings";
    if (!text.getValue().empty() && !type.isDynamicDim(dim))
      return emitError() << "'" << name << "': static dimension " << dim
                         << " cannot have a symbol";
  }
  return success();
}

StringRef SlotAttr::getSymbol(int64_t dim) const {
  ArrayAttr symbols = getSymbols();
  if (!symbols || dim >= static_cast<int64_t>(symbols.size()))
    return "";
  return cast<StringAttr>(symbols[dim]).getValue();
}

//===----------------------------------------------------------------------===//
// #tc.signature
//===----------------------------------------------------------------------===//

namespace {
bool allStrings(ArrayAttr array) {
  return !array || llvm::all_of(array, llvm::IsaPred<StringAttr>);
}
} // namespace

LogicalResult
SignatureAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef name, ArrayAttr inputs, ArrayAttr outputs,
                      ArrayAttr targets, StringAttr compiler, StringAttr cpu,
                      ArrayAttr features, StringRef mode, ArrayAttr buckets) {
  if (!llvm::all_of(inputs, llvm::IsaPred<SlotAttr>) ||
      !llvm::all_of(outputs, llvm::IsaPred<SlotAttr>))
    return emitError() << "inputs and outputs are #tc.slot attributes";
  if (targets.empty() || !allStrings(targets))
    return emitError() << "targets: expected one string or more (\"cpu\", "
                          "then GPU targets)";
  if (!allStrings(features))
    return emitError() << "features: expected strings";
  if (features && !features.empty() && !cpu)
    return emitError() << "features without a cpu";
  if (!llvm::is_contained(kCompileModes, mode))
    return emitError() << "unknown mode '" << mode
                       << "' (default, reduce-overhead or max-autotune)";
  if (buckets)
    for (Attribute bucket : buckets) {
      auto dict = dyn_cast<DictionaryAttr>(bucket);
      if (!dict || dict.empty() || !llvm::all_of(dict, [](NamedAttribute dim) {
            auto extent = dyn_cast<IntegerAttr>(dim.getValue());
            return extent && extent.getValue().isNonNegative();
          }))
        return emitError() << "buckets: expected dictionaries of symbol = "
                              "extent (a non-negative integer)";
    }
  return success();
}

SignatureAttr SignatureAttr::withBucket(DictionaryAttr bucket) const {
  SmallVector<Attribute> buckets;
  if (ArrayAttr existing = getBuckets())
    llvm::append_range(buckets, existing);
  buckets.push_back(bucket);
  return SignatureAttr::get(getContext(), getName(), getInputs(), getOutputs(),
                            getTargets(), getCompiler(), getCpu(),
                            getFeatures(), getMode(),
                            ArrayAttr::get(getContext(), buckets));
}
