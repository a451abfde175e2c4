/*===- tc-runtime/runtime.h - C API of the tc runtime ----------------------===*
 *
 * Loads a model.so produced by `tc-compile` and runs it. The API is plain C
 * so that any language with a C FFI can use it; libTcRuntime is written in
 * C++17 but links nothing beyond libc, libdl and the thread library.
 *
 * Conventions
 *   - Objects are opaque handles (tc_runtime, tc_device, tc_module,
 *     tc_tensor) created by a tc_*_create / tc_*_load function and destroyed
 *     with the matching tc_*_release. Releasing NULL is a no-op.
 *   - Every function that can fail returns a tc_status: NULL means success;
 *     anything else is an error the caller owns and frees with
 *     tc_status_free. Results come back through out_ parameters, which are
 *     only written on success.
 *   - Strings returned by query functions are owned by the object queried
 *     and stay valid until it is released.
 *   - Handles can be released in any order: a module or device does not
 *     keep its runtime alive nor need it, and a tensor returned by a run does
 *     not need its module or device.
 *   - Thread safety: query functions and tc_module_run may be called from
 *     several threads at once. Concurrent runs on one device share its
 *     thread pool and take turns for each parallel region.
 *   - No C++ exception crosses this API: a failure inside the runtime,
 *     running out of memory or threads included, is a status.
 *   - A model.so is code. Loading one runs its initializers and running it
 *     runs its kernels with the caller's privileges, like any shared
 *     library: load only artifacts you trust (that you compiled, or that
 *     come from someone you trust). tc_module_load's checks catch damaged
 *     files, not malicious ones.
 *
 * Typical use:
 *   tc_runtime *rt; tc_device *dev; tc_module *m;
 *   tc_runtime_create(NULL, &rt);
 *   tc_device_create(rt, "cpu", &dev);
 *   tc_module_load(rt, "model.so", &m);
 *   tc_tensor *in[1], *out[1];  ... tc_tensor_create_copy(...) ...
 *   tc_module_run(m, dev, in, 1, out, 1);
 *   ... tc_tensor_data(out[0]) ...
 *   tc_tensor_release(out[0]); tc_tensor_release(in[0]);
 *   tc_module_release(m); tc_device_release(dev); tc_runtime_release(rt);
 *   (each call's tc_status checked and freed)
 *===----------------------------------------------------------------------===*/

#ifndef TC_RUNTIME_RUNTIME_H
#define TC_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TC_API __declspec(dllexport)
#else
#define TC_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===------------------------------ status ------------------------------===*/

/* The largest tc_runtime_options.num_threads. */
#define TC_MAX_THREADS 4096

typedef enum tc_status_code_t {
  TC_STATUS_OK = 0,
  /* A caller-supplied value is wrong (bad spec string, dtype, shape...). */
  TC_STATUS_INVALID_ARGUMENT = 1,
  /* A file or symbol does not exist or cannot be read. */
  TC_STATUS_NOT_FOUND = 2,
  /* The request is valid but this runtime build cannot serve it (a device
   * kind it was built without). */
  TC_STATUS_UNAVAILABLE = 3,
  /* A module was built for another ABI version, or is not a tc module. */
  TC_STATUS_INCOMPATIBLE = 4,
  /* A module's metadata does not follow the grammar of module_abi.h. */
  TC_STATUS_MALFORMED = 5,
  /* Memory could not be allocated (by the runtime or the module). */
  TC_STATUS_OUT_OF_MEMORY = 6,
  /* The model rejected a value it computed (TC_RUN_INVALID_VALUE). */
  TC_STATUS_INVALID_VALUE = 7,
  /* Anything else, including unknown module error codes. */
  TC_STATUS_INTERNAL = 8,
  /* The system refused a resource other than memory (threads, files). */
  TC_STATUS_RESOURCE_EXHAUSTED = 9,
} tc_status_code_t;

/* NULL is success; otherwise an error owned by whoever received it. */
typedef struct tc_status_s *tc_status;

