//===- GroupedTranslation.cpp - LLVM dialect to LLVM IR, a group at a time ===//
//
// Each group module holds the group's functions (moved, not copied) and a
// declaration of every function and global they use from elsewhere; the
// globals themselves stay in the model's module, translated last with the
// declarations that remain. The groups link by name, so local symbols are
// made external for the duration and get their linkage back in the result.
// One llvm::Linker takes every group: each new Linker would walk the whole
// result for its types again.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Host/GroupedTranslation.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Linker/Linker.h"

namespace mlir::tc::host {
namespace {

bool isLocal(LLVM::Linkage linkage) {
  return linkage == LLVM::Linkage::Internal ||
         linkage == LLVM::Linkage::Private;
}

/// The root names of the symbols that `op` and the operations in it use.
void collectReferences(Operation *op, llvm::SetVector<StringAttr> &names) {
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(op))
    for (const SymbolTable::SymbolUse &use : *uses)
      names.insert(use.getSymbolRef().getRootReference());
}

/// `global` as a declaration: no initializer, external, in no comdat.
Operation *declareGlobal(LLVM::GlobalOp global) {
  auto declaration = cast<LLVM::GlobalOp>(global->cloneWithoutRegions());
  declaration.removeValueAttr();
  declaration.removeComdatAttr();
  declaration.setLinkage(LLVM::Linkage::External);
  return declaration;
}

/// Operations in `op`, itself included: what its translation costs in time
/// and memory is about proportional to it.
size_t countOperations(Operation *op) {
  size_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

std::unique_ptr<llvm::Module>
translate(ModuleOp module, llvm::LLVMContext &context, llvm::StringRef name,
          const llvm::DataLayout &layout, const llvm::Triple &triple) {
  std::unique_ptr<llvm::Module> result =
      translateModuleToLLVMIR(module, context, name);
  if (result) {
    result->setDataLayout(layout);
    result->setTargetTriple(triple);
  }
  return result;
}

} // namespace

std::unique_ptr<llvm::Module>
translateInGroups(ModuleOp module, llvm::LLVMContext &context,
                  llvm::StringRef name, const llvm::DataLayout &layout,
                  const llvm::Triple &triple, unsigned groups) {
  Block &body = *module.getBody();
  llvm::DenseMap<StringAttr, Operation *> symbols;
  SmallVector<LLVM::LLVMFuncOp> functions;
  for (Operation &op : body) {
    if (auto symbol =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      symbols[symbol] = &op;
    auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (function && !function.isExternal())
      functions.push_back(function);
  }
  // Everything a function uses must be declarable in its group's module;
  // checked before anything moves, so that the module can still go whole.
  std::vector<llvm::SetVector<StringAttr>> references(functions.size());
  bool declarable = groups > 1 && functions.size() > 1;
  for (size_t i = 0; declarable && i < functions.size(); ++i) {
    collectReferences(functions[i], references[i]);
    for (StringAttr symbol : references[i]) {
      Operation *op = symbols.lookup(symbol);
      declarable &= op && isa<LLVM::LLVMFuncOp, LLVM::GlobalOp>(op);
    }
  }
  if (!declarable)
    return translate(module, context, name, layout, triple);

  SmallVector<std::pair<std::string, LLVM::Linkage>> locals;
  for (Operation &op : body) {
    if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
        function && isLocal(function.getLinkage())) {
      locals.emplace_back(function.getSymName().str(), function.getLinkage());
      function.setLinkage(LLVM::Linkage::External);
    } else if (auto global = dyn_cast<LLVM::GlobalOp>(op);
               global && isLocal(global.getLinkage())) {
      locals.emplace_back(global.getSymName().str(), global.getLinkage());
      global.setLinkage(LLVM::Linkage::External);
    }
  }
  // The definitions move into their groups and are erased there; what
  // later groups and the globals declare of them is kept here.
  OwningOpRef<ModuleOp> declarations = ModuleOp::create(module.getLoc());
  llvm::DenseMap<StringAttr, Operation *> declarationOf;
  SmallVector<size_t> sizes;
  size_t total = 0;
  for (LLVM::LLVMFuncOp function : functions) {
    Operation *declaration = function->cloneWithoutRegions();
    declarations->getBody()->push_back(declaration);
    declarationOf[function.getSymNameAttr()] = declaration;
    total += sizes.emplace_back(countOperations(function));
  }
  auto declare = [&](StringAttr symbol, Block &into) {
    if (Operation *declaration = declarationOf.lookup(symbol))
      into.push_back(declaration->clone());
    else if (auto global = dyn_cast<LLVM::GlobalOp>(symbols.lookup(symbol)))
      into.push_back(declareGlobal(global));
    else
      into.push_back(symbols.lookup(symbol)->clone());
  };

  std::unique_ptr<llvm::Module> result;
  std::optional<llvm::Linker> linker;
  auto link = [&](std::unique_ptr<llvm::Module> part) {
    if (!part)
      return false;
    if (!result) {
      result = std::move(part);
      linker.emplace(*result);
      return true;
    }
    return !linker->linkInModule(std::move(part));
  };
  size_t budget = (total + groups - 1) / groups;
  for (size_t begin = 0, end; begin < functions.size(); begin = end) {
    size_t size = 0;
    for (end = begin; end < functions.size() &&
                      (end == begin || size + sizes[end] <= budget);
         ++end)
      size += sizes[end];
    OwningOpRef<ModuleOp> group = ModuleOp::create(module.getLoc());
    (*group)->setAttrs(module->getAttrDictionary());
    Block &groupBody = *group->getBody();
    llvm::SetVector<StringAttr> used;
    llvm::DenseSet<StringAttr> defined;
    for (size_t i = begin; i < end; ++i) {
      defined.insert(functions[i].getSymNameAttr());
      functions[i]->moveBefore(&groupBody, groupBody.end());
      used.insert(references[i].begin(), references[i].end());
      llvm::SetVector<StringAttr>().swap(references[i]);
    }
    for (StringAttr symbol : used)
      if (!defined.contains(symbol))
        declare(symbol, groupBody);
    std::unique_ptr<llvm::Module> part =
        translate(*group, context, name, layout, triple);
    group = nullptr;
    if (!link(std::move(part)))
      return nullptr;
  }

  // What stays: the globals, the declarations, and the rest of the module,
  // with declarations of the functions that the globals use.
  llvm::SetVector<StringAttr> used;
  for (Operation &op : body)
    collectReferences(&op, used);
  for (StringAttr symbol : used)
    if (declarationOf.count(symbol))
      declare(symbol, body);
  if (!link(translate(module, context, name, layout, triple)))
    return nullptr;
  for (const auto &[symbol, linkage] : locals)
    if (llvm::GlobalValue *value = result->getNamedValue(symbol))
      value->setLinkage(linkage == LLVM::Linkage::Private
                            ? llvm::GlobalValue::PrivateLinkage
                            : llvm::GlobalValue::InternalLinkage);
  return result;
}

} // namespace mlir::tc::host
