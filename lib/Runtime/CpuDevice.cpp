//===- CpuDevice.cpp - tc_runtime and tc_device (spec strings, cpu)
//---------===//

#include "Internal.h"
#include "TuningTable.h"
#include "tc/Version.h" // the CMake project version

#include <cstring>
#include <mutex>
#include <new>
#include <thread>

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace tc::rt;

namespace {
// Every device kind this build can create; a GPU kind works where its
// driver library and a GPU are present (loaded at run time).
constexpr const char *kAvailableDevices = "cpu,cuda,hip";

bool parseOrdinal(const char *text, int &ordinal) {
  if (!*text)
    return false;
  long value = 0;
  for (const char *c = text; *c; ++c) {
    if (*c < '0' || *c > '9' || value > 1000000)
      return false;
    value = value * 10 + (*c - '0');
  }
  ordinal = static_cast<int>(value);
  return true;
}

/// Keeps freed memory in the process for the next run (see runtime.h): a
/// run mallocs its arena and outputs and frees them, and glibc's default
/// thresholds hand blocks above 128 KiB back to the kernel each time.
void keepFreedMemory() {
#ifdef __GLIBC__
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest allowed value
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
  });
#endif
}

int resolveThreadCount(int32_t requested) {
  if (requested > 0)
    return requested;
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware ? static_cast<int>(hardware) : 1;
}

tc_status createRuntime(const tc_runtime_options *options,
                        tc_runtime **out_runtime) {
  if (!out_runtime)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT, "out_runtime is NULL");
  tc_runtime_options resolved{};
  if (options)
    resolved = *options;
  if (resolved.num_threads < 0 || resolved.num_threads > TC_MAX_THREADS)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "num_threads is " + std::to_string(resolved.num_threads) +
                          " (expected 0 for all hardware threads, or a "
                          "count from 1 to " + std::to_string(TC_MAX_THREADS) +
                          ")");
  if (resolved.gpu_graphs < -1 || resolved.gpu_graphs > 1)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "gpu_graphs is " + std::to_string(resolved.gpu_graphs) +
                          " (expected -1 for the module's mode, 0 or 1)");
  if (resolved.gpu_tuning < -1 || resolved.gpu_tuning > 2)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "gpu_tuning is " + std::to_string(resolved.gpu_tuning) +
                          " (expected -1 for the module's mode, 0, 1 or 2)");
  keepFreedMemory();
  std::string cacheDir = cacheDirectory(resolved.cache_dir);
  resolved.cache_dir = nullptr; // the caller's string; cacheDir is the copy
  tc_runtime *runtime = new (std::nothrow) tc_runtime{resolved, cacheDir};
  if (!runtime)
    return makeStatus(TC_STATUS_OUT_OF_MEMORY, "cannot allocate a runtime");
  *out_runtime = runtime;
  return nullptr;
}

