/* Returns copies of its narrow-typed inputs (one byte per element, the
 * layout of module_abi.h), so tests can see how tensor files of these types
 * were read: e f8e4m3fn[?], h f4e2m1fn[?], s i4[?], t u2[?], z f8e8m0fnu[?]
 * -> the same five tensors. */
#include "tc-runtime/module_abi.h"

#include <stdlib.h>
#include <string.h>

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name narrow\n"
                                     "input e f8e4m3fn 1 ?\n"
                                     "input h f4e2m1fn 1 ?\n"
                                     "input s i4 1 ?\n"
                                     "input t u2 1 ?\n"
                                     "input z f8e8m0fnu 1 ?\n"
                                     "output e f8e4m3fn 1 ?\n"
                                     "output h f4e2m1fn 1 ?\n"
                                     "output s i4 1 ?\n"
                                     "output t u2 1 ?\n"
                                     "output z f8e8m0fnu 1 ?\n";

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  (void)env;
  for (int k = 0; k < 5; ++k) {
    size_t bytes = (size_t)input_dims[k];
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
