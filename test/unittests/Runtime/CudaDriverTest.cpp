//===- CudaDriverTest.cpp - lib/Runtime/Cuda against a fake libcuda.so.1 --===//
//
// The driver API calls CudaDriver makes, seen from the driver's side
// (FakeCuda/fake_cuda.h): contexts, streams, modules and memory come and go
// in balance, and each failure the driver reports reaches the caller as a
// status that names it. The whole path runs through the public API with a
// hand-written GPU module (FakeModules/gpu_scale.c: y = x * 2 + 1).
//
//===----------------------------------------------------------------------===//

#include "FakeCuda/fake_cuda.h"
#include "GpuScale.h"

#include <cstdio>
#include <vector>

using namespace tc::test;

namespace {

fake_cuda_state &fake() { return *fake_cuda_state_get(); }

TEST(CudaDriverTest, RunsAModelAndReleasesWhatItTook) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  int launchesBefore = fake().launches;
  {
    Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
    ASSERT_NE(device, nullptr);
    EXPECT_STREQ(tc_device_spec(device.get()), "cuda:0");
    for (int64_t n : {5, 300, 0}) {
      std::vector<float> y;
      ASSERT_EQ(runScale(device.get(), module.get(), n, &y), "") << n;
      ASSERT_EQ(static_cast<int64_t>(y.size()), n);
      for (int64_t i = 0; i < n; ++i)
        EXPECT_EQ(y[i], 2.0f * i + 1) << i;
    }
    // Two kernels per non-empty run; the sm_80 image was refused and the
    // sm_90 one loaded, once.
    EXPECT_EQ(fake().launches - launchesBefore, 4);
    EXPECT_EQ(fake().modules_live, 1);
    EXPECT_EQ(fake().streams_live, 1);
    // Graphs are off by default.
    EXPECT_EQ(fake().graph_launches, 0);
  }
  // The device gave back its module, its memory and its stream.
  EXPECT_EQ(fake().modules_live, 0);
  EXPECT_EQ(fake().allocations_live, 0);
  EXPECT_EQ(fake().streams_live, 0);
}

TEST(CudaDriverTest, ThePrimaryContextLivesAsLongAsTheProcess) {
  // Making a context costs the real driver tens to hundreds of
  // milliseconds and serializes processes sharing a GPU: a device opened
  // per model (tc.load, tc-run) must not remake it each time.
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  for (int round = 0; round < 4; ++round) {
    Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
    ASSERT_EQ(runScale(device.get(), module.get(), 8), "");
  }
  Owned<tc_device> second = makeDevice(runtime.get(), "cuda:1");
  ASSERT_EQ(runScale(second.get(), module.get(), 8), "");
  second.reset();
  EXPECT_EQ(fake().retains[0], 1);
  EXPECT_EQ(fake().retains[1], 1);
  EXPECT_EQ(fake().contexts_destroyed, 0);
  EXPECT_LE(fake().contexts_created, 2);
}

TEST(CudaDriverTest, AModuleWithoutCodeForThisGpuSaysWhichTargetToAdd) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale_sm80");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  std::string error = runScale(device.get(), module.get(), 4);
  TC_EXPECT_CONTAINS(error, "UNAVAILABLE");
  TC_EXPECT_CONTAINS(error, "cuda:0 (Fake H200, sm_90)");
  TC_EXPECT_CONTAINS(error, "--target=cuda:sm_90");
  EXPECT_EQ(fake().modules_live, 0);
}

TEST(CudaDriverTest, OutOfMemoryIsReportedAsSuch) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  fake().memory_limit = 1024;
  std::string error = runScale(device.get(), module.get(), 1000);
  fake().memory_limit = 0;
  TC_EXPECT_CONTAINS(error, "OUT_OF_MEMORY");
  // The input is the first to need memory (4000 bytes asked for, rounded
  // up to the runtime's block size).
  TC_EXPECT_CONTAINS(error, "input 'x': allocating 4096 bytes on cuda:0 (Fake H200, "
                            "sm_90): CUDA_ERROR_OUT_OF_MEMORY: out of memory");
  // The next run, with memory to spare, works.
  EXPECT_EQ(runScale(device.get(), module.get(), 1000), "");
}

TEST(CudaDriverTest, ALaunchFailureNamesTheKernelAndTheDriverError) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  fake().fail_launches = 1;
  std::string error = runScale(device.get(), module.get(), 4);
  fake().fail_launches = 0;
  TC_EXPECT_CONTAINS(error, "kernel 'scale'");
  TC_EXPECT_CONTAINS(error, "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory "
                            "access was encountered");
  EXPECT_EQ(runScale(device.get(), module.get(), 4), "");
}

