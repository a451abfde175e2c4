//===- GpuDeviceTest.cpp - the GPU run path, with a fake driver -----------===//
//
// GpuDevice (image choice, kernel table, device memory cache, copies in and
// out, error propagation) tested without a GPU: the fake driver's "device
// memory" is host memory and its launches run a host function per kernel;
// the "module" is a hand-written GPU entry point using the environment as
// a compiled one does (module_abi.h). Links the static runtime to reach
// its internals.
//
//===----------------------------------------------------------------------===//

#include "../../../lib/Runtime/GpuDevice.h"
#include "../../../lib/Runtime/Internal.h"
#include "tc-runtime/module_abi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace tc::rt;

namespace {

struct FakeDriver : GpuDriver {
  std::string specText = "cuda:0", archText = "sm_90",
              descriptionText = "cuda:0 (fake, sm_90)", nameText = "fake";
  std::vector<std::string> loadedFormats;
  std::set<void *> live;
  int allocations = 0;
  int launches = 0;
  bool failLaunch = false;
  std::string refuseTarget; // images whose data starts with this fail
  // Kernels by name: "scale" (y = 2x) or "shift" (y = x + 1), optionally
  // "_<N>us", what a launch adds to the clock events read (10 us without).
  std::vector<std::string> functions;
  double clockUs = 0;
  bool noEvents = false;
  std::set<void *> liveEvents;
  std::map<void *, double> eventTimes;

  const std::string &spec() const override { return specText; }
  const std::string &arch() const override { return archText; }
  const std::string &description() const override { return descriptionText; }
  const std::string &name() const override { return nameText; }
  const char *targetPrefix() const override { return "cuda"; }
  tc_status activate() override { return nullptr; }
  tc_status loadImage(const void *data, size_t size, const std::string &format,
                      void **out) override {
    // As the drivers do: an empty image is invalid.
    if (size == 0)
      return makeStatus(TC_STATUS_INTERNAL, "CUDA_ERROR_INVALID_IMAGE");
    if (!refuseTarget.empty() &&
        std::strncmp(static_cast<const char *>(data), refuseTarget.c_str(),
                     refuseTarget.size()) == 0)
      return makeStatus(TC_STATUS_INTERNAL, "no binary for this GPU");
    loadedFormats.push_back(format);
    *out = const_cast<void *>(data);
    return nullptr;
  }
  void unloadImage(void *) override {}
  tc_status getFunction(void *, const char *name, void **out) override {
    functions.push_back(name);
    *out = reinterpret_cast<void *>(functions.size());
    return nullptr;
  }
  const std::string &functionName(void *function) const {
    return functions[reinterpret_cast<uintptr_t>(function) - 1];
  }
  tc_status alloc(size_t bytes, void **out) override {
    *out = std::malloc(bytes);
    live.insert(*out);
    ++allocations;
    return nullptr;
  }
  void release(void *p) override {
    live.erase(p);
    std::free(p);
  }
  tc_status copyToDevice(void *d, const void *h, size_t n) override {
    std::memcpy(d, h, n);
    return nullptr;
  }
  tc_status copyToHost(void *h, const void *d, size_t n) override {
    std::memcpy(h, d, n);
    return nullptr;
  }
  tc_status copyOnDevice(void *to, const void *from, size_t n) override {
    std::memcpy(to, from, n);
    return nullptr;
  }
  tc_status launch(void *function, const uint32_t *dims, void **params) override {
    if (failLaunch)
      return makeStatus(TC_STATUS_INTERNAL, "an illegal address");
    // As the drivers do: a launch without threads is an invalid value.
    for (int i = 0; i < 6; ++i)
      if (dims[i] == 0)
        return makeStatus(TC_STATUS_INTERNAL, "CUDA_ERROR_INVALID_VALUE");
    ++launches;
    const std::string &name = functionName(function);
    bool doubles = name.rfind("scale", 0) == 0;
    clockUs += name.size() > 6 ? std::stod(name.substr(6)) : 10;
    float *in = *static_cast<float **>(params[0]);
    float *out = *static_cast<float **>(params[1]);
    int64_t n = *static_cast<int64_t *>(params[2]);
    for (int64_t i = 0; i < n; ++i)
      out[i] = doubles ? in[i] * 2 : in[i] + 1;
    return nullptr;
  }
  tc_status synchronize() override { return nullptr; }

