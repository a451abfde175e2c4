//===- Module.cpp - tc_module: dlopen a model.so, check it, query it
//--------===//

#include "Internal.h"
#include "ModuleFile.h"

#include "tc-runtime/cpu_features.h"
#include "tc-runtime/module_abi.h"

#include <atomic>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <new>

using namespace tc::rt;

namespace {

std::string quoted(const std::string &path) { return "'" + path + "'"; }

const tc::rt::ArgSignature *argAt(const std::vector<ArgSignature> &args,
                                  size_t index) {
  return index < args.size() ? &args[index] : nullptr;
}

tc_status describe(const std::vector<ArgSignature> &args, size_t index,
                   const char *kind, tc_arg_info *out) {
  if (!out)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT, "out_info is NULL");
  const ArgSignature *arg = argAt(args, index);
  if (!arg)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      std::string(kind) + " index " + std::to_string(index) +
                          " is out of range (the module has " +
                          std::to_string(args.size()) + " " + kind + "s)");
  out->name = arg->name.c_str();
  out->dtype = arg->dtype;
  out->rank = static_cast<int32_t>(arg->dims.size());
  out->dims = arg->dims.empty() ? nullptr : arg->dims.data();
  out->dim_symbols = arg->symbolPtrs.empty() ? nullptr : arg->symbolPtrs.data();
  return nullptr;
}

tc_status find(const std::vector<ArgSignature> &args, const char *name,
               const char *kind, size_t *out) {
  if (!name || !out)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT, "NULL argument");
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == name) {
      *out = i;
      return nullptr;
    }
  }
  std::string known;
  for (const ArgSignature &arg : args)
    known += (known.empty() ? "'" : ", '") + arg.name + "'";
  return makeStatus(TC_STATUS_NOT_FOUND,
                    std::string("the module has no ") + kind + " named '" +
                        name + "' (its " + kind +
                        "s: " + (known.empty() ? "none" : known) + ")");
}

/// Whether this CPU has `feature` (a name of tc-runtime/cpu_features.h);
/// false for a name this runtime does not know (a newer compiler's).
bool hostHasFeature(const std::string &feature) {
#if defined(__x86_64__)
  __builtin_cpu_init();
#define TC_CHECK_FEATURE(name)                                                 \
  if (feature == name)                                                         \
    return __builtin_cpu_supports(name);
  TC_X86_CPU_FEATURES(TC_CHECK_FEATURE)
#undef TC_CHECK_FEATURE
#endif
  return false;
}

/// INCOMPATIBLE naming the features of the `cpu` record this CPU lacks, or
/// nullptr when it has them all.
tc_status checkCpuFeatures(const ModuleSignature &signature,
                           const std::string &path) {
  std::string missing;
  for (const std::string &feature : signature.cpuFeatures)
    if (!hostHasFeature(feature))
      missing += (missing.empty() ? "" : ", ") + feature;
  if (missing.empty())
    return nullptr;
  return makeStatus(
      TC_STATUS_INCOMPATIBLE,
      "cannot run " + quoted(path) + ": it was compiled for CPU '" +
          signature.cpuName + "' and uses CPU features this CPU lacks: " +
          missing +
          "; recompile it on this machine (--cpu=host, the default) or for "
          "a CPU it has (e.g. --cpu=x86-64-v3)");
}

} // namespace

