//===- RunTest.cpp - tc_module_run: input checks, outputs, parallel_for
//----===//

#include "TestUtil.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <thread>
#include <vector>

using namespace tc::test;

namespace {

struct Fixture {
  Owned<tc_runtime> runtime;
  Owned<tc_device> device;
  Owned<tc_module> module;
};

Fixture setUp(const char *module, int32_t threads = 4) {
  Fixture fixture;
  fixture.runtime = makeRuntime(threads);
  fixture.device = makeDevice(fixture.runtime.get());
  fixture.module = loadModule(fixture.runtime.get(), module);
  return fixture;
}

// Runs and returns the outputs, owned.
std::vector<Owned<tc_tensor>> run(Fixture &f, std::vector<tc_tensor *> inputs,
                                  std::string *error = nullptr) {
  size_t numOutputs = tc_module_num_outputs(f.module.get());
  // Sentinels: a failed run must leave the slots alone.
  std::vector<tc_tensor *> outputs(numOutputs,
                                   reinterpret_cast<tc_tensor *>(0x1));
  std::string text =
      describe(tc_module_run(f.module.get(), f.device.get(), inputs.data(),
                             inputs.size(), outputs.data(), outputs.size()));
  std::vector<Owned<tc_tensor>> owned;
  if (!text.empty()) {
    for (tc_tensor *slot : outputs)
      EXPECT_EQ(slot, reinterpret_cast<tc_tensor *>(0x1));
  } else {
    for (tc_tensor *slot : outputs)
      owned.emplace_back(slot);
  }
  if (error)
    *error = text;
  else
    EXPECT_EQ(text, "");
  return owned;
}

std::string runError(Fixture &f, std::vector<tc_tensor *> inputs) {
  std::string error;
  run(f, std::move(inputs), &error);
  EXPECT_NE(error, "");
  return error;
}

std::vector<float> addExpected(const std::vector<float> &a,
                               const std::vector<float> &b) {
  std::vector<float> out(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    out[i] = a[i] + b[i % 4];
  return out;
}

TEST(RunTest, AddWithDynamicBatch) {
  for (int32_t threads : {1, 4}) {
    Fixture f = setUp("add", threads);
    for (int64_t batch : {1, 3, 0, 37}) {
      std::vector<float> a(batch * 4);
      for (size_t i = 0; i < a.size(); ++i)
        a[i] = 0.5f * i;
      std::vector<float> b = {10, 20, 30, 40};
      int64_t aDims[] = {batch, 4}, bDims[] = {4};
      tc_tensor *ta, *tb;
      TC_ASSERT_OK(tc_tensor_create_copy(TC_DTYPE_F32, 2, aDims, a.data(),
                                         a.size() * 4, &ta));
      TC_ASSERT_OK(tc_tensor_create_copy(TC_DTYPE_F32, 1, bDims, b.data(),
                                         b.size() * 4, &tb));
      Owned<tc_tensor> oa(ta), ob(tb);
      auto outputs = run(f, {ta, tb});
      ASSERT_EQ(outputs.size(), 1u);
      tc_tensor *out = outputs[0].get();
      EXPECT_EQ(tc_tensor_dtype(out), TC_DTYPE_F32);
      ASSERT_EQ(tc_tensor_rank(out), 2);
      EXPECT_EQ(tc_tensor_dims(out)[0], batch);
      EXPECT_EQ(tc_tensor_dims(out)[1], 4);
      ASSERT_EQ(tc_tensor_byte_size(out), a.size() * 4);
      std::vector<float> expected = addExpected(a, b);
      if (batch)
        EXPECT_EQ(std::memcmp(tc_tensor_data(out), expected.data(),
                              expected.size() * 4),
                  0)
            << "threads " << threads << " batch " << batch;
    }
  }
}

TEST(ProfileTest, CountsEachKernelsCallsOfProfiledRunsOnly) {
  Fixture f = setUp("add", 2);
  tc_module *module = f.module.get();
  ASSERT_EQ(tc_module_num_kernels(module), 1u);
  std::vector<float> a(8 * 4, 1.0f), b = {1, 2, 3, 4};
  int64_t aDims[] = {8, 4}, bDims[] = {4};
  tc_tensor *ta, *tb;
  TC_ASSERT_OK(tc_tensor_create_copy(TC_DTYPE_F32, 2, aDims, a.data(),
                                     a.size() * 4, &ta));
  TC_ASSERT_OK(tc_tensor_create_copy(TC_DTYPE_F32, 1, bDims, b.data(),
                                     b.size() * 4, &tb));
  Owned<tc_tensor> oa(ta), ob(tb);
  run(f, {ta, tb}); // not profiled
  tc_module_set_profiling(module, 1);
  for (int i = 0; i < 3; ++i) {
    auto outputs = run(f, {ta, tb});
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_EQ(static_cast<float *>(tc_tensor_data(outputs[0].get()))[5], 3.0f);
  }
  tc_module_set_profiling(module, 0);
  run(f, {ta, tb}); // not profiled
  int64_t runs = -1, runNs = -1;
  tc_module_profile_runs(module, &runs, &runNs);
  EXPECT_EQ(runs, 3);
  EXPECT_GT(runNs, 0);
  tc_kernel_profile profile;
  TC_ASSERT_OK(tc_module_kernel_profile(module, 0, &profile));
  EXPECT_STREQ(profile.name, "k0");
  EXPECT_STREQ(profile.ops, "Add");
  EXPECT_STREQ(profile.nodes, "add_node\nbias_node");
  EXPECT_EQ(profile.calls, 3);
  EXPECT_EQ(profile.workgroups, 3 * 8);
  EXPECT_GT(profile.nanoseconds, 0);
  EXPECT_LE(profile.nanoseconds, runNs);
  EXPECT_NE(describe(tc_module_kernel_profile(module, 1, &profile)), "");
  // Turning it on again starts from zero.
  tc_module_set_profiling(module, 1);
  TC_ASSERT_OK(tc_module_kernel_profile(module, 0, &profile));
  EXPECT_EQ(profile.calls, 0);
  tc_module_profile_runs(module, &runs, nullptr);
  EXPECT_EQ(runs, 0);
}

TEST(ProfileTest, ModulesWithoutATableHaveNoKernels) {
  Fixture f = setUp("coverage", 2);
  EXPECT_EQ(tc_module_num_kernels(f.module.get()), 0u);
  tc_module_set_profiling(f.module.get(), 1); // harmless
  int64_t runs = -1;
  tc_module_profile_runs(f.module.get(), &runs, nullptr);
  EXPECT_EQ(runs, 0);
}

TEST(RunTest, OutputsSharingABufferGetTheirOwn) {
  Fixture f = setUp("shared", 1);
  std::vector<float> x = {1, 2, 3, 4};
  int64_t dims[] = {4};
  tc_tensor *tx;
  TC_ASSERT_OK(
      tc_tensor_create_copy(TC_DTYPE_F32, 1, dims, x.data(), 16, &tx));
  Owned<tc_tensor> ox(tx);
  auto outputs = run(f, {tx});
  ASSERT_EQ(outputs.size(), 2u);
  // Distinct buffers with the same values; releasing both (when `outputs`
  // goes out of scope) must not free one allocation twice.
  EXPECT_NE(tc_tensor_data(outputs[0].get()), tc_tensor_data(outputs[1].get()));
  std::vector<float> expected = {2, 3, 4, 5};
  for (auto &out : outputs)
    EXPECT_EQ(std::memcmp(tc_tensor_data(out.get()), expected.data(), 16), 0);
}

// Where input 0 of the last run of the fake "add" module was.
const void *lastAddInput() {
  void *handle = dlopen(fakeModule("add").c_str(), RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(handle, nullptr);
  auto **slot = static_cast<const void **>(dlsym(handle, "fake_add_last_input"));
  EXPECT_NE(slot, nullptr);
  const void *address = slot ? *slot : nullptr;
  if (handle)
    dlclose(handle);
  return address;
}

TEST(RunTest, InputsAlignedToTheirElementAreReadInPlace) {
  Fixture f = setUp("add");
  // 4-byte aligned but not 64-byte aligned: the module reads it in place.
  alignas(64) float storage[1 + 16 + 4] = {};
  float *a = storage + 1, *b = storage + 17;
  for (int i = 0; i < 16; ++i)
    a[i] = i;
  for (int i = 0; i < 4; ++i)
    b[i] = 1;
  int64_t aDims[] = {4, 4}, bDims[] = {4};
  tc_tensor *ta, *tb;
  TC_ASSERT_OK(
      tc_tensor_wrap(TC_DTYPE_F32, 2, aDims, a, 64, nullptr, nullptr, &ta));
  TC_ASSERT_OK(
      tc_tensor_wrap(TC_DTYPE_F32, 1, bDims, b, 16, nullptr, nullptr, &tb));
  Owned<tc_tensor> oa(ta), ob(tb);
  auto outputs = run(f, {ta, tb});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(lastAddInput(), static_cast<const void *>(a));
  auto *out = static_cast<float *>(tc_tensor_data(outputs[0].get()));
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(out[i], i + 1.0f);
}

TEST(RunTest, InputsMisalignedForTheirElementAreCopied) {
  Fixture f = setUp("add");
  // The fake module fails with code 99 when an input is not 4-byte aligned.
  alignas(64) unsigned char storage[2 + 64 + 16] = {};
  unsigned char *a = storage + 2, *b = storage + 2 + 64;
  for (int i = 0; i < 16; ++i) {
    float value = static_cast<float>(i);
    std::memcpy(a + 4 * i, &value, 4);
  }
  for (int i = 0; i < 4; ++i) {
    float one = 1;
    std::memcpy(b + 4 * i, &one, 4);
  }
  int64_t aDims[] = {4, 4}, bDims[] = {4};
  tc_tensor *ta, *tb;
  TC_ASSERT_OK(
      tc_tensor_wrap(TC_DTYPE_F32, 2, aDims, a, 64, nullptr, nullptr, &ta));
  TC_ASSERT_OK(
      tc_tensor_wrap(TC_DTYPE_F32, 1, bDims, b, 16, nullptr, nullptr, &tb));
  Owned<tc_tensor> oa(ta), ob(tb);
  auto outputs = run(f, {ta, tb});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_NE(lastAddInput(), static_cast<const void *>(a));
  auto *out = static_cast<float *>(tc_tensor_data(outputs[0].get()));
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(out[i], i + 1.0f);
}

TEST(RunTest, InputCountIsChecked) {
  Fixture f = setUp("add");
  auto a = makeTensor<float>(TC_DTYPE_F32, {1, 4}, {1, 2, 3, 4});
  std::string error = runError(f, {a.get()});
  TC_EXPECT_CONTAINS(error, "INVALID_ARGUMENT");
  TC_EXPECT_CONTAINS(error, "expects 2 inputs but 1 were given");
}

TEST(RunTest, OutputCountIsChecked) {
  Fixture f = setUp("add");
  auto a = makeTensor<float>(TC_DTYPE_F32, {1, 4}, {1, 2, 3, 4});
  auto b = makeTensor<float>(TC_DTYPE_F32, {4}, {1, 2, 3, 4});
  tc_tensor *inputs[] = {a.get(), b.get()};
  tc_tensor *outputs[2];
  Error error = take(
      tc_module_run(f.module.get(), f.device.get(), inputs, 2, outputs, 2));
  TC_EXPECT_CONTAINS(error.message, "has 1 outputs but num_outputs is 2");
}

TEST(RunTest, DtypeIsChecked) {
  Fixture f = setUp("add");
  auto a = makeTensor<float>(TC_DTYPE_F32, {1, 4}, {1, 2, 3, 4});
  auto b = makeTensor<double>(TC_DTYPE_F64, {4}, {1, 2, 3, 4});
  TC_EXPECT_CONTAINS(runError(f, {a.get(), b.get()}),
                     "input 'b' has dtype f64 but the module expects f32");
}

TEST(RunTest, RankIsChecked) {
  Fixture f = setUp("add");
  auto a = makeTensor<float>(TC_DTYPE_F32, {4}, {1, 2, 3, 4});
  auto b = makeTensor<float>(TC_DTYPE_F32, {4}, {1, 2, 3, 4});
  TC_EXPECT_CONTAINS(runError(f, {a.get(), b.get()}),
                     "input 'a' has rank 1 (shape [4]) but the module expects "
                     "rank 2 (shape [?, 4])");
}

TEST(RunTest, StaticExtentIsChecked) {
  Fixture f = setUp("add");
  auto a = makeTensor<float>(TC_DTYPE_F32, {2, 2}, {1, 2, 3, 4});
  auto b = makeTensor<float>(TC_DTYPE_F32, {4}, {1, 2, 3, 4});
  TC_EXPECT_CONTAINS(runError(f, {a.get(), b.get()}),
                     "input 'a' axis 1 is 2 but the module expects 4");
}

TEST(RunTest, NullInputIsChecked) {
  Fixture f = setUp("add");
  auto a = makeTensor<float>(TC_DTYPE_F32, {1, 4}, {1, 2, 3, 4});
  TC_EXPECT_CONTAINS(runError(f, {a.get(), nullptr}), "input 'b' (#1) is NULL");
}

// The misc module: code: i32[], "x y": f64[?n, ?], flag: bool[?n].
struct MiscInputs {
  Owned<tc_tensor> code, xy, flag;
  std::vector<tc_tensor *> all() { return {code.get(), xy.get(), flag.get()}; }
};

MiscInputs miscInputs(int32_t code, int64_t n, int64_t m, int64_t flagN) {
  MiscInputs in;
  in.code = makeTensor<int32_t>(TC_DTYPE_I32, {}, {code});
  std::vector<double> xy(n * m);
  for (size_t i = 0; i < xy.size(); ++i)
    xy[i] = static_cast<double>(i);
  std::vector<uint8_t> flag(flagN);
  for (int64_t i = 0; i < flagN; ++i)
    flag[i] = i % 2 == 0;
  int64_t xyDims[] = {n, m}, flagDims[] = {flagN};
  tc_tensor *t;
  EXPECT_EQ(describe(tc_tensor_create_copy(TC_DTYPE_F64, 2, xyDims, xy.data(),
                                           xy.size() * 8, &t)),
            "");
  in.xy.reset(t);
  EXPECT_EQ(describe(tc_tensor_create_copy(TC_DTYPE_BOOL, 1, flagDims,
                                           flag.data(), flag.size(), &t)),
            "");
  in.flag.reset(t);
  return in;
}

TEST(RunTest, SymbolsMustAgreeAcrossInputs) {
  Fixture f = setUp("misc");
  MiscInputs in = miscInputs(0, 2, 3, 3);
  TC_EXPECT_CONTAINS(runError(f, in.all()),
                     "input 'flag' axis 0 is 3 but symbol 'n' was bound to 2 "
                     "by input 'x y' axis 0");
}

TEST(RunTest, MiscOutputsViewsAndEmptyOutputs) {
  Fixture f = setUp("misc");
  MiscInputs in = miscInputs(0, 3, 2, 3);
  auto outputs = run(f, in.all());
  ASSERT_EQ(outputs.size(), 2u);
  tc_tensor *y = outputs[0].get();
  EXPECT_EQ(tc_tensor_dtype(y), TC_DTYPE_I64);
  ASSERT_EQ(tc_tensor_num_elements(y), 3);
  auto *values = static_cast<int64_t *>(tc_tensor_data(y));
  // rows: [0,1] [2,3] [4,5]; flags 1 0 1
  EXPECT_EQ(values[0], 1);
  EXPECT_EQ(values[1], -1);
  EXPECT_EQ(values[2], 9);
  tc_tensor *empty = outputs[1].get();
  EXPECT_EQ(tc_tensor_num_elements(empty), 0);
  EXPECT_EQ(tc_tensor_byte_size(empty), 0u);
  EXPECT_EQ(tc_tensor_dims(empty)[0], 0);
}

TEST(RunTest, ModuleErrorCodesBecomeStatuses) {
  Fixture f = setUp("misc");
  struct Case {
    int32_t code;
    const char *expected;
  } cases[] = {
      {1, "INVALID_VALUE: model 'misc model' rejected a value"},
      {2, "OUT_OF_MEMORY: model 'misc model' ran out of memory"},
      {7, "INTERNAL: model 'misc model' failed with unknown error code 7"},
      // Failed run-time checks: TC_RUN_CHECK_FAILED + the message's index.
      {256, "INVALID_VALUE: model 'misc model': node 'a' (Add): first check"},
      {257, "INVALID_VALUE: model 'misc model': node 'b' (Mul): second check"},
      {258, "INVALID_VALUE: model 'misc model': run-time check 2 failed"},
      {100, "INTERNAL: model 'misc model' returned a bad output 'empty': axis "
            "0 is 5 but the signature says 0"},
  };
  for (const Case &c : cases) {
    MiscInputs in = miscInputs(c.code, 2, 2, 2);
    TC_EXPECT_CONTAINS(runError(f, in.all()), c.expected);
  }
}

// The coverage module: count: i64[] -> hits: i32[count], calls: i64[2].
std::vector<Owned<tc_tensor>> runCoverage(Fixture &f, int64_t count) {
  auto countTensor = makeTensor<int64_t>(TC_DTYPE_I64, {}, {count});
  return run(f, {countTensor.get()});
}

void expectAllHitOnce(tc_tensor *hits, int64_t count) {
  ASSERT_EQ(tc_tensor_num_elements(hits), count);
  auto *values = static_cast<int32_t *>(tc_tensor_data(hits));
  int64_t wrong = 0;
  for (int64_t i = 0; i < count; ++i)
    wrong += values[i] != 1;
  EXPECT_EQ(wrong, 0) << "of " << count << " indices";
}

TEST(ParallelForTest, CoversEveryIndexOnce) {
  for (int32_t threads : {1, 2, 4, 7}) {
    Fixture f = setUp("coverage", threads);
    for (int64_t count : {0, 1, 2, 3, 5, 64, 1000, 100003}) {
      auto outputs = runCoverage(f, count);
      ASSERT_EQ(outputs.size(), 2u);
      expectAllHitOnce(outputs[0].get(), count);
      auto *calls = static_cast<int64_t *>(tc_tensor_data(outputs[1].get()));
      if (threads == 1 || count <= 1) {
        EXPECT_EQ(calls[0], count ? 1 : 0); // one call on the caller
      } else {
        EXPECT_GT(calls[0], 1) << "work was not split";
        EXPECT_LT(calls[1], count);
      }
    }
  }
}

TEST(ParallelForTest, ManyBackToBackRegions) {
  Fixture f = setUp("coverage", 4);
  for (int i = 0; i < 2000; ++i) {
    auto outputs = runCoverage(f, 1 + i % 50);
    expectAllHitOnce(outputs[0].get(), 1 + i % 50);
  }
}

TEST(ParallelForTest, ConcurrentRunsOnOneDevice) {
  Fixture f = setUp("coverage", 4);
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        int64_t count = 10 + t * 7 + i;
        tc_tensor *countTensor;
        int64_t value = count;
        if (tc_status s = tc_tensor_create_copy(TC_DTYPE_I64, 0, nullptr,
                                                &value, 8, &countTensor)) {
          tc_status_free(s);
          ++failures;
          continue;
        }
        tc_tensor *outputs[2];
        tc_status s = tc_module_run(f.module.get(), f.device.get(),
                                    &countTensor, 1, outputs, 2);
        tc_tensor_release(countTensor);
        if (s) {
          tc_status_free(s);
          ++failures;
          continue;
        }
        auto *hits = static_cast<int32_t *>(tc_tensor_data(outputs[0]));
        for (int64_t k = 0; k < count; ++k)
          failures += hits[k] != 1;
        tc_tensor_release(outputs[0]);
        tc_tensor_release(outputs[1]);
      }
    });
  }
  for (std::thread &caller : callers)
    caller.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ParallelForTest, ThreadCountsGiveTheSameResults) {
  std::vector<float> a(64 * 4), b = {1.5f, -2, 3, 0.25f};
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = std::sin(static_cast<float>(i));
  std::vector<std::vector<float>> results;
  for (int32_t threads : {1, 4}) {
    Fixture f = setUp("add", threads);
    int64_t aDims[] = {64, 4}, bDims[] = {4};
    tc_tensor *ta, *tb;
    TC_ASSERT_OK(tc_tensor_create_copy(TC_DTYPE_F32, 2, aDims, a.data(),
                                       a.size() * 4, &ta));
    TC_ASSERT_OK(
        tc_tensor_create_copy(TC_DTYPE_F32, 1, bDims, b.data(), 16, &tb));
    Owned<tc_tensor> oa(ta), ob(tb);
    auto outputs = run(f, {ta, tb});
    auto *data = static_cast<float *>(tc_tensor_data(outputs[0].get()));
    results.emplace_back(data, data + a.size());
  }
  EXPECT_EQ(results[0], results[1]);
}

