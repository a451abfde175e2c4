//===- ModuleFile.cpp - open and check a model.so before dlopen -----------===//

#include "ModuleFile.h"
#include "Internal.h"

#include "tc-runtime/module_seal.h"
#include "tc-runtime/module_weights.h"

#include <algorithm>
#include <cerrno>
#include <dlfcn.h>
#include <mutex>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace tc::rt;

namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
constexpr const char *kHostMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
constexpr const char *kHostMachineName = "AArch64";
#else
#error "tc's runtime knows the ELF machine of x86-64 and AArch64 hosts only"
#endif

std::string quoted(const std::string &path) { return "'" + path + "'"; }

/// Reads exactly `size` bytes at `offset`; false at end of file or on error.
bool readAt(int fd, void *buffer, size_t size, uint64_t offset) {
  auto *bytes = static_cast<unsigned char *>(buffer);
  while (size) {
    ssize_t got = pread(fd, bytes, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    bytes += got;
    size -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return true;
}

/// The seal's checksum of the first `size` bytes of the file.
bool checksumOf(int fd, uint64_t size, uint64_t &checksum) {
  constexpr size_t kChunk = size_t(1) << 20; // a multiple of TC_SEAL_BLOCK
  std::vector<unsigned char> buffer(kChunk);
  tc_seal_state state;
  tc_seal_init(&state);
  for (uint64_t at = 0; at < size; at += kChunk) {
    size_t piece = static_cast<size_t>(std::min<uint64_t>(kChunk, size - at));
    if (!readAt(fd, buffer.data(), piece, at))
      return false;
    tc_seal_update(&state, buffer.data(), piece);
  }
  checksum = tc_seal_finish(&state);
  return true;
}

/// A range [offset, offset + count * size) lies within the first `limit`
/// bytes, without overflow.
bool within(uint64_t offset, uint64_t count, uint64_t size, uint64_t limit) {
  if (size && count > limit / size)
    return false;
  return offset <= limit && count * size <= limit - offset;
}

/// The ELF checks: what the loader relies on before it maps segments.
tc_status checkElf(int fd, uint64_t size, const std::string &path) {
  auto notLoadable = [&](const std::string &why) {
    return makeStatus(TC_STATUS_INCOMPATIBLE,
                      "cannot load " + quoted(path) +
                          " as a shared library: " + why);
  };
  Elf64_Ehdr header;
  if (size < sizeof(header) || !readAt(fd, &header, sizeof(header), 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return notLoadable("it is not an ELF file");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_type != ET_DYN ||
      header.e_machine != kHostMachine)
    return notLoadable(std::string("it is not a 64-bit little-endian ") +
                       kHostMachineName + " ELF shared object");
  if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0 ||
      !within(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr), size))
    return notLoadable("its program headers lie outside the file (damaged "
                       "or truncated)");
  if (header.e_shoff &&
      !within(header.e_shoff, header.e_shnum, header.e_shentsize, size))
    return notLoadable("its section headers lie outside the file (damaged "
                       "or truncated)");
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (!readAt(fd, segments.data(), segments.size() * sizeof(Elf64_Phdr),
              header.e_phoff))
    return notLoadable("its program headers cannot be read");
  for (const Elf64_Phdr &segment : segments) {
    if (segment.p_type != PT_LOAD && segment.p_type != PT_DYNAMIC)
      continue;
    if (!within(segment.p_offset, 1, segment.p_filesz, size) ||
        (segment.p_type == PT_LOAD && segment.p_filesz > segment.p_memsz))
      return notLoadable("a loadable segment lies outside the file (damaged "
                         "or truncated)");
  }
  return nullptr;
}

} // namespace

