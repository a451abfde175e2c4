//===- GpuDevice.h - a GPU device: loaded kernels, memory, runs -----------===//
//
// What every GPU device does the same way, whatever the vendor: pick the
// module's image that loads on this GPU and cache its kernels, keep freed
// device memory for the next run (a per-device cache, so that a model's
// arena and outputs are not cudaMalloc'ed on every run), and run the
// module's GPU entry point: inputs copied in, launches through the
// environment, outputs copied back into host memory the caller owns.
//
// With graphs on (tc_runtime_options.gpu_graphs), a module's runs at one
// set of input shapes go through three stages. The first runs the entry
// point as usual and notes whether its host code needed a value from the
// GPU (a download or upload). If not, the host code's launches and
// allocations depend on the shapes alone, so the second run records them
// into a graph (stream capture) with buffers of its own, which it then
// keeps out of the memory cache; that run and every later one copies the
// inputs into those buffers, launches the graph and copies the outputs
// back, without running the host code at all.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_GPUDEVICE_H
#define TC_LIB_RUNTIME_GPUDEVICE_H

#include "GpuDriver.h"

#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

struct tc_module;
struct tc_tensor;

namespace tc::rt {

class GpuDevice {
public:
  /// `graphs`: replay runs as graphs where the driver has them.
  explicit GpuDevice(std::unique_ptr<GpuDriver> driver, bool graphs = false);
  ~GpuDevice();

  GpuDriver &driver() { return *gpu; }

  /// Whether `module` carries GPU code of this device's vendor.
  bool hasCodeFor(const tc_module *module) const;

  /// Runs the module's GPU entry point. On success the outputs are in host
  /// memory from malloc (allocations[i] == outputData[i], owned by the
  /// caller) with their extents in outputDims, as the CPU entry point gives
  /// them; *moduleCode is the entry point's return code.
  tc_status run(const tc_module *module, tc_tensor *const *inputs,
                size_t numInputs, std::vector<void *> &allocations,
                std::vector<void *> &outputData,
                std::vector<int64_t> &outputDims, int32_t *moduleCode);

  /// Runs that replayed a graph (tc_device_graph_runs).
  int64_t graphRuns() const { return replayedRuns; }

  // Device memory with the free-block cache; used by the run's environment.
  void *allocate(size_t bytes, tc_status *error);
  void recycle(void *pointer);

  /// A module loaded on this device: its image, kernels, and the device
  /// copies of its constants (uploaded on first use, kept until the device
  /// is released).
  struct Loaded {
    void *image = nullptr;
    std::vector<void *> functions;
    std::vector<void *> constants;
  };

  /// The runs of one module at one set of input shapes, for graphs.
  struct Recording {
    bool clean = false;   // a run here needed no value on the host
    bool refused = false; // one did, or recording failed: never a graph
    void *graph = nullptr;
    std::vector<void *> inputs, outputs; // what the graph reads and writes
    std::vector<int64_t> outputDims;
    std::vector<void *> blocks; // all it touches, kept out of the cache
  };

private:
  tc_status load(const tc_module *module, Loaded **out);
  void releaseCache();
  Recording *recordingFor(const tc_module *module, tc_tensor *const *inputs,
                          size_t numInputs);
  tc_status record(const tc_module *module, Loaded *kernels,
                   tc_tensor *const *inputs, size_t numInputs,
                   size_t outputRanks, Recording &recording);
  tc_status replay(const tc_module *module, tc_tensor *const *inputs,
                   size_t numInputs, Recording &recording,
                   std::vector<void *> &allocations,
                   std::vector<void *> &outputData,
                   std::vector<int64_t> &outputDims);
  void forget(Recording &recording);
  tc_status copyOutputs(const tc_module *module,
                        const std::vector<void *> &deviceData,
                        const std::vector<int64_t> &outputDims,
                        std::vector<void *> &allocations,
                        std::vector<void *> &outputData);

  std::unique_ptr<GpuDriver> gpu;
  bool graphs;
  std::atomic<int64_t> replayedRuns{0};
  std::mutex mutex; // one run at a time on a device
  std::map<uint64_t, Loaded> loaded;
  std::multimap<size_t, void *> freeBlocks;
  std::unordered_map<void *, size_t> blockSizes;
  std::map<std::pair<uint64_t, std::vector<int64_t>>, Recording> recordings;
};

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_GPUDEVICE_H
