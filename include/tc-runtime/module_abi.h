/*===- tc-runtime/module_abi.h - the contract between model.so and runtime -===*
 *
 * A model.so produced by `tc-compile` exports exactly these symbols. The
 * runtime (lib/Runtime) is their only intended caller; users go through
 * tc-runtime/runtime.h. The ABI is versioned: a runtime refuses a module whose
 * `tc_module_abi_version` it does not know.
 *
 *   const uint32_t tc_module_abi_version;      == TC_MODULE_ABI_VERSION
 *   const char     tc_module_metadata_v1[];    NUL-terminated text, below
 *   int32_t        tc_module_run_v1(const tc_run_env_v1 *env,
 *                                   void *const *inputs,
 *                                   const int64_t *input_dims,
 *                                   void **output_allocations,
 *                                   void **output_data,
 *                                   int64_t *output_dims);
 *
 * Metadata grammar (one record per line, fields separated by one space):
 *
 *   tc-module 1
 *   name <escaped-name>
 *   input <escaped-name> <dtype> <rank> <dim>*
 *   output <escaped-name> <dtype> <rank> <dim>*
 *   target <name>                  (e.g. "cpu x86-64"; one line per target)
 *   compiler <description>         (optional: "tc 0.1.0 llvm 22.1.0")
 *   cpu <name> <feature>*          (optional: the CPU compiled for and the
 *                                   tc-runtime/cpu_features.h features its
 *                                   code may use; the runtime refuses the
 *                                   module on a CPU lacking any)
 *   bucket <escaped-name>=<extent>+  (optional, one per shape bucket:
 *                                   tc_module_run_v1 runs code compiled for
 *                                   these extents of the named symbolic
 *                                   dimensions when the inputs have them)
 *   mode <mode>                    (optional, at most once: default,
 *                                   reduce-overhead or max-autotune, the
 *                                   tc-compile --mode; reduce-overhead asks
 *                                   the runtime to keep its CPU threads
 *                                   awake between runs and to replay GPU
 *                                   runs as graphs; absent means default)
 *
 * <dtype> is one of f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 bool
 * f8e4m3fn f8e4m3fnuz f8e5m2 f8e5m2fnuz f8e8m0fnu f4e2m1fn i4 u4 i2 u2.
 * bool elements are one byte holding 0 or 1. The narrow types also take one
 * byte per element, never packed (ONNX packs 4- and 2-bit values; tools
 * unpack them): i4 u4 i2 u2 hold the value as an 8-bit integer, sign-extended
 * for i4/i2 and zero-extended for u4/u2; f8* hold their 8-bit pattern (the
 * MLIR/ml_dtypes formats of the same names); f4e2m1fn holds its 4-bit pattern
 * in the low nibble with the high nibble zero. A module reads only the bits
 * that belong to the type.
 * <dim> is a non-negative decimal integer for a static extent, "?<symbol>"
 * for a dynamic extent tied to the named symbol (ONNX dim_param; equal
 * symbols must have equal extents at run time), or "?" for an anonymous
 * dynamic extent.
 * <escaped-name>: bytes outside [A-Za-z0-9_.:/-] are written as %XX (two
 * upper-case hex digits); the empty name is written as "%".
 *
 * Calling tc_module_run_v1:
 *   inputs[i]        points to input i, dense row-major, suitably aligned
 *                    for its element type (64-byte alignment is best).
 *   input_dims       the extents of every input, concatenated in input
 *                    order (sum of input ranks entries).
 *   output_*         arrays sized by the metadata: one allocation/data
 *                    pointer per output, and the output extents concatenated
 *                    in output order. On success, output i is dense
 *                    row-major at output_data[i]; output_allocations[i] was
 *                    obtained from the C library's malloc and the caller owns
 *                    it (release it with free()). It may be NULL when the
 *                    output has no elements.
 *   The inputs are only read. The caller has already checked the input
 *   count, dtypes, static extents and the consistency of symbolic extents.
 *   Returns 0 on success; a non-zero value is an error code (TC_RUN_*).
 *   On failure the module has released everything it allocated.
 *
 * Run-time checks (optional symbol):
 *
 *   const char tc_module_check_messages_v1[];  "msg0\0msg1\0...\0\0"
 *
 * A module whose generated code checks values computed at run time (a size
 * read from data, an image that must decode) lists one message per check,
 * each NUL-terminated, the list ended by an empty string. When check k
 * fails, the run returns TC_RUN_CHECK_FAILED + k; if several fail, the one
 * with the largest k is returned.
 *
 * Weights (optional symbol):
 *
 *   char           tc_module_weights_v1[];     zero-fill region
 *
 * A module with large constants reserves this region for them and carries
 * their bytes after its ELF contents; the runtime maps them over the region
 * after dlopen and before any other call (tc-runtime/module_weights.h).
 * Until then the region reads as zeros, so a module is only usable through
 * a loader that does this.
 *
 * Kernels (optional symbols, for profiles):
 *
 *   const uint32_t      tc_module_kernel_count_v1;
 *   const tc_kernel_v1  tc_module_kernels_v1[];
 *
 * Every env->parallel_for of tc_module_run_v1 passes the `fn` of one entry
 * of the table; the entry names the kernel and the ONNX nodes it computes,
 * so a runtime can attribute the time of each call.
 *
 * GPU targets (optional symbols; a module compiled with --target=cuda:* or
 * rocm:* has them beside the CPU entry point, which it always has):
 *
 *   const uint32_t          tc_module_gpu_kernel_count_v1;
 *   const char *const       tc_module_gpu_kernels_v1[];   kernel symbols
 *   const uint32_t          tc_module_gpu_image_count_v1;
 *   const tc_gpu_image_v1   tc_module_gpu_images_v1[];    one per target
 *   const uint32_t          tc_module_gpu_site_count_v1;
 *   const tc_gpu_site_v2    tc_module_gpu_sites_v2[];     tunable kernels
 *   int32_t tc_module_gpu_run_v3(const tc_gpu_env_v3 *env, ...);
 *
 * (A module with tc_module_gpu_run_v1, whose environment had no download
 * or upload, was built by an older tc: the runtime runs it on the CPU only
 * and asks for a recompile when a GPU is requested. A module with
 * tc_module_gpu_run_v2 has no tunable kernels: it reads the first seven
 * fields of the same environment.)
 *
 * Tunable kernels (tc-compile --gpu-candidates): site s of
 * tc_module_gpu_sites_v2 is a kernel built in num_candidates alternative
 * configurations beside its heuristic one; the host code runs alternative
 * env->choices[s] (its kernel: kernels[env->choices[s]]), or for -1 the
 * heuristic kernel (one of heuristic_kernels, chosen from the extents).
 * env->choices has one entry per site, each -1 or below num_candidates of
 * its site. A site's kernels are launched by that site only, so that a
 * runtime timing the launches of each kernel times the site's choice.
 *
 * tc_module_gpu_run_v3 takes the arguments of tc_module_run_v1, with device
 * pointers for inputs[i] and output_data[i]; output_allocations[i] are
 * device allocations made through env->alloc, which the caller owns
 * (release them through the same device). Every image defines every kernel
 * of tc_module_gpu_kernels_v1; kernel index k in env->launch names entry k.
 * env->launch passes `params` (num_params pointers, one per kernel
 * parameter, to values the driver copies) to the kernel with the given grid
 * and block; weights and other constants reach kernels through
 * env->constant; an error in alloc, constant, launch, download or upload is
 * kept by the runtime (alloc then returns NULL, later launches and copies do
 * nothing, downloads fill the host memory with zeros) and reported after the
 * run. Host code that needs a value computed on the device (a shape given as
 * data, a loop's condition, a count of selected elements) copies it with
 * env->download, which returns once the value is in host memory, after
 * every kernel launched before it has finished; env->upload copies host
 * memory to the device and returns once the host memory may be reused.
 *
 * Parallelism: the module splits each kernel into `count` independent
 * workgroups and asks the runtime to run them with env->parallel_for, which
 * calls fn(args, begin, end) on disjoint ranges covering [0, count) and
 * returns when all have finished. A runtime without threads may simply call
 * fn(args, 0, count).
 *===----------------------------------------------------------------------===*/

