/* A hand-written module with CPU and GPU entry points: y = x * 2 + 1
 * over x: f32[?n], on the GPU through two kernels ("scale" then "shift")
 * and a temporary. Its images are the text that FakeCuda/fake_cuda.c
 * takes for cubins: one for sm_80 (which the fake "H200" refuses) before
 * one for sm_90, so the runtime must try them in turn; and FakeHip's
 * HSACOs, gfx90a (refused by the fake "MI300X") before gfx942. Built again with
 * ONLY_SM80 (fake_gpu_scale_sm80.so: no image the fake GPU can run) and
 * with READS_BACK (fake_gpu_scale_readback.so: the host code downloads a
 * value it checks, as data-dependent shapes do, so its runs cannot be
 * replayed from a graph), and with REDUCE_OVERHEAD
 * (fake_gpu_scale_reduce_overhead.so: compiled with
 * --mode=reduce-overhead, so replayed by default). With TUNABLE
 * (fake_gpu_scale_tunable.so) "scale" is a tunable kernel (a site of
 * tc_module_gpu_sites_v2) with two alternatives, "scale_4us" and
 * "scale_12us", that compute the same and take 4 and 12 us on the fake
 * GPU's clock against the heuristic kernel's 10; with MAX_AUTOTUNE as well
 * (fake_gpu_scale_max_autotune.so) it is marked --mode=max-autotune. */
#include "tc-runtime/module_abi.h"

#include <stdlib.h>

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\n"
                                     "name gpu_scale\n"
                                     "input x f32 1 ?n\n"
                                     "output y f32 1 ?n\n"
                                     "target cpu x86-64\n"
                                     "target cuda:sm_80\n"
#ifndef ONLY_SM80
                                     "target cuda:sm_90\n"
                                     "target rocm:gfx90a\n"
                                     "target rocm:gfx942\n"
#endif
#ifdef REDUCE_OVERHEAD
                                     "mode reduce-overhead\n"
#endif
#ifdef MAX_AUTOTUNE
                                     "mode max-autotune\n"
#endif
    ;

int32_t tc_module_run_v1(const tc_run_env_v1 *env, void *const *inputs,
                         const int64_t *input_dims, void **output_allocations,
                         void **output_data, int64_t *output_dims) {
  (void)env;
  int64_t n = input_dims[0];
  float *y = malloc(n ? (size_t)n * 4 : 4);
  if (!y)
    return TC_RUN_OUT_OF_MEMORY;
  const float *x = inputs[0];
  for (int64_t i = 0; i < n; ++i)
    y[i] = x[i] * 2 + 1;
  output_allocations[0] = output_data[0] = y;
  output_dims[0] = n;
  return TC_RUN_OK;
}

#ifdef TUNABLE
const uint32_t tc_module_gpu_kernel_count_v1 = 4;
const char *const tc_module_gpu_kernels_v1[] = {"scale", "shift", "scale_4us",
                                                "scale_12us"};
static const uint32_t alternative_kernels[] = {2, 3};
static const uint32_t heuristic_kernels[] = {0};
const uint32_t tc_module_gpu_site_count_v1 = 1;
const tc_gpu_site_v2 tc_module_gpu_sites_v2[] = {
    {"gpu-0123456789abcdef",
     "#fusion.kernel_config<strategy = \"tiled-contraction\", tile = [64, 64, "
     "16], workgroups = 0, stages = 2>\n"
     "#fusion.kernel_config<strategy = \"tiled-contraction\", tile = [32, 32, "
     "16], workgroups = 0, stages = 2>",
     2, alternative_kernels, 1, heuristic_kernels}};
#else
const uint32_t tc_module_gpu_kernel_count_v1 = 2;
const char *const tc_module_gpu_kernels_v1[] = {"scale", "shift"};
#endif
static const char sm80[] = "FAKECUBIN sm_80";
static const char sm90[] = "FAKECUBIN sm_90";
static const char gfx90a[] = "FAKEHSACO gfx90a";
static const char gfx942[] = "FAKEHSACO gfx942";
#ifdef ONLY_SM80
const uint32_t tc_module_gpu_image_count_v1 = 1;
#else
const uint32_t tc_module_gpu_image_count_v1 = 4;
#endif
const tc_gpu_image_v1 tc_module_gpu_images_v1[] = {
    {"cuda:sm_80", "cubin", sm80, sizeof(sm80)},
    {"cuda:sm_90", "cubin", sm90, sizeof(sm90)},
    {"rocm:gfx90a", "hsaco", gfx90a, sizeof(gfx90a)},
    {"rocm:gfx942", "hsaco", gfx942, sizeof(gfx942)},
};

#ifdef TUNABLE
static int32_t run(const tc_gpu_env_v2 *env, uint32_t scale_kernel,
                   void *const *inputs, const int64_t *input_dims,
                   void **output_allocations, void **output_data,
                   int64_t *output_dims);

int32_t tc_module_gpu_run_v3(const tc_gpu_env_v3 *env, void *const *inputs,
                             const int64_t *input_dims,
                             void **output_allocations, void **output_data,
                             int64_t *output_dims) {
  int32_t choice = env->choices[0];
  return run(&env->v2, choice < 0 ? 0 : alternative_kernels[choice], inputs,
             input_dims, output_allocations, output_data, output_dims);
}

static int32_t run(const tc_gpu_env_v2 *env, uint32_t scale_kernel,
                   void *const *inputs, const int64_t *input_dims,
                   void **output_allocations, void **output_data,
                   int64_t *output_dims) {
#else
int32_t tc_module_gpu_run_v2(const tc_gpu_env_v2 *env, void *const *inputs,
                             const int64_t *input_dims,
                             void **output_allocations, void **output_data,
                             int64_t *output_dims) {
  uint32_t scale_kernel = 0;
#endif
  int64_t n = input_dims[0];
  int64_t bytes = n ? n * 4 : 4;
  void *temp = env->alloc(env->runtime, bytes);
  void *out = env->alloc(env->runtime, bytes);
  if (!temp || !out) {
    if (temp)
      env->release(env->runtime, temp);
    if (out)
      env->release(env->runtime, out);
    return TC_RUN_OUT_OF_MEMORY;
  }
  uint32_t dims[6] = {(uint32_t)((n + 127) / 128), 1, 1, 128, 1, 1};
  void *in = inputs[0];
  void *scale[3] = {&in, &temp, &n};
  env->launch(env->runtime, scale_kernel, dims, scale, 3);
  void *shift[3] = {&temp, &out, &n};
  env->launch(env->runtime, 1, dims, shift, 3);
  env->release(env->runtime, temp);
#ifdef READS_BACK
  float first = 0;
  if (n)
    env->download(env->runtime, &first, out, 4);
  if (first != first) { /* NaN */
    env->release(env->runtime, out);
    return TC_RUN_INVALID_VALUE;
  }
#endif
  output_allocations[0] = output_data[0] = out;
  output_dims[0] = n;
  return TC_RUN_OK;
}
