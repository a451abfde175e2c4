//===- Profile.cpp - per-kernel time of a module's CPU runs ---------------===//

#include "Profile.h"
#include "Internal.h"

#include <chrono>

namespace tc::rt {

int64_t nowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ModuleProfile::ModuleProfile(const tc_kernel_v1 *table, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    auto kernel = std::make_unique<KernelCounters>();
    kernel->name = table[i].name ? table[i].name : "";
    kernel->ops = table[i].ops ? table[i].ops : "";
    kernel->nodes = table[i].nodes ? table[i].nodes : "";
    byFunction_.emplace(reinterpret_cast<const void *>(table[i].fn), i);
    kernels_.push_back(std::move(kernel));
  }
}

void ModuleProfile::setEnabled(bool on) {
  if (on) {
    for (auto &kernel : kernels_) {
      kernel->calls = 0;
      kernel->workgroups = 0;
      kernel->nanoseconds = 0;
    }
    runs_ = 0;
    runNanoseconds_ = 0;
  }
  enabled_.store(on);
}

void ModuleProfile::addRun(int64_t nanoseconds) {
  runs_.fetch_add(1, std::memory_order_relaxed);
  runNanoseconds_.fetch_add(nanoseconds, std::memory_order_relaxed);
}

void ModuleProfile::parallelFor(void *context, tc_workgroup_fn_v1 fn,
                                void *args, int64_t count) {
  auto *run = static_cast<RunContext *>(context);
  int64_t start = nowNanoseconds();
  run->pool->parallelFor(fn, args, count);
  int64_t elapsed = nowNanoseconds() - start;
  ModuleProfile &profile = *run->profile;
  auto it = profile.byFunction_.find(reinterpret_cast<const void *>(fn));
  // A function missing from the table (a module that lists only some) is
  // time outside the listed kernels.
  if (it == profile.byFunction_.end())
    return;
  KernelCounters &kernel = *profile.kernels_[it->second];
  kernel.calls.fetch_add(1, std::memory_order_relaxed);
  kernel.workgroups.fetch_add(count, std::memory_order_relaxed);
  kernel.nanoseconds.fetch_add(elapsed, std::memory_order_relaxed);
}

} // namespace tc::rt

using namespace tc::rt;

void tc_module_set_profiling(tc_module *module, int32_t enabled) {
  if (module && module->profile)
    module->profile->setEnabled(enabled != 0);
}

size_t tc_module_num_kernels(const tc_module *module) {
  return module && module->profile ? module->profile->size() : 0;
}

tc_status tc_module_kernel_profile(const tc_module *module, size_t index,
                                   tc_kernel_profile *out_profile) {
  return guarded("tc_module_kernel_profile", [&]() -> tc_status {
    if (!module || !out_profile)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "module and out_profile must not be NULL");
    size_t count = tc_module_num_kernels(module);
    if (index >= count)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "kernel index " + std::to_string(index) +
                            " is out of range (the module has " +
                            std::to_string(count) + " kernels)");
    const KernelCounters &kernel = module->profile->kernel(index);
    out_profile->name = kernel.name.c_str();
    out_profile->ops = kernel.ops.c_str();
    out_profile->nodes = kernel.nodes.c_str();
    out_profile->calls = kernel.calls.load();
    out_profile->workgroups = kernel.workgroups.load();
    out_profile->nanoseconds = kernel.nanoseconds.load();
    return nullptr;
  });
}

void tc_module_profile_runs(const tc_module *module, int64_t *out_runs,
                            int64_t *out_nanoseconds) {
  bool known = module && module->profile;
  if (out_runs)
    *out_runs = known ? module->profile->runs() : 0;
  if (out_nanoseconds)
    *out_nanoseconds = known ? module->profile->runNanoseconds() : 0;
}
