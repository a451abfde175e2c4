//===- BackendUtils.h - helpers the GPU back ends share ---------*- C++ -*-===//

#ifndef TC_TARGET_GPU_UTILS_BACKENDUTILS_H
#define TC_TARGET_GPU_UTILS_BACKENDUTILS_H

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>

namespace mlir::tc::gpu {

/// The one target attribute attached to `module`, or null with `error` set.
mlir::gpu::TargetAttrInterface singleTarget(mlir::gpu::GPUModuleOp module,
                                            StringRef vendor,
                                            std::string &error);

/// The ELF header fields a check reads, and the symbol names.
struct ElfSummary {
  unsigned machine = 0, osAbi = 0, abiVersion = 0, flags = 0;
  llvm::StringSet<> symbols;
};

/// Reads a 64-bit little-endian ELF file (`what` names it in `error`).
std::optional<ElfSummary> readElf(StringRef bytes, StringRef what,
                                  std::string &error);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_UTILS_BACKENDUTILS_H
