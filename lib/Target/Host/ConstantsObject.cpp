//===- ConstantsObject.cpp - Weights written straight into an object ------===//
//
// See ConstantsObject.h for why. The object is written by hand rather than
// through LLVM's MC layer because all it holds is symbols in a NOBITS
// section: a few hundred bytes of ELF. The bytes go from the attributes'
// storage to the library file in one write each (appendConstants).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Host/ConstantsObject.h"
#include "tc-runtime/module_weights.h"
#include "tc/Target/Host/ModuleAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cstring>
#include <unistd.h>

namespace mlir::tc::host {
namespace {

/// The minimum alignment of an external constant: a cache line, which is
/// also the widest vector load (AVX-512) the kernels issue.
constexpr uint64_t kConstantAlignment = 64;

/// The byte size of an LLVM type that is a (nested) array of byte-sized
/// integers or floats, laid out without padding; 0 for anything else.
uint64_t packedArrayBytes(Type type) {
  uint64_t count = 1;
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    count *= array.getNumElements();
    type = array.getElementType();
  }
  unsigned width = 0;
  if (auto integer = dyn_cast<IntegerType>(type))
    width = integer.getWidth();
  else if (auto real = dyn_cast<FloatType>(type))
    width = real.getWidth();
  // x86_fp80 and friends are padded in memory; i1 and i4 are not bytes.
  if (width == 0 || width % 8 != 0 || !llvm::isPowerOf2_32(width))
    return 0;
  return count * (width / 8);
}

/// Whether `type` holds whole-byte elements, as the attributes store them
/// (a dense i1 attribute, for one, is bit-packed and not the LLVM layout).
bool byteSizedElements(ShapedType type) {
  unsigned width = type.getElementTypeBitWidth();
  return width % 8 == 0 && llvm::isPowerOf2_32(width) &&
         (isa<IntegerType, FloatType>(type.getElementType()));
}

/// The bytes of `global`'s value when it is a constant worth moving out.
std::optional<ArrayRef<char>> externalBytes(LLVM::GlobalOp global) {
  if (!global.getConstant() || global.getInitializerBlock() ||
      !global.getValueAttr())
    return std::nullopt;
  uint64_t expected = packedArrayBytes(global.getGlobalType());
  if (expected < kExternalConstantMinBytes)
    return std::nullopt;
  ArrayRef<char> bytes;
  Attribute value = global.getValueAttr();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || !byteSizedElements(resource.getType()))
      return std::nullopt;
    bytes = blob->getData();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat() || !byteSizedElements(dense.getType()))
      return std::nullopt;
    bytes = dense.getRawData();
  } else if (auto string = dyn_cast<StringAttr>(value)) {
    bytes = ArrayRef<char>(string.getValue().data(), string.getValue().size());
  } else {
    return std::nullopt;
  }
  if (bytes.size() != expected)
    return std::nullopt;
  return bytes;
}

std::string contentSymbol(ArrayRef<char> bytes) {
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  return "__tc_const_" + llvm::utohexstr(hash.high64, false, 16) +
         llvm::utohexstr(hash.low64, false, 16) + "_" +
         std::to_string(bytes.size());
}

/// Sequential writes to a file descriptor, with zero padding.
class FileWriter {
public:
  explicit FileWriter(int fd) : fd(fd) {}
  bool write(const void *data, size_t size) {
    const char *at = static_cast<const char *>(data);
    while (size > 0) {
      ssize_t n = ::write(fd, at, size);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return false;
      at += n;
      size -= static_cast<size_t>(n);
      offset += static_cast<uint64_t>(n);
    }
    return true;
  }
  bool padTo(uint64_t alignment) {
    static const char zeros[4096] = {};
    while (offset % alignment != 0)
      if (!write(zeros, std::min<uint64_t>(alignment - offset % alignment,
                                           sizeof(zeros))))
        return false;
    return true;
  }
  uint64_t offset = 0;

private:
  int fd;
};

} // namespace