  bool supportsTiming() const override { return !noEvents; }
  tc_status createEvent(void **out) override {
    if (noEvents)
      return GpuDriver::createEvent(out);
    *out = std::malloc(1);
    liveEvents.insert(*out);
    return nullptr;
  }
  tc_status recordEvent(void *event) override {
    eventTimes[event] = clockUs;
    return nullptr;
  }
  tc_status elapsedMs(void *start, void *end, float *ms) override {
    *ms =
        static_cast<float>((eventTimes.at(end) - eventTimes.at(start)) / 1000);
    return nullptr;
  }
  void destroyEvent(void *event) override {
    liveEvents.erase(event);
    std::free(event);
  }
};

/// y = x * 2 + 1 over a rank-1 f32 input, through a temporary: what a
/// compiled GPU entry point does (allocate, launch, release, return).
int32_t fakeGpuRun(const tc_gpu_env_v2 *env, void *const *inputs,
                   const int64_t *inputDims, void **allocations, void **data,
                   int64_t *outputDims) {
  int64_t n = inputDims[0];
  void *temp = env->alloc(env->runtime, n * 4);
  void *out = env->alloc(env->runtime, n * 4);
  if (!temp || !out)
    return TC_RUN_OUT_OF_MEMORY;
  uint32_t dims[6] = {1, 1, 1, 32, 1, 1};
  void *in = inputs[0];
  void *params1[3] = {&in, &temp, &n};
  env->launch(env->runtime, 0, dims, params1, 3);
  void *params2[3] = {&temp, &out, &n};
  env->launch(env->runtime, 1, dims, params2, 3);
  env->release(env->runtime, temp);
  allocations[0] = data[0] = out;
  outputDims[0] = n;
  return TC_RUN_OK;
}

/// A tunable kernel (one site, one alternative), as a module compiled with
/// --gpu-candidates runs it: the heuristic kernel ("scale": y = 2x) for
/// choice -1, alternative 0 ("shift": y = x + 1) for choice 0.
int32_t fakeTunedRun(const tc_gpu_env_v3 *env, void *const *inputs,
                     const int64_t *inputDims, void **allocations, void **data,
                     int64_t *outputDims) {
  int64_t n = inputDims[0];
  void *out = env->v2.alloc(env->v2.runtime, n * 4);
  if (!out)
    return TC_RUN_OUT_OF_MEMORY;
  uint32_t dims[6] = {1, 1, 1, 32, 1, 1};
  void *in = inputs[0];
  void *params[3] = {&in, &out, &n};
  env->v2.launch(env->v2.runtime, env->choices[0] == 0 ? 1 : 0, dims, params,
                 3);
  allocations[0] = data[0] = out;
  outputDims[0] = n;
  return TC_RUN_OK;
}

/// Three tunable kernels, two of them with one kernel key (A), as a module
/// compiled with --gpu-candidates runs them: y = 2 (2x + 1). Each site's
/// kernels take the time their names say (FakeDriver), so that key A's
/// alternative 0 (4 + 3 us against 10 + 10) is the fastest and key B's
/// (9.8 us against 10) is not faster by the 5 % tuning asks.
int32_t fakeThreeSiteRun(const tc_gpu_env_v3 *env, void *const *inputs,
                         const int64_t *inputDims, void **allocations,
                         void **data, int64_t *outputDims) {
  int64_t n = inputDims[0];
  void *first = env->v2.alloc(env->v2.runtime, n * 4);
  void *second = env->v2.alloc(env->v2.runtime, n * 4);
  void *out = env->v2.alloc(env->v2.runtime, n * 4);
  if (!first || !second || !out)
    return TC_RUN_OUT_OF_MEMORY;
  uint32_t dims[6] = {1, 1, 1, 32, 1, 1};
  auto launch = [&](int site, uint32_t heuristic, uint32_t alternative0,
                    void *from, void *to) {
    int32_t choice = env->choices[site];
    void *params[3] = {&from, &to, &n};
    env->v2.launch(env->v2.runtime,
                   choice < 0 ? heuristic : alternative0 + choice, dims, params,
                   3);
  };
  launch(0, 0, 2, inputs[0], first);
  launch(1, 1, 4, first, second);
  launch(2, 6, 7, second, out);
  env->v2.release(env->v2.runtime, first);
  env->v2.release(env->v2.runtime, second);
  allocations[0] = data[0] = out;
  outputDims[0] = n;
  return TC_RUN_OK;
}

/// An output whose length is data computed on the device, as a NonZero
/// count is: the host uploads a constant, launches, then downloads the
/// first element to size the output (y = (x + 1) * 2, length y[0]).
int32_t fakeDataShapedRun(const tc_gpu_env_v2 *env, void *const *inputs,
                          const int64_t *inputDims, void **allocations,
                          void **data, int64_t *outputDims) {
  int64_t n = inputDims[0];
  void *temp = env->alloc(env->runtime, n * 4);
  void *out = env->alloc(env->runtime, n * 4);
  if (!temp || !out)
    return TC_RUN_OUT_OF_MEMORY;
  uint32_t dims[6] = {1, 1, 1, 32, 1, 1};
  // The host's copy of the input plus one, uploaded (a stand-in for a value
  // the host computes).
  std::vector<float> shifted(n);
  std::memcpy(shifted.data(), inputs[0], n * 4);
  for (float &v : shifted)
    v += 1;
  env->upload(env->runtime, temp, shifted.data(), n * 4);
  void *params[3] = {&temp, &out, &n};
  env->launch(env->runtime, 0, dims, params, 3);
  env->release(env->runtime, temp);
  float first = -1;
  env->download(env->runtime, &first, out, 4);
  allocations[0] = data[0] = out;
  outputDims[0] = std::min<int64_t>(n, static_cast<int64_t>(first));
  return TC_RUN_OK;
}

/// y = x * 2 over an empty input: the compiled code's grid is ceil(n / 32)
/// = 0 blocks, a launch the runtime must skip.
int32_t fakeEmptyRun(const tc_gpu_env_v2 *env, void *const *inputs,
                     const int64_t *inputDims, void **allocations, void **data,
                     int64_t *outputDims) {
  int64_t n = inputDims[0];
  void *out = env->alloc(env->runtime, 4);
  if (!out)
    return TC_RUN_OUT_OF_MEMORY;
  uint32_t dims[6] = {static_cast<uint32_t>((n + 31) / 32), 1, 1, 32, 1, 1};
  void *in = inputs[0];
  void *params[3] = {&in, &out, &n};
  env->launch(env->runtime, 0, dims, params, 3);
  allocations[0] = data[0] = out;
  outputDims[0] = n;
  return TC_RUN_OK;
}

/// A model without kernels (an empty output): host code only.
int32_t fakeKernelFreeRun(const tc_gpu_env_v2 *env, void *const *,
                          const int64_t *, void **allocations, void **data,
                          int64_t *outputDims) {
  void *out = env->alloc(env->runtime, 4);
  if (!out)
    return TC_RUN_OUT_OF_MEMORY;
  allocations[0] = data[0] = out;
  outputDims[0] = 0;
  return TC_RUN_OK;
}

struct Fixture {
  tc_module module;
  FakeDriver *driver;
  std::unique_ptr<GpuDevice> device;
  tc_tensor *input;
  std::vector<float> values = {1, 2, 3, 4};

