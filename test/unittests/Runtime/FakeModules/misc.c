/* A module exercising the corners of the ABI: escaped names, a scalar input,
 * an anonymous dynamic extent, bool and i64 elements, an empty output with a
 * NULL allocation, an output that points inside its allocation, and error
 * codes chosen by the caller:
 *   code (i32 scalar): 0 runs normally; 100 returns an output whose static
 *   extent contradicts the metadata; anything else is returned as is
 *   (256 and 257 name its two run-time checks' messages).
 *   "x y": f64[?n, ?]  flag: bool[?n]
 *   y = i64[?n]: y[i] = flag[i] ? (i64)sum of row i of "x y" : -1
 *   empty = f32[0] */
#include "tc-runtime/module_abi.h"

#include <stdlib.h>

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name misc%20model\n"
                                     "input code i32 0\n"
                                     "input x%20y f64 2 ?n ?\n"
                                     "input flag bool 1 ?n\n"
                                     "output y i64 1 ?n\n"
                                     "output empty f32 1 0\n"
                                     "target cpu x86-64\n"
                                     "target cpu generic\n";
const char tc_module_check_messages_v1[] =
    "node 'a' (Add): first check\0node 'b' (Mul): second check\0";

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  (void)env;
  int32_t code = *(const int32_t *)inputs[0];
  if (code != 0 && code != 100)
    return code;
  int64_t n = input_dims[0], m = input_dims[1];
  const double *x = inputs[1];
  const unsigned char *flag = inputs[2];
  /* One spare leading element: the data pointer is not the allocation. */
  int64_t *block = malloc((size_t)(n + 1) * sizeof(int64_t));
  if (!block)
    return TC_RUN_OUT_OF_MEMORY;
  int64_t *y = block + 1;
  for (int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < m; ++j)
      sum += x[i * m + j];
    y[i] = flag[i] ? (int64_t)sum : -1;
  }
  output_allocations[0] = block;
  output_data[0] = y;
  output_dims[0] = n;
  output_allocations[1] = NULL;
  output_data[1] = NULL;
  output_dims[1] = code == 100 ? 5 : 0;
  return TC_RUN_OK;
}
