//===- GpuDriver.h - one GPU behind a vendor's driver API -----------------===//
//
// The runtime reaches NVIDIA and AMD GPUs through their driver libraries,
// loaded with dlopen when a GPU device is created (libcuda.so.1,
// libamdhip64.so): nothing links them at build time, and a machine without
// them gets a clear status instead of a loader error. Each vendor implements
// these primitives in its own directory (Cuda/, Hip/); what is common
// (choosing an image, caching loaded kernels and device memory, a run)
// lives in GpuDevice.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_GPUDRIVER_H
#define TC_LIB_RUNTIME_GPUDRIVER_H

#include "tc-runtime/runtime.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tc::rt {

class GpuDriver {
public:
  virtual ~GpuDriver() = default;
  /// "cuda:0", "hip:1": the device spec.
  virtual const std::string &spec() const = 0;
  /// The architecture images are matched against: "sm_90", "gfx942".
  virtual const std::string &arch() const = 0;
  /// "cuda:0 (NVIDIA H200, sm_90)", for messages.
  virtual const std::string &description() const = 0;
  /// The GPU's product name ("NVIDIA H200"): with arch(), the GPU a tuning
  /// table is kept for.
  virtual const std::string &name() const = 0;
  /// The target prefix of this vendor's images ("cuda", "rocm").
  virtual const char *targetPrefix() const = 0;

  /// Makes this device current for the calling thread (CUDA context, HIP
  /// device); every other call assumes it.
  virtual tc_status activate() = 0;
  /// Loads a code image (cubin, PTX, HSACO); fails for another
  /// architecture.
  virtual tc_status loadImage(const void *data, size_t size,
                              const std::string &format, void **out_image) = 0;
  virtual void unloadImage(void *image) = 0;
  virtual tc_status getFunction(void *image, const char *name,
                                void **out_function) = 0;
  virtual tc_status alloc(size_t bytes, void **out_pointer) = 0;
  virtual void release(void *pointer) = 0;
  /// Copies on the device's stream; synchronize() waits for them.
  virtual tc_status copyToDevice(void *device, const void *host,
                                 size_t bytes) = 0;
  virtual tc_status copyToHost(void *host, const void *device,
                               size_t bytes) = 0;
  /// Device to device on this GPU (a caller's tensor into a run's buffer).
  virtual tc_status copyOnDevice(void *to, const void *from, size_t bytes) = 0;
  /// dims: grid x, y, z, block x, y, z.
  virtual tc_status launch(void *function, const uint32_t *dims,
                           void **params) = 0;
  virtual tc_status synchronize() = 0;

  /// Graphs (CUDA graphs, HIP graphs): the launches made on the device's
  /// stream between beginCapture and endCapture are recorded, not run, into
  /// an executable graph that launchGraph replays on the stream with one
  /// call. A driver library without them says so with supportsGraphs().
  virtual bool supportsGraphs() const { return false; }
  virtual tc_status beginCapture() { return unsupportedGraphs(); }
  /// Ends the capture begun last; *out_graph is the executable graph (or
  /// nullptr with an error, the capture ended either way).
  virtual tc_status endCapture(void **out_graph) {
    *out_graph = nullptr;
    return unsupportedGraphs();
  }
  virtual tc_status launchGraph(void *) { return unsupportedGraphs(); }
  virtual void destroyGraph(void *) {}

  /// Events (CUDA events, HIP events), for timing kernels when tuning:
  /// recordEvent marks the device's stream at the point the launches made
  /// so far reach; elapsedMs waits for `end` and gives the milliseconds
  /// between two recorded events. A driver library without them says so
  /// with supportsTiming().
  virtual bool supportsTiming() const { return false; }
  virtual tc_status createEvent(void **out_event) {
    *out_event = nullptr;
    return unsupportedTiming();
  }
  virtual tc_status recordEvent(void *) { return unsupportedTiming(); }
  virtual tc_status elapsedMs(void *, void *, float *) {
    return unsupportedTiming();
  }
  virtual void destroyEvent(void *) {}

private:
  tc_status unsupportedGraphs() const;
  tc_status unsupportedTiming() const;
};

/// The status for a GPU that cannot be opened: `kind` "cuda" or "hip",
/// `vendor` "NVIDIA" or "AMD"; `driverError` non-empty when the driver
/// library is missing or broken, else `count` GPUs exist and `ordinal` is
/// not one of them. Returns nullptr when the device can be opened.
tc_status unavailableGpu(const char *kind, const char *vendor, int ordinal,
                         const std::string &driverError, int count);

/// Opens NVIDIA GPU `ordinal` through libcuda.so.1. UNAVAILABLE (naming
/// what is missing and which devices exist) when the driver or the device
/// is not there.
tc_status createCudaDriver(int ordinal, std::unique_ptr<GpuDriver> &out);
/// The number of NVIDIA GPUs (0 without a driver).
int countCudaDevices();

/// Opens AMD GPU `ordinal` through libamdhip64.so.
tc_status createHipDriver(int ordinal, std::unique_ptr<GpuDriver> &out);
int countHipDevices();

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_GPUDRIVER_H