TEST(CudaDriverTest, AGpuThatDoesNotExistListsTheOnesThatDo) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  tc_device *device = nullptr;
  Error error = take(tc_device_create(runtime.get(), "cuda:2", &device));
  EXPECT_EQ(error.code, TC_STATUS_UNAVAILABLE);
  TC_EXPECT_CONTAINS(error.message, "this machine has 2 NVIDIA GPUs");
  EXPECT_EQ(device, nullptr);
}

TEST(CudaDriverTest, GraphsReplayRunsAtTheShapesTheyRecorded) {
  Owned<tc_runtime> runtime = makeRuntimeWithGraphs(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  int graphLaunches = fake().graph_launches, launches = fake().launches;
  {
    Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
    // Run 1 launches its kernels; run 2 records them, then launches the
    // graph, as runs 3 to 5 do. Each run's own input is what they read.
    for (int round = 0; round < 5; ++round) {
      std::vector<float> y;
      ASSERT_EQ(runScale(device.get(), module.get(), 300, &y, 10.0f * round), "");
      expectScaled(y, 300, 10.0f * round);
      EXPECT_EQ(fake().graph_launches - graphLaunches, round == 0 ? 0 : round);
      EXPECT_EQ(fake().launches - launches, 2 * (round + 1));
    }
    EXPECT_EQ(fake().graphs_live, 1);
    // Another shape starts over: a run, then a graph of its own.
    for (int round = 0; round < 3; ++round) {
      std::vector<float> y;
      ASSERT_EQ(runScale(device.get(), module.get(), 7, &y, -3.0f * round), "");
      expectScaled(y, 7, -3.0f * round);
    }
    EXPECT_EQ(fake().graph_launches - graphLaunches, 4 + 2);
    EXPECT_EQ(fake().graphs_live, 2);
    // The first shape's graph is still there.
    std::vector<float> y;
    ASSERT_EQ(runScale(device.get(), module.get(), 300, &y, 1.5f), "");
    expectScaled(y, 300, 1.5f);
    EXPECT_EQ(fake().graph_launches - graphLaunches, 7);
  }
  EXPECT_EQ(fake().graphs_live, 0);
  EXPECT_EQ(fake().allocations_live, 0);
}

TEST(CudaDriverTest, HostCodeThatReadsTheGpuIsNeverReplayed) {
  Owned<tc_runtime> runtime = makeRuntimeWithGraphs(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale_readback");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  int graphLaunches = fake().graph_launches;
  for (int round = 0; round < 4; ++round) {
    std::vector<float> y;
    ASSERT_EQ(runScale(device.get(), module.get(), 9, &y, 1.0f * round), "");
    expectScaled(y, 9, 1.0f * round);
  }
  EXPECT_EQ(fake().graph_launches, graphLaunches);
  EXPECT_EQ(fake().graphs_live, 0);
}

TEST(CudaDriverTest, AFailedGraphLaunchIsReportedAndNotRetried) {
  Owned<tc_runtime> runtime = makeRuntimeWithGraphs(1);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  ASSERT_EQ(runScale(device.get(), module.get(), 4), "");
  ASSERT_EQ(runScale(device.get(), module.get(), 4), "");
  EXPECT_EQ(fake().graphs_live, 1);
  fake().fail_launches = 1;
  std::string error = runScale(device.get(), module.get(), 4);
  fake().fail_launches = 0;
  TC_EXPECT_CONTAINS(error, "launching a graph on cuda:0: "
                            "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(fake().graphs_live, 0);
  int graphLaunches = fake().graph_launches;
  std::vector<float> y;
  ASSERT_EQ(runScale(device.get(), module.get(), 4, &y, 2.0f), "");
  expectScaled(y, 4, 2.0f);
  ASSERT_EQ(runScale(device.get(), module.get(), 4, &y, 3.0f), "");
  expectScaled(y, 4, 3.0f);
  EXPECT_EQ(fake().graph_launches, graphLaunches);
}

TEST(CudaDriverTest, ReduceOverheadModulesReplayByDefault) {
  // gpu_graphs = -1 (the default): the reduce-overhead module records a
  // graph at its second run and replays it; the default-mode one never.
  Owned<tc_runtime> runtime = makeRuntimeWithGraphs(-1);
  Owned<tc_module> reduced =
      loadModule(runtime.get(), "gpu_scale_reduce_overhead");
  Owned<tc_module> plain = loadModule(runtime.get(), "gpu_scale");
  EXPECT_STREQ(tc_module_mode(reduced.get()), "reduce-overhead");
  EXPECT_STREQ(tc_module_mode(plain.get()), "default");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  int graphLaunches = fake().graph_launches;
  for (int round = 0; round < 3; ++round) {
    std::vector<float> y;
    ASSERT_EQ(runScale(device.get(), plain.get(), 64, &y, 1.0f * round), "");
    expectScaled(y, 64, 1.0f * round);
  }
  EXPECT_EQ(fake().graph_launches, graphLaunches);
  EXPECT_EQ(tc_device_graph_runs(device.get()), 0);
  for (int round = 0; round < 3; ++round) {
    std::vector<float> y;
    ASSERT_EQ(runScale(device.get(), reduced.get(), 64, &y, 1.0f * round), "");
    expectScaled(y, 64, 1.0f * round);
  }
  EXPECT_EQ(fake().graph_launches - graphLaunches, 2);
  EXPECT_EQ(tc_device_graph_runs(device.get()), 2);
}

TEST(CudaDriverTest, GraphsOffOverridesTheModulesMode) {
  Owned<tc_runtime> runtime = makeRuntimeWithGraphs(0);
  Owned<tc_module> module =
      loadModule(runtime.get(), "gpu_scale_reduce_overhead");
  Owned<tc_device> device = makeDevice(runtime.get(), "cuda:0");
  int graphLaunches = fake().graph_launches;
  for (int round = 0; round < 3; ++round)
    ASSERT_EQ(runScale(device.get(), module.get(), 64), "");
  EXPECT_EQ(fake().graph_launches, graphLaunches);
  EXPECT_EQ(fake().graphs_live, 0);
}

TEST(CudaDriverTest, GraphsTakeMinusOneZeroOrOne) {
  tc_runtime_options options;
  tc_runtime_options_init(&options);
  options.gpu_graphs = 2;
  tc_runtime *runtime = nullptr;
  Error error = take(tc_runtime_create(&options, &runtime));
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(
      error.message,
      "gpu_graphs is 2 (expected -1 for the module's mode, 0 or 1)");
  EXPECT_EQ(runtime, nullptr);
}

TEST(CudaDriverTest, AutoPicksTheGpu) {
  Owned<tc_runtime> runtime = makeRuntime(1);
  Owned<tc_device> device = makeDevice(runtime.get(), "auto");
  EXPECT_STREQ(tc_device_spec(device.get()), "cuda:0");
}

} // namespace

namespace {

/// Tunes gpu_scale_tunable ("scale" in alternatives of 4 and 12 us against
/// the heuristic kernel's 10 on the fake clock) on `spec` through the C
/// API, its tuning table in a directory of its own.
void tuneThroughTheApi(const char *spec, int &eventsLive) {
  std::string cache = testing::TempDir() + "/tc-tune-api-" + spec;
  for (char &c : cache)
    if (c == ':')
      c = '-';
  tc_runtime_options options;
  tc_runtime_options_init(&options);
  EXPECT_EQ(options.gpu_tuning, -1);
  options.num_threads = 1;
  options.cache_dir = cache.c_str();
  tc_runtime *raw = nullptr;
  ASSERT_EQ(describe(tc_runtime_create(&options, &raw)), "");
  Owned<tc_runtime> runtime(raw);
  Owned<tc_module> module = loadModule(runtime.get(), "gpu_scale_tunable");
  Owned<tc_device> device = makeDevice(runtime.get(), spec);
  ASSERT_NE(device, nullptr);
  std::string table = tc_device_gpu_tuning_table(device.get());
  TC_EXPECT_CONTAINS(table, cache + "/tuning/gpu-");
  std::remove(table.c_str());
  EXPECT_EQ(tc_device_gpu_choice(device.get(), module.get(), 0), -1);
  tc_gpu_tune_report report;
  ASSERT_EQ(tuneScale(device.get(), module.get(), report), "");
  EXPECT_EQ(report.keys_tuned, 1);
  EXPECT_EQ(report.keys_changed, 1);
  EXPECT_EQ(report.runs, 18);
  EXPECT_NEAR(report.heuristic_ms, 0.010, 1e-6);
  EXPECT_NEAR(report.tuned_ms, 0.004, 1e-6);
  EXPECT_EQ(tc_device_gpu_choice(device.get(), module.get(), 0), 0);
  std::vector<float> y;
  ASSERT_EQ(runScale(device.get(), module.get(), 5, &y), "");
  expectScaled(y, 5, 0);
  eventsLive = fake().events_live;
  // A CPU device cannot tune, and says so.
  Owned<tc_device> cpu = makeDevice(runtime.get(), "cpu");
  TC_EXPECT_CONTAINS(tuneScale(cpu.get(), module.get(), report),
                     "not on 'cpu'");
}

} // namespace

TEST(CudaDriverTest, TuningTimesTheAlternativesWithTheDriversEvents) {
  int eventsLive = 0;
  tuneThroughTheApi("cuda:0", eventsLive);
  // The device kept its events for the next tuning and destroyed them
  // with itself.
  EXPECT_GT(eventsLive, 0);
  EXPECT_EQ(fake().events_live, 0);
}
