//===- ConstantsObject.h - Weights written straight into an object --------===//
//
// A model's weights are most of model.so, and passing them through LLVM IR
// (a ConstantDataArray each, then the optimizer, then the assembler's
// fragments) costs far more time and memory than the code: ResNet-50's
// 100 MB took a minute and 4 GB. Instead the large constants are taken out
// of the LLVM dialect modules before translation, left there as external
// hidden declarations, and their bytes are written by a small ELF writer
// directly from the attributes that hold them (the weight blobs) into a
// relocatable object with one read-only section, which lld links beside the
// code. The library maps that section from the file when it is loaded, so
// weights are never copied at load time either.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_CPU_CONSTANTSOBJECT_H
#define TC_TARGET_CPU_CONSTANTSOBJECT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace mlir::tc::cpu {

/// One constant moved out of the modules: its (content-derived) symbol,
/// its bytes (owned by the MLIR context's attributes) and its alignment.
struct ExternalConstant {
  std::string symbol;
  ArrayRef<char> bytes;
  uint64_t alignment;
};

/// Constants of at least this many bytes leave the LLVM IR; smaller ones
/// stay, where the optimizer can still fold loads from them.
constexpr uint64_t kExternalConstantMinBytes = 4096;

/// Replaces every large constant `llvm.mlir.global` of `modules` (weights
/// as dense or resource elements, strings such as GPU images) by an external
/// hidden declaration named after its contents, so one weight used by
/// several modules is one symbol, and returns the constants to write, each
/// once.
std::vector<ExternalConstant> externalizeConstants(ArrayRef<ModuleOp> modules);

/// Writes `constants` as an ELF relocatable object for `triple` (x86_64 or
/// aarch64 Linux) to the open file `fd`: a read-only section holding each
/// constant at its alignment, and a global hidden object symbol for each.
LogicalResult writeConstantsObject(int fd, StringRef triple,
                                   ArrayRef<ExternalConstant> constants,
                                   std::string &error);

/// Whether writeConstantsObject supports `triple`.
bool supportsConstantsObject(StringRef triple);

} // namespace mlir::tc::cpu

#endif // TC_TARGET_CPU_CONSTANTSOBJECT_H
