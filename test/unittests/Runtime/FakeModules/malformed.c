/* A module whose metadata breaks the grammar on line 4 (rank 2, one dim). */
#include "tc-runtime/module_abi.h"

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name broken\n"
                                     "input a f32 1 4\n"
                                     "input b f32 2 4\n";
int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  return TC_RUN_OK;
}
