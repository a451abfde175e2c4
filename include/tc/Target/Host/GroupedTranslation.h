//===- GroupedTranslation.h - LLVM dialect to LLVM IR, a group at a time --===//
//
// A model's LLVM dialect module and its LLVM IR are each about as large as
// the compile's private memory allows (the cold-start issue: at most twice
// the model's size), so they must not both exist whole. The translation
// here moves a group of functions at a time out of the MLIR module, into a
// module of its own that declares what they use, translates it, erases it
// and links its LLVM IR into the result: the MLIR of a group is freed as
// its LLVM IR appears.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_HOST_GROUPEDTRANSLATION_H
#define TC_TARGET_HOST_GROUPEDTRANSLATION_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

namespace mlir::tc::host {

/// Translates `module` (LLVM dialect) into one LLVM module with `layout`
/// and `triple`, in about `groups` groups of functions (contiguous, of
/// about equal size in operations). Consumes `module`: its function bodies
/// are erased as they are translated. The result is the module a whole
/// translation gives, but for the order of its globals: symbols with
/// internal or private linkage are external while the groups are linked
/// and get their linkage back at the end. A module whose functions refer to
/// symbols other than functions and globals is translated whole. Returns
/// null when the translation or a link fails.
std::unique_ptr<llvm::Module>
translateInGroups(ModuleOp module, llvm::LLVMContext &context,
                  llvm::StringRef name, const llvm::DataLayout &layout,
                  const llvm::Triple &triple, unsigned groups);

} // namespace mlir::tc::host

#endif // TC_TARGET_HOST_GROUPEDTRANSLATION_H