#ifndef TC_RUNTIME_MODULE_ABI_H
#define TC_RUNTIME_MODULE_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_MODULE_ABI_VERSION 1

#define TC_RUN_OK 0
/* A value computed inside the model was out of range for an operation
 * (for example a shape given as data that does not match the input). */
#define TC_RUN_INVALID_VALUE 1
/* The module could not allocate memory. */
#define TC_RUN_OUT_OF_MEMORY 2
/* Codes from TC_RUN_CHECK_FAILED up: run-time check (code -
 * TC_RUN_CHECK_FAILED) of tc_module_check_messages_v1 failed. */
#define TC_RUN_CHECK_FAILED 256

typedef void (*tc_workgroup_fn_v1)(void *args, int64_t begin, int64_t end);

/* One kernel of tc_module_kernels_v1: `fn` is what env->parallel_for
 * receives; `name` is unique in the module ("k12"); `ops` the ONNX op
 * types the kernel computes, '+' separated ("Conv+Relu"); `nodes` the ONNX
 * node names, one per line (either may be "" for a kernel that only moves
 * data). */
typedef struct tc_kernel_v1 {
  tc_workgroup_fn_v1 fn;
  const char *name;
  const char *ops;
  const char *nodes;
} tc_kernel_v1;

typedef struct tc_run_env_v1 {
  /* Opaque to the module; passed back to parallel_for. */
  void *runtime;
  void (*parallel_for)(void *runtime, tc_workgroup_fn_v1 fn, void *args,
                       int64_t count);
} tc_run_env_v1;