std::vector<ExternalConstant> externalizeConstants(ArrayRef<ModuleOp> modules) {
  std::vector<ExternalConstant> constants;
  llvm::StringMap<size_t> written;
  for (ModuleOp module : modules) {
    llvm::DenseMap<StringAttr, StringAttr> renamed;
    llvm::StringMap<LLVM::GlobalOp> declared;
    SmallVector<LLVM::GlobalOp> globals(module.getOps<LLVM::GlobalOp>());
    for (LLVM::GlobalOp global : globals) {
      std::optional<ArrayRef<char>> bytes = externalBytes(global);
      if (!bytes)
        continue;
      std::string symbol = contentSymbol(*bytes);
      uint64_t alignment =
          std::max<uint64_t>(global.getAlignment().value_or(1),
                             kConstantAlignment);
      auto [slot, isNew] = written.try_emplace(symbol, constants.size());
      if (isNew)
        constants.push_back({symbol, *bytes, bytes->size(), alignment});
      else
        constants[slot->second].alignment =
            std::max(constants[slot->second].alignment, alignment);
      StringAttr name = StringAttr::get(module.getContext(), symbol);
      renamed[global.getSymNameAttr()] = name;
      // Two globals of one module with the same bytes: one declaration.
      if (declared.count(symbol)) {
        global.erase();
        continue;
      }
      declared[symbol] = global;
      global.removeValueAttr();
      global.setSymName(symbol);
      global.setLinkage(LLVM::Linkage::External);
      global.setVisibility_(LLVM::Visibility::Hidden);
      global.setDsoLocal(true);
      global.setUnnamedAddr(LLVM::UnnamedAddr::None);
      global.setAlignment(alignment);
    }
    renameGlobalUses(module, renamed);
    // A declaration's alignment is what the code may assume: the largest
    // any module asked for, which is what the object gives it.
    for (auto &[symbol, global] : declared)
      global.setAlignment(constants[written.lookup(symbol)].alignment);
  }
  return constants;
}

bool supportsConstantsObject(StringRef triple) {
  return (triple.starts_with("x86_64-") || triple.starts_with("aarch64-")) &&
         triple.contains("linux");
}

ConstantsLayout layoutConstants(ArrayRef<ExternalConstant> constants) {
  ConstantsLayout layout;
  for (const ExternalConstant &c : constants) {
    layout.bytes = llvm::alignTo(layout.bytes, c.alignment);
    layout.offsets.push_back(layout.bytes);
    layout.bytes += c.size;
  }
  layout.alignment = TC_WEIGHTS_ALIGNMENT;
  for (const ExternalConstant &c : constants)
    layout.alignment = std::max(layout.alignment, c.alignment);
  layout.regionBytes = llvm::alignTo(layout.bytes, layout.alignment);
  return layout;
}