/* The code of `status` (TC_STATUS_OK for NULL). */
TC_API tc_status_code_t tc_status_code(tc_status status);
/* The message of `status` ("" for NULL), owned by the status: valid until
 * tc_status_free. */
TC_API const char *tc_status_message(tc_status status);
/* Frees `status`; NULL is a no-op. */
TC_API void tc_status_free(tc_status status);
/* A short name of a code ("INVALID_ARGUMENT"), static storage. */
TC_API const char *tc_status_code_name(tc_status_code_t code);

/*===------------------------------ dtypes ------------------------------===*/

/* The element types of module_abi.h. Values are stable (part of the API). */
typedef enum tc_dtype_t {
  TC_DTYPE_INVALID = 0,
  TC_DTYPE_F16 = 1,
  TC_DTYPE_BF16 = 2,
  TC_DTYPE_F32 = 3,
  TC_DTYPE_F64 = 4,
  TC_DTYPE_I8 = 5,
  TC_DTYPE_I16 = 6,
  TC_DTYPE_I32 = 7,
  TC_DTYPE_I64 = 8,
  TC_DTYPE_U8 = 9,
  TC_DTYPE_U16 = 10,
  TC_DTYPE_U32 = 11,
  TC_DTYPE_U64 = 12,
  TC_DTYPE_BOOL = 13, /* one byte holding 0 or 1 */
  /* Narrow types, one byte per element (layout: module_abi.h). */
  TC_DTYPE_F8E4M3FN = 14,
  TC_DTYPE_F8E4M3FNUZ = 15,
  TC_DTYPE_F8E5M2 = 16,
  TC_DTYPE_F8E5M2FNUZ = 17,
  TC_DTYPE_F8E8M0FNU = 18,
  TC_DTYPE_F4E2M1FN = 19, /* bit pattern in the low nibble */
  TC_DTYPE_I4 = 20,       /* sign-extended to a byte */
  TC_DTYPE_U4 = 21,
  TC_DTYPE_I2 = 22,       /* sign-extended to a byte */
  TC_DTYPE_U2 = 23,
} tc_dtype_t;

/* The metadata spelling of `dtype` ("f32", "bool"), static storage;
 * "invalid" for values outside the enum. */
TC_API const char *tc_dtype_name(tc_dtype_t dtype);
/* Parses a metadata spelling into *out_dtype. INVALID_ARGUMENT if `name` is
 * not one of the names of module_abi.h. */
TC_API tc_status tc_dtype_from_name(const char *name, tc_dtype_t *out_dtype);
/* Bytes per element (bool and the narrow types: 1); 0 for values outside
 * the enum. */
TC_API size_t tc_dtype_size(tc_dtype_t dtype);

/*===----------------------------- runtime ------------------------------===*/

typedef struct tc_runtime tc_runtime;

/* Fields are added at the end as the runtime grows: fill the struct with
 * tc_runtime_options_init, then set what you need, and build against the
 * header of the libTcRuntime you load (its soname's major version changes
 * with the layout once it reaches 1). */
