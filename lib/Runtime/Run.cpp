//===- Run.cpp - tc_module_run: check inputs, call the model, wrap outputs
//--===//
//
// The module trusts its caller (module_abi.h): it does not re-check shapes or
// dtypes, so every check a wrong input could need happens here, with a
// message naming the input and axis.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "tc-runtime/module_abi.h"

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace tc::rt;

namespace {

std::string argName(const ArgSignature &arg) { return "'" + arg.name + "'"; }

// Where a symbol got its extent, for the "was bound to" message.
struct Binding {
  int64_t extent;
  const ArgSignature *input;
  size_t axis;
};

tc_status checkInputs(const ModuleSignature &signature,
                      tc_tensor *const *inputs, size_t numInputs) {
  if (numInputs != signature.inputs.size())
    return makeStatus(
        TC_STATUS_INVALID_ARGUMENT,
        "the module expects " + std::to_string(signature.inputs.size()) +
            " inputs but " + std::to_string(numInputs) + " were given");
  std::map<std::string, Binding> bindings;
  for (size_t i = 0; i < numInputs; ++i) {
    const ArgSignature &arg = signature.inputs[i];
    const tc_tensor *tensor = inputs[i];
    if (!tensor)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "input " + argName(arg) + " (#" + std::to_string(i) +
                            ") is NULL");
    if (tensor->dtype != arg.dtype)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "input " + argName(arg) + " has dtype " +
                            tc_dtype_name(tensor->dtype) +
                            " but the module expects " +
                            tc_dtype_name(arg.dtype));
    if (tensor->dims.size() != arg.dims.size())
      return makeStatus(
          TC_STATUS_INVALID_ARGUMENT,
          "input " + argName(arg) + " has rank " +
              std::to_string(tensor->dims.size()) + " (shape " +
              formatDims(tensor->dims.data(), tensor->dims.size()) +
              ") but the module expects rank " +
              std::to_string(arg.dims.size()) + " (shape " +
              formatDims(arg.dims.data(), arg.dims.size()) + ")");
    for (size_t axis = 0; axis < arg.dims.size(); ++axis) {
      int64_t extent = tensor->dims[axis];
      if (arg.dims[axis] >= 0) {
        if (extent != arg.dims[axis])
          return makeStatus(
              TC_STATUS_INVALID_ARGUMENT,
              "input " + argName(arg) + " axis " + std::to_string(axis) +
                  " is " + std::to_string(extent) + " but the module expects " +
                  std::to_string(arg.dims[axis]));
        continue;
      }
      const std::string &symbol = arg.symbols[axis];
      if (symbol.empty())
        continue;
      auto [it, inserted] =
          bindings.try_emplace(symbol, Binding{extent, &arg, axis});
      if (!inserted && it->second.extent != extent)
        return makeStatus(
            TC_STATUS_INVALID_ARGUMENT,
            "input " + argName(arg) + " axis " + std::to_string(axis) + " is " +
                std::to_string(extent) + " but symbol '" + symbol +
                "' was bound to " + std::to_string(it->second.extent) +
                " by input " + argName(*it->second.input) + " axis " +
                std::to_string(it->second.axis));
    }
  }
  return nullptr;
}

/// Inputs in a GPU's memory are only read by runs on that GPU (`gpu`, null
/// when the run is on the CPU).
tc_status checkPlaces(const ModuleSignature &signature,
                      tc_tensor *const *inputs, size_t numInputs,
                      const GpuDevice *gpu) {
  for (size_t i = 0; i < numInputs; ++i) {
    const tc_tensor *tensor = inputs[i];
    if (!tensor->gpu || (gpu && tensor->gpu->spec() == gpu->spec()))
      continue;
    std::string place = tensor->gpu->spec();
    return makeStatus(
        TC_STATUS_INVALID_ARGUMENT,
        "input " + argName(signature.inputs[i]) + " is in the memory of " +
            place + " but the model runs on " +
            (gpu ? gpu->spec()
                 : std::string("the CPU (no code for that GPU, or a cpu "
                               "device)")) +
            ": pass it on " + (gpu ? gpu->spec() : std::string("the host")) +
            ", or run the model on a device of " + place);
  }
  return nullptr;
}

/// Holds `pool` hot for its lifetime (none when null).
class HotRun {
public:
  explicit HotRun(ThreadPool *pool) : pool(pool) {
    if (pool)
      pool->beginHotRun();
  }
  ~HotRun() {
    if (pool)
      pool->endHotRun();
  }
  HotRun(const HotRun &) = delete;
  HotRun &operator=(const HotRun &) = delete;

private:
  ThreadPool *pool;
};

