//===- ModuleMetadata.cpp - a model's signature, and its text in model.so -===//
//
// The signature is read from the tc-level @main, before lowering erases
// what the runtime needs to know: ONNX names, unsigned element types, and
// the dim_param symbols that tie dynamic extents together. It travels as a
// #tc.signature attribute and becomes text (grammar: module_abi.h) only
// when the entry point is emitted.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Host/ModuleAbi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tc::host {

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

/// An argument's or result's slot: its tc.name (else `fallback`), type and
/// tc.dim_params.
SlotAttr slotOf(Type type, DictionaryAttr attrs, StringRef fallback) {
  auto tensorType = cast<RankedTensorType>(type);
  StringRef name = fallback;
  if (attrs)
    if (auto named = attrs.getAs<StringAttr>(kNameAttr))
      name = named.getValue();
  ArrayAttr params = attrs ? attrs.getAs<ArrayAttr>(kDimParamsAttr) : nullptr;
  MLIRContext *ctx = type.getContext();
  SmallVector<Attribute> symbols;
  bool any = false;
  for (int64_t i = 0; i < tensorType.getRank(); ++i) {
    StringRef symbol;
    if (tensorType.isDynamicDim(i) && params &&
        i < static_cast<int64_t>(params.size()))
      if (auto str = dyn_cast<StringAttr>(params[i]))
        symbol = str.getValue();
    any |= !symbol.empty();
    symbols.push_back(StringAttr::get(ctx, symbol));
  }
  return SlotAttr::get(ctx, name, tensorType,
                       any ? ArrayAttr::get(ctx, symbols) : ArrayAttr());
}

void writeSlot(llvm::raw_ostream &os, StringRef kind, SlotAttr slot) {
  RankedTensorType type = slot.getType();
  os << kind << ' ' << escapeMetadataName(slot.getName()) << ' '
     << moduleDtypeName(type.getElementType()) << ' ' << type.getRank();
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i)) {
      os << ' ' << type.getDimSize(i);
      continue;
    }
    StringRef symbol = slot.getSymbol(i);
    os << " ?" << (symbol.empty() ? "" : escapeMetadataName(symbol));
  }
  os << '\n';
}

} // namespace

SignatureAttr buildSignature(func::FuncOp main, StringRef modelName) {
  MLIRContext *ctx = main.getContext();
  FunctionType type = main.getFunctionType();
  SmallVector<Attribute> inputs, outputs;
  for (unsigned i = 0; i < type.getNumInputs(); ++i)
    inputs.push_back(slotOf(type.getInput(i), main.getArgAttrDict(i),
                            "input" + std::to_string(i)));
  for (unsigned i = 0; i < type.getNumResults(); ++i)
    outputs.push_back(slotOf(type.getResult(i), main.getResultAttrDict(i),
                             "output" + std::to_string(i)));
  Builder b(ctx);
  return SignatureAttr::get(ctx, modelName, b.getArrayAttr(inputs),
                            b.getArrayAttr(outputs), b.getStrArrayAttr({"cpu"}),
                            StringAttr(), StringAttr(), ArrayAttr(), "default",
                            ArrayAttr());
}

std::string moduleMetadataText(SignatureAttr signature) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tc-module 1\n";
  os << "name " << escapeMetadataName(signature.getName()) << '\n';
  for (SlotAttr slot : signature.getInputSlots())
    writeSlot(os, "input", slot);
  for (SlotAttr slot : signature.getOutputSlots())
    writeSlot(os, "output", slot);
  for (StringRef target : signature.getTargets().getAsValueRange<StringAttr>())
    os << "target " << target << '\n';
  if (StringAttr compiler = signature.getCompiler())
    os << "compiler " << compiler.getValue() << '\n';
  if (StringAttr cpu = signature.getCpu()) {
    os << "cpu " << cpu.getValue();
    if (ArrayAttr features = signature.getFeatures())
      for (StringRef feature : features.getAsValueRange<StringAttr>())
        os << ' ' << feature;
    os << '\n';
  }
  if (signature.getMode() != "default")
    os << "mode " << signature.getMode() << '\n';
  if (ArrayAttr buckets = signature.getBuckets())
    for (auto bucket : buckets.getAsRange<DictionaryAttr>()) {
      os << "bucket";
      for (NamedAttribute dim : bucket)
        os << ' ' << escapeMetadataName(dim.getName()) << '='
           << cast<IntegerAttr>(dim.getValue()).getInt();
      os << '\n';
    }
  return text;
}

} // namespace mlir::tc::host
