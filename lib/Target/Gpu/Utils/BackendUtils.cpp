//===- BackendUtils.cpp - helpers the GPU back ends share -----------------===//

#include "tc/Target/Gpu/Utils/BackendUtils.h"

#include "llvm/Object/ELFObjectFile.h"

namespace mlir::tc::gpu {

mlir::gpu::TargetAttrInterface singleTarget(mlir::gpu::GPUModuleOp module,
                                            StringRef vendor,
                                            std::string &error) {
  ArrayAttr targets = module.getTargetsAttr();
  auto target = targets && targets.size() == 1
                    ? dyn_cast<mlir::gpu::TargetAttrInterface>(targets[0])
                    : nullptr;
  if (!target)
    error = ("the kernel module has no single " + vendor + " target").str();
  return target;
}

std::optional<ElfSummary> readElf(StringRef bytes, StringRef what,
                                  std::string &error) {
  auto elf = llvm::object::ELF64LEObjectFile::create(
      llvm::MemoryBufferRef(bytes, what));
  if (!elf) {
    error = ("the " + what + " is not a 64-bit ELF file: ").str() +
            llvm::toString(elf.takeError());
    return std::nullopt;
  }
  const auto &header = elf->getELFFile().getHeader();
  ElfSummary summary;
  summary.machine = header.e_machine;
  summary.osAbi = header.e_ident[llvm::ELF::EI_OSABI];
  summary.abiVersion = header.e_ident[llvm::ELF::EI_ABIVERSION];
  summary.flags = header.e_flags;
  for (const llvm::object::ELFSymbolRef &symbol : elf->symbols())
    if (llvm::Expected<StringRef> name = symbol.getName())
      summary.symbols.insert(*name);
    else
      llvm::consumeError(name.takeError());
  return summary;
}

} // namespace mlir::tc::gpu
