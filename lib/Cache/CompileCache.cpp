//===- CompileCache.cpp - The persistent, content-addressed compile cache -===//
//
// See CompileCache.h for the layout and the guarantees. Hard links make a
// hit and a store cost no copy: the entry and model.so are one file. That
// is safe because both are sealed: a model.so edited in place damages the
// entry too, and the next hit finds the seal broken and rebuilds it (the
// runtime refuses such a file as well), so the worst case is a recompile,
// never a wrong model.
//
//===----------------------------------------------------------------------===//

#include "tc/Cache/CompileCache.h"
#include "tc/Version.h"

#include "tc-runtime/module_seal.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>


namespace mlir::tc::cache {
namespace {

std::string hex(ArrayRef<uint8_t> bytes) {
  return llvm::toHex(bytes, /*LowerCase=*/true);
}

std::string errnoText() { return std::strerror(errno); }

/// Reads exactly `size` bytes at `offset`.
bool readAt(int fd, void *data, size_t size, uint64_t offset) {
  char *at = static_cast<char *>(data);
  while (size > 0) {
    ssize_t got = ::pread(fd, at, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    at += got;
    size -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return true;
}

/// Why the sealed file `fd` of `size` bytes is not whole, or "" when it is.
std::string sealProblem(int fd, uint64_t size) {
  unsigned char trailer[TC_SEAL_TRAILER_SIZE];
  uint64_t sealed = 0, recorded = 0;
  if (size < TC_SEAL_TRAILER_SIZE ||
      !readAt(fd, trailer, sizeof(trailer), size - TC_SEAL_TRAILER_SIZE) ||
      !tc_seal_read_trailer(trailer, &sealed, &recorded))
    return "it has no seal (truncated or overwritten)";
  if (sealed != size - TC_SEAL_TRAILER_SIZE)
    return "its seal records " + std::to_string(sealed) + " bytes but it has " +
           std::to_string(size - TC_SEAL_TRAILER_SIZE) + " (truncated)";
  std::vector<unsigned char> buffer(size_t(1) << 20); // whole seal blocks
  tc_seal_state state;
  tc_seal_init(&state);
  for (uint64_t at = 0; at < sealed;) {
    size_t piece =
        static_cast<size_t>(std::min<uint64_t>(buffer.size(), sealed - at));
    if (!readAt(fd, buffer.data(), piece, at))
      return "it cannot be read: " + errnoText();
    tc_seal_update(&state, buffer.data(), piece);
    at += piece;
  }
  if (tc_seal_finish(&state) != recorded)
    return "its bytes do not match its checksum";
  return "";
}

/// Copies all of `from` to `to` (both open), in the kernel where it can.
bool copyContents(int from, int to) {
  struct stat info;
  if (::fstat(from, &info) != 0)
    return false;
  off_t in = 0, out = 0;
  while (in < info.st_size) {
    ssize_t n = ::copy_file_range(from, &in, to, &out,
                                  static_cast<size_t>(info.st_size - in), 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      // No copy_file_range between these files: read and write.
      std::vector<char> buffer(size_t(1) << 20);
      while (in < info.st_size) {
        ssize_t got = ::pread(from, buffer.data(), buffer.size(), in);
        if (got < 0 && errno == EINTR)
          continue;
        if (got <= 0)
          return false;
        for (ssize_t done = 0; done < got;) {
          ssize_t put = ::pwrite(to, buffer.data() + done,
                                 static_cast<size_t>(got - done), out);
          if (put < 0 && errno == EINTR)
            continue;
          if (put <= 0)
            return false;
          done += put;
          out += put;
        }
        in += got;
      }
      return true;
    }
  }
  return true;
}

/// Makes `target` the file `source` names, atomically: a hard link where
/// `link` allows and both are on one file system, else a synced copy; a
/// temporary in `target`'s directory is renamed over it. Returns "" or what
/// went wrong.
std::string publish(StringRef source, StringRef target, bool link) {
  llvm::SmallString<256> directory(target);
  llvm::sys::path::remove_filename(directory);
  if (directory.empty())
    directory = ".";
  llvm::SmallString<256> temporary(directory);
  llvm::sys::path::append(temporary, "." + llvm::sys::path::filename(target) +
                                         ".tmp-%%%%%%%%");
  llvm::sys::fs::createUniquePath(temporary, temporary, false);
  bool linked = link && ::link(source.str().c_str(), temporary.c_str()) == 0;
  if (!linked) {
    int in = ::open(source.str().c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0)
      return "cannot read " + source.str() + ": " + errnoText();
    int out = ::open(temporary.c_str(),
                     O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (out < 0) {
      std::string why = "cannot write in " + directory.str().str() + ": " +
                        errnoText();
      ::close(in);
      return why;
    }
    bool copied = copyContents(in, out) && ::fsync(out) == 0;
    std::string why = copied ? "" : "cannot copy to " + target.str() + ": " +
                                        errnoText();
    ::close(in);
    ::close(out);
    if (!copied) {
      ::unlink(temporary.c_str());
      return why;
    }
  }
  if (::rename(temporary.c_str(), target.str().c_str()) != 0) {
    std::string why = "cannot write " + target.str() + ": " + errnoText();
    ::unlink(temporary.c_str());
    return why;
  }
  // rename() of two links to one file does nothing and keeps both.
  ::unlink(temporary.c_str());
  int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    (void)::fsync(dir);
    ::close(dir);
  }
  return "";
}

/// Writes `text` to `path` atomically (temporary, fsync, rename).
std::string writeAtomically(StringRef path, StringRef text) {
  llvm::SmallString<256> temporary(path);
  llvm::sys::path::remove_filename(temporary);
  llvm::sys::path::append(temporary,
                          "." + llvm::sys::path::filename(path) + ".tmp-%%%%%%%%");
  llvm::sys::fs::createUniquePath(temporary, temporary, false);
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                  0644);
  if (fd < 0)
    return "cannot write " + path.str() + ": " + errnoText();
  bool ok = ::write(fd, text.data(), text.size()) ==
                static_cast<ssize_t>(text.size()) &&
            ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(temporary.c_str(), path.str().c_str()) != 0) {
    std::string why = "cannot write " + path.str() + ": " + errnoText();
    ::unlink(temporary.c_str());
    return why;
  }
  return "";
}

struct Entry {
  std::string path;
  uint64_t bytes;
  int64_t used; // modification time, ns: the last hit or store
};

/// The cache's entries (the .so files under v1/*/); removes stale
/// temporaries on the way.
std::vector<Entry> listEntries(StringRef root) {
  std::vector<Entry> entries;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator shard(root, ec), end;
       !ec && shard != end; shard.increment(ec)) {
    if (llvm::sys::path::filename(shard->path()).size() != 2)
      continue;
    std::error_code inner;
    for (llvm::sys::fs::directory_iterator file(shard->path(), inner);
         !inner && file != end; file.increment(inner)) {
      StringRef name = llvm::sys::path::filename(file->path());
      struct stat info;
      if (::stat(file->path().c_str(), &info) != 0)
        continue;
      // A temporary of a compile that was killed (SIGKILL leaves it) is
      // never read; an hour on, nobody is still writing it.
      if (name.starts_with(".") && name.contains(".tmp-")) {
        if (info.st_mtim.tv_sec + 3600 < ::time(nullptr))
          ::unlink(file->path().c_str());
        continue;
      }
      if (!name.ends_with(".so"))
        continue;
      entries.push_back({file->path(), static_cast<uint64_t>(info.st_size),
                         int64_t(info.st_mtim.tv_sec) * 1000000000 +
                             info.st_mtim.tv_nsec});
    }
  }
  return entries;
}

int buildIdNote(struct dl_phdr_info *info, size_t, void *data) {
  auto *out = static_cast<std::string *>(data);
  // The first object is the executable itself.
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    const char *at = reinterpret_cast<const char *>(info->dlpi_addr +
                                                    segment.p_vaddr);
    const char *end = at + segment.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      const auto *note = reinterpret_cast<const ElfW(Nhdr) *>(at);
      const char *name = at + sizeof(ElfW(Nhdr));
      const char *desc = name + ((note->n_namesz + 3) & ~3u);
      if (desc + note->n_descsz > end)
        break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        *out = hex(ArrayRef<uint8_t>(
            reinterpret_cast<const uint8_t *>(desc), note->n_descsz));
        return 1;
      }
      at = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1; // only the executable
}

} // namespace

