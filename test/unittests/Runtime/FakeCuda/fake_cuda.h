/*===- fake_cuda.h - what the fake NVIDIA driver counts -------------------===*
 *
 * FakeCuda/fake_cuda.c is a libcuda.so.1 with the driver API entry points
 * the runtime binds, over host memory: two "Fake H200" devices (sm_90),
 * kernels "scale" (y = x * 2) and "shift" (y = x + 1) run on the host (a
 * name may add "_<N>us", what a launch adds to the fake clock that events
 * read: 10 us without), and
 * images are text ("FAKECUBIN sm_90"); one for another architecture fails
 * as the real driver does (CUDA_ERROR_NO_BINARY_FOR_GPU). It keeps the
 * driver's rules that the runtime must respect: a primary context exists
 * while it is retained, and memory, modules and launches need a current,
 * live context; a stream being captured records launches instead of
 * running them, and refuses copies and synchronization (which invalidates
 * the capture). Tests read and steer it through fake_cuda_state().
 *
 *===----------------------------------------------------------------------===*/

#ifndef TC_TEST_UNITTESTS_RUNTIME_FAKECUDA_FAKE_CUDA_H
#define TC_TEST_UNITTESTS_RUNTIME_FAKECUDA_FAKE_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fake_cuda_state {
  /* Counters. */
  int contexts_created;   /* primary contexts made (retain count 0 -> 1) */
  int contexts_destroyed; /* primary contexts gone (retain count 1 -> 0) */
  int retains[2];         /* live retain count per device */
  int streams_live;
  int modules_loaded;
  int modules_live;
  int allocations_live;
  int launches;        /* kernels run, from the host or from a graph */
  int graph_launches;  /* cuGraphLaunch calls */
  int graphs_live;     /* executable graphs not destroyed */
  int copies_to_device; /* host to device copies done */
  int copies_to_host;   /* device to host */
  int copies_on_device; /* device to device */
  int events_live;      /* events not destroyed */
  /* Steering. */
  size_t memory_limit; /* cuMemAlloc of more fails (out of memory); 0: none */
  int fail_launches;   /* launches fail with CUDA_ERROR_ILLEGAL_ADDRESS */
} fake_cuda_state;

fake_cuda_state *fake_cuda_state_get(void);

#ifdef __cplusplus
}
#endif

#endif