// parallel_for of the ABI: env->runtime is the device's pool.
void parallelForTrampoline(void *runtime, tc_workgroup_fn_v1 fn, void *args,
                           int64_t count) {
  static_cast<ThreadPool *>(runtime)->parallelFor(fn, args, count);
}

// user_data is the allocation; `data` may point inside it.
void releaseMalloced(void *allocation, void *) { std::free(allocation); }

tc_status runCodeToStatus(int32_t code, const std::string &module,
                          const std::vector<std::string> &checkMessages) {
  if (code >= TC_RUN_CHECK_FAILED) {
    size_t check = static_cast<size_t>(code - TC_RUN_CHECK_FAILED);
    return makeStatus(TC_STATUS_INVALID_VALUE,
                      "model " + module + ": " +
                          (check < checkMessages.size()
                               ? checkMessages[check]
                               : "run-time check " + std::to_string(check) +
                                     " failed"));
  }
  switch (code) {
  case TC_RUN_INVALID_VALUE:
    return makeStatus(TC_STATUS_INVALID_VALUE,
                      "model " + module +
                          " rejected a value computed from the inputs (for "
                          "example a shape given as data that does not match "
                          "the input); error code " +
                          std::to_string(code));
  case TC_RUN_OUT_OF_MEMORY:
    return makeStatus(TC_STATUS_OUT_OF_MEMORY,
                      "model " + module + " ran out of memory");
  default:
    return makeStatus(TC_STATUS_INTERNAL,
                      "model " + module + " failed with unknown error code " +
                          std::to_string(code));
  }
}

} // namespace

extern "C" {

void tc_run_options_init(tc_run_options *options) {
  if (options)
    *options = tc_run_options{};
}

tc_status tc_module_tune_gpu(tc_module *module, tc_device *device,
                             tc_tensor *const *inputs, size_t num_inputs,
                             const tc_gpu_tune_options *options,
                             tc_gpu_tune_report *out_report) {
  return guarded("tc_module_tune_gpu", [&]() -> tc_status {
    if (!module || !device)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "tc_module_tune_gpu: module or device is NULL");
    if (!device->gpu || !device->gpu->hasCodeFor(module))
      return makeStatus(
          TC_STATUS_INVALID_ARGUMENT,
          "tuning runs a model's GPU kernels on a GPU device with code for it, "
          "not on '" +
              device->spec + "'");
    if (num_inputs && !inputs)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT, "inputs is NULL");
    if (tc_status status = checkInputs(module->signature, inputs, num_inputs))
      return status;
    if (tc_status status = checkPlaces(module->signature, inputs, num_inputs,
                                       device->gpu.get()))
      return status;
    tc_gpu_tune_options defaults;
    tc_gpu_tune_options_init(&defaults);
    tc_gpu_tune_report report;
    tc_status status = device->gpu->tune(module, inputs, num_inputs,
                                         options ? *options : defaults, report);
    if (out_report)
      *out_report = report;
    return status;
  });
}

tc_status tc_module_run(tc_module *module, tc_device *device,
                        tc_tensor *const *inputs, size_t num_inputs,
                        tc_tensor **outputs, size_t num_outputs) {
  return tc_module_run_with_options(module, device, nullptr, inputs, num_inputs,
                                    outputs, num_outputs);
}