std::string compilerIdentity() {
  static const std::string identity = [] {
    std::string id;
    dl_iterate_phdr(buildIdNote, &id);
    if (!id.empty())
      return "build-id:" + id;
    struct stat info;
    if (::stat("/proc/self/exe", &info) == 0)
      return "exe:" + std::to_string(info.st_size) + ":" +
             std::to_string(info.st_mtim.tv_sec) + "." +
             std::to_string(info.st_mtim.tv_nsec);
    return std::string("unknown");
  }();
  return identity;
}

KeyBuilder::KeyBuilder() {
  add("format", "tc-compile-cache 1");
  add("tc", TC_VERSION_STRING);
  add("llvm", LLVM_VERSION_STRING);
  add("compiler", compilerIdentity());
}

void KeyBuilder::add(StringRef field, StringRef value) {
  for (StringRef part : {field, value}) {
    uint64_t size = part.size();
    hasher.update(ArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(&size),
                                    sizeof(size)));
    hasher.update(part);
  }
}

LogicalResult KeyBuilder::addFile(StringRef field, StringRef path,
                                  std::string &error) {
  // Only regular files: reading a FIFO would wait for a writer.
  if (!llvm::sys::fs::is_regular_file(path)) {
    error = path.str() + " is not a regular file";
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read " + path.str() + ": " + buffer.getError().message();
    return failure();
  }
  add(field, (*buffer)->getBuffer());
  return success();
}

