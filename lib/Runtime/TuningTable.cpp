//===- TuningTable.cpp - the GPU tuning tables of the cache directory -----===//

#include "TuningTable.h"
#include "GpuDriver.h"
#include "Internal.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace tc::rt;

namespace {

/// FNV-1a, 64 bits: names a table file, nothing more.
uint64_t hashText(const std::string &text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

/// mkdir -p.
tc_status makeDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (!prefix.empty() && mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
      return makeStatus(TC_STATUS_RESOURCE_EXHAUSTED,
                        "cannot create directory '" + prefix +
                            "': " + std::strerror(errno));
    if (slash == std::string::npos)
      return nullptr;
  }
}

} // namespace

std::string tc::rt::cacheDirectory(const char *configured) {
  if (configured && *configured)
    return configured;
  if (const char *dir = std::getenv("TC_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/tc";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tc";
  return "";
}

std::string tc::rt::gpuTablePath(const std::string &cacheDir,
                                 const GpuDriver &gpu) {
  if (cacheDir.empty())
    return "";
  char digits[17];
  std::snprintf(digits, sizeof(digits), "%016llx",
                static_cast<unsigned long long>(
                    hashText(gpu.name() + "\n" + gpu.arch())));
  std::string arch = gpu.arch().empty() ? gpu.targetPrefix() : gpu.arch();
  return cacheDir + "/tuning/gpu-" + arch + "-" + digits + ".tsv";
}

tc_status tc::rt::readGpuTable(const std::string &path, GpuTuningTable &table) {
  std::ifstream in(path);
  if (!in)
    return nullptr;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#')
      continue;
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, '\t');)
      fields.push_back(field);
    GpuTuningEntry entry;
    bool ok = fields.size() == 4 && fields[0].rfind("gpu-", 0) == 0 &&
              !fields[1].empty();
    if (ok) {
      char *end = nullptr;
      entry.config = fields[1];
      entry.ms = std::strtod(fields[2].c_str(), &end);
      ok = *end == '\0' && !fields[2].empty();
      entry.heuristicMs = std::strtod(fields[3].c_str(), &end);
      ok = ok && *end == '\0' && !fields[3].empty();
    }
    if (!ok)
      return makeStatus(TC_STATUS_MALFORMED,
                        "tuning table '" + path + "', line " +
                            std::to_string(number) +
                            ": expected <key> TAB <configuration or "
                            "heuristic> TAB <ms> TAB <heuristic ms>");
    table[fields[0]] = std::move(entry);
  }
  return nullptr;
}

tc_status tc::rt::writeGpuTable(const std::string &path,
                                const GpuTuningTable &table,
                                const std::string &device) {
  size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0)
    if (tc_status s = makeDirectories(path.substr(0, slash)))
      return s;
  // Unique per process and per write: two devices of one GPU model in one
  // process may write the table at once (the last rename wins).
  static std::atomic<uint64_t> writes{0};
  std::string temporary = path + ".tmp" + std::to_string(getpid()) + "-" +
                          std::to_string(writes.fetch_add(1));
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << "# tc GPU tuning table, version 1, for " << device << "\n"
        << "# key\tconfiguration (or heuristic)\tms\theuristic ms\n";
    char times[64];
    for (const auto &[key, entry] : table) {
      std::snprintf(times, sizeof(times), "%.6g\t%.6g", entry.ms,
                    entry.heuristicMs);
      out << key << '\t' << entry.config << '\t' << times << '\n';
    }
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      return makeStatus(TC_STATUS_RESOURCE_EXHAUSTED,
                        "cannot write the tuning table '" + temporary + "'");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = errno;
    std::remove(temporary.c_str());
    return makeStatus(TC_STATUS_RESOURCE_EXHAUSTED,
                      "cannot write the tuning table '" + path +
                          "': " + std::strerror(error));
  }
  return nullptr;
}