typedef struct tc_runtime_options {
  /* Threads of each cpu device created from this runtime, the calling thread
   * included: 0 = all hardware threads, 1 = run everything on the thread
   * that calls tc_module_run; at most TC_MAX_THREADS (INVALID_ARGUMENT
   * above). tc_device_create returns RESOURCE_EXHAUSTED when the system
   * refuses to start that many. */
  int32_t num_threads;
  /* GPU devices (cuda:N, hip:N, auto on a GPU): 1 = replay runs as graphs
   * (CUDA graphs, HIP graphs), 0 = launch each kernel from the host, -1 (the
   * default) = graphs for modules compiled with --mode=reduce-overhead
   * (tc_module_mode), kernel launches for the others. With
   * 1, the second run of a module at the same input shapes records its
   * kernel launches into a graph, and later runs at those shapes copy the
   * inputs in, launch the graph with one call and copy the outputs out:
   * the host work and launch latency of each kernel are gone, which is most
   * of a small model's time (torch.compile's "reduce-overhead"). A module
   * whose host code needs values computed on the GPU (a shape given as
   * data, a loop's condition) is never replayed; each recorded shape keeps
   * its device memory (at most 16 shapes per device). */
  int32_t gpu_graphs;
  /* GPU devices: what the tunable kernels of a module (compiled with
   * --gpu-candidates, or --mode=max-autotune for a GPU) run.
   *   0  the heuristic kernels (until tc_device_set_gpu_choice says
   *      otherwise);
   *   1  the alternatives the device's tuning table chose (tc-tune, or an
   *      earlier first run), applied when a module is loaded on the device;
   *      the heuristic kernel for a kernel the table does not know;
   *   2  as 1, and a module's first run on the device first tunes the
   *      kernels the table does not know, on that run's inputs, and adds
   *      them to the table (tc_module_tune_gpu with its default options);
   *  -1  (the default) 2 for modules compiled with --mode=max-autotune
   *      (tc_module_mode), 1 for the others.
   * The table is the device's file in the cache directory's tuning/
   * folder (tc_device_gpu_tuning_table). */
  int32_t gpu_tuning;
  /* The cache directory of the tuning tables (tc-compile's compile cache,
   * whose tuning/ folder holds them); NULL or "" for TC_CACHE_DIR, else
   * $XDG_CACHE_HOME/tc, else $HOME/.cache/tc. Copied by
   * tc_runtime_create. */
  const char *cache_dir;
} tc_runtime_options;

/* Fills `options` with the defaults (num_threads = 0, gpu_graphs = -1,
 * gpu_tuning = -1, cache_dir = NULL). */
TC_API void tc_runtime_options_init(tc_runtime_options *options);

/* Creates a runtime; `options` may be NULL for the defaults and is copied.
 * The caller owns *out_runtime and frees it with tc_runtime_release.
 * With glibc, the first call raises the C library's heap trim and mmap
 * thresholds (mallopt) for the process: a model's arena and outputs are
 * malloc'd and freed on every run, and with the defaults glibc returns
 * them to the system and page-faults them back in each time, a large part
 * of a small model's latency. */
TC_API tc_status tc_runtime_create(const tc_runtime_options *options,
                                   tc_runtime **out_runtime);
TC_API void tc_runtime_release(tc_runtime *runtime);

/* The device spec strings this build can create, comma separated ("cpu"),
 * static storage. */
TC_API const char *tc_runtime_available_devices(void);

/* tc's version ("0.1.0", the project version of the build), static storage.
 * The Python package's tc.__version__ is this string. */
TC_API const char *tc_version(void);

/*===----------------------------- devices ------------------------------===*/

typedef struct tc_device tc_device;

/* Creates a device from a spec string:
 *   "cpu"    the host CPU with a pool of options.num_threads threads
 *   "cuda:N" NVIDIA GPU N, through libcuda.so.1 (loaded now, with dlopen)
 *   "hip:N"  AMD GPU N, through libamdhip64.so
 *   "auto"   cuda:0 where an NVIDIA GPU works, else hip:0, else the CPU;
 *            a module without code for the GPU found runs on the CPU
 * A GPU spec on a machine without the driver or without that GPU is
 * UNAVAILABLE, with a message saying which and listing the GPUs that exist.
 * Running a module on a GPU device copies host inputs to the device and
 * the outputs back into host tensors (unless tc_run_options asks to leave
 * them on the GPU; inputs already on it are read in place); a module compiled without a target of
 * that GPU's vendor and architecture is UNAVAILABLE, naming its targets.
 * Anything else is INVALID_ARGUMENT naming the string. Creating a cpu device
 * starts its worker threads. The caller owns *out_device and frees it with
 * tc_device_release (which joins the threads); no run may be in flight on
 * it then. */
TC_API tc_status tc_device_create(tc_runtime *runtime, const char *spec,
                                  tc_device **out_device);
