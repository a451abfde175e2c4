//===- HipDriver.cpp - AMD GPUs through the HIP runtime -------------------===//
//
// libamdhip64.so is opened with dlopen and its module API looked up by name
// (the same calls the CUDA driver API has: load a code object, get a
// function, launch with a parameter array). HIP keeps a current device per
// thread, which activate() sets before each run; the HIP runtime makes each
// device's context once per process, so opening a device again is cheap
// (unlike CUDA's primary contexts, there is nothing to retain). An image built for another
// GPU fails to load (hipErrorNoBinaryForGpu), which is how the runtime picks
// the HSACO that fits: it tries the module's ROCm images in turn.
//
//===----------------------------------------------------------------------===//

#include "../GpuDriver.h"
#include "../Internal.h"

#include <dlfcn.h>

#include <mutex>

using namespace tc::rt;

namespace {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipStream_t = void *;
using hipGraph_t = void *;
using hipGraphExec_t = void *;
using hipEvent_t = void *;
constexpr int kCaptureModeRelaxed = 2; // hipStreamCaptureModeRelaxed

struct HipApi {
  void *library = nullptr;
  std::string error;
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipDeviceGetName)(char *, int, int);
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*hipMalloc)(void **, size_t);
  hipError_t (*hipFree)(void *);
  hipError_t (*hipMemcpyHtoDAsync)(void *, void *, size_t, hipStream_t);
  hipError_t (*hipMemcpyDtoHAsync)(void *, void *, size_t, hipStream_t);
  hipError_t (*hipMemcpyDtoDAsync)(void *, void *, size_t, hipStream_t);
  hipError_t (*hipStreamCreate)(hipStream_t *);
  hipError_t (*hipStreamDestroy)(hipStream_t);
  hipError_t (*hipStreamSynchronize)(hipStream_t);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, hipStream_t, void **, void **);
  const char *(*hipGetErrorName)(hipError_t);
  const char *(*hipGetErrorString)(hipError_t);
  // Graphs; null where the runtime lacks them.
  hipError_t (*hipStreamBeginCapture)(hipStream_t, int);
  hipError_t (*hipStreamEndCapture)(hipStream_t, hipGraph_t *);
  hipError_t (*hipGraphInstantiate)(hipGraphExec_t *, hipGraph_t, void **,
                                    char *, size_t);
  hipError_t (*hipGraphLaunch)(hipGraphExec_t, hipStream_t);
  hipError_t (*hipGraphExecDestroy)(hipGraphExec_t);
  hipError_t (*hipGraphDestroy)(hipGraph_t);
  bool hasGraphs = false;
  // Events, for timing kernels.
  hipError_t (*hipEventCreate)(hipEvent_t *);
  hipError_t (*hipEventRecord)(hipEvent_t, hipStream_t);
  hipError_t (*hipEventElapsedTime)(float *, hipEvent_t, hipEvent_t);
  hipError_t (*hipEventSynchronize)(hipEvent_t);
  hipError_t (*hipEventDestroy)(hipEvent_t);
  bool hasEvents = false;
};