tc_status createDevice(tc_runtime *runtime, const char *spec,
                       tc_device **out_device) {
  if (!runtime || !spec || !out_device)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "tc_device_create: NULL argument");
  std::string text(spec);
  std::unique_ptr<GpuDriver> driver;
  bool wantsPool = true;
  if (text == "auto") {
    // The first GPU with a working driver, else the CPU; the CPU's threads
    // stay as the fallback for modules without code for that GPU.
    // (A GPU that is there but cannot be opened is passed over quietly.)
    if (countCudaDevices() > 0)
      if (tc_status status = createCudaDriver(0, driver)) {
        tc_status_free(status);
        driver.reset();
      }
    if (!driver && countHipDevices() > 0)
      if (tc_status status = createHipDriver(0, driver)) {
        tc_status_free(status);
        driver.reset();
      }
  } else if (text != "cpu") {
    bool recognized = false;
    for (const char *kind : {"cuda", "hip"}) {
      size_t length = std::strlen(kind);
      int ordinal = 0;
      if (text.compare(0, length, kind) != 0 ||
          !(text.size() == length ||
            (text[length] == ':' && parseOrdinal(spec + length + 1, ordinal))))
        continue;
      recognized = true;
      tc_status status = std::strcmp(kind, "cuda") == 0
                             ? createCudaDriver(ordinal, driver)
                             : createHipDriver(ordinal, driver);
      if (status)
        return status;
      wantsPool = false;
    }
    if (!recognized)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "unknown device spec '" + text +
                            "' (expected auto, cpu, cuda:N or hip:N)");
  }
  tc_device *device = new (std::nothrow) tc_device;
  if (!device)
    return makeStatus(TC_STATUS_OUT_OF_MEMORY, "cannot allocate a device");
  // Released if anything below throws (guarded turns that into a status).
  std::unique_ptr<tc_device> owned(device);
  device->spec = driver ? driver->spec() : "cpu";
  if (driver) {
    GpuTuningPolicy tuning{runtime->options.gpu_tuning,
                           gpuTablePath(runtime->cacheDir, *driver)};
    device->gpu = std::make_shared<GpuDevice>(
        std::move(driver), runtime->options.gpu_graphs, std::move(tuning));
  }
  if (wantsPool) {
    device->pool = std::make_unique<ThreadPool>(
        resolveThreadCount(runtime->options.num_threads));
    if (!device->pool->startError().empty()) {
      std::string message = "device '" + device->spec +
                            "': " + device->pool->startError() +
                            "; ask for fewer threads (num_threads)";
      return makeStatus(TC_STATUS_RESOURCE_EXHAUSTED, message);
    }
  }
  *out_device = owned.release();
  return nullptr;
}

} // namespace

extern "C" {

void tc_runtime_options_init(tc_runtime_options *options) {
  if (options) {
    *options = tc_runtime_options{};
    options->gpu_graphs = -1;
    options->gpu_tuning = -1;
  }
}

tc_status tc_runtime_create(const tc_runtime_options *options,
                            tc_runtime **out_runtime) {
  return guarded("tc_runtime_create",
                 [&] { return createRuntime(options, out_runtime); });
}

tc_status tc_device_create(tc_runtime *runtime, const char *spec,
                           tc_device **out_device) {
  return guarded("tc_device_create",
                 [&] { return createDevice(runtime, spec, out_device); });
}

void tc_runtime_release(tc_runtime *runtime) { delete runtime; }

const char *tc_runtime_available_devices(void) { return kAvailableDevices; }

const char *tc_version(void) { return TC_VERSION_STRING; }

void tc_device_release(tc_device *device) { delete device; }

const char *tc_device_spec(const tc_device *device) {
  return device ? device->spec.c_str() : "";
}

int32_t tc_device_num_threads(const tc_device *device) {
  return device && device->pool ? device->pool->numThreads() : 0;
}

int64_t tc_device_graph_runs(const tc_device *device) {
  return device && device->gpu ? device->gpu->graphRuns() : 0;
}

tc_status tc_device_set_gpu_choice(tc_device *device, const tc_module *module,
                                   size_t site, int32_t choice) {
  if (!device || !module)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT, "device or module is NULL");
  if (!device->gpu)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "tunable GPU kernels run on a GPU device, not '" +
                          std::string(tc_device_spec(device)) + "'");
  return device->gpu->setChoice(module, site, choice);
}

int32_t tc_device_gpu_choice(tc_device *device, const tc_module *module,
                             size_t site) {
  if (!device || !module || !device->gpu)
    return -1;
  return device->gpu->choice(module, site);
}

const char *tc_device_gpu_tuning_table(const tc_device *device) {
  return device && device->gpu ? device->gpu->tuningTable().c_str() : "";
}

tc_status tc_device_gpu_tune_report(tc_device *device, const tc_module *module,
                                    tc_gpu_tune_report *out_report) {
  if (!device || !module || !out_report)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "device, module or out_report is NULL");
  if (!device->gpu)
    return makeStatus(TC_STATUS_NOT_FOUND,
                      "model '" + module->path + "' was not tuned on '" +
                          device->spec + "' (a CPU device)");
  return device->gpu->lastTuning(module, *out_report);
}

} // extern "C"
