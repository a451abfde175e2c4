//===- GpuDevice.cpp - kernels, device memory and runs on a GPU -----------===//

#include "GpuDevice.h"
#include "Internal.h"

#include "tc-runtime/module_abi.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace tc::rt;

namespace {

/// While tuning: which launches to time, and their events.
struct KernelTimer {
  const std::vector<int> &keyOfKernel; // per kernel: the key it times, or -1
  std::vector<void *> &pool;           // the device's events, reused
  size_t used = 0;
  struct Span {
    int key;
    void *start, *end;
  };
  std::vector<Span> spans = {};

  tc_status next(GpuDriver &gpu, void **event) {
    if (used == pool.size()) {
      void *created = nullptr;
      if (tc_status s = gpu.createEvent(&created))
        return s;
      pool.push_back(created);
    }
    *event = pool[used++];
    return nullptr;
  }
};

/// What the module's environment callbacks reach: the device, the kernels,
/// the first error (later launches do nothing, module_abi.h).
struct RunState {
  GpuDevice *device;
  GpuDevice::Loaded *kernels;
  const tc_module *module;
  tc_status error = nullptr;
  std::vector<void *> live = {}; // device allocations made through env->alloc
  // Graphs (GpuDevice.h): whether the host code needed a value from the
  // GPU; while a graph is recorded, every block handed out.
  bool needsHost = false;
  bool recording = false;
  std::vector<void *> touched = {};
  int launches = 0;
  KernelTimer *timer = nullptr;
};

void *envAlloc(void *runtime, int64_t bytes) {
  auto *state = static_cast<RunState *>(runtime);
  if (state->error)
    return nullptr;
  if (bytes < 0) {
    state->error = makeStatus(TC_STATUS_INTERNAL,
                              "the model asked for a negative allocation");
    return nullptr;
  }
  void *pointer = state->device->allocate(static_cast<size_t>(bytes),
                                          &state->error);
  if (pointer) {
    state->live.push_back(pointer);
    if (state->recording)
      state->touched.push_back(pointer);
  }
  return pointer;
}

void envRelease(void *runtime, void *pointer) {
  auto *state = static_cast<RunState *>(runtime);
  auto it = std::find(state->live.begin(), state->live.end(), pointer);
  if (it == state->live.end())
    return;
  state->live.erase(it);
  state->device->recycle(pointer);
}

void envLaunch(void *runtime, uint32_t kernel, const uint32_t *dims,
               void **params, uint32_t) {
  auto *state = static_cast<RunState *>(runtime);
  if (state->error)
    return;
  if (kernel >= state->kernels->functions.size()) {
    state->error = makeStatus(TC_STATUS_INTERNAL,
                              "the model launched kernel " +
                                  std::to_string(kernel) + " of " +
                                  std::to_string(state->kernels->functions.size()));
    return;
  }
  // A grid or block with no threads (an empty tensor's kernel) has no
  // work; the drivers refuse such a launch (CUDA_ERROR_INVALID_VALUE).
  if (std::find(dims, dims + 6, 0u) != dims + 6)
    return;
  ++state->launches;
  GpuDriver &gpu = state->device->driver();
  KernelTimer *timer = state->timer;
  int key = timer && kernel < timer->keyOfKernel.size()
                ? timer->keyOfKernel[kernel]
                : -1;
  void *start = nullptr, *end = nullptr;
  if (key >= 0) {
    if ((state->error = timer->next(gpu, &start)) ||
        (state->error = timer->next(gpu, &end)) ||
        (state->error = gpu.recordEvent(start)))
      return;
  }
  if (tc_status s =
          gpu.launch(state->kernels->functions[kernel], dims, params)) {
    state->error = makeStatus(tc_status_code(s),
                              "kernel '" + state->module->gpuKernels[kernel] +
                                  "': " + tc_status_message(s));
    tc_status_free(s);
    return;
  }
  if (key >= 0) {
    state->error = gpu.recordEvent(end);
    timer->spans.push_back({key, start, end});
  }
}

void *envConstant(void *runtime, uint32_t index, const void *host,
                  int64_t bytes) {
  auto *state = static_cast<RunState *>(runtime);
  if (state->error)
    return nullptr;
  std::vector<void *> &constants = state->kernels->constants;
  if (index >= constants.size())
    constants.resize(index + 1, nullptr);
  if (!constants[index] && state->recording) {
    // An upload recorded into a graph would not happen now: this run (and
    // the shape) goes without one.
    state->needsHost = true;
    return nullptr;
  }
  if (!constants[index]) {
    GpuDriver &gpu = state->device->driver();
    void *device = nullptr;
    if (bytes < 0) {
      state->error = makeStatus(TC_STATUS_INTERNAL, "negative constant size");
      return nullptr;
    }
    if (tc_status s = gpu.alloc(static_cast<size_t>(bytes), &device)) {
      state->error = s;
      return nullptr;
    }
    if (bytes)
      if (tc_status s = gpu.copyToDevice(device, host, static_cast<size_t>(bytes))) {
        gpu.release(device);
        state->error = s;
        return nullptr;
      }
    constants[index] = device;
  }
  return constants[index];
}

/// A value the host code needs (a shape given as data, a loop condition):
/// the copy waits for the kernels before it, then for itself.
void envDownload(void *runtime, void *host, const void *device, int64_t bytes) {
  auto *state = static_cast<RunState *>(runtime);
  if (bytes <= 0)
    return;
  state->needsHost = true;
  if (!state->error && !state->recording) {
    GpuDriver &gpu = state->device->driver();
    state->error = gpu.copyToHost(host, device, static_cast<size_t>(bytes));
    if (!state->error)
      state->error = gpu.synchronize();
  }
  // After an error the host code still runs to its end: zeros keep its
  // loops short and its allocations small (as they do while recording,
  // which is then abandoned).
  if (state->error || state->recording)
    std::memset(host, 0, static_cast<size_t>(bytes));
}

void envUpload(void *runtime, void *device, const void *host, int64_t bytes) {
  auto *state = static_cast<RunState *>(runtime);
  if (bytes > 0)
    state->needsHost = true;
  if (state->error || bytes <= 0 || state->recording)
    return;
  GpuDriver &gpu = state->device->driver();
  // The host memory is the module's stack: the copy must be done with it.
  state->error = gpu.copyToDevice(device, host, static_cast<size_t>(bytes));
  if (!state->error)
    state->error = gpu.synchronize();
}

/// `status` (an allocation or copy that failed) with the name of input
/// `index` in front: an input too large for the GPU's memory says which.
tc_status aboutInput(const tc_module *module, size_t index, tc_status status) {
  if (!status || index >= module->signature.inputs.size())
    return status;
  tc_status named = makeStatus(tc_status_code(status),
                               "input '" + module->signature.inputs[index].name +
                                   "': " + tc_status_message(status));
  tc_status_free(status);
  return named;
}

/// Device buffers for `inputs` and their extents, in order, in `dims`.
/// With `copy`, an input already in this GPU's memory at an aligned address
/// is used in place; any other gets a buffer allocated through the
/// environment (the run owns it) and filled from the host or the GPU.
/// Without, every input gets a buffer, unfilled (a graph's, which replays
/// fill). An allocation or copy that fails names the input.
tc_status placeInputs(RunState &state, tc_tensor *const *inputs,
                      size_t numInputs, bool copy, std::vector<void *> &data,
                      std::vector<int64_t> &dims) {
  data.assign(numInputs, nullptr);
  dims.clear();
  for (size_t i = 0; i < numInputs; ++i) {
    const tc_tensor *tensor = inputs[i];
    dims.insert(dims.end(), tensor->dims.begin(), tensor->dims.end());
    bool onDevice = tensor->gpu != nullptr;
    if (copy && onDevice && tensor->byteSize &&
        reinterpret_cast<uintptr_t>(tensor->data) % kAlignment == 0) {
      data[i] = tensor->data;
      continue;
    }
    data[i] = envAlloc(&state, static_cast<int64_t>(tensor->byteSize));
    if (!data[i]) {
      tc_status error = state.error;
      state.error = nullptr;
      return aboutInput(state.module, i, error);
    }
    if (!copy || !tensor->byteSize)
      continue;
    GpuDriver &gpu = state.device->driver();
    if (tc_status s =
            onDevice ? gpu.copyOnDevice(data[i], tensor->data, tensor->byteSize)
                     : gpu.copyToDevice(data[i], tensor->data, tensor->byteSize))
      return aboutInput(state.module, i, s);
  }
  return nullptr;
}

/// The byte size of each output of `module` with the extents `outputDims`
/// (every output's in order), or the status of the first bad one.
tc_status outputSizes(const tc_module *module,
                      const std::vector<int64_t> &outputDims,
                      std::vector<size_t> &sizes) {
  size_t offset = 0;
  sizes.clear();
  for (const ArgSignature &arg : module->signature.outputs) {
    int32_t rank = static_cast<int32_t>(arg.dims.size());
    int64_t count = 0;
    size_t bytes = 0;
    if (tc_status error = checkShape(arg.dtype, rank, outputDims.data() + offset,
                                     &count, &bytes))
      return error;
    offset += rank;
    sizes.push_back(bytes);
  }
  return nullptr;
}

/// Calls the module's GPU entry point on `inputData` through `state`'s
/// environment: its outputs' device buffers in `deviceData`, their extents
/// in `outputDims` (sized by the caller); returns the module's code.
int32_t callEntry(RunState &state, const std::vector<void *> &inputData,
                  const std::vector<int64_t> &inputDims,
                  std::vector<void *> &deviceAllocations,
                  std::vector<void *> &deviceData,
                  std::vector<int64_t> &outputDims) {
  size_t numOutputs = state.module->signature.outputs.size();
  deviceAllocations.assign(numOutputs, nullptr);
  deviceData.assign(numOutputs, nullptr);
  // A v2 entry reads env.v2, the first member.
  tc_gpu_env_v3 env{{&state, envAlloc, envRelease, envLaunch, envConstant,
                     envDownload, envUpload},
                    state.kernels->choices.data()};
  auto runFn =
      reinterpret_cast<tc_module_gpu_run_v3_fn>(state.module->gpuRunFn);
  return runFn(&env, inputData.data(), inputDims.data(),
               deviceAllocations.data(), deviceData.data(), outputDims.data());
}

} // namespace

