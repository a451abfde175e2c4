/* Returns copies of its inputs, so tests can see how a tensor file was read:
 * h f16[?], i i8[?], u u64[?], z bf16[?] -> the same four tensors. */
#include "tc-runtime/module_abi.h"

#include <stdlib.h>
#include <string.h>

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name echo\n"
                                     "input h f16 1 ?\n"
                                     "input i i8 1 ?\n"
                                     "input u u64 1 ?\n"
                                     "input z bf16 1 ?\n"
                                     "output h f16 1 ?\n"
                                     "output i i8 1 ?\n"
                                     "output u u64 1 ?\n"
                                     "output z bf16 1 ?\n";

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  static const size_t sizes[4] = {2, 1, 8, 2};
  (void)env;
  for (int k = 0; k < 4; ++k) {
    size_t bytes = (size_t)input_dims[k] * sizes[k];
    void *copy = bytes ? malloc(bytes) : NULL;
    if (bytes && !copy)
      return TC_RUN_OUT_OF_MEMORY;
    if (bytes)
      memcpy(copy, inputs[k], bytes);
    output_allocations[k] = copy;
    output_data[k] = copy;
    output_dims[k] = input_dims[k];
  }
  return TC_RUN_OK;
}