TC_API void tc_device_release(tc_device *device);
/* The canonical spec of `device` ("cpu", "cuda:0"), owned by the device. */
TC_API const char *tc_device_spec(const tc_device *device);
/* The number of CPU threads that run work on `device`, the caller
 * included (0 for a GPU device). */
TC_API int32_t tc_device_num_threads(const tc_device *device);
/* How many runs on `device` replayed a graph (tc_runtime_options.gpu_graphs)
 * so far, the run that recorded one included: 0 on the CPU, with graphs
 * off, or for modules whose host code needs values from the GPU. */
TC_API int64_t tc_device_graph_runs(const tc_device *device);

/*===----------------------------- modules ------------------------------===*/

typedef struct tc_module tc_module;

/* Loads a model.so (dlopen RTLD_NOW | RTLD_LOCAL; a path without '/' is
 * taken relative to the working directory, not searched for), checks its
 * ABI version and parses its metadata. Before anything of the file is
 * mapped, it must be a regular file, an ELF shared object for this machine
 * whose headers and loadable segments lie within the file, and match the
 * checksum tc-compile sealed it with (module_abi.h), so that a truncated
 * or damaged file is refused instead of crashing the process. Each call
 * loads the file as it is now: loading a path again after the file was
 * replaced (recompiled) gives the new code, while modules loaded earlier
 * keep theirs. Loading the same unchanged file twice shares its code.
 * Only load trusted files: loading runs the module's initializers (see
 * Conventions). Errors: NOT_FOUND (the file cannot be read), INVALID_ARGUMENT
 * (not a regular file), INCOMPATIBLE (not a shared library for this
 * machine, damaged, not sealed by tc-compile, not a tc module, or another
 * ABI version), MALFORMED (metadata). The caller owns *out_module and frees
 * it with tc_module_release, after every run on it has returned. Tensors
 * produced by the module outlive it. */
TC_API tc_status tc_module_load(tc_runtime *runtime, const char *path,
                                tc_module **out_module);
TC_API void tc_module_release(tc_module *module);

/* The model name from the metadata (may be ""), owned by the module. */
TC_API const char *tc_module_name(const tc_module *module);
/* The path it was loaded from, owned by the module. */
TC_API const char *tc_module_path(const tc_module *module);
TC_API size_t tc_module_num_inputs(const tc_module *module);
TC_API size_t tc_module_num_outputs(const tc_module *module);
/* What compiled the module ("tc 0.1.0 llvm 22.1.0"; "" for a module that
 * does not say), owned by the module. */
TC_API const char *tc_module_compiler(const tc_module *module);
/* The CPU it was compiled for ("skylake-avx512"; "" when not recorded) and
 * the CPU features (tc-runtime/cpu_features.h) its code may use; loading
 * it on a CPU without one of them fails with TC_STATUS_INCOMPATIBLE. NULL
 * when index >= tc_module_num_cpu_features. Owned by the module. */
TC_API const char *tc_module_cpu_name(const tc_module *module);
TC_API size_t tc_module_num_cpu_features(const tc_module *module);
TC_API const char *tc_module_cpu_feature(const tc_module *module,
                                         size_t index);
/* The `target` records of the metadata ("cpu x86-64"), owned by the module;
 * NULL when index >= tc_module_num_targets. */
TC_API size_t tc_module_num_targets(const tc_module *module);
TC_API const char *tc_module_target(const tc_module *module, size_t index);
/* The shape buckets compiled into the module (tc-compile --shape-bucket),
 * each spelled "name=extent,..." with the names of the symbolic dimensions
 * it fixes: a run whose inputs have those extents takes the bucket's code,
 * any other run the generic code. Owned by the module; NULL when index >=
 * tc_module_num_shape_buckets. */
TC_API size_t tc_module_num_shape_buckets(const tc_module *module);
TC_API const char *tc_module_shape_bucket(const tc_module *module,
                                          size_t index);

