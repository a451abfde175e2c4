/*===- fake_hip.c - a libamdhip64.so over host memory, for tests ----------===*
 *
 * The HIP runtime's entry points that lib/Runtime/Hip binds, built on the
 * fake NVIDIA driver (FakeCuda/fake_cuda.c, compiled in with its entry
 * points internal): the same host-memory devices, kernels ("scale",
 * "shift"), graphs and counters (fake_cuda_state_get), with HIP's shape:
 * a current device per thread (hipSetDevice, whose context lives as long as
 * the process, as HIP's do), pointers for device memory, error names that
 * are returned rather than stored. The devices are two "Fake MI300X"; they
 * load images reading "FAKEHSACO gfx942" and refuse other chips' with
 * hipErrorNoBinaryForGpu. HIP's error codes for these are CUDA's numbers.
 *
 *===----------------------------------------------------------------------===*/

#define DRIVER_API static __attribute__((unused))
#define FAKE_DEVICE_NAME "Fake MI300X"
#define FAKE_IMAGE_KIND "FAKEHSACO "
#define FAKE_IMAGE_ARCH "gfx942"
#include "../FakeCuda/fake_cuda.c"

EXPORT int hipInit(unsigned flags) { return cuInit(flags); }

EXPORT int hipGetDeviceCount(int *count) { return cuDeviceGetCount(count); }

/* HIP's per-device context: made on first use, kept. */
EXPORT int hipSetDevice(int device) {
  static void *contexts[NUM_DEVICES];
  if (!initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (device < 0 || device >= NUM_DEVICES)
    return CUDA_ERROR_INVALID_DEVICE;
  if (!contexts[device]) {
    int status = cuDevicePrimaryCtxRetain(&contexts[device], device);
    if (status)
      return status;
  }
  return cuCtxSetCurrent(contexts[device]);
}

EXPORT int hipDeviceGetName(char *name, int length, int device) {
  return cuDeviceGetName(name, length, device);
}

EXPORT int hipModuleLoadData(void **module, const void *image) {
  return cuModuleLoadData(module, image);
}

EXPORT int hipModuleUnload(void *module) { return cuModuleUnload(module); }

EXPORT int hipModuleGetFunction(void **function, void *module,
                                const char *name) {
  return cuModuleGetFunction(function, module, name);
}

EXPORT int hipMalloc(void **pointer, size_t bytes) {
  unsigned long long device = 0;
  int status = cuMemAlloc_v2(&device, bytes);
  *pointer = status ? NULL : (void *)(uintptr_t)device;
  return status;
}

EXPORT int hipFree(void *pointer) {
  return cuMemFree_v2((unsigned long long)(uintptr_t)pointer);
}

EXPORT int hipMemcpyHtoDAsync(void *device, void *host, size_t bytes,
                              void *stream) {
  return cuMemcpyHtoDAsync_v2((unsigned long long)(uintptr_t)device, host,
                              bytes, stream);
}

EXPORT int hipMemcpyDtoHAsync(void *host, void *device, size_t bytes,
                              void *stream) {
  return cuMemcpyDtoHAsync_v2(host, (unsigned long long)(uintptr_t)device,
                              bytes, stream);
}

EXPORT int hipMemcpyDtoDAsync(void *to, void *from, size_t bytes,
                              void *stream) {
  return cuMemcpyDtoDAsync_v2((unsigned long long)(uintptr_t)to,
                              (unsigned long long)(uintptr_t)from, bytes,
                              stream);
}

EXPORT int hipStreamCreate(void **stream) { return cuStreamCreate(stream, 0); }
EXPORT int hipStreamDestroy(void *stream) { return cuStreamDestroy_v2(stream); }
EXPORT int hipStreamSynchronize(void *stream) {
  return cuStreamSynchronize(stream);
}

EXPORT int hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy,
                                 unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned shared, void *stream,
                                 void **params, void **extra) {
  return cuLaunchKernel(function, gx, gy, gz, bx, by, bz, shared, stream,
                        params, extra);
}

EXPORT int hipStreamBeginCapture(void *stream, int mode) {
  return cuStreamBeginCapture_v2(stream, mode);
}
EXPORT int hipStreamEndCapture(void *stream, void **graph) {
  return cuStreamEndCapture(stream, graph);
}
EXPORT int hipGraphInstantiate(void **exec, void *graph, void **errorNode,
                               char *log, size_t logSize) {
  (void)errorNode;
  (void)log;
  (void)logSize;
  return cuGraphInstantiateWithFlags(exec, graph, 0);
}
EXPORT int hipGraphLaunch(void *exec, void *stream) {
  return cuGraphLaunch(exec, stream);
}
EXPORT int hipGraphExecDestroy(void *exec) { return cuGraphExecDestroy(exec); }
EXPORT int hipGraphDestroy(void *graph) { return cuGraphDestroy(graph); }

EXPORT int hipEventCreate(void **event) { return cuEventCreate(event, 0); }
EXPORT int hipEventRecord(void *event, void *stream) {
  return cuEventRecord(event, stream);
}
EXPORT int hipEventSynchronize(void *event) {
  return cuEventSynchronize(event);
}
EXPORT int hipEventElapsedTime(float *ms, void *start, void *end) {
  return cuEventElapsedTime_v2(ms, start, end);
}
EXPORT int hipEventDestroy(void *event) { return cuEventDestroy_v2(event); }

EXPORT const char *hipGetErrorName(int result) {
  switch (result) {
  case CUDA_SUCCESS: return "hipSuccess";
  case CUDA_ERROR_INVALID_VALUE: return "hipErrorInvalidValue";
  case CUDA_ERROR_OUT_OF_MEMORY: return "hipErrorOutOfMemory";
  case CUDA_ERROR_NOT_INITIALIZED: return "hipErrorNotInitialized";
  case CUDA_ERROR_INVALID_DEVICE: return "hipErrorInvalidDevice";
  case CUDA_ERROR_INVALID_IMAGE: return "hipErrorInvalidImage";
  case CUDA_ERROR_INVALID_CONTEXT: return "hipErrorInvalidContext";
  case CUDA_ERROR_NO_BINARY_FOR_GPU: return "hipErrorNoBinaryForGpu";
  case CUDA_ERROR_INVALID_HANDLE: return "hipErrorInvalidHandle";
  case CUDA_ERROR_NOT_FOUND: return "hipErrorNotFound";
  case CUDA_ERROR_ILLEGAL_ADDRESS: return "hipErrorIllegalAddress";
  case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED:
    return "hipErrorStreamCaptureUnsupported";
  case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:
    return "hipErrorStreamCaptureInvalidated";
  default: return "hipErrorUnknown";
  }
}

EXPORT const char *hipGetErrorString(int result) {
  const char *text = NULL;
  return cuGetErrorString(result, &text) == CUDA_SUCCESS && text ? text
                                                                 : "unknown error";
}