tc_status tc::rt::openModuleFile(const std::string &path, ModuleFile &file) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer forever; it is refused below as not a regular file.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return makeStatus(errno == EMFILE || errno == ENFILE
                          ? TC_STATUS_RESOURCE_EXHAUSTED
                          : TC_STATUS_NOT_FOUND,
                      "cannot read module " + quoted(path) + ": " +
                          std::strerror(errno));
  auto fail = [&](tc_status status) {
    close(fd);
    return status;
  };
  struct stat info;
  if (fstat(fd, &info) != 0)
    return fail(makeStatus(TC_STATUS_NOT_FOUND, "cannot read module " +
                                                    quoted(path) + ": " +
                                                    std::strerror(errno)));
  if (!S_ISREG(info.st_mode))
    return fail(makeStatus(
        TC_STATUS_INVALID_ARGUMENT,
        "cannot load module " + quoted(path) + ": it is " +
            (S_ISDIR(info.st_mode) ? "a directory" : "not a regular file")));
  // Back to blocking reads (a regular file never blocks, but be plain).
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  uint64_t size = static_cast<uint64_t>(info.st_size);
  if (tc_status status = checkElf(fd, size, path))
    return fail(status);

  auto damaged = [&](const std::string &why) {
    return fail(makeStatus(
        TC_STATUS_INCOMPATIBLE,
        "cannot load " + quoted(path) + ": " + why +
            "; recompile it with tc-compile (a model.so that was copied "
            "partially, stripped or edited is refused before it is loaded)"));
  };
  unsigned char trailer[TC_SEAL_TRAILER_SIZE];
  uint64_t sealedSize = 0, recorded = 0;
  if (size < TC_SEAL_TRAILER_SIZE ||
      !readAt(fd, trailer, sizeof(trailer), size - TC_SEAL_TRAILER_SIZE) ||
      !tc_seal_read_trailer(trailer, &sealedSize, &recorded))
    return damaged("it has no tc-compile seal at its end (it is truncated "
                   "or damaged, or was not written by tc-compile)");
  if (sealedSize != size - TC_SEAL_TRAILER_SIZE)
    return damaged("its seal records " + std::to_string(sealedSize) +
                   " bytes but the file has " +
                   std::to_string(size - TC_SEAL_TRAILER_SIZE));
  uint64_t actual = 0;
  if (!checksumOf(fd, sealedSize, actual))
    return fail(makeStatus(TC_STATUS_NOT_FOUND, "cannot read module " +
                                                    quoted(path) + ": " +
                                                    std::strerror(errno)));
  if (actual != recorded)
    return damaged("its bytes do not match the checksum tc-compile sealed "
                   "it with (the file is damaged)");
  // The weights trailer, when there is one, just before the seal.
  unsigned char weights[TC_WEIGHTS_TRAILER_SIZE];
  if (sealedSize >= TC_WEIGHTS_TRAILER_SIZE &&
      readAt(fd, weights, sizeof(weights),
             sealedSize - TC_WEIGHTS_TRAILER_SIZE) &&
      tc_weights_read_trailer(weights, &file.weightsOffset,
                              &file.weightsBytes)) {
    if (file.weightsOffset % TC_WEIGHTS_ALIGNMENT != 0 ||
        !within(file.weightsOffset, 1, file.weightsBytes,
                sealedSize - TC_WEIGHTS_TRAILER_SIZE))
      return damaged("its weights trailer records bytes outside the file");
    file.hasWeights = true;
  }
  file.fd = fd;
  file.device = info.st_dev;
  file.inode = info.st_ino;
  file.checksum = recorded;
  return nullptr;
}