tc_status tc::rt::unavailableGpu(const char *kind, const char *vendor,
                                 int ordinal, const std::string &driverError,
                                 int count) {
  std::string spec = std::string(kind) + ":" + std::to_string(ordinal);
  if (!driverError.empty())
    return makeStatus(TC_STATUS_UNAVAILABLE, "device '" + spec + "': " +
                                                 driverError + "; no " +
                                                 vendor + " GPU can be used");
  if (ordinal < count)
    return nullptr;
  return makeStatus(
      TC_STATUS_UNAVAILABLE,
      "device '" + spec + "' does not exist: this machine has " +
          std::to_string(count) + " " + vendor + " GPU" +
          (count == 1 ? "" : "s") +
          (count ? " (" + std::string(kind) + ":0 to " + kind + ":" +
                       std::to_string(count - 1) + ")"
                 : std::string()));
}

tc_status GpuDriver::unsupportedGraphs() const {
  return makeStatus(TC_STATUS_UNAVAILABLE,
                    "the driver of " + description() + " has no graphs");
}

tc_status GpuDriver::unsupportedTiming() const {
  return makeStatus(TC_STATUS_UNAVAILABLE,
                    "the driver of " + description() + " has no events");
}

GpuDevice::GpuDevice(std::unique_ptr<GpuDriver> driver, int graphs,
                     GpuTuningPolicy tuning)
    : gpu(std::move(driver)), graphs(graphs), tuning(std::move(tuning)) {}

