//===- Internal.h - shared definitions of the runtime's C API objects -----===//
//
// The opaque handles of tc-runtime/runtime.h are defined here so that each
// source file can implement its part of the API. Nothing here is exported.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_INTERNAL_H
#define TC_LIB_RUNTIME_INTERNAL_H

#include "tc-runtime/runtime.h"

#include "GpuDevice.h"
#include "Metadata.h"
#include "Profile.h"
#include "ThreadPool.h"

#include <atomic>
#include <exception>
#include <memory>
#include <string>
#include <vector>

struct tc_status_s {
  tc_status_code_t code;
  std::string message;
};

struct tc_runtime {
  tc_runtime_options options;
  /// options.cache_dir resolved (TC_CACHE_DIR, ...); "" for none.
  std::string cacheDir;
};

struct tc_device {
  std::string spec;
  /// The CPU's workers: a cpu device's, and an auto device's for modules
  /// without code for its GPU.
  std::unique_ptr<tc::rt::ThreadPool> pool;
  /// cuda:N, hip:N (and auto when a GPU was found). Shared with the
  /// tensors in its memory, which may outlive the handle.
  std::shared_ptr<tc::rt::GpuDevice> gpu;
};

/// One GPU code image of a module (module_abi.h, tc_gpu_image_v1).
struct TcGpuImage {
  std::string target, format;
  const void *data = nullptr;
  size_t size = 0;
};

/// A tunable GPU kernel of the module (tc_gpu_site_v2).
struct TcGpuSite {
  std::string key;
  std::vector<std::string> candidates;
  /// The kernel index each alternative launches; those the heuristic one
  /// may launch.
  std::vector<uint32_t> kernels, heuristicKernels;
};

struct tc_module {
  std::string path;
  void *handle = nullptr; // from dlopen
  uint64_t fileKey = 0;   // loadModuleFile's, for releaseModuleFile
  void *runFn = nullptr;  // tc_module_run_v1_fn
  /// Messages of the module's run-time checks (tc_module_check_messages_v1).
  std::vector<std::string> checkMessages;
  /// The same for the GPU entry (tc_module_gpu_check_messages_v1).
  std::vector<std::string> gpuCheckMessages;
  /// Unique per load: loaded GPU kernels are cached under it.
  uint64_t id = 0;
  /// tc_module_gpu_run_v3_fn, or a v2 one (no tunable kernels), if any;
  /// both take a tc_gpu_env_v3 (v2 reads its first seven fields).
  void *gpuRunFn = nullptr;
  std::vector<TcGpuSite> gpuSites;
  /// The module has GPU code for an older runtime (tc_module_gpu_run_v1).
  bool staleGpuEntry = false;
  std::vector<std::string> gpuKernels;
  std::vector<TcGpuImage> gpuImages;
  tc::rt::ModuleSignature signature;
  /// The kernel table (tc_module_kernels_v1) and its counters; null for a
  /// module without the table.
  std::unique_ptr<tc::rt::ModuleProfile> profile;
};

struct tc_tensor {
  std::atomic<int32_t> refCount{1};
  tc_dtype_t dtype = TC_DTYPE_INVALID;
  std::vector<int64_t> dims;
  int64_t numElements = 1;
  void *data = nullptr;
  size_t byteSize = 0;
  tc_tensor_release_fn release = nullptr;
  void *releaseUserData = nullptr;
  /// The GPU whose memory `data` is in; null for host memory.
  std::shared_ptr<tc::rt::GpuDevice> gpu;
  /// A block of gpu's memory cache this tensor owns (a run's output left
  /// on the device), given back to the cache when the tensor is freed.
  void *deviceBlock = nullptr;
};

namespace tc::rt {

/// Alignment of every buffer the runtime allocates and of every input handed
/// to a module (a cache line and the widest vector register).
constexpr size_t kAlignment = 64;

/// Creates an error status; never returns NULL.
tc_status makeStatus(tc_status_code_t code, std::string message);

/// The status for an exception caught at the API boundary; never throws.
tc_status statusFromException(const char *function, std::exception_ptr error) noexcept;

/// Runs `body`, the implementation of the API function `function`, and turns
/// any C++ exception it lets out (std::bad_alloc, std::system_error from a
/// thread, ...) into a status: no exception may cross the C API, where it
/// would terminate the caller's process.
template <typename Body>
tc_status guarded(const char *function, Body &&body) noexcept {
  try {
    return body();
  } catch (...) {
    return statusFromException(function, std::current_exception());
  }
}

/// Allocates `bytes` (rounded up to kAlignment) aligned to kAlignment;
/// returns nullptr on failure. Release with alignedFree.
void *alignedAlloc(size_t bytes);
void alignedFree(void *ptr);

/// Checks `rank` / `dims` and computes the element count and byte size;
/// returns an INVALID_ARGUMENT status on bad input.
tc_status checkShape(tc_dtype_t dtype, int32_t rank, const int64_t *dims,
                     int64_t *outNumElements, size_t *outByteSize);

/// Creates a tensor around `data`, which `release` frees.
tc_tensor *newTensor(tc_dtype_t dtype, const int64_t *dims, int32_t rank,
                     int64_t numElements, void *data, size_t byteSize,
                     tc_tensor_release_fn release, void *userData);

/// Formats dims as "[2, ?, 4]" (-1 printed as "?").
std::string formatDims(const int64_t *dims, size_t rank);

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_INTERNAL_H
