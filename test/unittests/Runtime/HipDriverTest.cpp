//===- HipDriverTest.cpp - lib/Runtime/Hip against a fake libamdhip64.so --===//
//
// The HIP runtime calls HipDriver makes, against FakeHip/fake_hip.c (two
// "Fake MI300X" over host memory, gfx942 images): the module's HSACO for
// this chip is found by trying them in turn, memory, modules and streams
// come and go in balance, HIP's errors reach the caller by name, and runs
// replay as HIP graphs. The model is FakeModules/gpu_scale.c (y = x * 2 +
// 1).
//
//===----------------------------------------------------------------------===//

#include "FakeCuda/fake_cuda.h"
#include "GpuScale.h"

#include <cstdio>
#include <vector>

using namespace tc::test;

namespace {

fake_cuda_state &fake() { return *fake_cuda_state_get(); }

TEST(HipDriverTest, RunsTheHsacoForThisChipAndReleasesWhatItTook) {
  Owned<tc_runtime> rt = makeRuntimeWithGraphs(0);
  Owned<tc_module> module = loadModule(rt.get(), "gpu_scale");
  int loaded = fake().modules_loaded;
  {
    Owned<tc_device> device = makeDevice(rt.get(), "hip:1");
    ASSERT_NE(device, nullptr);
    EXPECT_STREQ(tc_device_spec(device.get()), "hip:1");
    for (int64_t n : {3, 500}) {
      std::vector<float> y;
      ASSERT_EQ(runScale(device.get(), module.get(), n, &y, 1.5f), "");
      expectScaled(y, n, 1.5f);
    }
    // gfx90a's image was refused, gfx942's loaded once.
    EXPECT_EQ(fake().modules_loaded - loaded, 1);
    EXPECT_EQ(fake().streams_live, 1);
  }
  EXPECT_EQ(fake().modules_live, 0);
  EXPECT_EQ(fake().allocations_live, 0);
  EXPECT_EQ(fake().streams_live, 0);
}

TEST(HipDriverTest, AModuleWithoutAmdCodeIsNotRunOnTheGpu) {
  Owned<tc_runtime> rt = makeRuntimeWithGraphs(0);
  Owned<tc_module> module = loadModule(rt.get(), "gpu_scale_sm80");
  Owned<tc_device> device = makeDevice(rt.get(), "hip:0");
  std::string error = runScale(device.get(), module.get(), 4);
  TC_EXPECT_CONTAINS(error, "UNAVAILABLE");
  TC_EXPECT_CONTAINS(error, "hip:0 (Fake MI300X)");
  TC_EXPECT_CONTAINS(error, "--target=rocm:");
}

TEST(HipDriverTest, ErrorsAreNamedAsHipNamesThem) {
  Owned<tc_runtime> rt = makeRuntimeWithGraphs(0);
  Owned<tc_module> module = loadModule(rt.get(), "gpu_scale");
  Owned<tc_device> device = makeDevice(rt.get(), "hip:0");
  fake().memory_limit = 1024;
  std::string error = runScale(device.get(), module.get(), 1000);
  fake().memory_limit = 0;
  TC_EXPECT_CONTAINS(error, "OUT_OF_MEMORY");
  TC_EXPECT_CONTAINS(error, "input 'x': allocating 4096 bytes on hip:0 (Fake "
                            "MI300X): hipErrorOutOfMemory: "
                            "out of memory");
  fake().fail_launches = 1;
  error = runScale(device.get(), module.get(), 4);
  fake().fail_launches = 0;
  TC_EXPECT_CONTAINS(error, "kernel 'scale': launch: hipErrorIllegalAddress");
  EXPECT_EQ(runScale(device.get(), module.get(), 4), "");

  tc_device *missing = nullptr;
  Error absent = take(tc_device_create(rt.get(), "hip:2", &missing));
  EXPECT_EQ(absent.code, TC_STATUS_UNAVAILABLE);
  TC_EXPECT_CONTAINS(absent.message,
                     "this machine has 2 AMD GPUs (hip:0 to hip:1)");
}

TEST(HipDriverTest, GraphsReplayRuns) {
  Owned<tc_runtime> rt = makeRuntimeWithGraphs(1);
  Owned<tc_module> module = loadModule(rt.get(), "gpu_scale");
  int graphLaunches = fake().graph_launches;
  {
    Owned<tc_device> device = makeDevice(rt.get(), "hip:0");
    for (int round = 0; round < 4; ++round) {
      std::vector<float> y;
      ASSERT_EQ(runScale(device.get(), module.get(), 64, &y, 3.0f * round), "");
      expectScaled(y, 64, 3.0f * round);
    }
    EXPECT_EQ(fake().graph_launches - graphLaunches, 3);
    EXPECT_EQ(tc_device_graph_runs(device.get()), 3);
  }
  EXPECT_EQ(fake().graphs_live, 0);
  EXPECT_EQ(fake().allocations_live, 0);
}

TEST(HipDriverTest, AutoPicksTheAmdGpuWhenNoNvidiaOneWorks) {
  // This binary links no fake libcuda.so.1 (and the machines that run it
  // have no NVIDIA driver, or this test is not meaningful there).
  Owned<tc_runtime> rt = makeRuntimeWithGraphs(0);
  Owned<tc_device> device = makeDevice(rt.get(), "auto");
  std::string spec = tc_device_spec(device.get());
  EXPECT_TRUE(spec == "hip:0" || spec == "cuda:0") << spec;
}

} // namespace

TEST(HipDriverTest, TuningTimesTheAlternativesWithHipEvents) {
  tc_runtime_options options;
  tc_runtime_options_init(&options);
  options.num_threads = 1;
  std::string cache = testing::TempDir() + "/tc-tune-api-hip";
  options.cache_dir = cache.c_str();
  tc_runtime *raw = nullptr;
  ASSERT_EQ(describe(tc_runtime_create(&options, &raw)), "");
  Owned<tc_runtime> runtime(raw);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale_tunable");
  Owned<tc_device> device = makeDevice(runtime.get(), "hip:0");
  ASSERT_NE(device, nullptr);
  // AMD GPUs keep a table of their own, named after the vendor.
  std::string table = tc_device_gpu_tuning_table(device.get());
  TC_EXPECT_CONTAINS(table, cache + "/tuning/gpu-rocm-");
  std::remove(table.c_str());
  tc_gpu_tune_report report;
  ASSERT_EQ(tuneScale(device.get(), module.get(), report), "");
  EXPECT_EQ(report.keys_changed, 1);
  EXPECT_EQ(tc_device_gpu_choice(device.get(), module.get(), 0), 0);
}
