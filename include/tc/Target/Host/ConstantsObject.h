//===- ConstantsObject.h - Weights written straight into an object --------===//
//
// A model's weights are most of model.so, and passing them through LLVM IR
// (a ConstantDataArray each, then the optimizer, then the assembler's
// fragments) costs far more time and memory than the code: ResNet-50's
// 100 MB took a minute and 4 GB. Through the linker they cost twice their
// size again (lld buffers its output). Instead the large constants are taken
// out of the LLVM dialect modules before translation and left there as
// external hidden declarations; a small ELF writer gives lld a relocatable
// object that defines them inside one zero-fill (NOBITS) region, so lld
// lays out addresses without seeing a byte; and the bytes are appended to
// the linked library straight from the attributes that hold them (the
// weight blobs), for the runtime to map over the region when it loads the
// library (tc-runtime/module_weights.h): no copy at load time either.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_HOST_CONSTANTSOBJECT_H
#define TC_TARGET_HOST_CONSTANTSOBJECT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::tc::host {

/// One constant moved out of the modules: its (content-derived) symbol,
/// its bytes (owned by the MLIR context's attributes, until they are
/// written and released), their size and its alignment.
struct ExternalConstant {
  std::string symbol;
  ArrayRef<char> bytes;
  uint64_t size;
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

/// Where each constant lives in the weights region: its offset, the bytes
/// used, the region's size and alignment (multiples of
/// TC_WEIGHTS_ALIGNMENT).
struct ConstantsLayout {
  std::vector<uint64_t> offsets;
  uint64_t bytes = 0;
  uint64_t regionBytes = 0;
  uint64_t alignment = 0;
};
ConstantsLayout layoutConstants(ArrayRef<ExternalConstant> constants);

/// Writes an ELF relocatable object for `triple` (x86_64 or aarch64 Linux)
/// to the open file `fd`: the NOBITS section .tc_weights laid out by
/// layoutConstants, a global hidden object symbol for each constant in it
/// and the exported region symbol tc_module_weights_v1. It holds none of
/// the bytes.
LogicalResult writeConstantsObject(int fd, StringRef triple,
                                   ArrayRef<ExternalConstant> constants,
                                   std::string &error);

/// Writes the bytes of `constants` to the empty file `fd`, laid out as in
/// the region (layoutConstants): the weights, ready to be appended.
LogicalResult writeConstants(int fd, ArrayRef<ExternalConstant> constants,
                             std::string &error);

/// Appends the `layout.bytes` bytes of the file `weightsFd` (writeConstants)
/// to the linked library open as `fd`, at a file offset aligned as the
/// region is, then the weights trailer (tc-runtime/module_weights.h). The
/// seal comes after.
LogicalResult appendConstants(int fd, int weightsFd,
                              const ConstantsLayout &layout,
                              std::string &error);

/// The number of operations in `root` whose attributes refer to each dense
/// resource (a weight blob), by key.
llvm::StringMap<unsigned> countResourceUses(Operation *root);

/// Frees the bytes of the dense resource `key` of `context`: it reads as
/// empty from then on, so nothing may refer to it any more.
void freeResource(MLIRContext *context, StringRef key);

/// Frees the bytes of every dense resource (a weight blob) of `context`
/// that no operation of `live` refers to: the weights a pass replaced (a
/// filter re-laid out, batch norm folded into a convolution) and those
/// already written out. Only for a context whose modules are all in `live`:
/// a resource another module still reads would read as empty.
void releaseUnreferencedResources(MLIRContext *context,
                                  ArrayRef<ModuleOp> live);

/// Returns the heap's free pages to the system: memory freed in the middle
/// of glibc's heap (the erased IR of a compile that owns its context) stays
/// in the process until trimmed, and would count again beside what LLVM's
/// code generation allocates next. A no-op elsewhere.
void trimHeap();

/// Whether writeConstantsObject supports `triple`.
bool supportsConstantsObject(StringRef triple);

} // namespace mlir::tc::host

#endif // TC_TARGET_HOST_CONSTANTSOBJECT_H