tc_status tc_module_run_with_options(tc_module *module, tc_device *device,
                                     const tc_run_options *options,
                                     tc_tensor *const *inputs,
                                     size_t num_inputs, tc_tensor **outputs,
                                     size_t num_outputs) {
  return guarded("tc_module_run", [&]() -> tc_status {
    if (!module || !device)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "tc_module_run: module or device is NULL");
    // A reduce-overhead module's CPU run wakes the pool's workers first, so
    // that they wake while the inputs are checked, and keeps them spinning
    // until after the run (ThreadPool::beginHotRun).
    bool onGpu = device->gpu && device->gpu->hasCodeFor(module);
    HotRun hot(!onGpu && module->signature.reducesOverhead()
                   ? device->pool.get()
                   : nullptr);
    tc_run_options defaults;
    tc_run_options_init(&defaults);
    const tc_run_options &runOptions = options ? *options : defaults;
    const ModuleSignature &signature = module->signature;
    if (num_inputs && !inputs)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT, "inputs is NULL");
    if (num_outputs != signature.outputs.size())
      return makeStatus(
          TC_STATUS_INVALID_ARGUMENT,
          "the module has " + std::to_string(signature.outputs.size()) +
              " outputs but num_outputs is " + std::to_string(num_outputs));
    if (num_outputs && !outputs)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT, "outputs is NULL");
    if (tc_status status = checkInputs(signature, inputs, num_inputs))
      return status;
    if (tc_status status = checkPlaces(signature, inputs, num_inputs,
                                       onGpu ? device->gpu.get() : nullptr))
      return status;
    bool outputsOnDevice = onGpu && runOptions.outputs_on_device != 0;

    // Gather pointers and extents. The module reads an input with loads
    // aligned to its element only (module_abi.h), so a buffer from
    // tc_tensor_wrap is used in place unless it is misaligned for its
    // element type; such an input is copied into an aligned temporary, freed
    // when this scope ends. (A GPU run places its inputs itself,
    // GpuDevice::run.)
    alignas(kAlignment) static const unsigned char emptyBuffer[kAlignment] = {};
    std::vector<void *> inputData(num_inputs);
    std::vector<int64_t> inputDims;
    std::vector<std::unique_ptr<void, void (*)(void *)>> temporaries;
    for (size_t i = 0; i < num_inputs && !onGpu; ++i) {
      const tc_tensor *tensor = inputs[i];
      inputDims.insert(inputDims.end(), tensor->dims.begin(), tensor->dims.end());
      void *data = tensor->data;
      if (!data || tensor->byteSize == 0) {
        // The module must never see NULL, even for an empty input.
        data = const_cast<unsigned char *>(emptyBuffer);
      } else if (reinterpret_cast<uintptr_t>(data) %
                     std::max<size_t>(tc_dtype_size(tensor->dtype), 1) !=
                 0) {
        void *copy = alignedAlloc(tensor->byteSize);
        if (!copy)
          return makeStatus(
              TC_STATUS_OUT_OF_MEMORY,
              "cannot allocate " + std::to_string(tensor->byteSize) +
                  " bytes to align input '" + signature.inputs[i].name + "'");
        std::memcpy(copy, data, tensor->byteSize);
        temporaries.emplace_back(copy, alignedFree);
        data = copy;
      }
      inputData[i] = data;
    }

    size_t outputRankSum = 0;
    for (const ArgSignature &arg : signature.outputs)
      outputRankSum += arg.dims.size();
    std::vector<void *> allocations(num_outputs, nullptr);
    std::vector<void *> outputData(num_outputs, nullptr);
    std::vector<int64_t> outputDims(outputRankSum, -1);

    int32_t code = TC_RUN_OK;
    if (onGpu) {
      if (tc_status status = device->gpu->run(module, inputs, num_inputs,
                                              outputsOnDevice, allocations,
                                              outputData, outputDims, &code))
        return status;
    } else if (!device->pool) {
      std::string targets;
      for (const std::string &target : signature.targets)
        targets += (targets.empty() ? "" : ", ") + target;
      if (module->staleGpuEntry)
        return makeStatus(TC_STATUS_UNAVAILABLE,
                          "model '" + module->path +
                              "' has GPU code for an older tc runtime "
                              "(tc_module_gpu_run_v1); recompile it with this "
                              "tc-compile, or run it with --device=cpu");
      return makeStatus(TC_STATUS_UNAVAILABLE,
                        "model '" + module->path + "' has no code for " +
                            device->gpu->driver().description() +
                            " (its targets: " + targets +
                            "); run it with --device=cpu, or recompile it with "
                            "--target=" + device->gpu->driver().targetPrefix() +
                            ":" +
                            (device->gpu->driver().arch().empty()
                                 ? std::string("<arch>")
                                 : device->gpu->driver().arch()));
    } else {
      tc_run_env_v1 env;
      env.runtime = device->pool.get();
      env.parallel_for = parallelForTrampoline;
      ModuleProfile *profile = module->profile.get();
      ModuleProfile::RunContext profiled{device->pool.get(), profile};
      bool profiling = profile && profile->enabled();
      if (profiling) {
        env.runtime = &profiled;
        env.parallel_for = ModuleProfile::parallelFor;
      }
      auto runFn = reinterpret_cast<tc_module_run_v1_fn>(module->runFn);
      int64_t start = profiling ? nowNanoseconds() : 0;
      code = runFn(&env, inputData.data(), inputDims.data(), allocations.data(),
                   outputData.data(), outputDims.data());
      if (profiling)
        profile->addRun(nowNanoseconds() - start);
    }
    std::string moduleName =
        "'" + (signature.name.empty() ? module->path : signature.name) + "'";
    // On failure the module owns whatever it allocated (module_abi.h gives the
    // caller ownership only on success), so nothing is freed here.
    if (code != TC_RUN_OK)
      return runCodeToStatus(code, moduleName,
                             onGpu ? module->gpuCheckMessages
                                   : module->checkMessages);

    // Validate everything before wrapping, so that a bad module leaks nothing
    // and produces no half-filled `outputs`.
    auto freeAll = [&] {
      for (void *allocation : allocations)
        if (outputsOnDevice && allocation)
          device->gpu->releaseBlock(allocation);
        else
          std::free(allocation);
    };
    std::vector<tc_tensor *> results(num_outputs, nullptr);
    std::vector<int64_t> counts(num_outputs);
    std::vector<size_t> sizes(num_outputs);
    size_t offset = 0;
    for (size_t i = 0; i < num_outputs; ++i) {
      const ArgSignature &arg = signature.outputs[i];
      const int64_t *dims = outputDims.data() + offset;
      int32_t rank = static_cast<int32_t>(arg.dims.size());
      offset += rank;
      tc_status status = checkShape(arg.dtype, rank, dims, &counts[i], &sizes[i]);
      for (int32_t axis = 0; !status && axis < rank; ++axis)
        if (arg.dims[axis] >= 0 && dims[axis] != arg.dims[axis])
          status = makeStatus(TC_STATUS_INTERNAL,
                              "axis " + std::to_string(axis) + " is " +
                                  std::to_string(dims[axis]) +
                                  " but the signature says " +
                                  std::to_string(arg.dims[axis]));
      if (!status && sizes[i] && !outputData[i])
        status = makeStatus(TC_STATUS_INTERNAL, "its data pointer is NULL");
      if (status) {
        tc_status wrapped =
            makeStatus(TC_STATUS_INTERNAL,
                       "model " + moduleName + " returned a bad output " +
                           argName(arg) + ": " + tc_status_message(status));
        tc_status_free(status);
        freeAll();
        return wrapped;
      }
    }
    // A model may return one buffer for two outputs (the same value twice);
    // each tensor must own its allocation, so later ones get a copy. (On the
    // device, GpuDevice::keepOutputs made them distinct.)
    for (size_t i = 0; i < num_outputs && !outputsOnDevice; ++i) {
      if (!allocations[i] ||
          std::find(allocations.begin(), allocations.begin() + i,
                    allocations[i]) == allocations.begin() + i)
        continue;
      void *copy = std::malloc(sizes[i] ? sizes[i] : 1);
      if (!copy) {
        allocations[i] = nullptr; // owned by the earlier output
        freeAll();
        return makeStatus(TC_STATUS_OUT_OF_MEMORY,
                          "cannot copy an output that shares its buffer");
      }
      if (sizes[i])
        std::memcpy(copy, outputData[i], sizes[i]);
      allocations[i] = copy;
      outputData[i] = copy;
    }
    offset = 0;
    for (size_t i = 0; i < num_outputs; ++i) {
      int32_t rank = static_cast<int32_t>(signature.outputs[i].dims.size());
      // The tensor frees the allocation, which may differ from the data
      // pointer (the module may return a view into a larger buffer).
      results[i] = newTensor(
          signature.outputs[i].dtype, outputDims.data() + offset, rank,
          counts[i], outputData[i], sizes[i],
          allocations[i] && !outputsOnDevice ? releaseMalloced : nullptr,
          allocations[i]);
      if (results[i] && outputsOnDevice) {
        results[i]->gpu = device->gpu;
        results[i]->deviceBlock = allocations[i];
      }
      offset += rank;
      if (!results[i]) {
        for (size_t j = 0; j < i; ++j) {
          tc_tensor_release(results[j]);
          allocations[j] = nullptr;
        }
        freeAll();
        return makeStatus(TC_STATUS_OUT_OF_MEMORY,
                          "cannot allocate the output tensors");
      }
    }
    for (size_t i = 0; i < num_outputs; ++i)
      outputs[i] = results[i];
    return nullptr;
  });
}

} // extern "C"