LogicalResult writeConstantsObject(int fd, StringRef triple,
                                   ArrayRef<ExternalConstant> constants,
                                   std::string &error) {
  namespace elf = llvm::ELF;
  if (!supportsConstantsObject(triple)) {
    error = "cannot write a constants object for " + triple.str();
    return failure();
  }
  // Layout: header, symbol table, string tables, section headers. Sections:
  // null, .tc_weights (NOBITS: no bytes in the file), .symtab, .strtab,
  // .shstrtab.
  enum : uint16_t { kData = 1, kSymtab, kStrtab, kShstrtab, kSections };
  ConstantsLayout layout = layoutConstants(constants);

  std::string strtab(1, '\0');
  std::vector<elf::Elf64_Sym> symbols(1);
  std::memset(symbols.data(), 0, sizeof(elf::Elf64_Sym));
  auto addSymbol = [&](StringRef name, uint8_t visibility, uint64_t value,
                       uint64_t size) {
    elf::Elf64_Sym symbol;
    std::memset(&symbol, 0, sizeof(symbol));
    symbol.st_name = static_cast<uint32_t>(strtab.size());
    symbol.setBindingAndType(elf::STB_GLOBAL, elf::STT_OBJECT);
    symbol.st_other = visibility;
    symbol.st_shndx = kData;
    symbol.st_value = value;
    symbol.st_size = size;
    symbols.push_back(symbol);
    strtab += name;
    strtab.push_back('\0');
  };
  // The region, exported: where the runtime maps the appended bytes.
  addSymbol(TC_WEIGHTS_SYMBOL, elf::STV_DEFAULT, 0, layout.regionBytes);
  for (auto [c, offset] : llvm::zip_equal(constants, layout.offsets))
    addSymbol(c.symbol, elf::STV_HIDDEN, offset, c.size);
  uint64_t symtabOffset = sizeof(elf::Elf64_Ehdr);
  uint64_t symtabSize = symbols.size() * sizeof(elf::Elf64_Sym);
  uint64_t strtabOffset = symtabOffset + symtabSize;
  const char shstrtab[] = "\0.tc_weights\0.symtab\0.strtab\0.shstrtab";
  enum : uint32_t { kDataName = 1, kSymtabName = 13, kStrtabName = 21,
                    kShstrtabName = 29 };
  uint64_t shstrtabOffset = strtabOffset + strtab.size();
  uint64_t headersOffset =
      llvm::alignTo(shstrtabOffset + sizeof(shstrtab), 8);

  elf::Elf64_Ehdr header;
  std::memset(&header, 0, sizeof(header));
  std::memcpy(header.e_ident, elf::ElfMagic, 4);
  header.e_ident[elf::EI_CLASS] = elf::ELFCLASS64;
  header.e_ident[elf::EI_DATA] = elf::ELFDATA2LSB;
  header.e_ident[elf::EI_VERSION] = elf::EV_CURRENT;
  header.e_ident[elf::EI_OSABI] = elf::ELFOSABI_NONE;
  header.e_type = elf::ET_REL;
  header.e_machine =
      triple.starts_with("x86_64-") ? elf::EM_X86_64 : elf::EM_AARCH64;
  header.e_version = elf::EV_CURRENT;
  header.e_shoff = headersOffset;
  header.e_ehsize = sizeof(elf::Elf64_Ehdr);
  header.e_shentsize = sizeof(elf::Elf64_Shdr);
  header.e_shnum = kSections;
  header.e_shstrndx = kShstrtab;

  elf::Elf64_Shdr sections[kSections];
  std::memset(sections, 0, sizeof(sections));
  auto section = [&](uint16_t index, uint32_t name, uint32_t type,
                     uint64_t flags, uint64_t offset, uint64_t size,
                     uint64_t alignment) -> elf::Elf64_Shdr & {
    elf::Elf64_Shdr &s = sections[index];
    s.sh_name = name;
    s.sh_type = type;
    s.sh_flags = flags;
    s.sh_offset = offset;
    s.sh_size = size;
    s.sh_addralign = alignment;
    return s;
  };
  // Writable only until the runtime maps the bytes over it, read-only.
  section(kData, kDataName, elf::SHT_NOBITS, elf::SHF_ALLOC | elf::SHF_WRITE,
          symtabOffset, layout.regionBytes, layout.alignment);
  elf::Elf64_Shdr &symtab = section(kSymtab, kSymtabName, elf::SHT_SYMTAB, 0,
                                    symtabOffset, symtabSize, 8);
  symtab.sh_link = kStrtab;
  symtab.sh_info = 1; // the first global symbol: all but the null one
  symtab.sh_entsize = sizeof(elf::Elf64_Sym);
  section(kStrtab, kStrtabName, elf::SHT_STRTAB, 0, strtabOffset,
          strtab.size(), 1);
  section(kShstrtab, kShstrtabName, elf::SHT_STRTAB, 0, shstrtabOffset,
          sizeof(shstrtab), 1);

  FileWriter out(fd);
  bool ok = out.write(&header, sizeof(header)) &&
            out.write(symbols.data(), symtabSize) &&
            out.write(strtab.data(), strtab.size()) &&
            out.write(shstrtab, sizeof(shstrtab)) && out.padTo(8) &&
            out.write(sections, sizeof(sections));
  if (!ok) {
    error = std::string("cannot write the constants object: ") +
            std::strerror(errno);
    return failure();
  }
  return success();
}

