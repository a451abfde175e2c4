//===- ShapeBuckets.cpp - static specializations inside one model.so ------===//
//
// See ShapeBuckets.h. The merge works on the LLVM dialect, after both
// modules are lowered and before the entry point exists: at that point a
// module is @main with its tc_cpu.dispatch ops (which --tc-cpu-emit-entry
// turns into kernels), its workgroup functions, globals, and declarations
// of the C library and libm functions the code calls.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/ShapeBuckets.h"

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Host/ModuleAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tc::cpu {

std::string ShapeBucket::describe() const {
  std::string text;
  for (const auto &[name, extent] : dims)
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(extent);
  return text;
}

FailureOr<ShapeBucket> parseShapeBucket(StringRef spec, std::string &error) {
  ShapeBucket bucket;
  SmallVector<StringRef> entries;
  spec.split(entries, ',');
  for (StringRef entry : entries) {
    auto [name, value] = entry.split('=');
    int64_t extent;
    if (name.empty() || value.empty() || value.getAsInteger(10, extent) ||
        extent < 0) {
      error = "expected NAME=EXTENT (a non-negative integer), got '" +
              entry.str() + "'";
      return failure();
    }
    if (!bucket.dims.emplace(name.str(), extent).second) {
      error = "the dimension '" + name.str() + "' is given twice";
      return failure();
    }
  }
  return bucket;
}

FailureOr<SmallVector<int64_t>> bucketGuard(TypeRange all, TypeRange fixed,
                                            std::string &error) {
  if (all.size() != fixed.size()) {
    error = "its signature differs from the generic model's";
    return failure();
  }
  SmallVector<int64_t> guard;
  int64_t offset = 0;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(all, fixed))) {
    auto a = cast<RankedTensorType>(std::get<0>(pair));
    auto b = cast<RankedTensorType>(std::get<1>(pair));
    if (a.getRank() != b.getRank() ||
        a.getElementType() != b.getElementType()) {
      error = "input " + std::to_string(i) +
              " differs from the generic model's in rank or element type";
      return failure();
    }
    for (int64_t d = 0; d < a.getRank(); ++d)
      if (a.isDynamicDim(d) && !b.isDynamicDim(d))
        guard.append({offset + d, b.getDimSize(d)});
    offset += a.getRank();
  }
  if (guard.empty()) {
    error = "it fixes no extent the generic model leaves dynamic";
    return failure();
  }
  return guard;
}

namespace {

/// A function or global that only declares a symbol defined elsewhere
/// (malloc, expf): both modules may declare it; it keeps its name.
bool isDeclaration(Operation *op) {
  if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op))
    return fn.isExternal();
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return !global.getValue() && global.getInitializerRegion().empty();
  return false;
}

} // namespace

LogicalResult mergeShapeBucket(ModuleOp into, ModuleOp bucket,
                               ArrayRef<int64_t> guard,
                               const ShapeBucket &shape, std::string &error) {
  MLIRContext *ctx = into.getContext();
  auto intoMain = into.lookupSymbol<LLVM::LLVMFuncOp>("main");
  auto bucketMain = bucket.lookupSymbol<LLVM::LLVMFuncOp>("main");
  auto signature = into->getAttrOfType<SignatureAttr>(kSignatureAttr);
  if (!intoMain || !bucketMain || !signature) {
    error = "expected two lowered modules with an llvm.func @main and the "
            "model's tc.signature";
    return failure();
  }
  int64_t number = llvm::count_if(into.getOps<LLVM::LLVMFuncOp>(), [](auto fn) {
    return fn->hasAttr(kBucketGuardAttr);
  });
  std::string tag = "b" + std::to_string(number);

  // The generic @main reports its checks from the start of the table,
  // before any bucket's are appended (decided once, at the first merge).
  SmallVector<Attribute> messages;
  if (auto checks = into->getAttrOfType<ArrayAttr>(kCheckMessagesAttr))
    llvm::append_range(messages, checks);
  if (number == 0 && !messages.empty())
    intoMain->setAttr(kCheckOffsetAttr,
                      IntegerAttr::get(IntegerType::get(ctx, 64), 0));

  // New names for the bucket's own symbols, in one table.
  SymbolTable intoSymbols(into);
  llvm::DenseMap<StringAttr, StringAttr> renamed;
  SmallVector<Operation *> duplicates;
  for (Operation &op : bucket.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol)
      continue;
    StringRef name = symbol.getName();
    if (isDeclaration(&op)) {
      if (intoSymbols.lookup(name))
        duplicates.push_back(&op);
      continue;
    }
    std::string fresh;
    if (&op == bucketMain.getOperation())
      fresh = "__tc_bucket" + std::to_string(number) + "_main";
    else if (name.consume_front("__constant_"))
      // Still a constant the entry point shares with equal ones by content.
      fresh = "__constant_" + tag + "_" + name.str();
    else
      fresh = "__tc_" + tag + "_" + name.str();
    renamed[symbol.getNameAttr()] = StringAttr::get(ctx, fresh);
  }
  // One walk rewrites every reference (a walk per symbol is quadratic).
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](SymbolRefAttr ref) -> std::optional<Attribute> {
        StringAttr fresh = renamed.lookup(ref.getRootReference());
        if (!fresh)
          return std::nullopt;
        return SymbolRefAttr::get(fresh, ref.getNestedReferences());
      });
  bucket.walk([&](Operation *op) {
    if (op != bucket.getOperation())
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false, /*replaceTypes=*/false);
  });
  for (Operation &op : bucket.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol)
      continue;
    if (StringAttr fresh = renamed.lookup(symbol.getNameAttr()))
      symbol.setName(fresh);
  }
  // The bucket's kernels keep their own names in the kernel table and the
  // profile: "k3" becomes "b0_k3".
  bucket.walk([&](tc_cpu::DispatchOp dispatch) {
    dispatch.setKernel((tag + "_" + dispatch.getKernel()).str());
  });

  if (auto checks = bucket->getAttrOfType<ArrayAttr>(kCheckMessagesAttr)) {
    bucketMain->setAttr(kCheckOffsetAttr,
                        IntegerAttr::get(IntegerType::get(ctx, 64),
                                         int64_t(messages.size())));
    llvm::append_range(messages, checks);
    into->setAttr(kCheckMessagesAttr, ArrayAttr::get(ctx, messages));
  }
  bucketMain->setAttr(kBucketGuardAttr, DenseI64ArrayAttr::get(ctx, guard));

  SmallVector<NamedAttribute> extents;
  for (const auto &[name, extent] : shape.dims)
    extents.emplace_back(StringAttr::get(ctx, name),
                         IntegerAttr::get(IntegerType::get(ctx, 64), extent));
  into->setAttr(kSignatureAttr,
                signature.withBucket(DictionaryAttr::get(ctx, extents)));

  for (Operation *op : duplicates)
    op->erase();
  Block *body = into.getBody();
  body->getOperations().splice(body->end(), bucket.getBody()->getOperations());
  return success();
}

} // namespace mlir::tc::cpu