const HipApi &api() {
  static HipApi hip;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char *name : {"libamdhip64.so", "libamdhip64.so.6",
                             "libamdhip64.so.5"})
      if ((hip.library = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!hip.library) {
      hip.error = "the HIP runtime libamdhip64.so cannot be loaded (" +
                  std::string(dlerror()) + ")";
      return;
    }
    bool ok = true;
    // Entry points a driver may lack (graphs) are looked up; the others
    // are bound, the first missing one named.
    auto lookup = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(hip.library, name));
      return fn != nullptr;
    };
    auto bind = [&](auto &fn, const char *name) {
      if (!lookup(fn, name) && ok) {
        hip.error = std::string("libamdhip64.so lacks ") + name;
        ok = false;
      }
    };
    bind(hip.hipInit, "hipInit");
    bind(hip.hipGetDeviceCount, "hipGetDeviceCount");
    bind(hip.hipSetDevice, "hipSetDevice");
    bind(hip.hipDeviceGetName, "hipDeviceGetName");
    bind(hip.hipModuleLoadData, "hipModuleLoadData");
    bind(hip.hipModuleUnload, "hipModuleUnload");
    bind(hip.hipModuleGetFunction, "hipModuleGetFunction");
    bind(hip.hipMalloc, "hipMalloc");
    bind(hip.hipFree, "hipFree");
    bind(hip.hipMemcpyHtoDAsync, "hipMemcpyHtoDAsync");
    bind(hip.hipMemcpyDtoHAsync, "hipMemcpyDtoHAsync");
    bind(hip.hipMemcpyDtoDAsync, "hipMemcpyDtoDAsync");
    bind(hip.hipStreamCreate, "hipStreamCreate");
    bind(hip.hipStreamDestroy, "hipStreamDestroy");
    bind(hip.hipStreamSynchronize, "hipStreamSynchronize");
    bind(hip.hipModuleLaunchKernel, "hipModuleLaunchKernel");
    bind(hip.hipGetErrorName, "hipGetErrorName");
    bind(hip.hipGetErrorString, "hipGetErrorString");
    if (!ok)
      return;
    int graphEntries =
        lookup(hip.hipStreamBeginCapture, "hipStreamBeginCapture") +
        lookup(hip.hipStreamEndCapture, "hipStreamEndCapture") +
        lookup(hip.hipGraphInstantiate, "hipGraphInstantiate") +
        lookup(hip.hipGraphLaunch, "hipGraphLaunch") +
        lookup(hip.hipGraphExecDestroy, "hipGraphExecDestroy") +
        lookup(hip.hipGraphDestroy, "hipGraphDestroy");
    hip.hasGraphs = graphEntries == 6;
    int eventEntries = lookup(hip.hipEventCreate, "hipEventCreate") +
                       lookup(hip.hipEventRecord, "hipEventRecord") +
                       lookup(hip.hipEventElapsedTime, "hipEventElapsedTime") +
                       lookup(hip.hipEventSynchronize, "hipEventSynchronize") +
                       lookup(hip.hipEventDestroy, "hipEventDestroy");
    hip.hasEvents = eventEntries == 5;
    if (hipError_t r = hip.hipInit(0))
      hip.error = std::string("hipInit failed: ") + hip.hipGetErrorName(r);
  });
  return hip;
}

tc_status check(hipError_t result, const std::string &what) {
  if (result == 0)
    return nullptr;
  const HipApi &hip = api();
  // hipErrorOutOfMemory is 2.
  return makeStatus(result == 2 ? TC_STATUS_OUT_OF_MEMORY : TC_STATUS_INTERNAL,
                    what + ": " + hip.hipGetErrorName(result) + ": " +
                        hip.hipGetErrorString(result));
}

class HipDriver : public GpuDriver {
public:
  ~HipDriver() override {
    if (stream) {
      api().hipSetDevice(ordinal);
      api().hipStreamDestroy(stream);
    }
  }

  tc_status open(int index) {
    ordinal = index;
    specText = "hip:" + std::to_string(ordinal);
    if (tc_status s = activate())
      return s;
    char name[256] = {};
    api().hipDeviceGetName(name, sizeof(name) - 1, ordinal);
    // The ISA is not asked for: loading the module's images tells which
    // one fits.
    archText = "";
    nameText = name;
    descriptionText = specText + " (" + name + ")";
    return check(api().hipStreamCreate(&stream),
                 specText + ": cannot create a stream");
  }

  const std::string &spec() const override { return specText; }
  const std::string &arch() const override { return archText; }
  const std::string &description() const override { return descriptionText; }
  const std::string &name() const override { return nameText; }
  const char *targetPrefix() const override { return "rocm"; }