TEST(RunTest, OutputsOutliveModuleAndDevice) {
  Fixture f = setUp("add");
  auto a = makeTensor<float>(TC_DTYPE_F32, {1, 4}, {1, 2, 3, 4});
  auto b = makeTensor<float>(TC_DTYPE_F32, {4}, {1, 1, 1, 1});
  auto outputs = run(f, {a.get(), b.get()});
  f.module.reset();
  f.device.reset();
  f.runtime.reset();
  EXPECT_EQ(static_cast<float *>(tc_tensor_data(outputs[0].get()))[3], 5.0f);
}

} // namespace

namespace {
// The narrow types travel one byte per element: a module declaring them
// loads, reports them, takes inputs of exactly those dtypes, and returns
// them with one byte per element.
TEST(RunTest, NarrowTypesAreOneBytePerElement) {
  Fixture f = setUp("narrow");
  const tc_dtype_t dtypes[] = {TC_DTYPE_F8E4M3FN, TC_DTYPE_F4E2M1FN,
                               TC_DTYPE_I4, TC_DTYPE_U2, TC_DTYPE_F8E8M0FNU};
  ASSERT_EQ(tc_module_num_inputs(f.module.get()), 5u);
  std::vector<Owned<tc_tensor>> inputs;
  std::vector<tc_tensor *> raw;
  for (int k = 0; k < 5; ++k) {
    tc_arg_info info;
    TC_ASSERT_OK(tc_module_input_info(f.module.get(), k, &info));
    EXPECT_EQ(info.dtype, dtypes[k]);
    // 0xf8 is -8 as an i4 (sign-extended), and a plain pattern otherwise.
    inputs.push_back(makeTensor<uint8_t>(dtypes[k], {3}, {0x38, 0xf8, 0x01}));
    raw.push_back(inputs.back().get());
  }
  std::vector<Owned<tc_tensor>> outputs = run(f, raw);
  ASSERT_EQ(outputs.size(), 5u);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(tc_tensor_dtype(outputs[k].get()), dtypes[k]);
    ASSERT_EQ(tc_tensor_byte_size(outputs[k].get()), 3u);
    const auto *bytes =
        static_cast<const uint8_t *>(tc_tensor_data(outputs[k].get()));
    EXPECT_EQ(bytes[0], 0x38);
    EXPECT_EQ(bytes[1], 0xf8);
    EXPECT_EQ(bytes[2], 0x01);
  }
  auto wrong = makeTensor<int8_t>(TC_DTYPE_I8, {3}, {1, 2, 3});
  raw[2] = wrong.get();
  TC_EXPECT_CONTAINS(runError(f, raw),
                     "input 's' has dtype i8 but the module expects i4");
}
} // namespace
