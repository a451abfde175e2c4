//===- TestUtil.h - helpers shared by the runtime tests
//--------------------===//

#ifndef TC_TEST_UNITTESTS_RUNTIME_TESTUTIL_H
#define TC_TEST_UNITTESTS_RUNTIME_TESTUTIL_H

#include "tc-runtime/runtime.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace tc::test {

/// A status taken apart (and freed).
struct Error {
  tc_status_code_t code;
  std::string message;
};

inline Error take(tc_status status) {
  Error error{tc_status_code(status), tc_status_message(status)};
  tc_status_free(status);
  return error;
}

/// "" for success, else "CODE: message"; frees the status.
inline std::string describe(tc_status status) {
  if (!status)
    return "";
  Error error = take(status);
  return std::string(tc_status_code_name(error.code)) + ": " + error.message;
}

#define TC_ASSERT_OK(expr) ASSERT_EQ(::tc::test::describe(expr), "")
#define TC_EXPECT_OK(expr) EXPECT_EQ(::tc::test::describe(expr), "")
#define TC_EXPECT_CONTAINS(text, part)                                         \
  EXPECT_NE(std::string(text).find(part), std::string::npos)                   \
      << "'" << (text) << "' does not contain '" << (part) << "'"

inline std::string fakeModule(const std::string &name) {
  return std::string(TC_FAKE_MODULE_DIR) + "/fake_" + name + ".so";
}

struct Deleter {
  void operator()(tc_runtime *p) const { tc_runtime_release(p); }
  void operator()(tc_device *p) const { tc_device_release(p); }
  void operator()(tc_module *p) const { tc_module_release(p); }
  void operator()(tc_tensor *p) const { tc_tensor_release(p); }
};
template <typename T> using Owned = std::unique_ptr<T, Deleter>;

inline Owned<tc_runtime> makeRuntime(int32_t numThreads = 0) {
  tc_runtime_options options;
  tc_runtime_options_init(&options);
  options.num_threads = numThreads;
  tc_runtime *runtime = nullptr;
  EXPECT_EQ(describe(tc_runtime_create(&options, &runtime)), "");
  return Owned<tc_runtime>(runtime);
}

inline Owned<tc_device> makeDevice(tc_runtime *runtime,
                                   const char *spec = "cpu") {
  tc_device *device = nullptr;
  EXPECT_EQ(describe(tc_device_create(runtime, spec, &device)), "");
  return Owned<tc_device>(device);
}

inline Owned<tc_module> loadModule(tc_runtime *runtime,
                                   const std::string &name) {
  tc_module *module = nullptr;
  EXPECT_EQ(
      describe(tc_module_load(runtime, fakeModule(name).c_str(), &module)), "");
  return Owned<tc_module>(module);
}

template <typename T>
Owned<tc_tensor> makeTensor(tc_dtype_t dtype,
                            std::initializer_list<int64_t> dims,
                            std::initializer_list<T> values) {
  EXPECT_EQ(tc_dtype_size(dtype), sizeof(T));
  tc_tensor *tensor = nullptr;
  EXPECT_EQ(describe(tc_tensor_create_copy(
                dtype, static_cast<int32_t>(dims.size()), dims.begin(),
                values.begin(), values.size() * sizeof(T), &tensor)),
            "");
  return Owned<tc_tensor>(tensor);
}

} // namespace tc::test

#endif // TC_TEST_UNITTESTS_RUNTIME_TESTUTIL_H
