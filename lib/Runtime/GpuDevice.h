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
#include "TuningTable.h"

#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

struct tc_module;
struct tc_tensor;

namespace tc::rt {

/// How a GPU device's tunable kernels choose their alternative
/// (tc_runtime_options.gpu_tuning): `mode` 0 = the heuristic kernels, 1 =
/// those of the tuning table at `table` ("" for none) when a module is
/// loaded, 2 = and a module's first run tunes the kernels the table does
/// not know, -1 = 2 for modules compiled with --mode=max-autotune, else 1.
struct GpuTuningPolicy {
  int mode = 0;
  std::string table;
};

class GpuDevice {
public:
  /// `graphs` (tc_runtime_options.gpu_graphs): 1 = replay runs as graphs
  /// where the driver has them, 0 = never, -1 = for modules compiled with
  /// --mode=reduce-overhead.
  explicit GpuDevice(std::unique_ptr<GpuDriver> driver, int graphs = 0,
                     GpuTuningPolicy tuning = {});
  ~GpuDevice();

  GpuDriver &driver() { return *gpu; }

  /// Whether `module` carries GPU code of this device's vendor.
  bool hasCodeFor(const tc_module *module) const;

  /// The spec of the GPU ("cuda:0").
  const std::string &spec() const { return gpu->spec(); }

  /// Runs the module's GPU entry point. Inputs in this GPU's memory
  /// (tc_tensor::gpu of the same spec; the caller checked) are read in
  /// place, host ones copied in. On success the outputs are in host memory
  /// from malloc (allocations[i] == outputData[i], owned by the caller) with
  /// their extents in outputDims, as the CPU entry point gives them; or,
  /// with `outputsOnDevice`, in blocks of this device's memory cache
  /// (allocations[i], distinct, each released with releaseBlock; outputData[i]
  /// within it, null when empty). *moduleCode is the entry point's return
  /// code.
  tc_status run(const tc_module *module, tc_tensor *const *inputs,
                size_t numInputs, bool outputsOnDevice,
                std::vector<void *> &allocations,
                std::vector<void *> &outputData,
                std::vector<int64_t> &outputDims, int32_t *moduleCode);

  /// Gives an output block of run() back to the memory cache; safe from any
  /// thread, between or during runs.
  void releaseBlock(void *block);

  /// Copies `bytes` from `from` to `to`, each in host memory or this GPU's
  /// (`toDevice`, `fromDevice`), and waits for the copy.
  tc_status copy(void *to, bool toDevice, const void *from, bool fromDevice,
                 size_t bytes);

  /// Makes tunable kernel `site` of `module` run alternative `choice` (-1:
  /// the heuristic kernel) on this device (tc_device_set_gpu_choice).
  tc_status setChoice(const tc_module *module, size_t site, int32_t choice);

  /// The alternative tunable kernel `site` of `module` runs here (-1 for
  /// the heuristic kernel); for a module not loaded here yet, the one the
  /// tuning table will give it.
  int32_t choice(const tc_module *module, size_t site);

  /// Times the alternatives of `module`'s tunable kernels on `inputs` and
  /// makes each kernel key run its fastest one (tc_module_tune_gpu, whose
  /// comment says how); the inputs were checked by the caller.
  tc_status tune(const tc_module *module, tc_tensor *const *inputs,
                 size_t numInputs, const tc_gpu_tune_options &options,
                 tc_gpu_tune_report &report);

  /// The report of the module's last tuning here and how it ended (null
  /// for success); NOT_FOUND if it was not tuned here.
  tc_status lastTuning(const tc_module *module, tc_gpu_tune_report &report);

  /// The tuning table this device reads and writes ("" for none).
  const std::string &tuningTable() const { return tuning.table; }

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
    /// env->choices: the alternative each tunable kernel runs on this
    /// device (-1: the heuristic kernel).
    std::vector<int32_t> choices;
    /// Whether the module's first run here considered tuning it, and the
    /// report of its last tuning.
    bool firstRunTuned = false;
    bool tuned = false;
    tc_gpu_tune_report report = {};
    /// How the last tuning ended: TC_STATUS_OK, or its error.
    tc_status_code_t tuneCode = TC_STATUS_OK;
    std::string tuneMessage = {};
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
  /// Makes the GPU current for this thread, then load() (the caller holds
  /// the mutex).
  tc_status activateAndLoad(const tc_module *module, Loaded **out);
  // Tuning (GpuTune.cpp).
  tc_status tuneLoaded(const tc_module *module, Loaded *kernels,
                       tc_tensor *const *inputs, size_t numInputs,
                       const tc_gpu_tune_options &options,
                       tc_gpu_tune_report &report);
  /// The table's choices for the module's sites, in `kernels` (at load).
  void applyTable(const tc_module *module, Loaded &kernels);
  /// The table as last read or written (read on first use).
  GpuTuningTable &table(tc_status *readError = nullptr);
  bool tunesAtFirstRun(const tc_module *module) const;
  /// Forgets the graphs recorded of `module`'s runs (its choices changed).
  void forgetRecordings(const tc_module *module);
  /// One run of the entry point with the module's current choices, its
  /// outputs dropped: the launches of each kernel k with keyOfKernel[k] >=
  /// 0 are timed with events, their milliseconds added to
  /// msPerKey[keyOfKernel[k]].
  tc_status timedRun(const tc_module *module, Loaded *kernels,
                     tc_tensor *const *inputs, size_t numInputs,
                     const std::vector<int> &keyOfKernel,
                     std::vector<double> &msPerKey);
  void releaseCache();
  Recording *recordingFor(const tc_module *module, tc_tensor *const *inputs,
                          size_t numInputs);
  tc_status record(const tc_module *module, Loaded *kernels,
                   tc_tensor *const *inputs, size_t numInputs,
                   size_t outputRanks, Recording &recording);
  tc_status replay(const tc_module *module, tc_tensor *const *inputs,
                   size_t numInputs, bool outputsOnDevice, Recording &recording,
                   std::vector<void *> &allocations,
                   std::vector<void *> &outputData,
                   std::vector<int64_t> &outputDims);
  void forget(Recording &recording);
  tc_status copyOutputs(const tc_module *module,
                        const std::vector<void *> &deviceData,
                        const std::vector<int64_t> &outputDims,
                        std::vector<void *> &allocations,
                        std::vector<void *> &outputData);
  /// The outputs left on the device: each block in `live` (the run's own
  /// allocations) that holds an output and no earlier one is taken out of
  /// `live` and handed over; any other output (a constant, an input, a
  /// block shared with an earlier output) is copied into a new block.
  tc_status keepOutputs(const tc_module *module,
                        const std::vector<void *> &deviceAllocations,
                        const std::vector<void *> &deviceData,
                        const std::vector<int64_t> &outputDims,
                        std::vector<void *> &live,
                        std::vector<void *> &allocations,
                        std::vector<void *> &outputData);

  std::unique_ptr<GpuDriver> gpu;
  int graphs;
  GpuTuningPolicy tuning;
  GpuTuningTable tuningEntries;
  bool tableRead = false;
  tc_status tableError = nullptr; // why the table could not be read
  std::vector<void *> events;     // timedRun's, reused
  bool replaying = false; // allocate() must keep the graphs' memory
  std::atomic<int64_t> replayedRuns{0};
  std::mutex mutex; // one run at a time on a device
  std::map<uint64_t, Loaded> loaded;
  std::multimap<size_t, void *> freeBlocks;
  std::unordered_map<void *, size_t> blockSizes;
  std::map<std::pair<uint64_t, std::vector<int64_t>>, Recording> recordings;
};

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_GPUDEVICE_H
