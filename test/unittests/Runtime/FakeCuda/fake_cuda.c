/*===- fake_cuda.c - a libcuda.so.1 over host memory, for tests -----------===*
 *
 * See fake_cuda.h. Only the entry points CudaDriver.cpp binds exist; their
 * signatures are the driver API's (64-bit device pointers, the _v2 names).
 *
 *===----------------------------------------------------------------------===*/

#include "fake_cuda.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
/* The driver API's entry points: exported here; internal where
 * FakeHip/fake_hip.c builds the HIP runtime's on them. */
#ifndef DRIVER_API
#define DRIVER_API EXPORT
#endif
/* The device's name, and the text of the images it loads. */
#ifndef FAKE_DEVICE_NAME
#define FAKE_DEVICE_NAME "Fake H200"
#define FAKE_IMAGE_KIND "FAKECUBIN "
#define FAKE_IMAGE_ARCH "sm_90"
#endif

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
  CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
};

#define NUM_DEVICES 2

static fake_cuda_state state;
static int initialized;

/* A primary context: alive while retained. A handle kept past the last
 * release stays current but fails every call, as a destroyed one does. */
typedef struct context {
  int device;
  int alive;
} context;
static context contexts[NUM_DEVICES];
static __thread context *current;

typedef struct module {
  int magic;
} module;
#define MODULE_MAGIC 0x6d6f64

/* Kernels are named "scale" (y = x * 2) or "shift" (y = x + 1), each
 * optionally followed by "_<N>us": the time a launch takes on the fake
 * clock that events read (10 us without). */
typedef struct kernel {
  char name[32];
  int doubles;
  double microseconds;
} kernel;
#define MAX_KERNELS 32
static kernel kernels[MAX_KERNELS];
static int num_kernels;

/* The fake GPU's clock, advanced by each launch run. */
static double clock_us;

typedef struct event {
  int magic;
  int recorded;
  double time_us;
} event;
#define EVENT_MAGIC 0x657674

/* A launch, run now or recorded into a graph. */
typedef struct launch {
  const kernel *k;
  const float *in;
  float *out;
  int64_t n;
} launch;

typedef struct graph {
  launch *launches;
  int count;
} graph;

typedef struct stream {
  graph *capture; /* non-null while capturing */
  int invalidated;
} stream;

/* Copies and synchronization are not captured (here): they invalidate the
 * capture, as an unsupported operation does in the real driver. */