  Fixture() {
    module.path = "fake.so";
    module.id = 42;
    module.gpuRunFn = reinterpret_cast<void *>(fakeGpuRun);
    module.gpuKernels = {"scale", "shift"};
    // PTX of sm_80 first: the device's own cubin must still win.
    module.gpuImages = {{"cuda:sm_80", "ptx", "ptx80", 5},
                        {"cuda:sm_90", "ptx", "ptx90", 5},
                        {"cuda:sm_90", "cubin", "cubin90", 7},
                        {"rocm:gfx942", "hsaco", "hsaco", 5}};
    ArgSignature arg;
    arg.name = "y";
    arg.dtype = TC_DTYPE_F32;
    arg.dims = {-1};
    module.signature.outputs = {arg};
    module.signature.targets = {"cpu", "cuda:sm_80", "cuda:sm_90"};
    useDevice({});
    int64_t dims[1] = {4};
    input = newTensor(TC_DTYPE_F32, dims, 1, 4, values.data(), 16, nullptr,
                      nullptr);
  }
  ~Fixture() { tc_tensor_release(input); }

  /// A new device (a new fake GPU) with the tuning policy `tuning`.
  void useDevice(GpuTuningPolicy tuning) {
    device.reset();
    auto owned = std::make_unique<FakeDriver>();
    driver = owned.get();
    device = std::make_unique<GpuDevice>(std::move(owned), /*graphs=*/0,
                                         std::move(tuning));
  }

