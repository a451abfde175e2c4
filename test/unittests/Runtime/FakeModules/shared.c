/* Returns one buffer as both of its outputs, as a model that yields the
 * same value twice may: x f32[4] -> a, b (both x + 1, one allocation). The
 * runtime must give each output tensor its own allocation. */
#include "tc-runtime/module_abi.h"

#include <stdlib.h>

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name shared\n"
                                     "input x f32 1 4\n"
                                     "output a f32 1 4\n"
                                     "output b f32 1 4\n";

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  (void)env;
  (void)input_dims;
  float *out = malloc(4 * sizeof(float));
  if (!out)
    return TC_RUN_OUT_OF_MEMORY;
  for (int i = 0; i < 4; ++i)
    out[i] = ((const float *)inputs[0])[i] + 1.0f;
  for (int k = 0; k < 2; ++k) {
    output_allocations[k] = out;
    output_data[k] = out;
    output_dims[k] = 4;
  }
  return TC_RUN_OK;
}