  tc_status activate() override {
    return check(api().hipSetDevice(ordinal), specText);
  }
  tc_status loadImage(const void *data, size_t, const std::string &format,
                      void **out) override {
    return check(api().hipModuleLoadData(reinterpret_cast<hipModule_t *>(out),
                                         data),
                 "loading a " + format + " image on " + descriptionText);
  }
  void unloadImage(void *image) override {
    api().hipModuleUnload(static_cast<hipModule_t>(image));
  }
  tc_status getFunction(void *image, const char *name, void **out) override {
    return check(api().hipModuleGetFunction(
                     reinterpret_cast<hipFunction_t *>(out),
                     static_cast<hipModule_t>(image), name),
                 std::string("kernel '") + name + "'");
  }
  tc_status alloc(size_t bytes, void **out) override {
    return check(api().hipMalloc(out, bytes ? bytes : 1),
                 "allocating " + std::to_string(bytes) + " bytes on " +
                     descriptionText);
  }
  void release(void *pointer) override { api().hipFree(pointer); }
  tc_status copyToDevice(void *device, const void *host, size_t bytes) override {
    return check(api().hipMemcpyHtoDAsync(device, const_cast<void *>(host),
                                          bytes, stream),
                 "copying to " + specText);
  }
  tc_status copyToHost(void *host, const void *device, size_t bytes) override {
    return check(api().hipMemcpyDtoHAsync(host, const_cast<void *>(device),
                                          bytes, stream),
                 "copying from " + specText);
  }
  tc_status copyOnDevice(void *to, const void *from, size_t bytes) override {
    return check(api().hipMemcpyDtoDAsync(to, const_cast<void *>(from), bytes,
                                          stream),
                 "copying on " + specText);
  }
  tc_status launch(void *function, const uint32_t *d, void **params) override {
    return check(api().hipModuleLaunchKernel(
                     static_cast<hipFunction_t>(function), d[0], d[1], d[2],
                     d[3], d[4], d[5], 0, stream, params, nullptr),
                 "launch");
  }
  tc_status synchronize() override {
    return check(api().hipStreamSynchronize(stream), specText);
  }

  bool supportsGraphs() const override { return api().hasGraphs; }
  tc_status beginCapture() override {
    return check(api().hipStreamBeginCapture(stream, kCaptureModeRelaxed),
                 "capturing a graph on " + specText);
  }
  tc_status endCapture(void **out) override {
    const HipApi &hip = api();
    *out = nullptr;
    hipGraph_t graph = nullptr;
    if (tc_status s = check(hip.hipStreamEndCapture(stream, &graph),
                            "capturing a graph on " + specText))
      return s;
    tc_status s = check(hip.hipGraphInstantiate(out, graph, nullptr, nullptr, 0),
                        "instantiating a graph on " + specText);
    hip.hipGraphDestroy(graph);
    return s;
  }
  tc_status launchGraph(void *graph) override {
    return check(api().hipGraphLaunch(graph, stream),
                 "launching a graph on " + specText);
  }
  void destroyGraph(void *graph) override { api().hipGraphExecDestroy(graph); }

  bool supportsTiming() const override { return api().hasEvents; }
  tc_status createEvent(void **out) override {
    *out = nullptr;
    if (!api().hasEvents)
      return GpuDriver::createEvent(out);
    return check(api().hipEventCreate(out), "an event on " + specText);
  }
  tc_status recordEvent(void *event) override {
    return check(api().hipEventRecord(event, stream),
                 "recording an event on " + specText);
  }
  tc_status elapsedMs(void *start, void *end, float *ms) override {
    const HipApi &hip = api();
    if (tc_status s = check(hip.hipEventSynchronize(end),
                            "waiting for an event on " + specText))
      return s;
    return check(hip.hipEventElapsedTime(ms, start, end),
                 "timing events on " + specText);
  }
  void destroyEvent(void *event) override { api().hipEventDestroy(event); }

private:
  int ordinal = 0;
  hipStream_t stream = nullptr;
  std::string specText, archText, nameText, descriptionText;
};

} // namespace

int tc::rt::countHipDevices() {
  const HipApi &hip = api();
  int count = 0;
  if (!hip.error.empty() || hip.hipGetDeviceCount(&count) != 0)
    return 0;
  return count;
}

tc_status tc::rt::createHipDriver(int ordinal, std::unique_ptr<GpuDriver> &out) {
  if (tc_status status = unavailableGpu("hip", "AMD", ordinal,
                                        api().error, countHipDevices()))
    return status;
  auto driver = std::make_unique<HipDriver>();
  if (tc_status s = driver->open(ordinal))
    return s;
  out = std::move(driver);
  return nullptr;
}