  tc_status run(std::vector<void *> &allocations, std::vector<int64_t> &dims) {
    std::vector<void *> data(1, nullptr);
    allocations.assign(1, nullptr);
    dims.assign(1, -1);
    int32_t code = -1;
    tc_status status =
        device->run(&module, &input, 1, /*outputsOnDevice=*/false, allocations, data, dims, &code);
    EXPECT_EQ(code, TC_RUN_OK);
    return status;
  }
};

/// The code and message of a failed status, which it frees ("" when the
/// call succeeded, which the caller's expectations then report).
std::pair<tc_status_code_t, std::string> failure(tc_status status) {
  if (!status)
    return {TC_STATUS_OK, ""};
  std::pair<tc_status_code_t, std::string> result{tc_status_code(status),
                                                  tc_status_message(status)};
  tc_status_free(status);
  return result;
}

TEST(GpuDeviceTest, RunsCopiesBackAndReusesDeviceMemory) {
  Fixture f;
  EXPECT_TRUE(f.device->hasCodeFor(&f.module));
  for (int round = 0; round < 3; ++round) {
    std::vector<void *> allocations;
    std::vector<int64_t> dims;
    ASSERT_EQ(f.run(allocations, dims), nullptr);
    ASSERT_EQ(dims[0], 4);
    const float *y = static_cast<const float *>(allocations[0]);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(y[i], f.values[i] * 2 + 1);
    // The output is host memory the caller frees; nothing stays live.
    EXPECT_EQ(f.driver->live.count(allocations[0]), 0u);
    std::free(allocations[0]);
  }
  // The device's own binary was chosen, once; the second and third runs
  // took their three blocks (input, temporary, output) from the cache.
  EXPECT_EQ(f.driver->loadedFormats, std::vector<std::string>{"cubin"});
  EXPECT_EQ(f.driver->allocations, 3);
}

TEST(GpuDeviceTest, FallsBackToPtxAndNamesTheTargetsWhenNothingLoads) {
  Fixture f;
  f.driver->refuseTarget = "cubin";
  std::vector<void *> allocations;
  std::vector<int64_t> dims;
  ASSERT_EQ(f.run(allocations, dims), nullptr);
  std::free(allocations[0]);
  EXPECT_EQ(f.driver->loadedFormats, std::vector<std::string>{"ptx"});

  Fixture g;
  g.module.gpuImages = {{"cuda:sm_80", "cubin", "cubin80", 7}};
  g.driver->refuseTarget = "cubin";
  auto [code, message] = failure(g.run(allocations, dims));
  EXPECT_EQ(code, TC_STATUS_UNAVAILABLE);
  EXPECT_NE(message.find("has no code that runs on cuda:0 (fake, sm_90)"),
            std::string::npos) << message;
  EXPECT_NE(message.find("--target=cuda:sm_90"), std::string::npos) << message;
}

TEST(GpuDeviceTest, ALaunchFailureNamesTheKernelAndLeaksNothing) {
  Fixture f;
  f.driver->failLaunch = true;
  std::vector<void *> allocations;
  std::vector<int64_t> dims;
  std::string message = failure(f.run(allocations, dims)).second;
  EXPECT_NE(message.find("kernel 'scale': an illegal address"), std::string::npos)
      << message;
  EXPECT_EQ(allocations[0], nullptr);
  // Every block went back to the cache (none in use by the run).
  f.driver->failLaunch = false;
  ASSERT_EQ(f.run(allocations, dims), nullptr);
  std::free(allocations[0]);
  EXPECT_EQ(f.driver->allocations, 3);
}

TEST(GpuDeviceTest, HostCodeDownloadsAndUploadsValues) {
  Fixture f;
  f.module.gpuRunFn = reinterpret_cast<void *>(fakeDataShapedRun);
  f.values = {1, 2, 3, 4};
  std::vector<void *> allocations;
  std::vector<int64_t> dims;
  ASSERT_EQ(f.run(allocations, dims), nullptr);
  // y = (x + 1) * 2 = [4, 6, 8, 10], of length y[0] = 4.
  ASSERT_EQ(dims[0], 4);
  const float *y = static_cast<const float *>(allocations[0]);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(y[i], (f.values[i] + 1) * 2);
  std::free(allocations[0]);

  // After a failed launch the download yields zeros, not stale memory
  // (the module sized its output from it: min(4, 0), where the -1 it
  // started from would give -1), and the run reports the launch.
  f.driver->failLaunch = true;
  std::string message = failure(f.run(allocations, dims)).second;
  EXPECT_NE(message.find("kernel 'scale'"), std::string::npos) << message;
  EXPECT_EQ(dims[0], 0);
  EXPECT_EQ(allocations[0], nullptr);
}

TEST(GpuDeviceTest, LaunchesWithoutThreadsAreSkipped) {
  Fixture f;
  f.module.gpuRunFn = reinterpret_cast<void *>(fakeEmptyRun);
  tc_tensor_release(f.input);
  int64_t dims0[1] = {0};
  f.input = newTensor(TC_DTYPE_F32, dims0, 1, 0, f.values.data(), 0, nullptr,
                      nullptr);
  std::vector<void *> allocations;
  std::vector<int64_t> dims;
  ASSERT_EQ(f.run(allocations, dims), nullptr);
  EXPECT_EQ(dims[0], 0);
  EXPECT_EQ(f.driver->launches, 0);
  std::free(allocations[0]);
}

TEST(GpuDeviceTest, TunableKernelsRunTheAlternativeChosenForTheDevice) {
  Fixture f;
  f.module.gpuRunFn = reinterpret_cast<void *>(fakeTunedRun);
  f.module.gpuSites = {
      {"gpu-0123456789abcdef", {"#fusion.kernel_config<...>"}, {1}}};
  auto outputs = [&] {
    std::vector<void *> allocations;
    std::vector<int64_t> dims;
    EXPECT_EQ(f.run(allocations, dims), nullptr);
    std::vector<float> y(static_cast<const float *>(allocations[0]),
                         static_cast<const float *>(allocations[0]) + 4);
    std::free(allocations[0]);
    return y;
  };
  // The heuristic kernel until told otherwise, then the alternative, then
  // the heuristic one again.
  EXPECT_EQ(outputs(), (std::vector<float>{2, 4, 6, 8}));
  ASSERT_EQ(f.device->setChoice(&f.module, 0, 0), nullptr);
  EXPECT_EQ(outputs(), (std::vector<float>{2, 3, 4, 5}));
  ASSERT_EQ(f.device->setChoice(&f.module, 0, -1), nullptr);
  EXPECT_EQ(outputs(), (std::vector<float>{2, 4, 6, 8}));
  // Out of range: named, and nothing changes.
  auto [code, message] = failure(f.device->setChoice(&f.module, 0, 1));
  EXPECT_EQ(code, TC_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(message.find("tunable GPU kernel 0 (gpu-0123456789abcdef) has 1 "
                         "alternatives: choose -1 to 0, not 1"),
            std::string::npos)
      << message;
  auto [siteCode, siteMessage] = failure(f.device->setChoice(&f.module, 1, 0));
  EXPECT_EQ(siteCode, TC_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(siteMessage.find("there is no site 1"), std::string::npos)
      << siteMessage;
  EXPECT_EQ(outputs(), (std::vector<float>{2, 4, 6, 8}));
}

TEST(GpuDeviceTest, ModelsWithoutKernelsLoadNoImage) {
  Fixture f;
  f.module.gpuRunFn = reinterpret_cast<void *>(fakeKernelFreeRun);
  f.module.gpuKernels = {};
  f.module.gpuImages = {{"cuda:sm_90", "cubin", "", 0}};
  std::vector<void *> allocations;
  std::vector<int64_t> dims;
  ASSERT_EQ(f.run(allocations, dims), nullptr);
  EXPECT_EQ(dims[0], 0);
  EXPECT_TRUE(f.driver->loadedFormats.empty());
  std::free(allocations[0]);
}

TEST(GpuDeviceTest, ModulesWithOnlyTheOldGpuEntryAskForARecompile) {
  // What tc_module_load makes of a library with tc_module_gpu_run_v1 and
  // no v2: no GPU entry, marked stale. On a GPU device (no CPU workers)
  // the run says so instead of running nothing.
  Fixture f;
  f.module.gpuRunFn = nullptr;
  f.module.staleGpuEntry = true;
  ArgSignature x;
  x.name = "x";
  x.dtype = TC_DTYPE_F32;
  x.dims = {-1};
  x.symbols = {""};
  f.module.signature.inputs = {x};
  f.module.signature.finalize();
  tc_device device;
  device.spec = "cuda:0";
  device.gpu = std::move(f.device);
  tc_tensor *output = nullptr;
  auto [code, message] =
      failure(tc_module_run(&f.module, &device, &f.input, 1, &output, 1));
  EXPECT_EQ(code, TC_STATUS_UNAVAILABLE);
  EXPECT_NE(message.find("has GPU code for an older tc runtime "
                         "(tc_module_gpu_run_v1); recompile it"),
            std::string::npos) << message;
  EXPECT_EQ(output, nullptr);
}

TEST(GpuDeviceTest, ModulesWithoutThisVendorsCodeAreNotRunHere) {
  Fixture f;
  f.module.gpuImages = {{"rocm:gfx942", "hsaco", "hsaco", 5}};
  EXPECT_FALSE(f.device->hasCodeFor(&f.module));
  f.module.gpuRunFn = nullptr;
  EXPECT_FALSE(f.device->hasCodeFor(&f.module));
}

} // namespace

namespace {

/// The Fixture running fakeThreeSiteRun, its tuning table in a directory of
/// its own.
struct TuningFixture : Fixture {
  std::string table;

  explicit TuningFixture(const std::string &name) {
    module.gpuRunFn = reinterpret_cast<void *>(fakeThreeSiteRun);
    module.gpuKernels = {"scale",      "shift",       "scale_4us",
                         "scale_12us", "shift_9.8us", "shift_20us",
                         "scale_10us", "scale_3us",   "scale_11us"};
    module.gpuSites = {{"gpu-aaaaaaaaaaaaaaaa", {"a0", "a1"}, {2, 3}, {0}},
                       {"gpu-bbbbbbbbbbbbbbbb", {"b0", "b1"}, {4, 5}, {1}},
                       {"gpu-aaaaaaaaaaaaaaaa", {"a0", "a1"}, {7, 8}, {6}}};
    std::string directory = testing::TempDir() + "/tc-gpu-tuning-" + name;
    std::filesystem::remove_all(directory);
    std::filesystem::create_directories(directory);
    table = directory + "/gpu.tsv";
    useDevice({1, table});
  }

  std::vector<float> outputs() {
    std::vector<void *> allocations;
    std::vector<int64_t> dims;
    EXPECT_EQ(run(allocations, dims), nullptr);
    std::vector<float> y(static_cast<const float *>(allocations[0]),
                         static_cast<const float *>(allocations[0]) + 4);
    std::free(allocations[0]);
    return y;
  }

  std::vector<int32_t> choices() {
    std::vector<int32_t> result;
    for (size_t s = 0; s < module.gpuSites.size(); ++s)
      result.push_back(device->choice(&module, s));
    return result;
  }

  tc_status tune(tc_gpu_tune_report &report,
                 void (*adjust)(tc_gpu_tune_options &) = nullptr) {
    tc_gpu_tune_options options;
    tc_gpu_tune_options_init(&options);
    if (adjust)
      adjust(options);
    return device->tune(&module, &input, 1, options, report);
  }

  std::string tableText() {
    std::ifstream in(table);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

} // namespace

TEST(GpuDeviceTest, TuningTimesEveryAlternativeAndKeepsTheFastestPerKey) {
  TuningFixture f("fastest");
  const std::vector<float> expected = {6, 10, 14, 18}; // 2 (2x + 1)
  EXPECT_EQ(f.outputs(), expected);
  tc_gpu_tune_report report;
  ASSERT_EQ(f.tune(report), nullptr);
  EXPECT_EQ(report.sites, 3);
  EXPECT_EQ(report.keys, 2);
  EXPECT_EQ(report.keys_from_table, 0);
  EXPECT_EQ(report.keys_tuned, 2);
  EXPECT_EQ(report.keys_changed, 1);
  // A warm-up round and five timed ones, each of three trials (the
  // heuristic kernels, alternatives 0 and 1).
  EXPECT_EQ(report.runs, 18);
  EXPECT_EQ(report.budget_exhausted, 0);
  EXPECT_NEAR(report.heuristic_ms, 0.030, 1e-6);
  EXPECT_NEAR(report.tuned_ms, 0.017, 1e-6);
  // Both sites of key A run alternative 0; B keeps its heuristic kernel.
  EXPECT_EQ(f.choices(), (std::vector<int32_t>{0, -1, 0}));
  EXPECT_EQ(f.outputs(), expected);
  tc_gpu_tune_report last;
  ASSERT_EQ(f.device->lastTuning(&f.module, last), nullptr);
  EXPECT_EQ(last.runs, 18);
  // The events are kept for the next tuning, and freed with the device.
  EXPECT_FALSE(f.driver->liveEvents.empty());

  std::string text = f.tableText();
  EXPECT_NE(text.find("# tc GPU tuning table, version 1, for fake (sm_90)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpu-aaaaaaaaaaaaaaaa\ta0\t0.007\t0.02\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpu-bbbbbbbbbbbbbbbb\theuristic\t0.01\t0.01\n"),
            std::string::npos)
      << text;

  // The table knows both keys now: nothing is timed again...
  ASSERT_EQ(f.tune(report), nullptr);
  EXPECT_EQ(report.keys_from_table, 2);
  EXPECT_EQ(report.keys_tuned, 0);
  EXPECT_EQ(report.runs, 0);
  // ...unless asked to.
  ASSERT_EQ(f.tune(report, [](tc_gpu_tune_options &o) { o.retune = 1; }),
            nullptr);
  EXPECT_EQ(report.keys_tuned, 2);
}

TEST(GpuDeviceTest, TheTuningTableChoosesWhenAModuleIsLoaded) {
  TuningFixture f("load");
  tc_gpu_tune_report report;
  ASSERT_EQ(f.tune(report), nullptr);
  // A new device of the same GPU model, reading the table: what it will
  // choose is known before the first run.
  f.useDevice({1, f.table});
  EXPECT_EQ(f.choices(), (std::vector<int32_t>{0, -1, 0}));
  f.outputs();
  EXPECT_EQ(f.choices(), (std::vector<int32_t>{0, -1, 0}));
  EXPECT_EQ(f.driver->launches, 3); // one run: nothing was timed
  EXPECT_EQ(failure(f.device->lastTuning(&f.module, report)).first,
            TC_STATUS_NOT_FOUND);
  // Off: the heuristic kernels.
  f.useDevice({0, f.table});
  f.outputs();
  EXPECT_EQ(f.choices(), (std::vector<int32_t>{-1, -1, -1}));
  // An entry whose configuration is not one of the site's alternatives (a
  // table written for another build of the kernel) gives the heuristic one.
  {
    std::ofstream out(f.table);
    out << "gpu-aaaaaaaaaaaaaaaa\tz9\t1\t2\n";
  }
  f.useDevice({1, f.table});
  f.outputs();
  EXPECT_EQ(f.choices(), (std::vector<int32_t>{-1, -1, -1}));
}

TEST(GpuDeviceTest, FirstRunsTuneUnderModeTwoAndForMaxAutotuneModules) {
  TuningFixture f("first-run");
  f.useDevice({2, f.table});
  const std::vector<float> expected = {6, 10, 14, 18};
  EXPECT_EQ(f.outputs(), expected);
  EXPECT_EQ(f.choices(), (std::vector<int32_t>{0, -1, 0}));
  tc_gpu_tune_report report;
  ASSERT_EQ(f.device->lastTuning(&f.module, report), nullptr);
  EXPECT_EQ(report.keys_tuned, 2);
  // 18 timed runs and the run itself; the next run tunes nothing.
  EXPECT_EQ(f.driver->launches, 19 * 3);
  EXPECT_EQ(f.outputs(), expected);
  EXPECT_EQ(f.driver->launches, 20 * 3);

  // -1: only modules compiled with --mode=max-autotune.
  std::remove(f.table.c_str());
  f.useDevice({-1, f.table});
  f.outputs();
  EXPECT_EQ(failure(f.device->lastTuning(&f.module, report)).first,
            TC_STATUS_NOT_FOUND);
  f.module.id = 43; // another load of the module
  f.module.signature.mode = "max-autotune";
  f.outputs();
  ASSERT_EQ(f.device->lastTuning(&f.module, report), nullptr);
  EXPECT_EQ(report.keys_tuned, 2);
  // A first run that cannot tune still runs, and keeps why (a device
  // without a table, so that every key is to be timed).
  f.useDevice({2, ""});
  f.driver->noEvents = true;
  EXPECT_EQ(f.outputs(), expected);
  auto [code, message] = failure(f.device->lastTuning(&f.module, report));
  EXPECT_EQ(code, TC_STATUS_UNAVAILABLE);
  EXPECT_NE(message.find("has no events"), std::string::npos) << message;
}

TEST(GpuDeviceTest, TuningErrorsNameTheirCause) {
  TuningFixture f("errors");
  tc_gpu_tune_report report;
  // No events.
  f.driver->noEvents = true;
  auto [code, message] = failure(f.tune(report));
  EXPECT_EQ(code, TC_STATUS_UNAVAILABLE);
  EXPECT_NE(message.find("cannot tune the GPU kernels of 'fake.so' on cuda:0 "
                         "(fake, sm_90): its driver has no events"),
            std::string::npos)
      << message;
  f.driver->noEvents = false;
  // A launch that fails: the choices stay as they were.
  ASSERT_EQ(f.device->setChoice(&f.module, 1, 1), nullptr);
  f.driver->failLaunch = true;
  auto [launchCode, launchMessage] = failure(f.tune(report));
  EXPECT_EQ(launchCode, TC_STATUS_INTERNAL);
  EXPECT_NE(launchMessage.find("an illegal address"), std::string::npos)
      << launchMessage;
  EXPECT_EQ(f.choices(), (std::vector<int32_t>{-1, 1, -1}));
  f.driver->failLaunch = false;
  // A budget spent before the first timed run: nothing decided.
  ASSERT_EQ(
      f.tune(report, [](tc_gpu_tune_options &o) { o.budget_seconds = -1; }),
      nullptr);
  EXPECT_EQ(report.budget_exhausted, 1);
  EXPECT_EQ(report.keys_tuned, 0);
  EXPECT_EQ(report.runs, 3);
  // A malformed table: its file and line.
  {
    std::ofstream out(f.table);
    out << "# comment\ngpu-aaaaaaaaaaaaaaaa\ta0\n";
  }
  f.useDevice({1, f.table});
  auto [tableCode, tableMessage] = failure(f.tune(report));
  EXPECT_EQ(tableCode, TC_STATUS_MALFORMED);
  EXPECT_NE(tableMessage.find("gpu.tsv', line 2: expected <key> TAB"),
            std::string::npos)
      << tableMessage;
}
