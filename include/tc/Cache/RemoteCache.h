//===- RemoteCache.h - A compile cache shared by a fleet, in Redis --------===//
//
// TC_REMOTE_CACHE=redis://[:password@]host[:port][/db] puts the compile
// cache's entries in Redis as well, so that a compile on one machine is a
// hit on another (as Inductor's remote cache does). Entries are the same
// sealed model.so bytes as locally, checked the same way when read. Every
// failure (Redis down, slow, full, or an error reply) is reported to the
// caller, which warns once and goes on with the local cache alone: a
// remote cache never fails a compile. hiredis (Debian's libhiredis) speaks
// the protocol.
//
//===----------------------------------------------------------------------===//

#ifndef TC_CACHE_REMOTECACHE_H
#define TC_CACHE_REMOTECACHE_H

#include "mlir/Support/LLVM.h"

#include <memory>
#include <optional>
#include <string>

struct redisContext;

namespace mlir::tc::cache {

class RemoteCache {
public:
  /// The cache at `url`; failure with a message for a URL that is not
  /// redis://[:password@]host[:port][/db]. `timeoutMs` bounds connecting
  /// and each wait for the server.
  static FailureOr<RemoteCache> open(StringRef url, unsigned timeoutMs,
                                     std::string &error);
  RemoteCache(RemoteCache &&) = default;
  RemoteCache &operator=(RemoteCache &&) = default;
  ~RemoteCache();

  /// The value of `key`, std::nullopt when there is none.
  FailureOr<std::optional<std::string>> get(StringRef key, std::string &error);
  LogicalResult set(StringRef key, StringRef value, std::string &error);
  LogicalResult remove(StringRef key, std::string &error);

  const std::string &url() const { return address; }

private:
  RemoteCache() = default;
  LogicalResult connect(std::string &error);
  /// Runs one command (argv form); failure with a message on no reply or
  /// an error reply.
  FailureOr<std::optional<std::string>> command(ArrayRef<StringRef> argv,
                                                std::string &error);

  std::string address, host, password;
  int port = 6379, database = 0;
  unsigned timeoutMs = 2000;
  struct ContextDeleter {
    void operator()(redisContext *context) const;
  };
  std::unique_ptr<redisContext, ContextDeleter> context;
};

} // namespace mlir::tc::cache

#endif // TC_CACHE_REMOTECACHE_H
