//===- SharedLibrary.h - LLVM dialect module to model.so ------------------===//

#ifndef TC_TARGET_HOST_SHAREDLIBRARY_H
#define TC_TARGET_HOST_SHAREDLIBRARY_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tc::host {

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
  /// Threads for object code generation (0: one per core).
  unsigned jobs = 0;
  /// Called as each stage of the emission ends, with its name (--timing).
  std::function<void(StringRef stage)> onStage;
  /// The caller has no further use for `module` and `linkWith`, and no
  /// other module in their context: once the weights are written out,
  /// before the translation, their blobs are freed
  /// (releaseUnreferencedResources); once translated, the modules'
  /// operations are erased; and the whole LLVM module once split for the
  /// threads, so that LLVM's code generation, where the compile's memory
  /// peaks, does not run beside them (tc-compile).
  bool consumeModules = false;
};

/// Translates `module` (LLVM dialect, with the model.so ABI) to LLVM IR,
/// its large constants taken out first (ConstantsObject.h), optimizes it at
/// -O3 for the chosen CPU, emits objects in-process on several threads,
/// links them with lld into the shared library `outputPath`, appends the
/// constants (tc-runtime/module_weights.h) and seals it with its checksum
/// (tc-runtime/module_seal.h). The library is written to a
/// temporary file in the output's directory and renamed over `outputPath`
/// only when complete, so an interrupted compile leaves the previous file
/// in place; the object and the linker's log live only as open files. On
/// failure returns failure with a message in `error`.
LogicalResult emitSharedLibrary(ModuleOp module, StringRef outputPath,
                                const SharedLibraryOptions &options,
                                std::string &error);

/// A model translated to LLVM IR, its weights written out: what the first
/// half of emitSharedLibrary leaves for the second. It holds nothing of
/// MLIR, so a caller that gives its modules up (consumeModules) can free
/// their context in between, before LLVM's code generation, where the
/// compile's memory peaks.
struct TranslatedLibrary;
struct TranslatedLibraryDeleter {
  void operator()(TranslatedLibrary *library) const;
};
using TranslatedLibraryPtr =
    std::unique_ptr<TranslatedLibrary, TranslatedLibraryDeleter>;

/// emitSharedLibrary's first half: the weights written out and `module`
/// (with `options.linkWith`) translated to LLVM IR. Null on failure, with
/// a message in `error`.
TranslatedLibraryPtr translateSharedLibrary(ModuleOp module,
                                            const SharedLibraryOptions &options,
                                            std::string &error);

/// emitSharedLibrary's second half: `library` optimized, compiled, linked
/// into `outputPath`, its weights appended and the library sealed. Uses
/// neither `options.linkWith` nor anything else of MLIR.
LogicalResult emitTranslatedLibrary(TranslatedLibraryPtr library,
                                    StringRef outputPath,
                                    const SharedLibraryOptions &options,
                                    std::string &error);

/// Checks that `cpu` ("host" or an LLVM CPU name such as x86-64-v3) names
/// a CPU of the host's target; failure with a message listing a few valid
/// names otherwise.
LogicalResult checkCpuName(StringRef cpu, std::string &error);

/// The CPU `options` compile for ("host" resolved to this machine's CPU)
/// and which of the features of tc-runtime/cpu_features.h its code may
/// use, for the metadata's `cpu` record; failure with a message otherwise.
LogicalResult describeTargetCpu(const SharedLibraryOptions &options,
                                std::string &name,
                                std::vector<std::string> &features,
                                std::string &error);

/// Appends the seal (tc-runtime/module_seal.h) to the file at `path`.
LogicalResult sealSharedLibrary(StringRef path, std::string &error);

/// The path of Debian's ld.lld (lld-22), or "" when it is not installed.
std::string findLinker();

/// Registers the LLVM IR translations the emission needs.
void registerSharedLibraryTranslations(DialectRegistry &registry);

} // namespace mlir::tc::host

#endif // TC_TARGET_HOST_SHAREDLIBRARY_H