GpuDevice::~GpuDevice() {
  tc_status_free(tableError);
  if (gpu->activate() == nullptr) {
    for (void *event : events)
      gpu->destroyEvent(event);
    for (auto &[key, recording] : recordings)
      forget(recording);
    for (auto &[id, entry] : loaded) {
      for (void *constant : entry.constants)
        if (constant)
          gpu->release(constant);
      if (entry.image)
        gpu->unloadImage(entry.image);
    }
    releaseCache();
  }
}

void GpuDevice::releaseCache() {
  for (auto &[size, pointer] : freeBlocks) {
    gpu->release(pointer);
    blockSizes.erase(pointer);
  }
  freeBlocks.clear();
}

void *GpuDevice::allocate(size_t bytes, tc_status *error) {
  // Sizes rounded up so that a model's buffers of nearby sizes share blocks.
  size_t rounded = (std::max<size_t>(bytes, 1) + 255) / 256 * 256;
  auto it = freeBlocks.find(rounded);
  if (it != freeBlocks.end()) {
    void *pointer = it->second;
    freeBlocks.erase(it);
    return pointer;
  }
  void *pointer = nullptr;
  tc_status status = gpu->alloc(rounded, &pointer);
  if (status && tc_status_code(status) == TC_STATUS_OUT_OF_MEMORY &&
      !freeBlocks.empty()) {
    // Cached blocks of other sizes may be what is missing.
    tc_status_free(status);
    releaseCache();
    status = gpu->alloc(rounded, &pointer);
  }
  // (Not while a replay holds on to its graph's buffers.)
  bool recorded = !replaying &&
                  std::any_of(recordings.begin(), recordings.end(),
                              [](auto &entry) { return entry.second.graph; });
  if (status && tc_status_code(status) == TC_STATUS_OUT_OF_MEMORY && recorded) {
    // Then the memory of the graphs: shapes record again after a clean run.
    tc_status_free(status);
    for (auto &[key, recording] : recordings) {
      forget(recording);
      recording.clean = false;
    }
    releaseCache();
    status = gpu->alloc(rounded, &pointer);
  }
  if (status) {
    *error = status;
    return nullptr;
  }
  blockSizes[pointer] = rounded;
  return pointer;
}

