/* A hand-written tc module: out[n, j] = a[n, j] + b[j] with a: f32[?batch, 4],
 * b: f32[4]. Rows are spread over env->parallel_for like compiled kernels
 * are. It stands in for tc-compile output in the runtime's tests. */
#include "tc-runtime/module_abi.h"

#include <stdlib.h>

/* The address input 0 had in the last run (RunTest.InputAlignment). */
__attribute__((visibility("default"))) const void *fake_add_last_input;

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name add\n"
                                     "input a f32 2 ?batch 4\n"
                                     "input b f32 1 4\n"
                                     "output out f32 2 ?batch 4\n"
                                     "target cpu x86-64\n";

struct add_args {
  const float *a, *b;
  float *out;
};

static void add_rows(void *opaque, int64_t begin, int64_t end) {
  struct add_args *args = opaque;
  for (int64_t row = begin; row < end; ++row)
    for (int j = 0; j < 4; ++j)
      args->out[row * 4 + j] = args->a[row * 4 + j] + args->b[j];
}

/* The kernel table a profile reads: the one kernel, with made-up nodes. */
const uint32_t tc_module_kernel_count_v1 = 1;
const tc_kernel_v1 tc_module_kernels_v1[] = {
    {add_rows, "k0", "Add", "add_node\nbias_node"}};

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  int64_t batch = input_dims[0];
  /* Inputs must arrive aligned to their element (module_abi.h); fail loudly
   * in the tests if not. The address of input 0 goes to the test through
   * fake_add_last_input (RunTest reads it: in place or a copy). */
  if (((uintptr_t)inputs[0] | (uintptr_t)inputs[1]) % sizeof(float) != 0)
    return 99;
  fake_add_last_input = inputs[0];
  float *out = NULL;
  if (batch > 0) {
    out = malloc((size_t)batch * 4 * sizeof(float));
    if (!out)
      return TC_RUN_OUT_OF_MEMORY;
  }
  struct add_args args = {inputs[0], inputs[1], out};
  env->parallel_for(env->runtime, add_rows, &args, batch);
  output_allocations[0] = out;
  output_data[0] = out;
  output_dims[0] = batch;
  output_dims[1] = 4;
  return TC_RUN_OK;
}
