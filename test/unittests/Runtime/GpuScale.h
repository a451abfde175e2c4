//===- GpuScale.h - running FakeModules/gpu_scale in the driver tests -----===//

#ifndef TC_TEST_UNITTESTS_RUNTIME_GPUSCALE_H
#define TC_TEST_UNITTESTS_RUNTIME_GPUSCALE_H

#include "TestUtil.h"

#include <vector>

namespace tc::test {

/// A runtime of one CPU thread, graphs on (1), off (0) or as each module's
/// mode asks (-1, the default).
inline Owned<tc_runtime> makeRuntimeWithGraphs(int32_t graphs) {
  tc_runtime_options options;
  tc_runtime_options_init(&options);
  EXPECT_EQ(options.gpu_graphs, -1);
  options.num_threads = 1;
  options.gpu_graphs = graphs;
  tc_runtime *runtime = nullptr;
  EXPECT_EQ(describe(tc_runtime_create(&options, &runtime)), "");
  return Owned<tc_runtime>(runtime);
}

/// gpu_scale's input x = start, start + 1, ..., start + n - 1 in `input`;
/// "" or the error.
inline std::string scaleInput(int64_t n, float start, Owned<tc_tensor> &input) {
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = start + static_cast<float>(i);
  tc_tensor *tensor = nullptr;
  std::string error = describe(tc_tensor_create_copy(
      TC_DTYPE_F32, 1, &n, x.data(), x.size() * 4, &tensor));
  input.reset(tensor);
  return error;
}

/// Runs gpu_scale (y = x * 2 + 1) on `device` over x = start, start + 1,
/// ..., start + n - 1; "" or the error.
inline std::string runScale(tc_device *device, tc_module *module, int64_t n,
                            std::vector<float> *y = nullptr, float start = 0) {
  Owned<tc_tensor> owned;
  if (std::string error = scaleInput(n, start, owned); !error.empty())
    return error;
  tc_tensor *input = owned.get();
  tc_tensor *output = nullptr;
  std::string error =
      describe(tc_module_run(module, device, &input, 1, &output, 1));
  if (!error.empty())
    return error;
  Owned<tc_tensor> result(output);
  if (y) {
    const float *data = static_cast<const float *>(tc_tensor_data(output));
    y->assign(data, data + tc_tensor_num_elements(output));
  }
  return "";
}

/// Tunes `module`'s GPU kernels on `device` (tc_module_tune_gpu, default
/// options) on runScale's input of 8; "" or the error.
inline std::string tuneScale(tc_device *device, tc_module *module,
                             tc_gpu_tune_report &report) {
  Owned<tc_tensor> owned;
  if (std::string error = scaleInput(8, 0, owned); !error.empty())
    return error;
  tc_tensor *input = owned.get();
  return describe(
      tc_module_tune_gpu(module, device, &input, 1, nullptr, &report));
}

/// Checks y = x * 2 + 1 for runScale's x.
inline void expectScaled(const std::vector<float> &y, int64_t n, float start) {
  ASSERT_EQ(static_cast<int64_t>(y.size()), n);
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(y[i], 2 * (start + i) + 1) << i;
}

} // namespace tc::test

#endif // TC_TEST_UNITTESTS_RUNTIME_GPUSCALE_H