void GpuDevice::recycle(void *pointer) {
  auto it = blockSizes.find(pointer);
  if (it != blockSizes.end())
    freeBlocks.emplace(it->second, pointer);
}

tc_status GpuDevice::setChoice(const tc_module *module, size_t site,
                               int32_t choice) {
  if (site >= module->gpuSites.size())
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "model '" + module->path + "' has " +
                          std::to_string(module->gpuSites.size()) +
                          " tunable GPU kernels; there is no site " +
                          std::to_string(site));
  const TcGpuSite &tunable = module->gpuSites[site];
  if (choice < -1 || choice >= static_cast<int32_t>(tunable.candidates.size()))
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "tunable GPU kernel " + std::to_string(site) + " (" +
                          tunable.key + ") has " +
                          std::to_string(tunable.candidates.size()) +
                          " alternatives: choose -1 to " +
                          std::to_string(tunable.candidates.size() - 1) +
                          ", not " + std::to_string(choice));
  std::lock_guard<std::mutex> lock(mutex);
  Loaded *kernels = nullptr;
  if (tc_status s = activateAndLoad(module, &kernels))
    return s;
  kernels->choices.resize(module->gpuSites.size(), -1);
  if (kernels->choices[site] == choice)
    return nullptr;
  kernels->choices[site] = choice;
  forgetRecordings(module);
  return nullptr;
}

int32_t GpuDevice::choice(const tc_module *module, size_t site) {
  std::lock_guard<std::mutex> lock(mutex);
  if (site >= module->gpuSites.size())
    return -1;
  auto found = loaded.find(module->id);
  if (found != loaded.end())
    return site < found->second.choices.size() ? found->second.choices[site]
                                               : -1;
  // Not loaded here yet: what loading it will choose.
  Loaded unloaded;
  applyTable(module, unloaded);
  return site < unloaded.choices.size() ? unloaded.choices[site] : -1;
}

void GpuDevice::forgetRecordings(const tc_module *module) {
  // A graph recorded of the module's runs replays the kernels it captured.
  for (auto it = recordings.begin(); it != recordings.end();) {
    if (it->first.first == module->id) {
      forget(it->second);
      it = recordings.erase(it);
    } else {
      ++it;
    }
  }
}

void GpuDevice::releaseBlock(void *block) {
  std::lock_guard<std::mutex> lock(mutex);
  recycle(block);
}

