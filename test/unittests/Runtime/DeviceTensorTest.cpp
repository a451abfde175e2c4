//===- DeviceTensorTest.cpp - tensors in GPU memory, against the fake CUDA ===//
//
// Inputs already on the GPU are read where they are, outputs can stay there,
// and each copy the runtime makes is one the fake driver counts
// (FakeCuda/fake_cuda.h): a model chained on the device moves no byte
// through the host. Runs FakeModules/gpu_scale (y = x * 2 + 1) through the
// public API.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda/fake_cuda.h"
#include "GpuScale.h"

#include <cstdint>
#include <vector>

using namespace tc::test;

namespace {

fake_cuda_state &fake() { return *fake_cuda_state_get(); }

Owned<tc_tensor> hostTensor(const std::vector<float> &values) {
  int64_t n = static_cast<int64_t>(values.size());
  tc_tensor *tensor = nullptr;
  EXPECT_EQ(describe(tc_tensor_create_copy(TC_DTYPE_F32, 1, &n, values.data(),
                                           values.size() * 4, &tensor)),
            "");
  return Owned<tc_tensor>(tensor);
}

std::vector<float> iota(int64_t n, float start = 0) {
  std::vector<float> values(n);
  for (int64_t i = 0; i < n; ++i)
    values[i] = start + static_cast<float>(i);
  return values;
}

/// One run of gpu_scale on `input`; the output or nullptr, `error` set.
Owned<tc_tensor> runOn(tc_device *device, tc_module *module, tc_tensor *input,
                       bool onDevice, std::string &error) {
  tc_run_options options;
  tc_run_options_init(&options);
  EXPECT_EQ(options.outputs_on_device, 0);
  options.outputs_on_device = onDevice ? 1 : 0;
  tc_tensor *output = nullptr;
  error = describe(tc_module_run_with_options(module, device, &options, &input,
                                              1, &output, 1));
  return Owned<tc_tensor>(output);
}

/// The elements of `tensor`, wherever they are, copied to the host.
std::vector<float> read(const tc_tensor *tensor) {
  int64_t n = tc_tensor_num_elements(tensor);
  tc_tensor *host = nullptr;
  EXPECT_EQ(describe(tc_tensor_create_zeroed(TC_DTYPE_F32, 1, &n, &host)), "");
  Owned<tc_tensor> owned(host);
  EXPECT_EQ(describe(tc_tensor_copy(host, tensor)), "");
  const float *data = static_cast<const float *>(tc_tensor_data(host));
  return std::vector<float>(data, data + n);
}

TEST(DeviceTensorTest, OutputsStayOnTheGpuAndFeedTheNextRunInPlace) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  int live = fake().allocations_live;
  {
    Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
    Owned<tc_tensor> x = hostTensor(iota(300));
    EXPECT_STREQ(tc_tensor_device(x.get()), "cpu");
    int toHost = fake().copies_to_host, toDevice = fake().copies_to_device;
    std::string error;
    Owned<tc_tensor> y =
        runOn(device.get(), module.get(), x.get(), true, error);
    ASSERT_EQ(error, "");
    EXPECT_STREQ(tc_tensor_device(y.get()), "cuda:0");
    EXPECT_EQ(fake().copies_to_device - toDevice, 1); // x went in
    EXPECT_EQ(fake().copies_to_host - toHost, 0);     // y stayed
    // y is the next run's input where it lies: no copy in either direction.
    int onDevice = fake().copies_on_device;
    Owned<tc_tensor> z =
        runOn(device.get(), module.get(), y.get(), true, error);
    ASSERT_EQ(error, "");
    EXPECT_EQ(fake().copies_to_device - toDevice, 1);
    EXPECT_EQ(fake().copies_to_host - toHost, 0);
    EXPECT_EQ(fake().copies_on_device - onDevice, 0);
    EXPECT_NE(tc_tensor_data(z.get()), tc_tensor_data(y.get()));
    std::vector<float> values = read(z.get());
    ASSERT_EQ(values.size(), 300u);
    for (int i = 0; i < 300; ++i)
      EXPECT_EQ(values[i], (2.0f * i + 1) * 2 + 1) << i;
    // Without the option the output comes back to the host, as before.
    Owned<tc_tensor> w =
        runOn(device.get(), module.get(), z.get(), false, error);
    ASSERT_EQ(error, "");
    EXPECT_STREQ(tc_tensor_device(w.get()), "cpu");
    EXPECT_EQ(static_cast<const float *>(tc_tensor_data(w.get()))[1],
              ((3.0f * 2 + 1) * 2 + 1));
  }
  EXPECT_EQ(fake().allocations_live, live);
}

