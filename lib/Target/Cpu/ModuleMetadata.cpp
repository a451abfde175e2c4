//===- ModuleMetadata.cpp - the signature text a model.so carries ---------===//
//
// Written from the tc-level @main, before lowering erases what the runtime
// needs to know: ONNX names, unsigned element types, and the dim_param
// symbols that tie dynamic extents together. Grammar: module_abi.h.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tc::cpu {

std::string escapeMetadataName(StringRef name) {
  if (name.empty())
    return "%";
  std::string out;
  for (unsigned char c : name) {
    if (llvm::isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '/' ||
        c == '-') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(llvm::hexdigit(c >> 4));
      out.push_back(llvm::hexdigit(c & 15));
    }
  }
  return out;
}

namespace {
std::string escapeName(StringRef name) { return escapeMetadataName(name); }

void writeRecord(llvm::raw_ostream &os, StringRef kind, StringRef name,
                 Type type, DictionaryAttr attrs) {
  auto tensorType = cast<RankedTensorType>(type);
  ArrayAttr params = attrs ? attrs.getAs<ArrayAttr>(kDimParamsAttr) : nullptr;
  os << kind << ' ' << escapeName(name) << ' '
     << moduleDtypeName(tensorType.getElementType()) << ' '
     << tensorType.getRank();
  for (int64_t i = 0; i < tensorType.getRank(); ++i) {
    if (!tensorType.isDynamicDim(i)) {
      os << ' ' << tensorType.getDimSize(i);
      continue;
    }
    StringRef symbol;
    if (params && i < static_cast<int64_t>(params.size()))
      if (auto str = dyn_cast<StringAttr>(params[i]))
        symbol = str.getValue();
    os << " ?" << escapeName(symbol).substr(symbol.empty() ? 1 : 0);
  }
  os << '\n';
}

StringRef nameOf(DictionaryAttr attrs, StringRef fallback) {
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>(kNameAttr))
      return name.getValue();
  return fallback;
}

} // namespace

std::string moduleDtypeName(Type type) {
  if (type.isF16()) return "f16";
  if (type.isBF16()) return "bf16";
  if (type.isF32()) return "f32";
  if (type.isF64()) return "f64";
  // The narrow floats travel as one byte of bits each (module_abi.h).
  if (isa<Float8E4M3FNType>(type)) return "f8e4m3fn";
  if (isa<Float8E4M3FNUZType>(type)) return "f8e4m3fnuz";
  if (isa<Float8E5M2Type>(type)) return "f8e5m2";
  if (isa<Float8E5M2FNUZType>(type)) return "f8e5m2fnuz";
  if (isa<Float8E8M0FNUType>(type)) return "f8e8m0fnu";
  if (isa<Float4E2M1FNType>(type)) return "f4e2m1fn";
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width == 1)
      return "bool";
    if (llvm::is_contained({2u, 4u, 8u, 16u, 32u, 64u}, width))
      return (intType.isUnsigned() ? "u" : "i") + std::to_string(width);
  }
  return "";
}

std::string buildModuleMetadata(func::FuncOp main, StringRef modelName) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tc-module 1\n";
  os << "name " << escapeName(modelName) << '\n';
  FunctionType type = main.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    DictionaryAttr attrs = main.getArgAttrDict(i);
    std::string fallback = "input" + std::to_string(i);
    writeRecord(os, "input", nameOf(attrs, fallback), type.getInput(i), attrs);
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    DictionaryAttr attrs = main.getResultAttrDict(i);
    std::string fallback = "output" + std::to_string(i);
    writeRecord(os, "output", nameOf(attrs, fallback), type.getResult(i),
                attrs);
  }
  os << "target cpu\n";
  return text;
}

} // namespace mlir::tc::cpu