tc_status GpuDevice::copy(void *to, bool toDevice, const void *from,
                          bool fromDevice, size_t bytes) {
  if (!bytes)
    return nullptr;
  if (!toDevice && !fromDevice) {
    std::memcpy(to, from, bytes);
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (tc_status s = gpu->activate())
    return s;
  tc_status error = toDevice && fromDevice ? gpu->copyOnDevice(to, from, bytes)
                    : toDevice             ? gpu->copyToDevice(to, from, bytes)
                                           : gpu->copyToHost(to, from, bytes);
  tc_status syncError = gpu->synchronize();
  if (error) {
    tc_status_free(syncError);
    return error;
  }
  return syncError;
}

bool GpuDevice::hasCodeFor(const tc_module *module) const {
  if (!module->gpuRunFn)
    return false;
  std::string prefix = std::string(gpu->targetPrefix()) + ":";
  return std::any_of(module->gpuImages.begin(), module->gpuImages.end(),
                     [&](const TcGpuImage &image) {
                       return image.target.compare(0, prefix.size(), prefix) == 0;
                     });
}

tc_status GpuDevice::activateAndLoad(const tc_module *module, Loaded **out) {
  if (tc_status s = gpu->activate())
    return s;
  return load(module, out);
}

tc_status GpuDevice::load(const tc_module *module, Loaded **out) {
  auto found = loaded.find(module->id);
  if (found != loaded.end()) {
    *out = &found->second;
    return nullptr;
  }
  // A model without kernels (every tensor empty, or all its work host
  // code) carries an empty image that no driver loads: nothing to load.
  if (module->gpuKernels.empty()) {
    *out = &loaded.emplace(module->id, Loaded()).first->second;
    return nullptr;
  }
  // Each tunable kernel runs its heuristic alternative until told otherwise.
  std::vector<int32_t> choices(module->gpuSites.size(), -1);
  // This GPU's own architecture first, binaries before PTX; then the other
  // images of the vendor (PTX JIT-compiles on newer NVIDIA GPUs; an HSACO
  // for another chip is refused by the loader).
  std::string prefix = std::string(gpu->targetPrefix()) + ":";
  std::string own = prefix + gpu->arch();
  std::vector<const TcGpuImage *> order;
  for (int pass = 0; pass < 3; ++pass)
    for (const TcGpuImage &image : module->gpuImages) {
      bool vendor = image.target.compare(0, prefix.size(), prefix) == 0;
      bool mine = !gpu->arch().empty() && image.target == own;
      bool ptx = image.format == "ptx";
      if ((pass == 0 && mine && !ptx) || (pass == 1 && mine && ptx) ||
          (pass == 2 && vendor && !mine))
        order.push_back(&image);
    }
  std::string tried;
  for (const TcGpuImage *image : order) {
    Loaded entry;
    tc_status status =
        gpu->loadImage(image->data, image->size, image->format, &entry.image);
    if (status) {
      tried += "\n  " + image->target + " (" + image->format +
               "): " + tc_status_message(status);
      tc_status_free(status);
      continue;
    }
    for (const std::string &name : module->gpuKernels) {
      void *function = nullptr;
      if (tc_status s = gpu->getFunction(entry.image, name.c_str(), &function)) {
        gpu->unloadImage(entry.image);
        return s;
      }
      entry.functions.push_back(function);
    }
    entry.choices = choices;
    applyTable(module, entry);
    *out = &loaded.emplace(module->id, std::move(entry)).first->second;
    return nullptr;
  }
  std::string targets;
  for (const std::string &target : module->signature.targets)
    targets += (targets.empty() ? "" : ", ") + target;
  return makeStatus(TC_STATUS_UNAVAILABLE,
                    "model '" + module->path + "' has no code that runs on " +
                        gpu->description() + " (its targets: " + targets +
                        "); recompile it with --target=" + prefix +
                        (gpu->arch().empty() ? "<arch>" : gpu->arch()) + tried);
}

tc_status GpuDevice::copyOutputs(const tc_module *module,
                                 const std::vector<void *> &deviceData,
                                 const std::vector<int64_t> &outputDims,
                                 std::vector<void *> &allocations,
                                 std::vector<void *> &outputData) {
  std::vector<size_t> sizes;
  tc_status error = outputSizes(module, outputDims, sizes);
  for (size_t i = 0; i < deviceData.size() && !error; ++i) {
    const ArgSignature &arg = module->signature.outputs[i];
    size_t bytes = sizes[i];
    void *host = std::malloc(bytes ? bytes : 1);
    if (!host) {
      error = makeStatus(TC_STATUS_OUT_OF_MEMORY,
                         "cannot allocate " + std::to_string(bytes) +
                             " bytes for output '" + arg.name + "'");
      break;
    }
    allocations[i] = outputData[i] = host;
    if (bytes && deviceData[i])
      error = gpu->copyToHost(host, deviceData[i], bytes);
  }
  if (!error)
    error = gpu->synchronize();
  if (error)
    for (void *&host : allocations) {
      std::free(host);
      host = nullptr;
    }
  return error;
}

tc_status GpuDevice::keepOutputs(const tc_module *module,
                                 const std::vector<void *> &deviceAllocations,
                                 const std::vector<void *> &deviceData,
                                 const std::vector<int64_t> &outputDims,
                                 std::vector<void *> &live,
                                 std::vector<void *> &allocations,
                                 std::vector<void *> &outputData) {
  std::vector<size_t> sizes;
  tc_status error = outputSizes(module, outputDims, sizes);
  std::vector<void *> kept;
  for (size_t i = 0; i < deviceData.size() && !error; ++i) {
    const ArgSignature &arg = module->signature.outputs[i];
    size_t bytes = sizes[i];
    if (!bytes)
      continue;
    // The block the entry point allocated for it, if it is the run's own,
    // holds the whole output and is not an earlier output's.
    void *block = deviceAllocations[i];
    auto own = std::find(live.begin(), live.end(), block);
    auto size = blockSizes.find(block);
    auto *begin = static_cast<char *>(block);
    auto *first = static_cast<char *>(deviceData[i]);
    if (block && own != live.end() && size != blockSizes.end() && first &&
        first >= begin && first + bytes <= begin + size->second) {
      live.erase(own);
      kept.push_back(block);
      allocations[i] = block;
      outputData[i] = deviceData[i];
      continue;
    }
    void *copy = allocate(bytes, &error);
    if (!copy)
      break;
    kept.push_back(copy);
    allocations[i] = outputData[i] = copy;
    if (deviceData[i])
      error = gpu->copyOnDevice(copy, deviceData[i], bytes);
    else
      error = makeStatus(TC_STATUS_INTERNAL,
                         "the model returned no data for output '" + arg.name +
                             "'");
  }
  if (!error)
    error = gpu->synchronize();
  if (error) {
    for (void *block : kept)
      recycle(block);
    std::fill(allocations.begin(), allocations.end(), nullptr);
    std::fill(outputData.begin(), outputData.end(), nullptr);
  }
  return error;
}

GpuDevice::Recording *GpuDevice::recordingFor(const tc_module *module,
                                              tc_tensor *const *inputs,
                                              size_t numInputs) {
  bool wanted =
      graphs == 1 || (graphs == -1 && module->signature.reducesOverhead());
  if (!wanted || !gpu->supportsGraphs())
    return nullptr;
  std::pair<uint64_t, std::vector<int64_t>> key{module->id, {}};
  for (size_t i = 0; i < numInputs; ++i) {
    // The rank first: [2, 3] then [4] differs from [2] then [3, 4].
    key.second.push_back(static_cast<int64_t>(inputs[i]->dims.size()));
    key.second.insert(key.second.end(), inputs[i]->dims.begin(),
                      inputs[i]->dims.end());
  }
  auto found = recordings.find(key);
  if (found != recordings.end())
    return &found->second;
  // Each shape with a graph keeps its memory: a model called at many
  // shapes records the first few.
  constexpr size_t kMaxRecordings = 16;
  if (recordings.size() >= kMaxRecordings)
    return nullptr;
  return &recordings[key];
}

void GpuDevice::forget(Recording &recording) {
  if (recording.graph)
    gpu->destroyGraph(recording.graph);
  for (void *block : recording.blocks)
    recycle(block);
  recording.graph = nullptr;
  recording.blocks.clear();
  recording.inputs.clear();
  recording.outputs.clear();
}

tc_status GpuDevice::record(const tc_module *module, Loaded *kernels,
                            tc_tensor *const *inputs, size_t numInputs,
                            size_t outputRanks, Recording &recording) {
  RunState state{this, kernels, module};
  state.recording = true;
  auto abandon = [&](tc_status status) {
    for (void *pointer : state.live)
      recycle(pointer);
    recording.refused = true;
    return status;
  };
  // The inputs' buffers, not filled: replays copy each run's inputs in.
  std::vector<void *> inputData, deviceData;
  std::vector<int64_t> inputDims;
  if (tc_status s = placeInputs(state, inputs, numInputs, /*copy=*/false,
                                inputData, inputDims))
    return abandon(s);
  if (tc_status s = gpu->beginCapture())
    return abandon(s);
  std::vector<int64_t> outputDims(outputRanks, -1);
  std::vector<void *> deviceAllocations;
  int32_t code = callEntry(state, inputData, inputDims, deviceAllocations,
                           deviceData, outputDims);
  void *graph = nullptr;
  tc_status error = gpu->endCapture(&graph);
  if (!error && state.error)
    std::swap(error, state.error);
  tc_status_free(state.error);
  state.error = nullptr;
  // (A run without kernels has no launches to save.)
  if (error || state.needsHost || code != TC_RUN_OK || state.launches == 0) {
    if (graph)
      gpu->destroyGraph(graph);
    return abandon(error);
  }
  // Every block the graph touches stays its own: those released during the
  // run leave the cache, the others (inputs, outputs) never go back.
  std::sort(state.touched.begin(), state.touched.end());
  state.touched.erase(std::unique(state.touched.begin(), state.touched.end()),
                      state.touched.end());
  for (void *block : state.touched) {
    auto range = freeBlocks.equal_range(blockSizes[block]);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second == block) {
        freeBlocks.erase(it);
        break;
      }
  }
  recording.graph = graph;
  recording.blocks = std::move(state.touched);
  recording.inputs = std::move(inputData);
  recording.outputs = std::move(deviceData);
  recording.outputDims = std::move(outputDims);
  return nullptr;
}