static int refuse_if_capturing(void *handle) {
  stream *s = handle;
  if (!s || !s->capture)
    return CUDA_SUCCESS;
  s->invalidated = 1;
  return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

EXPORT fake_cuda_state *fake_cuda_state_get(void) { return &state; }

/* Memory, modules and launches need a live current context. */
static int need_context(void) {
  if (!initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  return current && current->alive ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

DRIVER_API int cuInit(unsigned flags) {
  if (flags)
    return CUDA_ERROR_INVALID_VALUE;
  initialized = 1;
  return CUDA_SUCCESS;
}

DRIVER_API int cuDeviceGetCount(int *count) {
  *count = NUM_DEVICES;
  return initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

DRIVER_API int cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= NUM_DEVICES)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

DRIVER_API int cuDeviceGetName(char *name, int length, int device) {
  (void)device;
  strncpy(name, FAKE_DEVICE_NAME, (size_t)length);
  return CUDA_SUCCESS;
}

DRIVER_API int cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  /* Compute capability 9.0. */
  *value = attribute == 75 ? 9 : attribute == 76 ? 0 : 0;
  return CUDA_SUCCESS;
}

DRIVER_API int cuDevicePrimaryCtxRetain(void **out, int device) {
  if (device < 0 || device >= NUM_DEVICES)
    return CUDA_ERROR_INVALID_DEVICE;
  if (state.retains[device]++ == 0) {
    ++state.contexts_created;
    contexts[device].device = device;
    contexts[device].alive = 1;
  }
  *out = &contexts[device];
  return CUDA_SUCCESS;
}

DRIVER_API int cuDevicePrimaryCtxRelease_v2(int device) {
  if (device < 0 || device >= NUM_DEVICES || state.retains[device] == 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (--state.retains[device] == 0) {
    ++state.contexts_destroyed;
    contexts[device].alive = 0;
  }
  return CUDA_SUCCESS;
}

DRIVER_API int cuCtxSetCurrent(void *ctx) {
  current = ctx;
  return CUDA_SUCCESS;
}

DRIVER_API int cuModuleLoadData(void **out, const void *image) {
  int status = need_context();
  if (status)
    return status;
  const char *text = image;
  size_t kind = strlen(FAKE_IMAGE_KIND);
  if (strncmp(text, FAKE_IMAGE_KIND, kind) != 0)
    return CUDA_ERROR_INVALID_IMAGE;
  if (strcmp(text + kind, FAKE_IMAGE_ARCH) != 0)
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  module *m = malloc(sizeof(module));
  m->magic = MODULE_MAGIC;
  ++state.modules_loaded;
  ++state.modules_live;
  *out = m;
  return CUDA_SUCCESS;
}

DRIVER_API int cuModuleUnload(void *handle) {
  int status = need_context();
  if (status)
    return status;
  module *m = handle;
  if (!m || m->magic != MODULE_MAGIC)
    return CUDA_ERROR_INVALID_HANDLE;
  m->magic = 0;
  free(m);
  --state.modules_live;
  return CUDA_SUCCESS;
}

DRIVER_API int cuModuleGetFunction(void **out, void *handle, const char *name) {
  module *m = handle;
  if (!m || m->magic != MODULE_MAGIC)
    return CUDA_ERROR_INVALID_HANDLE;
  int doubles = strncmp(name, "scale", 5) == 0;
  if (!doubles && strncmp(name, "shift", 5) != 0)
    return CUDA_ERROR_NOT_FOUND;
  double microseconds = 10;
  if (name[5]) {
    char *end = NULL;
    if (name[5] != '_' || (microseconds = strtod(name + 6, &end)) <= 0 ||
        strcmp(end, "us") != 0)
      return CUDA_ERROR_NOT_FOUND;
  }
  for (int i = 0; i < num_kernels; ++i)
    if (strcmp(kernels[i].name, name) == 0) {
      *out = &kernels[i];
      return CUDA_SUCCESS;
    }
  if (num_kernels == MAX_KERNELS || strlen(name) >= sizeof(kernels[0].name))
    return CUDA_ERROR_NOT_FOUND;
  kernel *k = &kernels[num_kernels++];
  strcpy(k->name, name);
  k->doubles = doubles;
  k->microseconds = microseconds;
  *out = k;
  return CUDA_SUCCESS;
}

DRIVER_API int cuMemAlloc_v2(unsigned long long *out, size_t bytes) {
  int status = need_context();
  if (status)
    return status;
  if (bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (state.memory_limit && bytes > state.memory_limit)
    return CUDA_ERROR_OUT_OF_MEMORY;
  /* As the real driver's, aligned to 256 bytes. */
  void *p = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  ++state.allocations_live;
  *out = (unsigned long long)(uintptr_t)p;
  return CUDA_SUCCESS;
}

DRIVER_API int cuMemFree_v2(unsigned long long pointer) {
  int status = need_context();
  if (status)
    return status;
  free((void *)(uintptr_t)pointer);
  --state.allocations_live;
  return CUDA_SUCCESS;
}

DRIVER_API int cuMemcpyHtoDAsync_v2(unsigned long long device, const void *host,
                                size_t bytes, void *stream) {
  int status = need_context();
  if (!status)
    status = refuse_if_capturing(stream);
  if (!status) {
    memcpy((void *)(uintptr_t)device, host, bytes);
    ++state.copies_to_device;
  }
  return status;
}

DRIVER_API int cuMemcpyDtoHAsync_v2(void *host, unsigned long long device,
                                size_t bytes, void *stream) {
  int status = need_context();
  if (!status)
    status = refuse_if_capturing(stream);
  if (!status) {
    memcpy(host, (const void *)(uintptr_t)device, bytes);
    ++state.copies_to_host;
  }
  return status;
}

DRIVER_API int cuMemcpyDtoDAsync_v2(unsigned long long to,
                                    unsigned long long from, size_t bytes,
                                    void *stream) {
  int status = need_context();
  if (!status)
    status = refuse_if_capturing(stream);
  if (!status) {
    memmove((void *)(uintptr_t)to, (const void *)(uintptr_t)from, bytes);
    ++state.copies_on_device;
  }
  return status;
}

DRIVER_API int cuStreamCreate(void **out, unsigned flags) {
  (void)flags;
  int status = need_context();
  if (status)
    return status;
  *out = calloc(1, sizeof(stream));
  ++state.streams_live;
  return CUDA_SUCCESS;
}

DRIVER_API int cuStreamDestroy_v2(void *stream) {
  int status = need_context();
  if (status)
    return status;
  free(stream);
  --state.streams_live;
  return CUDA_SUCCESS;
}

DRIVER_API int cuStreamSynchronize(void *stream) {
  int status = need_context();
  return status ? status : refuse_if_capturing(stream);
}

static void run(const launch *l) {
  for (int64_t i = 0; i < l->n; ++i)
    l->out[i] = l->k->doubles ? l->in[i] * 2 : l->in[i] + 1;
  ++state.launches;
  clock_us += l->k->microseconds;
}

/* params: float *in, float *out, int64_t n (what the fake GPU module
 * passes); one thread per element. */
DRIVER_API int cuLaunchKernel(void *function, unsigned gx, unsigned gy,
                          unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *stream_handle, void **params,
                          void **extra) {
  (void)shared;
  (void)extra;
  int status = need_context();
  if (status)
    return status;
  if (!gx || !gy || !gz || !bx || !by || !bz || !params)
    return CUDA_ERROR_INVALID_VALUE;
  if (state.fail_launches)
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  launch l = {function, *(float **)params[0], *(float **)params[1],
              *(int64_t *)params[2]};
  int64_t threads = (int64_t)gx * gy * gz * bx * by * bz;
  if (l.n > threads)
    l.n = threads;
  stream *s = stream_handle;
  if (s && s->capture) {
    /* The parameters' values are copied when the launch is recorded. */
    graph *g = s->capture;
    g->launches = realloc(g->launches, sizeof(launch) * (size_t)(g->count + 1));
    g->launches[g->count++] = l;
  } else {
    run(&l);
  }
  return CUDA_SUCCESS;
}

DRIVER_API int cuStreamBeginCapture_v2(void *handle, int mode) {
  int status = need_context();
  if (status)
    return status;
  stream *s = handle;
  if (!s || s->capture || mode < 0 || mode > 2)
    return CUDA_ERROR_INVALID_VALUE;
  s->capture = calloc(1, sizeof(graph));
  s->invalidated = 0;
  return CUDA_SUCCESS;
}

DRIVER_API int cuStreamEndCapture(void *handle, void **out) {
  stream *s = handle;
  if (!s || !s->capture)
    return CUDA_ERROR_INVALID_VALUE;
  graph *g = s->capture;
  s->capture = NULL;
  *out = NULL;
  if (s->invalidated) {
    free(g->launches);
    free(g);
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  }
  *out = g;
  return CUDA_SUCCESS;
}

/* The executable graph is a copy: the template may be destroyed. */
DRIVER_API int cuGraphInstantiateWithFlags(void **out, void *handle,
                                       unsigned long long flags) {
  if (flags)
    return CUDA_ERROR_INVALID_VALUE;
  const graph *g = handle;
  graph *exec = calloc(1, sizeof(graph));
  exec->count = g->count;
  exec->launches = malloc(sizeof(launch) * (size_t)(g->count + 1));
  memcpy(exec->launches, g->launches, sizeof(launch) * (size_t)g->count);
  ++state.graphs_live;
  *out = exec;
  return CUDA_SUCCESS;
}

DRIVER_API int cuGraphDestroy(void *handle) {
  graph *g = handle;
  free(g->launches);
  free(g);
  return CUDA_SUCCESS;
}

DRIVER_API int cuGraphExecDestroy(void *handle) {
  --state.graphs_live;
  return cuGraphDestroy(handle);
}

DRIVER_API int cuGraphLaunch(void *handle, void *stream_handle) {
  int status = need_context();
  if (!status)
    status = refuse_if_capturing(stream_handle);
  if (status)
    return status;
  if (state.fail_launches)
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  const graph *g = handle;
  for (int i = 0; i < g->count; ++i)
    run(&g->launches[i]);
  ++state.graph_launches;
  return CUDA_SUCCESS;
}

/* Events read the fake clock; recording one while capturing is refused
 * (timed runs are not captured). */
DRIVER_API int cuEventCreate(void **out, unsigned flags) {
  int status = need_context();
  if (status)
    return status;
  if (flags)
    return CUDA_ERROR_INVALID_VALUE;
  event *e = calloc(1, sizeof(event));
  e->magic = EVENT_MAGIC;
  ++state.events_live;
  *out = e;
  return CUDA_SUCCESS;
}

DRIVER_API int cuEventRecord(void *handle, void *stream_handle) {
  int status = need_context();
  if (!status)
    status = refuse_if_capturing(stream_handle);
  if (status)
    return status;
  event *e = handle;
  if (!e || e->magic != EVENT_MAGIC)
    return CUDA_ERROR_INVALID_HANDLE;
  e->recorded = 1;
  e->time_us = clock_us;
  return CUDA_SUCCESS;
}

DRIVER_API int cuEventSynchronize(void *handle) {
  event *e = handle;
  return e && e->magic == EVENT_MAGIC ? CUDA_SUCCESS
                                      : CUDA_ERROR_INVALID_HANDLE;
}

DRIVER_API int cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  event *a = start, *b = end;
  if (!a || !b || a->magic != EVENT_MAGIC || b->magic != EVENT_MAGIC)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!a->recorded || !b->recorded)
    return CUDA_ERROR_NOT_READY;
  *ms = (float)((b->time_us - a->time_us) / 1000);
  return CUDA_SUCCESS;
}

DRIVER_API int cuEventDestroy_v2(void *handle) {
  event *e = handle;
  if (!e || e->magic != EVENT_MAGIC)
    return CUDA_ERROR_INVALID_HANDLE;
  e->magic = 0;
  free(e);
  --state.events_live;
  return CUDA_SUCCESS;
}

__attribute__((unused)) static const char *error_name(int result) {
  switch (result) {
  case CUDA_SUCCESS: return "CUDA_SUCCESS";
  case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
  case CUDA_ERROR_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
  case CUDA_ERROR_INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
  case CUDA_ERROR_INVALID_CONTEXT: return "CUDA_ERROR_INVALID_CONTEXT";
  case CUDA_ERROR_NO_BINARY_FOR_GPU: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case CUDA_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
  case CUDA_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
  case CUDA_ERROR_NOT_READY:
    return "CUDA_ERROR_NOT_READY";
  case CUDA_ERROR_ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED:
    return "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED";
  case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:
    return "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED";
  default: return NULL;
  }
}

DRIVER_API int cuGetErrorName(int result, const char **name) {
  *name = error_name(result);
  return *name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRIVER_API int cuGetErrorString(int result, const char **text) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    *text = "no kernel image is available for execution on the device";
    break;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *text = "an illegal memory access was encountered";
    break;
  case CUDA_ERROR_INVALID_CONTEXT: *text = "invalid device context"; break;
  default: *text = error_name(result); break;
  }
  return *text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