std::string KeyBuilder::finish() { return hex(hasher.final()); }

FailureOr<std::string> hashFile(StringRef path, std::string &error) {
  if (!llvm::sys::fs::is_regular_file(path)) {
    error = path.str() + " is not a regular file";
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, false, false);
  if (!buffer) {
    error = "cannot read " + path.str() + ": " + buffer.getError().message();
    return failure();
  }
  return hex(llvm::BLAKE3::hash(llvm::arrayRefFromStringRef((*buffer)->getBuffer())));
}

CompileCache::CompileCache(std::string directory, uint64_t maxBytes,
                           llvm::raw_ostream &warnings)
    : directory(std::move(directory)), maxBytes(maxBytes), warnings(warnings) {}

std::string CompileCache::defaultDirectory() {
  if (const char *dir = std::getenv("TC_CACHE_DIR"); dir && *dir)
    return dir;
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    path = xdg;
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    path = home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "tc");
  return path.str().str();
}

FailureOr<uint64_t> CompileCache::parseSize(StringRef text) {
  text = text.trim();
  uint64_t scale = 1;
  if (!text.empty()) {
    switch (llvm::toUpper(text.back())) {
    case 'K': scale = uint64_t(1) << 10; break;
    case 'M': scale = uint64_t(1) << 20; break;
    case 'G': scale = uint64_t(1) << 30; break;
    case 'T': scale = uint64_t(1) << 40; break;
    default: break;
    }
    if (scale != 1)
      text = text.drop_back();
  }
  uint64_t value = 0;
  if (text.empty() || text.getAsInteger(10, value) ||
      value > UINT64_MAX / scale)
    return failure();
  return value * scale;
}

std::string CompileCache::entriesDirectory() const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "v1");
  return path.str().str();
}

std::string CompileCache::entryPath(StringRef name) const {
  llvm::SmallString<256> path(entriesDirectory());
  llvm::sys::path::append(path, name.take_front(2), name);
  return path.str().str();
}

void CompileCache::warn(const Twine &message) {
  warnings << "tc-compile: warning: compile cache " << directory << ": "
           << message << "\n";
}

std::optional<std::string> CompileCache::entryName(StringRef key) {
  std::string deps = entryPath(key) + ".deps";
  auto list = llvm::MemoryBuffer::getFile(deps);
  if (!list)
    return key.str();
  // Each line: the BLAKE3 of a file and its path; all must still match.
  SmallVector<StringRef> lines;
  (*list)->getBuffer().split(lines, '\n', -1, false);
  for (StringRef line : lines) {
    auto [hash, path] = line.split('\t');
    std::string error;
    FailureOr<std::string> now = hashFile(path, error);
    if (failed(now) || *now != hash)
      return std::nullopt;
  }
  llvm::BLAKE3 hasher;
  hasher.update(key);
  hasher.update((*list)->getBuffer());
  return hex(hasher.final());
}

