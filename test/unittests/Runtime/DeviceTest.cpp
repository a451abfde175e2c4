//===- DeviceTest.cpp - runtime creation and device spec strings
//-----------===//

#include "TestUtil.h"

#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tc::test;

namespace {

TEST(DeviceTest, CpuAndAutoCreateADevice) {
  auto runtime = makeRuntime();
  auto cpu = makeDevice(runtime.get(), "cpu");
  ASSERT_TRUE(cpu);
  EXPECT_STREQ(tc_device_spec(cpu.get()), "cpu");
  // auto is the first GPU with a working driver, else the CPU.
  auto automatic = makeDevice(runtime.get(), "auto");
  ASSERT_TRUE(automatic);
  std::string spec = tc_device_spec(automatic.get());
  EXPECT_TRUE(spec == "cpu" || spec == "cuda:0" || spec == "hip:0") << spec;
  EXPECT_STREQ(tc_runtime_available_devices(), "cpu,cuda,hip");
}

TEST(DeviceTest, DefaultThreadCountIsTheHardwareCount) {
  auto runtime = makeRuntime(0);
  auto device = makeDevice(runtime.get());
  unsigned hardware = std::thread::hardware_concurrency();
  EXPECT_EQ(tc_device_num_threads(device.get()),
            hardware ? static_cast<int32_t>(hardware) : 1);
}

TEST(DeviceTest, ThreadCountIsSettable) {
  for (int32_t threads : {1, 3, 8}) {
    auto runtime = makeRuntime(threads);
    auto device = makeDevice(runtime.get());
    EXPECT_EQ(tc_device_num_threads(device.get()), threads);
  }
}

/// tc_runtime_create's error for `threads` threads (the runtime must not be
/// created).
Error createWithThreads(int32_t threads) {
  tc_runtime_options options;
  tc_runtime_options_init(&options);
  options.num_threads = threads;
  tc_runtime *runtime = nullptr;
  Error error = take(tc_runtime_create(&options, &runtime));
  EXPECT_EQ(runtime, nullptr);
  return error;
}

TEST(DeviceTest, NegativeThreadCountIsRejected) {
  Error error = createWithThreads(-2);
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(error.message, "num_threads is -2");
}

TEST(DeviceTest, ThreadCountAboveTheLimitIsRejected) {
  Error error = createWithThreads(100000);
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(error.message, "num_threads is 100000");
  TC_EXPECT_CONTAINS(error.message, "1 to " + std::to_string(TC_MAX_THREADS));
}

// The system refusing threads (here: too little address space for their
// stacks) is a status, not a std::system_error through the C API, which
// would abort the process. In a child process, because the limit is
// process-wide.
TEST(DeviceTest, ThreadsTheSystemRefusesAreAStatus) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer needs more address space than the limit";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer needs more address space than the limit";
#endif
#endif
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto runtime = makeRuntime(TC_MAX_THREADS);
    struct rlimit limit = {size_t(256) << 20, size_t(256) << 20};
    if (setrlimit(RLIMIT_AS, &limit) != 0)
      _exit(3);
    tc_device *device = nullptr;
    Error error = take(tc_device_create(runtime.get(), "cpu", &device));
    bool ok = error.code == TC_STATUS_RESOURCE_EXHAUSTED && !device &&
              error.message.find("cannot start 4096 threads") !=
                  std::string::npos &&
              error.message.find("fewer threads") != std::string::npos;
    if (!ok)
      fprintf(stderr, "got %s: %s\n", tc_status_code_name(error.code),
              error.message.c_str());
    // A smaller pool still works afterwards.
    tc_runtime_options options;
    tc_runtime_options_init(&options);
    options.num_threads = 2;
    tc_runtime *small = nullptr;
    ok = ok && !tc_runtime_create(&options, &small) &&
         !tc_device_create(small, "cpu", &device) && device;
    tc_device_release(device);
    tc_runtime_release(small);
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal "
                                 << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(DeviceTest, MissingGpusAreUnavailableAndNamed) {
  auto runtime = makeRuntime();
  // Ordinals no machine of ours has; without a driver, any ordinal.
  for (auto [spec, canonical] :
       {std::pair{"cuda:97", "cuda:97"}, {"hip:98", "hip:98"}}) {
    tc_device *device = nullptr;
    Error error = take(tc_device_create(runtime.get(), spec, &device));
    EXPECT_EQ(error.code, TC_STATUS_UNAVAILABLE) << spec;
    TC_EXPECT_CONTAINS(error.message, std::string("device '") + canonical + "'");
    bool noDriver = error.message.find("cannot be loaded") != std::string::npos;
    bool noDevice = error.message.find("does not exist: this machine has") !=
                    std::string::npos;
    EXPECT_TRUE(noDriver || noDevice) << error.message;
    EXPECT_EQ(device, nullptr);
  }
}

TEST(DeviceTest, BadSpecsAreNamed) {
  auto runtime = makeRuntime();
  for (const char *spec : {"gpu", "", "cuda:", "cuda:x", "cpu:0", "CPU"}) {
    tc_device *device = nullptr;
    Error error = take(tc_device_create(runtime.get(), spec, &device));
    EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT) << spec;
    TC_EXPECT_CONTAINS(error.message,
                       std::string("unknown device spec '") + spec + "'");
  }
}

TEST(DeviceTest, StatusHelpers) {
  EXPECT_EQ(tc_status_code(nullptr), TC_STATUS_OK);
  EXPECT_STREQ(tc_status_message(nullptr), "");
  tc_status_free(nullptr);
  EXPECT_STREQ(tc_status_code_name(TC_STATUS_UNAVAILABLE), "UNAVAILABLE");
}

} // namespace