/* The mode the module was compiled in (tc-compile --mode): "default",
 * "reduce-overhead" or "max-autotune"; owned by the module ("" for NULL).
 * A reduce-overhead module's runs on the CPU keep the device's threads
 * awake (spinning) from the start of the run until 50 ms after it, so that
 * neither its kernels nor the next run wait for a thread to wake up; on a
 * GPU its runs replay graphs unless tc_runtime_options.gpu_graphs is 0. */
TC_API const char *tc_module_mode(const tc_module *module);

/* Tunable GPU kernels (a module compiled with --gpu-candidates): site
 * `site` (below tc_module_num_gpu_sites) is a kernel built in
 * tc_module_gpu_site_num_candidates alternative configurations beside its
 * heuristic one; its key names its computation in a tuning table
 * ("gpu-" and 16 hex digits), tc_module_gpu_site_candidate its
 * alternatives' configurations. Strings are owned by the module; "" and 0
 * for an index out of range. */
TC_API size_t tc_module_num_gpu_sites(const tc_module *module);
TC_API const char *tc_module_gpu_site_key(const tc_module *module, size_t site);
TC_API size_t tc_module_gpu_site_num_candidates(const tc_module *module,
                                                size_t site);
TC_API const char *tc_module_gpu_site_candidate(const tc_module *module,
                                                size_t site, size_t candidate);
/* Which alternative tunable kernel `site` of `module` runs on `device` from
 * the next run on: 0 to tc_module_gpu_site_num_candidates - 1, or -1 for
 * the heuristic kernel (the default). Loads the module's kernels on the
 * device if needed and forgets the graphs recorded of the module's runs
 * there. TC_STATUS_INVALID_ARGUMENT for a CPU device, a site or choice out
 * of range. */
TC_API tc_status tc_device_set_gpu_choice(tc_device *device,
                                          const tc_module *module, size_t site,
                                          int32_t choice);

/* The alternative tunable kernel `site` of `module` runs on `device` (for
 * a module not run there yet, the one the device's tuning table will give
 * it): -1 for the heuristic kernel, and for a CPU device and a site out of
 * range. */
TC_API int32_t tc_device_gpu_choice(tc_device *device, const tc_module *module,
                                    size_t site);

/* The tuning table `device` reads and writes: a file in the cache
 * directory's tuning/ folder named after the GPU's model and architecture
 * (an H200 and an H100, both sm_90, keep their own); "" for a CPU device
 * or without a cache directory. Owned by the device. Its lines are
 * "<kernel key> TAB <chosen configuration, or heuristic> TAB <ms> TAB
 * <heuristic ms>" (docs/autotuning.md). */
TC_API const char *tc_device_gpu_tuning_table(const tc_device *device);

/* The signature of one input or output. Every pointer is owned by the
 * module and valid until tc_module_release. */
typedef struct tc_arg_info {
  const char *name; /* unescaped; may be "" */
  tc_dtype_t dtype;
  int32_t rank;
  const int64_t *dims; /* rank entries; -1 for a dynamic extent */
  /* rank entries: the symbol a dynamic extent is tied to, "" for static
   * and anonymous dynamic extents. Equal symbols mean equal extents. */
  const char *const *dim_symbols;
} tc_arg_info;

/* Describes input / output `index`; INVALID_ARGUMENT if out of range. */
TC_API tc_status tc_module_input_info(const tc_module *module, size_t index,
                                      tc_arg_info *out_info);
TC_API tc_status tc_module_output_info(const tc_module *module, size_t index,
                                       tc_arg_info *out_info);
/* Index of the input / output called `name`; NOT_FOUND if none. */
TC_API tc_status tc_module_find_input(const tc_module *module, const char *name,
                                      size_t *out_index);
TC_API tc_status tc_module_find_output(const tc_module *module,
                                       const char *name, size_t *out_index);

/*===----------------------------- tensors ------------------------------===*/