CompileCache::Hit CompileCache::fetch(StringRef key, StringRef outputPath) {
  std::optional<std::string> name = entryName(key);
  std::string path = name ? entryPath(*name) + ".so" : "";
  int fd = name ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) {
    if (name && remote && fetchRemote(key, outputPath)) {
      count(true);
      return Hit::Remote;
    }
    count(false);
    return Hit::None;
  }
  struct stat info;
  std::string problem =
      ::fstat(fd, &info) != 0
          ? "it cannot be read: " + errnoText()
          : sealProblem(fd, static_cast<uint64_t>(info.st_size));
  ::close(fd);
  if (!problem.empty()) {
    warn("the entry " + path + " is damaged (" + problem +
         "); removed it, compiling the model again");
    ::unlink(path.c_str());
    count(false);
    return Hit::None;
  }
  // The output may already be this entry (a link from an earlier hit).
  struct stat existing;
  bool same = ::stat(outputPath.str().c_str(), &existing) == 0 &&
              existing.st_dev == info.st_dev && existing.st_ino == info.st_ino;
  if (!same) {
    std::string why = publish(path, outputPath, /*link=*/true);
    if (!why.empty()) {
      warn(why);
      count(false);
      return Hit::None;
    }
  }
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0); // most recently used
  count(true);
  return Hit::Local;
}

void CompileCache::remoteFailed(const Twine &why) {
  warn("the remote cache " + remote->url() + " is not usable (" + why +
       "); going on with the local cache only");
  remote = nullptr;
}

/// The remote cache's name of a local entry file.
static std::string remoteKey(StringRef file) { return "tc:v1:" + file.str(); }

bool CompileCache::fetchRemote(StringRef key, StringRef outputPath) {
  std::string error;
  FailureOr<std::optional<std::string>> deps =
      remote->get(remoteKey(key.str() + ".deps"), error);
  if (failed(deps)) {
    remoteFailed(error);
    return false;
  }
  llvm::SmallString<256> keyShard(entriesDirectory());
  llvm::sys::path::append(keyShard, key.take_front(2));
  if (llvm::sys::fs::create_directories(keyShard))
    return false;
  std::string name = key.str();
  if (*deps) {
    if (!writeAtomically(entryPath(key) + ".deps", **deps).empty())
      return false;
    std::optional<std::string> named = entryName(key);
    if (!named)
      return false; // built from other external data than this model's
    name = *named;
  }
  FailureOr<std::optional<std::string>> bytes =
      remote->get(remoteKey(name + ".so"), error);
  if (failed(bytes)) {
    remoteFailed(error);
    return false;
  }
  if (!*bytes)
    return false;
  // Kept locally first (temporary, fsync, seal check, rename), then given
  // out like a local hit.
  llvm::SmallString<256> shard(entriesDirectory());
  llvm::sys::path::append(shard, StringRef(name).take_front(2));
  if (llvm::sys::fs::create_directories(shard))
    return false;
  std::string path = entryPath(name) + ".so";
  llvm::SmallString<256> temporary(shard);
  llvm::sys::path::append(temporary, "." + name + ".so.tmp-%%%%%%%%");
  llvm::sys::fs::createUniquePath(temporary, temporary, false);
  int fd = ::open(temporary.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
                  0755);
  if (fd < 0)
    return false;
  const std::string &data = **bytes;
  bool written = true;
  for (size_t at = 0; written && at < data.size();) {
    ssize_t n = ::write(fd, data.data() + at, data.size() - at);
    if (n < 0 && errno == EINTR)
      continue;
    written = n > 0;
    at += written ? static_cast<size_t>(n) : 0;
  }
  std::string problem = written ? sealProblem(fd, data.size())
                                : "it cannot be written here: " + errnoText();
  written = written && problem.empty() && ::fsync(fd) == 0;
  ::close(fd);
  if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    if (!problem.empty()) {
      warn("the remote entry " + remoteKey(name + ".so") + " is damaged (" +
           problem + "); removed it, compiling the model again");
      if (failed(remote->remove(remoteKey(name + ".so"), error)))
        remoteFailed(error);
    }
    return false;
  }
  if (!publish(path, outputPath, /*link=*/true).empty())
    return false;
  evict(path);
  return true;
}