TEST(DeviceTensorTest, WrappedGpuMemoryIsReadInPlaceOrCopiedOnTheGpu) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  std::string error;
  Owned<tc_tensor> x = hostTensor(iota(64, 1.0f));
  Owned<tc_tensor> y = runOn(device.get(), module.get(), x.get(), true, error);
  ASSERT_EQ(error, "");
  // A framework's GPU tensor: y's memory, wrapped as a caller would.
  auto *base = static_cast<char *>(tc_tensor_data(y.get()));
  int released = 0;
  auto release = [](void *counter, void *) { ++*static_cast<int *>(counter); };
  for (size_t offset : {size_t(0), size_t(4)}) {
    int64_t n = 64 - static_cast<int64_t>(offset / 4);
    tc_tensor *wrapped = nullptr;
    ASSERT_EQ(describe(tc_tensor_wrap_device(device.get(), TC_DTYPE_F32, 1, &n,
                                             base + offset, n * 4, release,
                                             &released, &wrapped)),
              "");
    Owned<tc_tensor> input(wrapped);
    EXPECT_STREQ(tc_tensor_device(wrapped), "cuda:0");
    int toDevice = fake().copies_to_device, onDevice = fake().copies_on_device;
    Owned<tc_tensor> z =
        runOn(device.get(), module.get(), wrapped, false, error);
    ASSERT_EQ(error, "") << offset;
    EXPECT_EQ(fake().copies_to_device - toDevice, 0);
    // Misaligned memory is copied into an aligned buffer, on the GPU.
    EXPECT_EQ(fake().copies_on_device - onDevice, offset ? 1 : 0);
    const float *values = static_cast<const float *>(tc_tensor_data(z.get()));
    for (int64_t i = 0; i < n; ++i) {
      float xi = 1.0f + i + offset / 4;
      EXPECT_EQ(values[i], (2 * xi + 1) * 2 + 1) << i;
    }
  }
  EXPECT_EQ(released, 2);
}