/* A dense row-major array. Reference counted: every create function returns
 * a tensor with one reference owned by the caller; tc_tensor_retain adds one
 * and tc_tensor_release drops one, freeing the tensor (and, as described per
 * function, its buffer) when the last goes. The element data is mutable and
 * not synchronised: do not write it while a run reads it. */
typedef struct tc_tensor tc_tensor;

/* Called once when a wrapped buffer is no longer used. */
typedef void (*tc_tensor_release_fn)(void *user_data, void *data);

/* Allocates a 64-byte aligned buffer and copies `byte_size` bytes from
 * `data` into it. `byte_size` must equal the element count times
 * tc_dtype_size(dtype); `data` may be NULL only if it is 0. `dims` has
 * `rank` non-negative entries (may be NULL if rank is 0). The tensor owns
 * its copy; the caller keeps ownership of `data`. */
TC_API tc_status tc_tensor_create_copy(tc_dtype_t dtype, int32_t rank,
                                       const int64_t *dims, const void *data,
                                       size_t byte_size,
                                       tc_tensor **out_tensor);
/* Like tc_tensor_create_copy but zero-filled. */
TC_API tc_status tc_tensor_create_zeroed(tc_dtype_t dtype, int32_t rank,
                                         const int64_t *dims,
                                         tc_tensor **out_tensor);
/* Wraps an existing buffer without copying. The buffer must stay valid until
 * the tensor is freed; then `release(user_data, data)` is called if
 * `release` is not NULL (also when this function fails, so the buffer never
 * leaks). A run on the CPU reads a buffer aligned to its element type in
 * place (64-byte alignment is fastest) and copies any other into an aligned
 * temporary. */
TC_API tc_status tc_tensor_wrap(tc_dtype_t dtype, int32_t rank,
                                const int64_t *dims, void *data,
                                size_t byte_size, tc_tensor_release_fn release,
                                void *user_data, tc_tensor **out_tensor);
/* Wraps memory of the GPU `device` (cuda:N, hip:N) without copying: `data`
 * is a device pointer of that GPU (a CUdeviceptr, a HIP device pointer), as
 * a framework's GPU tensor holds it. Otherwise as tc_tensor_wrap: the
 * buffer stays valid until the tensor is freed, `release` is called then
 * (and on failure). The tensor keeps what it needs of the device; it may
 * outlive the handle. A run on a device of the same GPU reads it in place
 * (a pointer that is not 64-byte aligned is copied on the GPU first); a
 * run anywhere else refuses it, naming the input. The caller makes sure
 * the GPU has finished writing it: runs use a stream that waits for the
 * GPU's default stream (CUDA's legacy stream, HIP's null stream), not for
 * other streams. INVALID_ARGUMENT when `device` is not a GPU device. */
TC_API tc_status tc_tensor_wrap_device(tc_device *device, tc_dtype_t dtype,
                                       int32_t rank, const int64_t *dims,
                                       void *data, size_t byte_size,
                                       tc_tensor_release_fn release,
                                       void *user_data,
                                       tc_tensor **out_tensor);
/* Where the elements of `tensor` are: "cpu" for host memory, else the
 * spec of the GPU holding them ("cuda:0"). Owned by the tensor. */
TC_API const char *tc_tensor_device(const tc_tensor *tensor);
/* Copies the elements of `source` into `target`, each in host or GPU
 * memory (host to host, host to GPU, GPU to host, or within one GPU).
 * INVALID_ARGUMENT when their dtypes or shapes differ or they are on two
 * different GPUs. Returns when the copy is complete. */
TC_API tc_status tc_tensor_copy(tc_tensor *target, const tc_tensor *source);
TC_API void tc_tensor_retain(tc_tensor *tensor);
TC_API void tc_tensor_release(tc_tensor *tensor);

