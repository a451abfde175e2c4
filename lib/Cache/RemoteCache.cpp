//===- RemoteCache.cpp - A compile cache shared by a fleet, in Redis ------===//

#include "tc/Cache/RemoteCache.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <hiredis/hiredis.h>

namespace mlir::tc::cache {

void RemoteCache::ContextDeleter::operator()(redisContext *c) const {
  redisFree(c);
}

RemoteCache::~RemoteCache() = default;

FailureOr<RemoteCache> RemoteCache::open(StringRef url, unsigned timeoutMs,
                                         std::string &error) {
  RemoteCache cache;
  cache.address = url.str();
  cache.timeoutMs = timeoutMs;
  StringRef rest = url;
  auto malformed = [&](StringRef why) {
    error = "TC_REMOTE_CACHE='" + url.str() + "': " + why.str() +
            " (expected redis://[:password@]host[:port][/db])";
    return failure();
  };
  if (!rest.consume_front("redis://"))
    return malformed("not a redis:// URL");
  auto [authority, path] = rest.split('/');
  if (authority.contains('@')) {
    auto [user, hostPort] = authority.rsplit('@');
    // redis://:password@host and redis://user:password@host both carry the
    // password after the colon (Redis 6 ACL users are not used here).
    cache.password = user.contains(':') ? user.split(':').second.str()
                                        : user.str();
    authority = hostPort;
  }
  auto [host, port] = authority.rsplit(':');
  if (host.empty())
    return malformed("no host");
  cache.host = host.str();
  if (authority.contains(':') &&
      (port.getAsInteger(10, cache.port) || cache.port <= 0 ||
       cache.port > 65535))
    return malformed("the port is not a number from 1 to 65535");
  if (!path.empty() &&
      (path.getAsInteger(10, cache.database) || cache.database < 0))
    return malformed("the database is not a number");
  return cache;
}

LogicalResult RemoteCache::connect(std::string &error) {
  if (context)
    return success();
  struct timeval timeout = {static_cast<time_t>(timeoutMs / 1000),
                            static_cast<suseconds_t>(timeoutMs % 1000 * 1000)};
  context.reset(redisConnectWithTimeout(host.c_str(), port, timeout));
  if (!context || context->err) {
    error = "cannot connect to " + host + ":" + std::to_string(port) + ": " +
            (context ? context->errstr : "out of memory");
    context.reset();
    return failure();
  }
  if (redisSetTimeout(context.get(), timeout) != REDIS_OK) {
    error = "cannot set a timeout on the connection";
    context.reset();
    return failure();
  }
  std::string database = std::to_string(this->database);
  if (!password.empty() &&
      failed(command({"AUTH", password}, error)))
    return failure();
  if (this->database != 0 && failed(command({"SELECT", database}, error)))
    return failure();
  return success();
}

FailureOr<std::optional<std::string>>
RemoteCache::command(ArrayRef<StringRef> argv, std::string &error) {
  SmallVector<const char *> args;
  SmallVector<size_t> lengths;
  for (StringRef arg : argv) {
    args.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  auto *reply = static_cast<redisReply *>(redisCommandArgv(
      context.get(), static_cast<int>(args.size()), args.data(),
      lengths.data()));
  if (!reply) {
    error = std::string(argv.front()) + " failed: " +
            (context->err ? context->errstr : "no reply");
    context.reset(); // a broken connection is not reused
    return failure();
  }
  std::optional<std::string> value;
  bool ok = true;
  if (reply->type == REDIS_REPLY_ERROR) {
    error = std::string(argv.front()) + " failed: " +
            std::string(reply->str, reply->len);
    ok = false;
  } else if (reply->type == REDIS_REPLY_STRING) {
    value = std::string(reply->str, reply->len);
  }
  freeReplyObject(reply);
  if (!ok)
    return failure();
  return value;
}

FailureOr<std::optional<std::string>> RemoteCache::get(StringRef key,
                                                       std::string &error) {
  if (failed(connect(error)))
    return failure();
  return command({"GET", key}, error);
}

LogicalResult RemoteCache::set(StringRef key, StringRef value,
                               std::string &error) {
  if (failed(connect(error)))
    return failure();
  return failure(failed(command({"SET", key, value}, error)));
}

LogicalResult RemoteCache::remove(StringRef key, std::string &error) {
  if (failed(connect(error)))
    return failure();
  return failure(failed(command({"DEL", key}, error)));
}

} // namespace mlir::tc::cache