TEST(DeviceTensorTest, GpuMemoryGoesOnlyToRunsOnThatGpu) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  Owned<tc_device> gpu0 = makeDevice(runtime.get(), "cuda:0");
  Owned<tc_device> gpu1 = makeDevice(runtime.get(), "cuda:1");
  Owned<tc_device> cpu = makeDevice(runtime.get(), "cpu");
  std::string error;
  Owned<tc_tensor> x = hostTensor(iota(8));
  Owned<tc_tensor> y = runOn(gpu1.get(), module.get(), x.get(), true, error);
  ASSERT_EQ(error, "");
  EXPECT_STREQ(tc_tensor_device(y.get()), "cuda:1");
  Owned<tc_tensor> none =
      runOn(gpu0.get(), module.get(), y.get(), false, error);
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(error, "INVALID_ARGUMENT: input 'x' is in the memory of cuda:1 but "
                   "the model runs on cuda:0: pass it on cuda:0, or run the "
                   "model on a device of cuda:1");
  none = runOn(cpu.get(), module.get(), y.get(), true, error);
  EXPECT_EQ(none, nullptr);
  EXPECT_NE(error.find("input 'x' is in the memory of cuda:1 but the model "
                       "runs on the CPU"),
            std::string::npos)
      << error;
  // A second handle on the same GPU reads it.
  Owned<tc_device> again = makeDevice(runtime.get(), "cuda:1");
  Owned<tc_tensor> z = runOn(again.get(), module.get(), y.get(), false, error);
  ASSERT_EQ(error, "");
  EXPECT_EQ(static_cast<const float *>(tc_tensor_data(z.get()))[7],
            (2.0f * 7 + 1) * 2 + 1);
  // Wrapping needs a GPU device; the buffer is released all the same.
  int released = 0;
  float host[2] = {};
  int64_t two = 2;
  tc_tensor *wrapped = nullptr;
  EXPECT_EQ(describe(tc_tensor_wrap_device(
                cpu.get(), TC_DTYPE_F32, 1, &two, host, sizeof(host),
                [](void *counter, void *) { ++*static_cast<int *>(counter); },
                &released, &wrapped)),
            "INVALID_ARGUMENT: tc_tensor_wrap_device: device 'cpu' is not a "
            "GPU (wrap host memory with tc_tensor_wrap)");
  EXPECT_EQ(wrapped, nullptr);
  EXPECT_EQ(released, 1);
  // Copies check what they join.
  Owned<tc_tensor> small = hostTensor(iota(3));
  EXPECT_EQ(describe(tc_tensor_copy(small.get(), y.get())),
            "INVALID_ARGUMENT: tc_tensor_copy: the target is f32 [3] but the "
            "source is f32 [8]");
  Owned<tc_tensor> other =
      runOn(gpu0.get(), module.get(), x.get(), true, error);
  ASSERT_EQ(error, "");
  EXPECT_EQ(describe(tc_tensor_copy(other.get(), y.get())),
            "INVALID_ARGUMENT: tc_tensor_copy: the target is on cuda:0 but the "
            "source on cuda:1; copy through host memory");
}

TEST(DeviceTensorTest, OutputsOnTheGpuOutliveTheirDevice) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  int live = fake().allocations_live;
  Owned<tc_tensor> y;
  {
    Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
    std::string error;
    Owned<tc_tensor> x = hostTensor(iota(16));
    y = runOn(device.get(), module.get(), x.get(), true, error);
    ASSERT_EQ(error, "");
  }
  // The handle is gone; the GPU memory and the stream are not, yet.
  EXPECT_GT(fake().allocations_live, live);
  std::vector<float> values = read(y.get());
  EXPECT_EQ(values[15], 31.0f);
  y.reset();
  EXPECT_EQ(fake().allocations_live, live);
}

TEST(DeviceTensorTest, GraphReplaysTakeAndGiveGpuMemory) {
  Owned<tc_runtime> runtime = makeRuntimeWithGraphs(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  int graphLaunches = fake().graph_launches;
  std::string error;
  std::vector<Owned<tc_tensor>> kept;
  for (int round = 0; round < 4; ++round) {
    Owned<tc_tensor> x = hostTensor(iota(100, 10.0f * round));
    Owned<tc_tensor> onGpu =
        runOn(device.get(), module.get(), x.get(), true, error);
    ASSERT_EQ(error, "");
    int toHost = fake().copies_to_host;
    Owned<tc_tensor> y =
        runOn(device.get(), module.get(), onGpu.get(), true, error);
    ASSERT_EQ(error, "") << round;
    EXPECT_EQ(fake().copies_to_host, toHost) << round;
    // Each replay's output is the caller's own, not the graph's buffer.
    for (const Owned<tc_tensor> &earlier : kept)
      EXPECT_NE(tc_tensor_data(earlier.get()), tc_tensor_data(y.get()));
    std::vector<float> values = read(y.get());
    for (int i = 0; i < 100; ++i)
      EXPECT_EQ(values[i], (2 * (10.0f * round + i) + 1) * 2 + 1) << i;
    kept.push_back(std::move(y));
  }
  EXPECT_GT(fake().graph_launches - graphLaunches, 0);
  EXPECT_GT(tc_device_graph_runs(device.get()), 0);
}

} // namespace
