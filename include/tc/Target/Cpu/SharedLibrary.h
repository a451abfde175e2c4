//===- SharedLibrary.h - LLVM dialect module to model.so ------------------===//

#ifndef TC_TARGET_CPU_SHAREDLIBRARY_H
#define TC_TARGET_CPU_SHAREDLIBRARY_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tc::cpu {

struct SharedLibraryOptions {
  /// LLVM CPU name; "host" is the CPU this compiler runs on.
  std::string cpu = "host";
  /// Extra LLVM target features (e.g. "+avx2"), appended to the CPU's own.
  std::string features;
  /// Where to write the optimized LLVM IR (empty: nowhere).
  std::string llvmIrPath;
  /// More LLVM dialect modules linked into the same library (the host code
  /// of GPU targets); their symbols other than the ABI's are internal.
  SmallVector<ModuleOp> linkWith;
};

/// Translates `module` (LLVM dialect, with the model.so ABI) to LLVM IR,
/// optimizes it at -O3 for the chosen CPU, emits an object in-process and
/// links it with lld into the shared library `outputPath`. On failure returns
/// failure with a message in `error`.
LogicalResult emitSharedLibrary(ModuleOp module, StringRef outputPath,
                                const SharedLibraryOptions &options,
                                std::string &error);

/// The path of Debian's ld.lld (lld-22), or "" when it is not installed.
std::string findLinker();

/// Registers the LLVM IR translations the emission needs.
void registerSharedLibraryTranslations(DialectRegistry &registry);

} // namespace mlir::tc::cpu

#endif // TC_TARGET_CPU_SHAREDLIBRARY_H