void CompileCache::storeRemote(StringRef key, StringRef name,
                               StringRef dependencies, StringRef builtPath) {
  std::string error;
  if (!dependencies.empty() &&
      failed(remote->set(remoteKey(key.str() + ".deps"), dependencies, error)))
    return remoteFailed(error);
  auto bytes = llvm::MemoryBuffer::getFile(builtPath, false, false);
  if (!bytes)
    return;
  if (failed(remote->set(remoteKey(name.str() + ".so"),
                         (*bytes)->getBuffer(), error)))
    remoteFailed(error);
}

void CompileCache::store(StringRef key, ArrayRef<std::string> dependencies,
                         StringRef builtPath) {
  uint64_t size = 0;
  if (llvm::sys::fs::file_size(builtPath, size) || size > maxBytes)
    return;
  llvm::SmallString<256> shard(entriesDirectory());
  llvm::sys::path::append(shard, key.take_front(2));
  if (std::error_code ec = llvm::sys::fs::create_directories(shard))
    return warn("cannot create " + shard.str() + ": " + ec.message());
  std::string name = key.str();
  std::string list;
  if (!dependencies.empty()) {
    for (const std::string &file : dependencies) {
      llvm::SmallString<256> absolute(file);
      llvm::sys::fs::make_absolute(absolute);
      std::string error;
      FailureOr<std::string> hash = hashFile(absolute, error);
      if (failed(hash))
        return warn(error);
      list += *hash + "\t" + absolute.str().str() + "\n";
    }
    if (std::string why = writeAtomically(entryPath(key) + ".deps", list);
        !why.empty())
      return warn(why);
    llvm::BLAKE3 hasher;
    hasher.update(key);
    hasher.update(list);
    name = hex(hasher.final());
  }
  llvm::SmallString<256> nameShard(entriesDirectory());
  llvm::sys::path::append(nameShard, StringRef(name).take_front(2));
  if (std::error_code ec = llvm::sys::fs::create_directories(nameShard))
    return warn("cannot create " + nameShard.str() + ": " + ec.message());
  if (std::string why = publish(builtPath, entryPath(name) + ".so",
                                /*link=*/true);
      !why.empty())
    return warn(why);
  evict(entryPath(name) + ".so");
  if (remote)
    storeRemote(key, name, list, builtPath);
}

void CompileCache::evict(StringRef keep) {
  std::vector<Entry> entries = listEntries(entriesDirectory());
  uint64_t total = 0;
  for (const Entry &entry : entries)
    total += entry.bytes;
  if (total <= maxBytes)
    return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &entry : entries) {
    if (total <= maxBytes)
      break;
    if (entry.path == keep)
      continue;
    if (::unlink(entry.path.c_str()) == 0 || errno == ENOENT)
      total -= entry.bytes;
  }
}

void CompileCache::count(bool hit) {
  std::string root = entriesDirectory();
  if (llvm::sys::fs::create_directories(root))
    return;
  std::string path = root + "/stats";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (::flock(fd, LOCK_EX) == 0) {
    char text[128] = {};
    ssize_t got = ::pread(fd, text, sizeof(text) - 1, 0);
    unsigned long long hits = 0, misses = 0;
    if (got > 0)
      std::sscanf(text, "hits %llu misses %llu", &hits, &misses);
    (hit ? hits : misses) += 1;
    int length = std::snprintf(text, sizeof(text), "hits %llu misses %llu\n",
                               hits, misses);
    if (length > 0 && ::pwrite(fd, text, static_cast<size_t>(length), 0) ==
                          length)
      (void)::ftruncate(fd, length);
    ::flock(fd, LOCK_UN);
  }
  ::close(fd);
}

CacheStats CompileCache::stats() {
  CacheStats stats;
  stats.directory = directory;
  stats.maxBytes = maxBytes;
  for (const Entry &entry : listEntries(entriesDirectory())) {
    ++stats.entries;
    stats.bytes += entry.bytes;
  }
  if (auto text = llvm::MemoryBuffer::getFile(entriesDirectory() + "/stats")) {
    unsigned long long hits = 0, misses = 0;
    std::sscanf((*text)->getBuffer().str().c_str(), "hits %llu misses %llu",
                &hits, &misses);
    stats.hits = hits;
    stats.misses = misses;
  }
  return stats;
}

} // namespace mlir::tc::cache
