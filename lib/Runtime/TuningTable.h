//===- TuningTable.h - the GPU tuning tables of the cache directory -------===//
//
// What tuning found on a GPU (tc-tune, or a max-autotune module's first
// run) is kept per GPU model in the compile cache directory, so that every
// later load of a module with the same tunable kernels (by kernel key) runs
// the winners without timing anything again. The runtime reads and writes
// these tables itself: it links no LLVM, hence a plain text format.
//
// <cache>/tuning/gpu-<arch>-<16 hex digits>.tsv, the digits a hash of the
// GPU's name and architecture; lines:
//
//   # comments (the first names the GPU)
//   <key> TAB <configuration or "heuristic"> TAB <ms> TAB <heuristic ms>
//
// the configuration being one of the kernel's alternatives
// (#fusion.kernel_config<...>, as tc_module_gpu_site_candidate gives it),
// "heuristic" when none beat the heuristic kernel; the times are the best
// rounds, for people.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_TUNINGTABLE_H
#define TC_LIB_RUNTIME_TUNINGTABLE_H

#include "tc-runtime/runtime.h"

#include <map>
#include <string>

namespace tc::rt {

class GpuDriver;

struct GpuTuningEntry {
  /// The chosen alternative's configuration; "heuristic" for none.
  std::string config;
  double ms = 0, heuristicMs = 0;
};

/// Kernel key -> what tuning chose.
using GpuTuningTable = std::map<std::string, GpuTuningEntry>;

/// The cache directory: `configured` when given, else TC_CACHE_DIR, else
/// $XDG_CACHE_HOME/tc, else $HOME/.cache/tc (tc-compile's rule); "" when
/// there is none.
std::string cacheDirectory(const char *configured);

/// The table of `gpu`'s model in `cacheDir` ("" for no directory).
std::string gpuTablePath(const std::string &cacheDir, const GpuDriver &gpu);

/// Reads `path` into `table` (added to what it holds). A missing file is an
/// empty table; a line that does not follow the format is a MALFORMED
/// status naming the file and line (the lines before it are read).
tc_status readGpuTable(const std::string &path, GpuTuningTable &table);

/// Writes `table` to `path` (its directories made as needed) through a
/// temporary file renamed over it, so that a reader never sees half a
/// table; `device` goes in the first comment.
tc_status writeGpuTable(const std::string &path, const GpuTuningTable &table,
                        const std::string &device);

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_TUNINGTABLE_H