tc_status GpuDevice::replay(const tc_module *module, tc_tensor *const *inputs,
                            size_t numInputs, bool outputsOnDevice,
                            Recording &recording,
                            std::vector<void *> &allocations,
                            std::vector<void *> &outputData,
                            std::vector<int64_t> &outputDims) {
  tc_status error = nullptr;
  for (size_t i = 0; i < numInputs && !error; ++i)
    if (inputs[i]->byteSize)
      error = aboutInput(
          module, i,
          inputs[i]->gpu
              ? gpu->copyOnDevice(recording.inputs[i], inputs[i]->data,
                                  inputs[i]->byteSize)
              : gpu->copyToDevice(recording.inputs[i], inputs[i]->data,
                                  inputs[i]->byteSize));
  if (!error)
    error = gpu->launchGraph(recording.graph);
  if (!error)
    ++replayedRuns;
  if (!error && outputsOnDevice) {
    // The graph's outputs are its own, overwritten by the next replay: the
    // caller gets copies. (The live list is empty: every output is copied.)
    outputDims = recording.outputDims;
    std::vector<void *> none;
    replaying = true;
    error = keepOutputs(module, recording.outputs, recording.outputs,
                        outputDims, none, allocations, outputData);
    replaying = false;
  } else if (!error) {
    outputDims = recording.outputDims;
    error = copyOutputs(module, recording.outputs, outputDims, allocations,
                        outputData);
  }
  if (error) {
    // Not again: the next run at this shape launches kernels one by one.
    forget(recording);
    recording.refused = true;
  }
  return error;
}

