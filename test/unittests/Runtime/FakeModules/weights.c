/* A module with a weights region, as tc-compile writes one
 * (tc-runtime/module_weights.h): its one output is the region's first four
 * floats, so a test can see what the runtime mapped there. Built as is it
 * has the region but no appended weights; ModuleWeightsTest appends them. */
#include "tc-runtime/module_abi.h"
#include "tc-runtime/module_weights.h"

#include <stdlib.h>
#include <string.h>

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name weights\n"
                                     "output w f32 1 4\n";

/* Not const: the code may not assume the zeros it was linked with. */
__attribute__((visibility("default"), aligned(TC_WEIGHTS_ALIGNMENT)))
char tc_module_weights_v1[TC_WEIGHTS_ALIGNMENT];

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  (void)env;
  (void)inputs;
  (void)input_dims;
  float *w = malloc(4 * sizeof(float));
  if (!w)
    return TC_RUN_OUT_OF_MEMORY;
  memcpy(w, tc_module_weights_v1, 4 * sizeof(float));
  output_allocations[0] = w;
  output_data[0] = w;
  output_dims[0] = 4;
  return TC_RUN_OK;
}