typedef struct tc_gpu_env_v2 {
  /* Opaque to the module; passed back to every function. */
  void *runtime;
  /* Device memory of `bytes` bytes (64-byte aligned), or NULL on failure. */
  void *(*alloc)(void *runtime, int64_t bytes);
  void (*release)(void *runtime, void *device_pointer);
  /* dims: grid x, y, z then block x, y, z. */
  void (*launch)(void *runtime, uint32_t kernel, const uint32_t *dims,
                 void **params, uint32_t num_params);
  /* The device copy of the module's constant `index` (`bytes` bytes at
   * `host`, in the module's read-only data): uploaded on first use and kept
   * while the module is loaded on the device, or NULL on failure. */
  void *(*constant)(void *runtime, uint32_t index, const void *host,
                    int64_t bytes);
  /* `bytes` bytes from device memory to host memory, and back. */
  void (*download)(void *runtime, void *host, const void *device,
                   int64_t bytes);
  void (*upload)(void *runtime, void *device, const void *host,
                 int64_t bytes);
} tc_gpu_env_v2;

/* tc_gpu_env_v2, then the choice of each tunable kernel: one per site of
 * tc_module_gpu_sites_v1 (may be NULL for a module without sites). */
typedef struct tc_gpu_env_v3 {
  tc_gpu_env_v2 v2;
  const int32_t *choices;
} tc_gpu_env_v3;

/* A tunable kernel: `key` names its computation in a tuning table
 * ("gpu-" and 16 hex digits); `candidates` its alternatives'
 * configurations, one per line (#fusion.kernel_config<...>); `kernels` the
 * kernel index (of tc_module_gpu_kernels_v1) each alternative launches;
 * `heuristic_kernels` those the heuristic alternative may launch. */
typedef struct tc_gpu_site_v2 {
  const char *key;
  const char *candidates;
  uint32_t num_candidates;
  const uint32_t *kernels;
  uint32_t num_heuristic_kernels;
  const uint32_t *heuristic_kernels;
} tc_gpu_site_v2;

typedef struct tc_gpu_image_v1 {
  const char *target; /* "cuda:sm_90", "rocm:gfx942" */
  const char *format; /* "cubin", "ptx" or "hsaco" */
  const void *data;
  uint64_t size;
} tc_gpu_image_v1;

typedef int32_t (*tc_module_gpu_run_v2_fn)(const tc_gpu_env_v2 *env,
                                           void *const *inputs,
                                           const int64_t *input_dims,
                                           void **output_allocations,
                                           void **output_data,
                                           int64_t *output_dims);

typedef int32_t (*tc_module_gpu_run_v3_fn)(
    const tc_gpu_env_v3 *env, void *const *inputs, const int64_t *input_dims,
    void **output_allocations, void **output_data, int64_t *output_dims);

typedef int32_t (*tc_module_run_v1_fn)(const tc_run_env_v1 *env,
                                       void *const *inputs,
                                       const int64_t *input_dims,
                                       void **output_allocations,
                                       void **output_data,
                                       int64_t *output_dims);

#ifdef __cplusplus
}
#endif

#endif /* TC_RUNTIME_MODULE_ABI_H */