tc_status GpuDevice::run(const tc_module *module, tc_tensor *const *inputs,
                         size_t numInputs, bool outputsOnDevice,
                         std::vector<void *> &allocations,
                         std::vector<void *> &outputData,
                         std::vector<int64_t> &outputDims,
                         int32_t *moduleCode) {
  std::lock_guard<std::mutex> lock(mutex);
  *moduleCode = TC_RUN_OK;
  Loaded *kernels = nullptr;
  if (tc_status s = activateAndLoad(module, &kernels))
    return s;
  if (!kernels->firstRunTuned && tunesAtFirstRun(module)) {
    // Tuning that fails (a driver without events) leaves the heuristic
    // kernels; its report says what happened.
    kernels->firstRunTuned = true;
    tc_gpu_tune_options options;
    tc_gpu_tune_options_init(&options);
    tc_gpu_tune_report report;
    tc_status_free(
        tuneLoaded(module, kernels, inputs, numInputs, options, report));
  }

  Recording *recording = recordingFor(module, inputs, numInputs);
  if (recording && !recording->graph && recording->clean &&
      !recording->refused) {
    // A failed recording is no failed run: it runs as usual below.
    tc_status_free(record(module, kernels, inputs, numInputs,
                          outputDims.size(), *recording));
  }
  if (recording && recording->graph)
    return replay(module, inputs, numInputs, outputsOnDevice, *recording,
                  allocations, outputData, outputDims);

  RunState state{this, kernels, module};
  auto releaseAll = [&] {
    for (void *pointer : state.live)
      recycle(pointer);
    state.live.clear();
  };
  // Host inputs go to device memory the run owns.
  std::vector<void *> inputData, deviceAllocations, deviceData;
  std::vector<int64_t> inputDims;
  if (tc_status s = placeInputs(state, inputs, numInputs, /*copy=*/true,
                                inputData, inputDims)) {
    releaseAll();
    return s;
  }
  *moduleCode = callEntry(state, inputData, inputDims, deviceAllocations,
                          deviceData, outputDims);
  tc_status syncError = gpu->synchronize();
  if (state.error || syncError || *moduleCode != TC_RUN_OK) {
    releaseAll();
    if (state.error) {
      tc_status_free(syncError);
      return state.error;
    }
    return syncError;
  }
  if (recording) {
    // Host code that needed the GPU's values may launch differently next
    // time: never recorded.
    recording->clean = !state.needsHost;
    recording->refused |= state.needsHost;
  }
  // Outputs handed over on the device, or back to host memory the caller
  // owns.
  tc_status error =
      outputsOnDevice
          ? keepOutputs(module, deviceAllocations, deviceData, outputDims,
                        state.live, allocations, outputData)
          : copyOutputs(module, deviceData, outputDims, allocations, outputData);
  releaseAll();
  return error;
}

