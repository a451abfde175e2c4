//===- WeightStore.cpp - File-backed storage for compile-time weights -----===//

#include "tc/Support/WeightStore.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdlib>
#include <string_view>
#include <fcntl.h>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace mlir::tc {

int openScratchFile(StringRef suffix, std::string &error) {
  llvm::SmallString<256> directory;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, directory);
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    return fd;
  llvm::SmallString<256> path;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "tc-model", suffix, fd, path, llvm::sys::fs::OF_None)) {
    error = "cannot create a temporary ." + suffix.str() +
            " file: " + ec.message();
    return -1;
  }
  ::unlink(path.c_str());
  return fd;
}

namespace {

/// Returns a released range's pages and disk blocks.
void punchHole(int fd, off_t offset, size_t length) {
  ::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset,
              static_cast<off_t>(length));
}

/// The scratch file and the end of what has been handed out of it. Blobs
/// take disjoint, page-aligned ranges; a released range becomes a hole.
/// Never destroyed: blobs of a context that outlives static destructors
/// may still release their ranges.
class Store {
public:
  static Store &get() {
    static Store *store = new Store;
    return *store;
  }

  /// `data` written to a fresh range of the file and mapped read-only, or
  /// a null blob when the file is unavailable or cannot take it.
  AsmResourceBlob store(ArrayRef<char> data) {
    size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    size_t length = std::max<size_t>((data.size() + page - 1) / page * page,
                                     page);
    off_t offset;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (fd < 0)
        return {};
      offset = end;
      end += static_cast<off_t>(length);
    }
    for (size_t done = 0; done < data.size();) {
      ssize_t n = ::pwrite(fd, data.data() + done, data.size() - done,
                           offset + static_cast<off_t>(done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        punchHole(fd, offset, length);
        return {};
      }
      done += static_cast<size_t>(n);
    }
    // The pages are in the page cache already; MAP_POPULATE maps them all
    // at once instead of a fault per few pages on first read.
    void *mapped = ::mmap(nullptr, length, PROT_READ, MAP_SHARED | MAP_POPULATE,
                          fd, offset);
    if (mapped == MAP_FAILED) {
      punchHole(fd, offset, length);
      return {};
    }
    int file = fd;
    return AsmResourceBlob(
        ArrayRef<char>(static_cast<char *>(mapped), data.size()), page,
        [file, offset, length](void *mapped, size_t, size_t) {
          ::munmap(mapped, length);
          punchHole(file, offset, length);
        },
        /*dataIsMutable=*/false);
  }

private:
  Store() {
    // TC_WEIGHT_STORE=heap keeps every blob on the heap (for comparisons).
    if (const char *where = std::getenv("TC_WEIGHT_STORE");
        where && std::string_view(where) == "heap")
      return;
    std::string error;
    fd = openScratchFile("weights", error); // -1: every blob on the heap
  }

  std::mutex mutex;
  int fd = -1;
  off_t end = 0;
};

} // namespace

AsmResourceBlob makeWeightBlob(size_t size, size_t alignment,
                               function_ref<void(MutableArrayRef<char>)> fill) {
  AsmResourceBlob heap =
      HeapAsmResourceBlob::allocate(size, alignment, /*dataIsMutable=*/true);
  fill(heap.getMutableData());
  if (size < kMinFileBacked)
    return heap;
  AsmResourceBlob stored = Store::get().store(heap.getData());
  return stored.getData().data() ? std::move(stored) : std::move(heap);
}

AsmResourceBlob copyWeightBlob(ArrayRef<char> data, size_t alignment) {
  if (data.size() >= kMinFileBacked) {
    AsmResourceBlob stored = Store::get().store(data);
    if (stored.getData().data())
      return stored;
  }
  return HeapAsmResourceBlob::allocateAndCopyWithAlign(data, alignment,
                                                       /*dataIsMutable=*/false);
}

} // namespace mlir::tc