namespace {

/// A file some module is loaded from, with the descriptor dlopen opened it
/// by: the descriptor stays open while the file is loaded so that its
/// number, and so the name the loader knows the library by, cannot be
/// reused for another file.
struct LoadedFile {
  uint64_t key;
  dev_t device;
  ino_t inode;
  uint64_t checksum;
  int fd;
  int modules; // modules loaded from it
};

/// Maps the weights `file` recorded over the weights region of the library
/// `handle` was loaded from (tc-runtime/module_weights.h): read-only,
/// straight from the file, or read into the region where the file cannot
/// be mapped there (a file system without mmap, pages larger than the
/// region's alignment). Returns a message, or "" on success.
std::string mapWeights(void *handle, const ModuleFile &file) {
  void *region = dlsym(handle, TC_WEIGHTS_SYMBOL);
  if (!region && !file.hasWeights)
    return "";
  if (!region || !file.hasWeights)
    return region ? "it has a weights region but no weights"
                  : "it has weights but no weights region";
  Dl_info info;
  void *entry = nullptr;
  if (!dladdr1(region, &info, &entry, RTLD_DL_SYMENT) || !entry)
    return "its weights region cannot be found";
  const auto *symbol = static_cast<const ElfW(Sym) *>(entry);
  auto address = reinterpret_cast<uintptr_t>(region);
  if (address % TC_WEIGHTS_ALIGNMENT != 0 ||
      symbol->st_size % TC_WEIGHTS_ALIGNMENT != 0 ||
      file.weightsBytes > symbol->st_size)
    return "its weights do not fit its weights region";
  if (file.weightsBytes == 0)
    return "";
  long page = sysconf(_SC_PAGESIZE);
  if (page > 0 && TC_WEIGHTS_ALIGNMENT % static_cast<uint64_t>(page) == 0 &&
      mmap(region, file.weightsBytes, PROT_READ, MAP_PRIVATE | MAP_FIXED,
           file.fd, static_cast<off_t>(file.weightsOffset)) != MAP_FAILED)
    return "";
  if (!readAt(file.fd, region, file.weightsBytes, file.weightsOffset))
    return std::string("its weights cannot be read: ") + std::strerror(errno);
  if (page > 0)
    mprotect(region,
             (file.weightsBytes + page - 1) / page * static_cast<uint64_t>(page),
             PROT_READ);
  return "";
}

std::mutex loadedFilesMutex;
std::vector<LoadedFile> loadedFiles; // under loadedFilesMutex
uint64_t nextKey = 1;                // under loadedFilesMutex

std::string descriptorPath(int fd) {
  return "/proc/self/fd/" + std::to_string(fd);
}

} // namespace

tc_status tc::rt::loadModuleFile(const std::string &path, ModuleFile file,
                                 void **outHandle, uint64_t *outKey) {
  std::lock_guard<std::mutex> lock(loadedFilesMutex);
  auto known = std::find_if(
      loadedFiles.begin(), loadedFiles.end(), [&](const LoadedFile &entry) {
        return entry.device == file.device && entry.inode == file.inode;
      });
  if (known != loadedFiles.end()) {
    close(file.fd); // the entry's descriptor names the same file
    if (known->checksum != file.checksum)
      return makeStatus(
          TC_STATUS_INCOMPATIBLE,
          "cannot load " + quoted(path) +
              ": the file was overwritten in place while the code loaded "
              "from it before is still in this process (a module not yet "
              "released), which the new contents would share; release that "
              "module first, or write the new file under another name and "
              "rename it over the old one (as tc-compile does)");
  }
  bool isNew = known == loadedFiles.end();
  if (isNew) {
    loadedFiles.push_back(
        {nextKey++, file.device, file.inode, file.checksum, file.fd, 0});
    known = loadedFiles.end() - 1;
  }
  dlerror();
  void *handle = dlopen(descriptorPath(known->fd).c_str(),
                        RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    std::string message = "cannot load " + quoted(path) +
                          " as a shared library: " +
                          (reason ? reason : "unknown dlopen error");
    if (known->modules == 0) {
      close(known->fd);
      loadedFiles.erase(known);
    }
    return makeStatus(TC_STATUS_INCOMPATIBLE, message);
  }
  // A library loaded before (a second module from one file) has its
  // weights mapped already.
  if (isNew) {
    std::string problem = mapWeights(handle, file);
    if (!problem.empty()) {
      dlclose(handle);
      close(known->fd);
      loadedFiles.erase(known);
      return makeStatus(TC_STATUS_INCOMPATIBLE,
                        "cannot load " + quoted(path) + ": " + problem +
                            "; recompile it with tc-compile");
    }
  }
  ++known->modules;
  *outHandle = handle;
  *outKey = known->key;
  return nullptr;
}

void tc::rt::releaseModuleFile(void *handle, uint64_t key) {
  std::lock_guard<std::mutex> lock(loadedFilesMutex);
  dlclose(handle);
  auto entry = std::find_if(
      loadedFiles.begin(), loadedFiles.end(),
      [&](const LoadedFile &loaded) { return loaded.key == key; });
  if (entry == loadedFiles.end() || --entry->modules > 0)
    return;
  // A library the loader keeps (one marked NODELETE, say) is still known by
  // its descriptor's name: keep that descriptor open, or a later file that
  // got its number would be taken for it.
  if (void *still = dlopen(descriptorPath(entry->fd).c_str(),
                           RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
    dlclose(still);
    return;
  }
  close(entry->fd);
  loadedFiles.erase(entry);
}
