//===- CompileCache.h - The persistent, content-addressed compile cache ---===//
//
// tc-compile keeps every model.so it builds in a cache directory, keyed by
// everything that decides its bytes: the model's bytes, the contents of
// --bind files, every code-changing option, the compiler's own build (its
// GNU build ID), tc's and LLVM's versions. A compile whose key is there
// costs a hash of the model and a check of the entry's seal.
//
// Layout (the directory is TC_CACHE_DIR, $XDG_CACHE_HOME/tc or
// ~/.cache/tc, or --cache-dir):
//   v1/<k[0:2]>/<k>.so      an entry: a sealed model.so (module_seal.h)
//   v1/<k[0:2]>/<k>.deps    for models with external data: the data files
//                           and their hashes; the entry is then named after
//                           the key and this list together
//   v1/stats                hit and miss counts (updated under flock)
//
// Entries are written to a temporary in the same directory, synced and
// renamed, so a reader sees a whole entry or none, two compiles of one
// model both succeed and leave one valid entry, and a killed compile
// leaves no torn entry. Every hit checks the entry's seal; a damaged entry
// is reported, removed and rebuilt, never handed out. The cache never fails
// a compile: anything that goes wrong with it is one warning, and the
// compile goes on without it.
//
//===----------------------------------------------------------------------===//

#ifndef TC_CACHE_COMPILECACHE_H
#define TC_CACHE_COMPILECACHE_H

#include "tc/Cache/RemoteCache.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tc::cache {

/// A cache key under construction: BLAKE3 over length-prefixed fields,
/// starting with the cache format, tc's and LLVM's versions and the build
/// ID of the running compiler.
class KeyBuilder {
public:
  KeyBuilder();
  void add(StringRef field, StringRef value);
  /// Adds the contents of the file at `path` (mapped, not copied).
  LogicalResult addFile(StringRef field, StringRef path, std::string &error);
  /// The key as 64 hex digits.
  std::string finish();

private:
  llvm::BLAKE3 hasher;
};

/// The BLAKE3 of a file's contents as hex, or failure with a message.
FailureOr<std::string> hashFile(StringRef path, std::string &error);

/// The compiler's identity for keys: its GNU build ID, or (a binary linked
/// without one) its size and modification time.
std::string compilerIdentity();

struct CacheStats {
  std::string directory;
  uint64_t entries = 0, bytes = 0, hits = 0, misses = 0, maxBytes = 0;
};

class CompileCache {
public:
  /// The default size bound: TC_CACHE_MAX_BYTES, or 10 GiB.
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(10) << 30;

  /// The cache at `directory` (created when first written) holding at
  /// most `maxBytes`; warnings go to `warnings`.
  CompileCache(std::string directory, uint64_t maxBytes,
               llvm::raw_ostream &warnings);

  /// TC_CACHE_DIR, else $XDG_CACHE_HOME/tc, else $HOME/.cache/tc; "" when
  /// none can be formed.
  static std::string defaultDirectory();
  /// "123", "64K", "500M", "10G" (powers of 1024); failure otherwise.
  static FailureOr<uint64_t> parseSize(StringRef text);

  /// Also keeps entries in `remote` (see RemoteCache.h): local misses are
  /// looked up there and stores written there too; the first failure of
  /// the remote cache is one warning, and it is not used after it.
  void setRemote(RemoteCache *remote) { this->remote = remote; }

  enum class Hit { None, Local, Remote };
  /// If the entry of `key` is there and whole (locally, else remotely,
  /// when it is then kept locally too), makes `outputPath` that model.so (a
  /// hard link to the entry where the file system allows, a copy
  /// otherwise, replacing `outputPath` atomically). A damaged entry is
  /// reported once, removed, and counts as a miss.
  Hit fetch(StringRef key, StringRef outputPath);

  /// Stores the model.so at `builtPath` as the entry of `key`, built with
  /// the external-data files `dependencies`, then evicts the least
  /// recently used entries beyond the size bound.
  void store(StringRef key, ArrayRef<std::string> dependencies,
             StringRef builtPath);

  CacheStats stats();

private:
  std::string entriesDirectory() const;
  std::string entryPath(StringRef name) const;
  /// The entry name for `key`: the key, or for a model with external
  /// data, the key and its .deps list when the files still match it.
  std::optional<std::string> entryName(StringRef key);
  void count(bool hit);
  bool fetchRemote(StringRef key, StringRef outputPath);
  void storeRemote(StringRef key, StringRef name, StringRef dependencies,
                   StringRef builtPath);
  void remoteFailed(const Twine &why);
  void evict(StringRef keep);
  void warn(const Twine &message);

  std::string directory;
  uint64_t maxBytes;
  llvm::raw_ostream &warnings;
  RemoteCache *remote = nullptr;
};

} // namespace mlir::tc::cache

#endif // TC_CACHE_COMPILECACHE_H