extern "C" {

tc_status tc_module_load(tc_runtime *runtime, const char *path,
                         tc_module **out_module) {
  return guarded("tc_module_load", [&]() -> tc_status {
    if (!runtime || !path || !out_module)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "tc_module_load: NULL argument");
    std::string name(path);
    ModuleFile file;
    if (tc_status status = openModuleFile(name, file))
      return status;
    void *handle = nullptr;
    uint64_t fileKey = 0;
    if (tc_status status = loadModuleFile(name, file, &handle, &fileKey))
      return status;
    auto fail = [&](tc_status status) {
      releaseModuleFile(handle, fileKey);
      return status;
    };

    auto *version =
        static_cast<const uint32_t *>(dlsym(handle, "tc_module_abi_version"));
    if (!version)
      return fail(makeStatus(TC_STATUS_INCOMPATIBLE,
                             quoted(name) + " is not a tc module: it does not "
                                            "export 'tc_module_abi_version'"));
    if (*version != TC_MODULE_ABI_VERSION)
      return fail(makeStatus(
          TC_STATUS_INCOMPATIBLE,
          quoted(name) + " was built for tc module ABI version " +
              std::to_string(*version) + " but this runtime supports version " +
              std::to_string(TC_MODULE_ABI_VERSION) +
              "; recompile it with a matching tc-compile"));
    auto *metadata =
        static_cast<const char *>(dlsym(handle, "tc_module_metadata_v1"));
    void *run = dlsym(handle, "tc_module_run_v1");
    if (!metadata || !run)
      return fail(makeStatus(TC_STATUS_INCOMPATIBLE,
                             quoted(name) +
                                 " is not a valid tc module: it does "
                                 "not export '" +
                                 std::string(metadata ? "tc_module_run_v1"
                                                      : "tc_module_metadata_v1") +
                                 "'"));

    tc_module *module = new (std::nothrow) tc_module;
    if (!module)
      return fail(
          makeStatus(TC_STATUS_OUT_OF_MEMORY, "cannot allocate a module"));
    std::string error;
    if (!parseMetadata(metadata, module->signature, error)) {
      delete module;
      return fail(
          makeStatus(TC_STATUS_MALFORMED,
                     "malformed metadata in " + quoted(name) + ": " + error));
    }
    if (tc_status status = checkCpuFeatures(module->signature, name)) {
      delete module;
      return fail(status);
    }
    module->path = name;
    module->handle = handle;
    module->fileKey = fileKey;
    module->runFn = run;
    auto readMessages = [&](const char *symbol, std::vector<std::string> &to) {
      if (auto *messages = static_cast<const char *>(dlsym(handle, symbol)))
        for (const char *m = messages; *m; m += std::strlen(m) + 1)
          to.emplace_back(m);
    };
    readMessages("tc_module_check_messages_v1", module->checkMessages);
    readMessages("tc_module_gpu_check_messages_v1", module->gpuCheckMessages);
    auto *cpuKernelCount = static_cast<const uint32_t *>(
        dlsym(handle, "tc_module_kernel_count_v1"));
    auto *cpuKernels = static_cast<const tc_kernel_v1 *>(
        dlsym(handle, "tc_module_kernels_v1"));
    if (cpuKernelCount && cpuKernels)
      module->profile =
          std::make_unique<ModuleProfile>(cpuKernels, *cpuKernelCount);
    static std::atomic<uint64_t> nextId{1};
    module->id = nextId.fetch_add(1);
    // GPU code, when the module was compiled for GPU targets.
    auto *kernelCount = static_cast<const uint32_t *>(
        dlsym(handle, "tc_module_gpu_kernel_count_v1"));
    auto *kernelNames = static_cast<const char *const *>(
        dlsym(handle, "tc_module_gpu_kernels_v1"));
    auto *imageCount = static_cast<const uint32_t *>(
        dlsym(handle, "tc_module_gpu_image_count_v1"));
    auto *images = static_cast<const tc_gpu_image_v1 *>(
        dlsym(handle, "tc_module_gpu_images_v1"));
    void *gpuRun = dlsym(handle, "tc_module_gpu_run_v3");
    if (!gpuRun)
      gpuRun = dlsym(handle, "tc_module_gpu_run_v2");
    auto *siteCount = static_cast<const uint32_t *>(
        dlsym(handle, "tc_module_gpu_site_count_v1"));
    auto *sites = static_cast<const tc_gpu_site_v2 *>(
        dlsym(handle, "tc_module_gpu_sites_v2"));
    // A development version's libraries (tc_module_gpu_sites_v1) did not
    // name the heuristic kernels: their sites can be chosen, not timed.
    struct SiteV1 {
      const char *key, *candidates;
      uint32_t num_candidates;
      const uint32_t *kernels;
    };
    auto *sitesV1 = sites ? nullptr
                          : static_cast<const SiteV1 *>(
                                dlsym(handle, "tc_module_gpu_sites_v1"));
    module->staleGpuEntry =
        !gpuRun && dlsym(handle, "tc_module_gpu_run_v1") != nullptr;
    if (gpuRun && kernelCount && kernelNames && imageCount && images) {
      module->gpuRunFn = gpuRun;
      for (uint32_t k = 0; k < *kernelCount; ++k)
        module->gpuKernels.emplace_back(kernelNames[k]);
      for (uint32_t i = 0; i < *imageCount; ++i)
        module->gpuImages.push_back({images[i].target, images[i].format,
                                     images[i].data,
                                     static_cast<size_t>(images[i].size)});
      for (uint32_t s = 0; siteCount && (sites || sitesV1) && s < *siteCount;
           ++s) {
        tc_gpu_site_v2 entry = sites ? sites[s]
                                     : tc_gpu_site_v2{sitesV1[s].key,
                                                      sitesV1[s].candidates,
                                                      sitesV1[s].num_candidates,
                                                      sitesV1[s].kernels,
                                                      0,
                                                      nullptr};
        TcGpuSite site;
        site.key = entry.key;
        std::string text = entry.candidates;
        for (size_t begin = 0; begin <= text.size();) {
          size_t end = std::min(text.find('\n', begin), text.size());
          site.candidates.push_back(text.substr(begin, end - begin));
          begin = end + 1;
        }
        site.kernels.assign(entry.kernels,
                            entry.kernels + entry.num_candidates);
        if (entry.heuristic_kernels)
          site.heuristicKernels.assign(entry.heuristic_kernels,
                                       entry.heuristic_kernels +
                                           entry.num_heuristic_kernels);
        module->gpuSites.push_back(std::move(site));
      }
    }
    *out_module = module;
    return nullptr;
  });
}