TC_API tc_dtype_t tc_tensor_dtype(const tc_tensor *tensor);
TC_API int32_t tc_tensor_rank(const tc_tensor *tensor);
/* `rank` extents, owned by the tensor (NULL when rank is 0). */
TC_API const int64_t *tc_tensor_dims(const tc_tensor *tensor);
/* The product of the extents (1 for rank 0). */
TC_API int64_t tc_tensor_num_elements(const tc_tensor *tensor);
/* The elements, owned by the tensor; may be NULL when there are none. For
 * a tensor on a GPU (tc_tensor_device) this is a device pointer. */
TC_API void *tc_tensor_data(const tc_tensor *tensor);
TC_API size_t tc_tensor_byte_size(const tc_tensor *tensor);

/*===------------------------------- run --------------------------------===*/

/* Runs `module` on `device`. `inputs` holds `num_inputs` tensors in the
 * module's input order; they are only read and stay owned by the caller.
 * Before calling the model every input is checked against the signature:
 * count, dtype, rank, static extents, and that inputs agreeing on a symbol
 * agree on its extent (INVALID_ARGUMENT naming the input and axis).
 * `outputs` is an array of `num_outputs` (== tc_module_num_outputs) slots
 * the caller provides; on success each receives a new tensor the caller
 * owns and frees with tc_tensor_release. On failure no slot is written.
 * A model error maps to INVALID_VALUE (TC_RUN_INVALID_VALUE),
 * OUT_OF_MEMORY (TC_RUN_OUT_OF_MEMORY) or INTERNAL (any other code). */
TC_API tc_status tc_module_run(tc_module *module, tc_device *device,
                               tc_tensor *const *inputs, size_t num_inputs,
                               tc_tensor **outputs, size_t num_outputs);

/* Options of tc_module_run_with_options. */
typedef struct tc_run_options {
  /* On a GPU device: 1 = the outputs stay in the GPU's memory (tensors
   * whose tc_tensor_device is the GPU's spec, freed back to the device's
   * memory cache with their last reference, which may come after the
   * device handle is released); 0 = they are copied to host memory. Either
   * way the GPU has finished the run when the call returns. Ignored where
   * the run is on the CPU. */
  int32_t outputs_on_device;
} tc_run_options;

/* Fills `options` with the defaults (outputs_on_device = 0). */
TC_API void tc_run_options_init(tc_run_options *options);

/* tc_module_run with `options` (NULL: the defaults). Inputs may be host
 * tensors or tensors of the run's GPU (tc_tensor_wrap_device, or outputs
 * of an earlier run left on it), which are read in place. */
TC_API tc_status tc_module_run_with_options(
    tc_module *module, tc_device *device, const tc_run_options *options,
    tc_tensor *const *inputs, size_t num_inputs, tc_tensor **outputs,
    size_t num_outputs);

/*===--------------------------- GPU tuning -----------------------------===*/

/* Options of tc_module_tune_gpu. */
typedef struct tc_gpu_tune_options {
  /* Timed runs stop once this many seconds have passed since the tuning
   * began (each kernel key then decides on the rounds it completed). */
  double budget_seconds;
  /* Timed rounds: each runs the model once per trial (the heuristic
   * kernels, then every kernel's alternative 0, 1, ...). */
  int32_t rounds;
  /* 1: also time the kernel keys the table already knows. */
  int32_t retune;
  /* 1: read the device's tuning table first (its keys are not timed again
   * unless retune) and write the results to it; 0: neither. */
  int32_t use_table;
} tc_gpu_tune_options;

/* Fills `options` with the defaults (budget_seconds = 60, rounds = 5,
 * retune = 0, use_table = 1). */
TC_API void tc_gpu_tune_options_init(tc_gpu_tune_options *options);

/* What a tuning did. Times are per run of the model, summed over the
 * timed kernel keys' kernels, each key's best round. */
typedef struct tc_gpu_tune_report {
  int64_t sites;            /* tunable kernels of the module */
  int64_t keys;             /* distinct kernel keys among them */
  int64_t keys_from_table;  /* keys whose choice the table gave */
  int64_t keys_tuned;       /* keys timed now */
  int64_t keys_changed;     /* of those, keys now running an alternative */
  int64_t runs;             /* runs of the model made to time them */
  double heuristic_ms;      /* the timed keys under the heuristic kernels */
  double tuned_ms;          /* and as chosen */
  double seconds;           /* the tuning's wall time */
  int32_t budget_exhausted; /* the budget ended the rounds early */
} tc_gpu_tune_report;