LogicalResult writeConstants(int fd, ArrayRef<ExternalConstant> constants,
                             std::string &error) {
  FileWriter out(fd);
  ConstantsLayout layout = layoutConstants(constants);
  for (auto [c, offset] : llvm::zip_equal(constants, layout.offsets)) {
    assert(c.bytes.size() == c.size && "the constant's bytes were released");
    if (!out.padTo(c.alignment) || !out.write(c.bytes.data(), c.size)) {
      error = std::string("cannot write the weights: ") + std::strerror(errno);
      return failure();
    }
    assert(out.offset == offset + c.size && "the layout is the object's");
  }
  return success();
}

LogicalResult appendConstants(int fd, int weightsFd,
                              const ConstantsLayout &layout,
                              std::string &error) {
  auto fail = [&] {
    error = std::string("cannot append the weights: ") + std::strerror(errno);
    return failure();
  };
  off_t end = ::lseek(fd, 0, SEEK_END);
  if (end < 0)
    return fail();
  FileWriter out(fd);
  out.offset = static_cast<uint64_t>(end);
  // The file offset is as aligned as the region's address, so that each
  // constant lands at its own offset in the region when mapped.
  if (!out.padTo(layout.alignment))
    return fail();
  uint64_t start = out.offset;
  // In the kernel (copy_file_range) where the file systems allow it, else
  // through a small buffer: the weights never come back into this process.
  off_t from = 0;
  uint64_t left = layout.bytes;
  while (left > 0) {
    ssize_t n = ::copy_file_range(weightsFd, &from, fd, nullptr, left, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    left -= static_cast<uint64_t>(n);
  }
  std::vector<char> buffer;
  while (left > 0) {
    buffer.resize(size_t(1) << 20);
    ssize_t n = ::pread(weightsFd, buffer.data(),
                        std::min<uint64_t>(left, buffer.size()), from);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0 || !out.write(buffer.data(), static_cast<size_t>(n)))
      return fail();
    from += n;
    left -= static_cast<uint64_t>(n);
  }
  out.offset = start + layout.bytes;
  if (::lseek(fd, static_cast<off_t>(out.offset), SEEK_SET) < 0)
    return fail();
  unsigned char trailer[TC_WEIGHTS_TRAILER_SIZE];
  tc_weights_write_trailer(trailer, start, layout.bytes);
  if (!out.padTo(8) || !out.write(trailer, sizeof(trailer)))
    return fail();
  return success();
}

llvm::StringMap<unsigned> countResourceUses(Operation *root) {
  llvm::StringMap<unsigned> uses;
  root->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
      ++uses[attr.getRawHandle().getKey()];
    });
  });
  return uses;
}

void freeResource(MLIRContext *context, StringRef key) {
  // An empty blob in its place: its deleter frees the bytes.
  DenseResourceElementsHandle::getManagerInterface(context).update(
      key, AsmResourceBlob());
}

void releaseUnreferencedResources(MLIRContext *context,
                                  ArrayRef<ModuleOp> live) {
  llvm::StringMap<unsigned> used;
  for (ModuleOp module : live)
    for (const auto &entry : countResourceUses(module))
      used[entry.getKey()] += entry.getValue();
  auto &manager =
      DenseResourceElementsHandle::getManagerInterface(context).getBlobManager();
  SmallVector<std::string> unused;
  manager.getBlobMap([&](const llvm::StringMap<
                         DialectResourceBlobManager::BlobEntry> &blobs) {
    for (const auto &entry : blobs)
      if (!used.count(entry.getKey()) && entry.getValue().getBlob() &&
          !entry.getValue().getBlob()->getData().empty())
        unused.push_back(entry.getKey().str());
  });
  for (const std::string &key : unused)
    freeResource(context, key);
  // Weights of a few MB come from the heap, not from mappings of their own
  // (glibc raises its mmap threshold as large blocks are freed).
  if (!unused.empty())
    trimHeap();
}

void trimHeap() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

} // namespace mlir::tc::host
