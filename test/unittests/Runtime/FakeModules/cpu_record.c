/* A module whose metadata says what compiled it, for which CPU and for
 * which shape buckets: with FUTURE_CPU, a feature no runtime knows (as a
 * newer compiler might record), which the runtime must treat as missing;
 * with BAD_BUCKET, a bucket record without an extent; with BAD_MODE, a
 * mode no compiler writes. */
#include "tc-runtime/module_abi.h"

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name recorded\n"
                                     "input a f32 1 4\n"
                                     "output b f32 1 4\n"
                                     "target cpu\n"
                                     "compiler tc 9.9.9 llvm 22.0.0\n"
                                     "bucket batch=1 seq%20len=128\n"
                                     "bucket batch=8\n"
#ifdef BAD_BUCKET
                                     "bucket batch\n"
#endif
#ifdef BAD_MODE
                                     "mode fastest\n"
#else
                                     "mode max-autotune\n"
#endif
#ifdef FUTURE_CPU
                                     "cpu future-cpu cmov avx99\n";
#else
                                     "cpu x86-64 cmov\n";
#endif
int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  return TC_RUN_OK;
}