/* Tunes `module`'s tunable kernels on GPU `device` with `inputs` (checked
 * as tc_module_run checks them; the outputs are dropped): a warm-up round,
 * then `rounds` rounds in which the model runs once with every kernel at
 * its heuristic alternative and once per alternative index c with every
 * kernel at its c-th; each launch of a tunable kernel is timed with GPU
 * events. Per kernel key (sites with one key are timed and chosen
 * together), an alternative replaces the heuristic kernel only if it is
 * faster by 5 % in every round; of those the fastest by its best round
 * wins. The choices take effect on the device at once (as
 * tc_device_set_gpu_choice's do) and, with use_table, go into the
 * device's tuning table. `options` may be NULL for the defaults;
 * `out_report` may be NULL. INVALID_ARGUMENT for a CPU device or bad
 * inputs; UNAVAILABLE where the driver cannot time kernels (no events);
 * MALFORMED for a tuning table that does not follow the format (its
 * path and line named); a run's error as tc_module_run gives it (the
 * choices then stay as they were). A module without tunable kernels is
 * tuned at once (a report of zeros). */
TC_API tc_status tc_module_tune_gpu(tc_module *module, tc_device *device,
                                    tc_tensor *const *inputs, size_t num_inputs,
                                    const tc_gpu_tune_options *options,
                                    tc_gpu_tune_report *out_report);

/* The report of `module`'s last tuning on `device` (tc_module_tune_gpu, or
 * the first run's under gpu_tuning 2), and how that tuning ended: NULL if
 * it succeeded, else its error (a first run that could not tune runs the
 * kernels the table chose, else the heuristic ones, and keeps the error
 * here). NOT_FOUND if the module was not tuned there. */
TC_API tc_status tc_device_gpu_tune_report(tc_device *device,
                                           const tc_module *module,
                                           tc_gpu_tune_report *out_report);

/*===----------------------------- profiles -----------------------------===*/

/* The time each kernel of a module takes, measured by the runtime around
 * every parallel dispatch of the CPU code (the CPU device, and the
 * gpu-emulation build). tc_module_set_profiling(module, 1) clears the
 * counters and starts counting the runs that begin from then on; 0 stops.
 * Counting costs two clock reads per kernel call. Safe to call between
 * runs; runs in flight on other threads may or may not be counted. */
TC_API void tc_module_set_profiling(tc_module *module, int32_t enabled);

/* The kernels the module reports (0 for a module compiled without the
 * table, or one that only runs on a GPU). */
TC_API size_t tc_module_num_kernels(const tc_module *module);

typedef struct tc_kernel_profile {
  const char *name;  /* "k12", unique in the module */
  const char *ops;   /* ONNX op types, '+' separated ("Conv+Relu"); may be "" */
  const char *nodes; /* ONNX node names, one per line; may be "" */
  int64_t calls;       /* dispatches counted */
  int64_t workgroups;  /* workgroups they ran, in total */
  int64_t nanoseconds; /* wall time inside the dispatches, in total */
} tc_kernel_profile;

/* Kernel `index` and its counters; INVALID_ARGUMENT if out of range. The
 * strings are owned by the module. */
TC_API tc_status tc_module_kernel_profile(const tc_module *module, size_t index,
                                          tc_kernel_profile *out_profile);

/* The profiled runs: their number and their total wall time inside
 * tc_module_run's call of the model (so that the time outside kernels is
 * the difference from the kernels' sum). */
TC_API void tc_module_profile_runs(const tc_module *module, int64_t *out_runs,
                                   int64_t *out_nanoseconds);

#ifdef __cplusplus
}
#endif

#endif /* TC_RUNTIME_RUNTIME_H */
