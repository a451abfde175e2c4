//===- Profile.h - per-kernel time of a module's CPU runs ------*- C++ -*-===//
//
// A module's kernel table (module_abi.h, tc_module_kernels_v1) names the
// function every env->parallel_for receives. While profiling is on, a run
// gets an environment whose parallel_for reads the clock around the pool's
// dispatch and adds the time to that kernel's counters.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_PROFILE_H
#define TC_LIB_RUNTIME_PROFILE_H

#include "tc-runtime/module_abi.h"

#include "ThreadPool.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tc::rt {

struct KernelCounters {
  std::string name, ops, nodes;
  std::atomic<int64_t> calls{0}, workgroups{0}, nanoseconds{0};
};

class ModuleProfile {
public:
  /// Reads `count` entries of the module's table.
  ModuleProfile(const tc_kernel_v1 *table, uint32_t count);

  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  /// Clears the counters when turning on.
  void setEnabled(bool on);

  size_t size() const { return kernels_.size(); }
  const KernelCounters &kernel(size_t index) const { return *kernels_[index]; }
  void addRun(int64_t nanoseconds);
  int64_t runs() const { return runs_.load(); }
  int64_t runNanoseconds() const { return runNanoseconds_.load(); }

  /// The environment of one profiled run on `pool`.
  struct RunContext {
    ThreadPool *pool;
    ModuleProfile *profile;
  };
  static void parallelFor(void *context, tc_workgroup_fn_v1 fn, void *args,
                          int64_t count);

private:
  std::vector<std::unique_ptr<KernelCounters>> kernels_;
  std::unordered_map<const void *, size_t> byFunction_;
  std::atomic<bool> enabled_{false};
  std::atomic<int64_t> runs_{0}, runNanoseconds_{0};
};

/// Nanoseconds of a steady clock.
int64_t nowNanoseconds();

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_PROFILE_H
