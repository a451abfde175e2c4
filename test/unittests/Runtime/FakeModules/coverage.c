/* Checks env->parallel_for: count (i64 scalar) workgroups each bump their
 * own counter in hits = i32[?count]; every index must be hit exactly once.
 * Each call also records its range length in `calls` (i64[2]: number of
 * calls, largest range) so tests can see the work was split. A nested
 * parallel_for from inside a workgroup must also work (it runs inline). */
#include "tc-runtime/module_abi.h"

#include <stdlib.h>

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name coverage\n"
                                     "input count i64 0\n"
                                     "output hits i32 1 ?\n"
                                     "output calls i64 1 2\n";

struct coverage_args {
  const tc_run_env_v1 *env;
  int32_t *hits;
  int64_t *calls;
};

static void bump(void *opaque, int64_t begin, int64_t end) {
  struct coverage_args *args = opaque;
  for (int64_t i = begin; i < end; ++i)
    __atomic_fetch_add(&args->hits[i], 1, __ATOMIC_RELAXED);
}

static void outer(void *opaque, int64_t begin, int64_t end) {
  struct coverage_args *args = opaque;
  __atomic_fetch_add(&args->calls[0], 1, __ATOMIC_RELAXED);
  int64_t length = end - begin, seen = args->calls[1];
  while (length > seen &&
         !__atomic_compare_exchange_n(&args->calls[1], &seen, length, 0,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  /* Nested region over this range only. */
  struct coverage_args inner = *args;
  inner.hits = args->hits + begin;
  args->env->parallel_for(args->env->runtime, bump, &inner, end - begin);
}

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  (void)input_dims;
  int64_t count = *(const int64_t *)inputs[0];
  if (count < 0)
    return TC_RUN_INVALID_VALUE;
  int32_t *hits = calloc((size_t)count + 1, sizeof(int32_t));
  int64_t *calls = calloc(2, sizeof(int64_t));
  if (!hits || !calls) {
    free(hits);
    free(calls);
    return TC_RUN_OUT_OF_MEMORY;
  }
  struct coverage_args args = {env, hits, calls};
  env->parallel_for(env->runtime, outer, &args, count);
  output_allocations[0] = hits;
  output_data[0] = hits;
  output_dims[0] = count;
  output_allocations[1] = calls;
  output_data[1] = calls;
  output_dims[1] = 2;
  return TC_RUN_OK;
}