void tc_module_release(tc_module *module) {
  if (!module)
    return;
  releaseModuleFile(module->handle, module->fileKey);
  delete module;
}

const char *tc_module_name(const tc_module *module) {
  return module ? module->signature.name.c_str() : "";
}

const char *tc_module_path(const tc_module *module) {
  return module ? module->path.c_str() : "";
}

size_t tc_module_num_inputs(const tc_module *module) {
  return module ? module->signature.inputs.size() : 0;
}

size_t tc_module_num_outputs(const tc_module *module) {
  return module ? module->signature.outputs.size() : 0;
}

const char *tc_module_compiler(const tc_module *module) {
  return module ? module->signature.compiler.c_str() : nullptr;
}

const char *tc_module_cpu_name(const tc_module *module) {
  return module ? module->signature.cpuName.c_str() : nullptr;
}

size_t tc_module_num_cpu_features(const tc_module *module) {
  return module ? module->signature.cpuFeatures.size() : 0;
}

const char *tc_module_cpu_feature(const tc_module *module, size_t index) {
  if (!module || index >= module->signature.cpuFeatures.size())
    return nullptr;
  return module->signature.cpuFeatures[index].c_str();
}

size_t tc_module_num_targets(const tc_module *module) {
  return module ? module->signature.targets.size() : 0;
}

const char *tc_module_target(const tc_module *module, size_t index) {
  if (!module || index >= module->signature.targets.size())
    return nullptr;
  return module->signature.targets[index].c_str();
}

size_t tc_module_num_shape_buckets(const tc_module *module) {
  return module ? module->signature.shapeBuckets.size() : 0;
}

const char *tc_module_shape_bucket(const tc_module *module, size_t index) {
  if (!module || index >= module->signature.shapeBuckets.size())
    return nullptr;
  return module->signature.shapeBuckets[index].c_str();
}

const char *tc_module_mode(const tc_module *module) {
  return module ? module->signature.mode.c_str() : "";
}

size_t tc_module_num_gpu_sites(const tc_module *module) {
  return module ? module->gpuSites.size() : 0;
}

const char *tc_module_gpu_site_key(const tc_module *module, size_t site) {
  return module && site < module->gpuSites.size()
             ? module->gpuSites[site].key.c_str()
             : "";
}

size_t tc_module_gpu_site_num_candidates(const tc_module *module, size_t site) {
  return module && site < module->gpuSites.size()
             ? module->gpuSites[site].candidates.size()
             : 0;
}

const char *tc_module_gpu_site_candidate(const tc_module *module, size_t site,
                                         size_t candidate) {
  if (!module || site >= module->gpuSites.size() ||
      candidate >= module->gpuSites[site].candidates.size())
    return "";
  return module->gpuSites[site].candidates[candidate].c_str();
}

tc_status tc_module_input_info(const tc_module *module, size_t index,
                               tc_arg_info *out_info) {
  return guarded("tc_module_input_info", [&]() -> tc_status {
    if (!module)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT, "module is NULL");
    return describe(module->signature.inputs, index, "input", out_info);
  });
}

tc_status tc_module_output_info(const tc_module *module, size_t index,
                                tc_arg_info *out_info) {
  return guarded("tc_module_output_info", [&]() -> tc_status {
    if (!module)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT, "module is NULL");
    return describe(module->signature.outputs, index, "output", out_info);
  });
}

tc_status tc_module_find_input(const tc_module *module, const char *name,
                               size_t *out_index) {
  return guarded("tc_module_find_input", [&]() -> tc_status {
    if (!module)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT, "module is NULL");
    return find(module->signature.inputs, name, "input", out_index);
  });
}

tc_status tc_module_find_output(const tc_module *module, const char *name,
                                size_t *out_index) {
  return guarded("tc_module_find_output", [&]() -> tc_status {
    if (!module)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT, "module is NULL");
    return find(module->signature.outputs, name, "output", out_index);
  });
}

} // extern "C"
