//===- CudaDriver.cpp - NVIDIA GPUs through the CUDA driver API -----------===//
//
// libcuda.so.1 is opened with dlopen and its entry points looked up by name
// (the driver API's C ABI is stable; the _v2 names are those of 64-bit
// device pointers). One primary context per GPU, retained on first use and
// kept until the process exits (as the CUDA runtime does); one stream per
// opened device for its copies and launches.
//
//===----------------------------------------------------------------------===//

#include "../GpuDriver.h"
#include "../Internal.h"

#include <dlfcn.h>

#include <map>
#include <mutex>

using namespace tc::rt;

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUgraph = void *;
using CUgraphExec = void *;
using CUevent = void *;
constexpr int kCaptureModeRelaxed = 2; // CU_STREAM_CAPTURE_MODE_RELAXED
constexpr int kComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_*
constexpr int kComputeCapabilityMinor = 76;

struct CudaApi {
  void *library = nullptr;
  std::string error; // why the API is not usable
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  // Graphs (CUDA 11.4 and newer drivers); null where the driver lacks them.
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph,
                                          unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
  bool hasGraphs = false;
  // Events, for timing kernels; null where the driver lacks them.
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  bool hasEvents = false;
};

/// The driver API, loaded and initialized once per process.
const CudaApi &api() {
  static CudaApi cuda;
  static std::once_flag once;
  std::call_once(once, [] {
    cuda.library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!cuda.library) {
      cuda.error = "the NVIDIA driver library libcuda.so.1 cannot be loaded (" +
                   std::string(dlerror()) + ")";
      return;
    }
    bool ok = true;
    // Entry points a driver may lack (graphs) are looked up; the others
    // are bound, the first missing one named.
    auto lookup = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(cuda.library, name));
      return fn != nullptr;
    };
    auto bind = [&](auto &fn, const char *name) {
      if (!lookup(fn, name) && ok) {
        cuda.error = std::string("libcuda.so.1 lacks ") + name;
        ok = false;
      }
    };
    bind(cuda.cuInit, "cuInit");
    bind(cuda.cuDeviceGetCount, "cuDeviceGetCount");
    bind(cuda.cuDeviceGet, "cuDeviceGet");
    bind(cuda.cuDeviceGetName, "cuDeviceGetName");
    bind(cuda.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    bind(cuda.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(cuda.cuCtxSetCurrent, "cuCtxSetCurrent");
    bind(cuda.cuModuleLoadData, "cuModuleLoadData");
    bind(cuda.cuModuleUnload, "cuModuleUnload");
    bind(cuda.cuModuleGetFunction, "cuModuleGetFunction");
    bind(cuda.cuMemAlloc, "cuMemAlloc_v2");
    bind(cuda.cuMemFree, "cuMemFree_v2");
    bind(cuda.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    bind(cuda.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    bind(cuda.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
    bind(cuda.cuStreamCreate, "cuStreamCreate");
    bind(cuda.cuStreamDestroy, "cuStreamDestroy_v2");
    bind(cuda.cuStreamSynchronize, "cuStreamSynchronize");
    bind(cuda.cuLaunchKernel, "cuLaunchKernel");
    bind(cuda.cuGetErrorName, "cuGetErrorName");
    bind(cuda.cuGetErrorString, "cuGetErrorString");
    if (!ok)
      return;
    int graphEntries =
        lookup(cuda.cuStreamBeginCapture, "cuStreamBeginCapture_v2") +
        lookup(cuda.cuStreamEndCapture, "cuStreamEndCapture") +
        lookup(cuda.cuGraphInstantiateWithFlags,
                 "cuGraphInstantiateWithFlags") +
        lookup(cuda.cuGraphLaunch, "cuGraphLaunch") +
        lookup(cuda.cuGraphExecDestroy, "cuGraphExecDestroy") +
        lookup(cuda.cuGraphDestroy, "cuGraphDestroy");
    cuda.hasGraphs = graphEntries == 6;
    // CUDA 12.8 renamed the elapsed time's entry point (same signature).
    if (!lookup(cuda.cuEventElapsedTime, "cuEventElapsedTime_v2"))
      lookup(cuda.cuEventElapsedTime, "cuEventElapsedTime");
    int eventEntries = lookup(cuda.cuEventCreate, "cuEventCreate") +
                       lookup(cuda.cuEventRecord, "cuEventRecord") +
                       (cuda.cuEventElapsedTime != nullptr) +
                       lookup(cuda.cuEventSynchronize, "cuEventSynchronize") +
                       lookup(cuda.cuEventDestroy, "cuEventDestroy_v2");
    cuda.hasEvents = eventEntries == 5;
    if (CUresult r = cuda.cuInit(0)) {
      const char *name = nullptr;
      cuda.cuGetErrorName(r, &name);
      // CUDA_ERROR_STUB_LIBRARY (34): the toolkit's link-time stub, found
      // first on the library path of a machine (or container) without the
      // driver; the stub knows no error names.
      cuda.error =
          r == 34 ? std::string("the libcuda.so.1 found is the CUDA toolkit's "
                                "stub library, not a driver "
                                "(CUDA_ERROR_STUB_LIBRARY)")
                  : std::string("cuInit failed: ") +
                        (name ? name : "CUDA error " + std::to_string(r));
    }
  });
  return cuda;
}

std::string describe(CUresult result) {
  const CudaApi &cuda = api();
  const char *name = nullptr, *text = nullptr;
  if (cuda.cuGetErrorName)
    cuda.cuGetErrorName(result, &name);
  if (cuda.cuGetErrorString)
    cuda.cuGetErrorString(result, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(result)) +
         (text ? std::string(": ") + text : std::string());
}

tc_status check(CUresult result, const std::string &what) {
  if (result == 0)
    return nullptr;
  // CUDA_ERROR_OUT_OF_MEMORY is 2.
  return makeStatus(result == 2 ? TC_STATUS_OUT_OF_MEMORY : TC_STATUS_INTERNAL,
                    what + ": " + describe(result));
}

/// The primary context of `device`, retained the first time a process asks
/// and never released. Releasing the last reference destroys the context
/// (its modules and memory with it), and making one again costs tens to
/// hundreds of milliseconds, during which other processes on the GPU wait:
/// a context per opened device made every `tc.load` and tc-run pay that.
tc_status primaryContext(CUdevice device, const std::string &spec,
                         CUcontext &out) {
  static std::mutex mutex;
  static std::map<CUdevice, CUcontext> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = contexts.find(device);
  if (it == contexts.end()) {
    CUcontext context = nullptr;
    if (tc_status s = check(api().cuDevicePrimaryCtxRetain(&context, device),
                            spec + ": cannot create a context"))
      return s;
    it = contexts.emplace(device, context).first;
  }
  out = it->second;
  return nullptr;
}

class CudaDriver : public GpuDriver {
public:
  ~CudaDriver() override {
    if (stream && activate() == nullptr)
      api().cuStreamDestroy(stream);
  }

  tc_status open(int ordinal) {
    const CudaApi &cuda = api();
    specText = "cuda:" + std::to_string(ordinal);
    if (tc_status s = check(cuda.cuDeviceGet(&device, ordinal), specText))
      return s;
    char name[256] = {};
    cuda.cuDeviceGetName(name, sizeof(name) - 1, device);
    int major = 0, minor = 0;
    cuda.cuDeviceGetAttribute(&major, kComputeCapabilityMajor, device);
    cuda.cuDeviceGetAttribute(&minor, kComputeCapabilityMinor, device);
    archText = "sm_" + std::to_string(major) + std::to_string(minor);
    nameText = name;
    descriptionText = specText + " (" + name + ", " + archText + ")";
    if (tc_status s = primaryContext(device, specText, context))
      return s;
    if (tc_status s = activate())
      return s;
    return check(cuda.cuStreamCreate(&stream, 0),
                 specText + ": cannot create a stream");
  }

  const std::string &spec() const override { return specText; }
  const std::string &arch() const override { return archText; }
  const std::string &description() const override { return descriptionText; }
  const std::string &name() const override { return nameText; }
  const char *targetPrefix() const override { return "cuda"; }

  tc_status activate() override {
    return check(api().cuCtxSetCurrent(context), specText);
  }
  tc_status loadImage(const void *data, size_t, const std::string &format,
                      void **out) override {
    return check(api().cuModuleLoadData(reinterpret_cast<CUmodule *>(out), data),
                 "loading a " + format + " image on " + descriptionText);
  }
  void unloadImage(void *image) override {
    api().cuModuleUnload(static_cast<CUmodule>(image));
  }
  tc_status getFunction(void *image, const char *name, void **out) override {
    return check(api().cuModuleGetFunction(reinterpret_cast<CUfunction *>(out),
                                           static_cast<CUmodule>(image), name),
                 std::string("kernel '") + name + "'");
  }
  tc_status alloc(size_t bytes, void **out) override {
    CUdeviceptr pointer = 0;
    if (tc_status s = check(api().cuMemAlloc(&pointer, bytes ? bytes : 1),
                            "allocating " + std::to_string(bytes) +
                                " bytes on " + descriptionText))
      return s;
    *out = reinterpret_cast<void *>(pointer);
    return nullptr;
  }
  void release(void *pointer) override {
    api().cuMemFree(reinterpret_cast<CUdeviceptr>(pointer));
  }
  tc_status copyToDevice(void *device, const void *host, size_t bytes) override {
    return check(api().cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(device),
                                         host, bytes, stream),
                 "copying to " + specText);
  }
  tc_status copyToHost(void *host, const void *device, size_t bytes) override {
    return check(api().cuMemcpyDtoHAsync(
                     host, reinterpret_cast<CUdeviceptr>(device), bytes, stream),
                 "copying from " + specText);
  }
  tc_status copyOnDevice(void *to, const void *from, size_t bytes) override {
    return check(api().cuMemcpyDtoDAsync(reinterpret_cast<CUdeviceptr>(to),
                                         reinterpret_cast<CUdeviceptr>(from),
                                         bytes, stream),
                 "copying on " + specText);
  }
  tc_status launch(void *function, const uint32_t *d, void **params) override {
    return check(api().cuLaunchKernel(static_cast<CUfunction>(function), d[0],
                                      d[1], d[2], d[3], d[4], d[5], 0, stream,
                                      params, nullptr),
                 "launch");
  }
  tc_status synchronize() override {
    return check(api().cuStreamSynchronize(stream), specText);
  }

  bool supportsGraphs() const override { return api().hasGraphs; }
  tc_status beginCapture() override {
    // Relaxed: the run may allocate (cuMemAlloc) while it is captured.
    return check(api().cuStreamBeginCapture(stream, kCaptureModeRelaxed),
                 "capturing a graph on " + specText);
  }
  tc_status endCapture(void **out) override {
    const CudaApi &cuda = api();
    *out = nullptr;
    CUgraph graph = nullptr;
    if (tc_status s = check(cuda.cuStreamEndCapture(stream, &graph),
                            "capturing a graph on " + specText))
      return s;
    tc_status s = check(cuda.cuGraphInstantiateWithFlags(out, graph, 0),
                        "instantiating a graph on " + specText);
    cuda.cuGraphDestroy(graph); // the executable graph does not need it
    return s;
  }
  tc_status launchGraph(void *graph) override {
    return check(api().cuGraphLaunch(graph, stream),
                 "launching a graph on " + specText);
  }
  void destroyGraph(void *graph) override { api().cuGraphExecDestroy(graph); }

  bool supportsTiming() const override { return api().hasEvents; }
  tc_status createEvent(void **out) override {
    *out = nullptr;
    if (!api().hasEvents)
      return GpuDriver::createEvent(out);
    return check(api().cuEventCreate(out, 0), "an event on " + specText);
  }
  tc_status recordEvent(void *event) override {
    return check(api().cuEventRecord(event, stream),
                 "recording an event on " + specText);
  }
  tc_status elapsedMs(void *start, void *end, float *ms) override {
    const CudaApi &cuda = api();
    if (tc_status s = check(cuda.cuEventSynchronize(end),
                            "waiting for an event on " + specText))
      return s;
    return check(cuda.cuEventElapsedTime(ms, start, end),
                 "timing events on " + specText);
  }
  void destroyEvent(void *event) override { api().cuEventDestroy(event); }

private:
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  std::string specText, archText, nameText, descriptionText;
};

} // namespace

int tc::rt::countCudaDevices() {
  const CudaApi &cuda = api();
  int count = 0;
  if (!cuda.error.empty() || cuda.cuDeviceGetCount(&count) != 0)
    return 0;
  return count;
}

tc_status tc::rt::createCudaDriver(int ordinal, std::unique_ptr<GpuDriver> &out) {
  if (tc_status status = unavailableGpu("cuda", "NVIDIA", ordinal,
                                        api().error, countCudaDevices()))
    return status;
  auto driver = std::make_unique<CudaDriver>();
  if (tc_status s = driver->open(ordinal))
    return s;
  out = std::move(driver);
  return nullptr;
}