tc_status GpuDevice::timedRun(const tc_module *module, Loaded *kernels,
                              tc_tensor *const *inputs, size_t numInputs,
                              const std::vector<int> &keyOfKernel,
                              std::vector<double> &msPerKey) {
  KernelTimer timer{keyOfKernel, events};
  RunState state{this, kernels, module};
  state.timer = &timer;
  std::vector<void *> inputData, deviceAllocations, deviceData;
  std::vector<int64_t> inputDims;
  tc_status error = placeInputs(state, inputs, numInputs, /*copy=*/true,
                                inputData, inputDims);
  if (!error) {
    size_t outputRanks = 0;
    for (const ArgSignature &arg : module->signature.outputs)
      outputRanks += arg.dims.size();
    std::vector<int64_t> outputDims(outputRanks, -1);
    int32_t code = callEntry(state, inputData, inputDims, deviceAllocations,
                             deviceData, outputDims);
    tc_status syncError = gpu->synchronize();
    error = state.error ? state.error : syncError;
    tc_status_free(state.error ? syncError : nullptr);
    state.error = nullptr;
    if (!error && code != TC_RUN_OK)
      error = makeStatus(code == TC_RUN_OUT_OF_MEMORY ? TC_STATUS_OUT_OF_MEMORY
                                                      : TC_STATUS_INVALID_VALUE,
                         "the model failed (code " + std::to_string(code) +
                             ") in a run timing its kernels");
  }
  for (const KernelTimer::Span &span : timer.spans) {
    float ms = 0;
    if (!error)
      error = gpu->elapsedMs(span.start, span.end, &ms);
    if (!error && span.key < static_cast<int>(msPerKey.size()))
      msPerKey[span.key] += ms;
  }
  for (void *pointer : state.live)
    recycle(pointer);
  return error;
}
