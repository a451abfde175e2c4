//===- Tensor.cpp - tc_tensor: creation, reference counting, accessors
//------===//

#include "Internal.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

using namespace tc::rt;

void *tc::rt::alignedAlloc(size_t bytes) {
  // aligned_alloc wants a multiple of the alignment; never ask for 0 bytes so
  // that a successful allocation is always distinguishable from failure.
  size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded < bytes)
    return nullptr; // overflow
  return std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment);
}

void tc::rt::alignedFree(void *ptr) { std::free(ptr); }

std::string tc::rt::formatDims(const int64_t *dims, size_t rank) {
  std::string text = "[";
  for (size_t i = 0; i < rank; ++i) {
    if (i)
      text += ", ";
    text += dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
  }
  return text + "]";
}

tc_status tc::rt::checkShape(tc_dtype_t dtype, int32_t rank,
                             const int64_t *dims, int64_t *outNumElements,
                             size_t *outByteSize) {
  size_t elementSize = tc_dtype_size(dtype);
  if (elementSize == 0)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "invalid dtype value " + std::to_string(dtype));
  if (rank < 0)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "negative rank " + std::to_string(rank));
  if (rank > 0 && !dims)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "dims is NULL but rank is " + std::to_string(rank));
  bool empty = false;
  for (int32_t i = 0; i < rank; ++i) {
    if (dims[i] < 0)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "negative extent " + std::to_string(dims[i]) +
                            " at axis " + std::to_string(i));
    empty |= dims[i] == 0;
  }
  // A zero extent anywhere makes the tensor empty, however large the others.
  int64_t count = empty ? 0 : 1;
  bool overflow = false;
  for (int32_t i = 0; i < rank && !empty && !overflow; ++i) {
    if (count > std::numeric_limits<int64_t>::max() / dims[i])
      overflow = true;
    else
      count *= dims[i];
  }
  if (overflow || static_cast<uint64_t>(count) >
                      std::numeric_limits<size_t>::max() / elementSize)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT, "tensor of shape " +
                                                      formatDims(dims, rank) +
                                                      " is too large");
  *outNumElements = count;
  *outByteSize = static_cast<size_t>(count) * elementSize;
  return nullptr;
}

tc_tensor *tc::rt::newTensor(tc_dtype_t dtype, const int64_t *dims,
                             int32_t rank, int64_t numElements, void *data,
                             size_t byteSize, tc_tensor_release_fn release,
                             void *userData) {
  tc_tensor *tensor = new (std::nothrow) tc_tensor;
  if (!tensor)
    return nullptr;
  tensor->dtype = dtype;
  try {
    tensor->dims.assign(dims, dims + rank);
  } catch (const std::bad_alloc &) {
    delete tensor;
    return nullptr;
  }
  tensor->numElements = numElements;
  tensor->data = data;
  tensor->byteSize = byteSize;
  tensor->release = release;
  tensor->releaseUserData = userData;
  return tensor;
}

namespace {
void releaseAligned(void *, void *data) { alignedFree(data); }

// Shared by create_copy and create_zeroed.
tc_status createOwned(tc_dtype_t dtype, int32_t rank, const int64_t *dims,
                      const void *source, size_t sourceBytes, bool checkBytes,
                      tc_tensor **outTensor) {
  if (!outTensor)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT, "out_tensor is NULL");
  int64_t numElements;
  size_t byteSize;
  if (tc_status status = checkShape(dtype, rank, dims, &numElements, &byteSize))
    return status;
  if (checkBytes && sourceBytes != byteSize)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "byte_size is " + std::to_string(sourceBytes) +
                          " but a " + tc_dtype_name(dtype) +
                          " tensor of shape " + formatDims(dims, rank) +
                          " has " + std::to_string(byteSize) + " bytes");
  if (checkBytes && byteSize && !source)
    return makeStatus(TC_STATUS_INVALID_ARGUMENT, "data is NULL");
  void *data = alignedAlloc(byteSize);
  if (!data)
    return makeStatus(TC_STATUS_OUT_OF_MEMORY, "cannot allocate " +
                                                   std::to_string(byteSize) +
                                                   " bytes for a tensor");
  if (source)
    std::memcpy(data, source, byteSize);
  else
    std::memset(data, 0, byteSize);
  tc_tensor *tensor = newTensor(dtype, dims, rank, numElements, data, byteSize,
                                releaseAligned, nullptr);
  if (!tensor) {
    alignedFree(data);
    return makeStatus(TC_STATUS_OUT_OF_MEMORY, "cannot allocate a tensor");
  }
  *outTensor = tensor;
  return nullptr;
}
} // namespace

extern "C" {

tc_status tc_tensor_create_copy(tc_dtype_t dtype, int32_t rank,
                                const int64_t *dims, const void *data,
                                size_t byte_size, tc_tensor **out_tensor) {
  return guarded("tc_tensor_create_copy", [&] {
    return createOwned(dtype, rank, dims, data, byte_size,
                       /*checkBytes=*/true, out_tensor);
  });
}

tc_status tc_tensor_create_zeroed(tc_dtype_t dtype, int32_t rank,
                                  const int64_t *dims, tc_tensor **out_tensor) {
  return guarded("tc_tensor_create_zeroed", [&] {
    return createOwned(dtype, rank, dims, nullptr, 0, /*checkBytes=*/false,
                       out_tensor);
  });
}

namespace {
// Shared by tc_tensor_wrap and tc_tensor_wrap_device (`device` non-null).
tc_status wrapBuffer(const char *function, tc_device *device, tc_dtype_t dtype,
                     int32_t rank, const int64_t *dims, void *data,
                     size_t byte_size, tc_tensor_release_fn release,
                     void *user_data, tc_tensor **out_tensor) {
  // On every failure the buffer is released as documented, so a caller that
  // hands over ownership never has to clean up after an error.
  bool released = false;
  auto fail = [&](tc_status status) {
    if (release)
      release(user_data, data);
    released = true;
    return status;
  };
  tc_status result = guarded(function, [&]() -> tc_status {
    if (device && !device->gpu)
      return fail(makeStatus(
          TC_STATUS_INVALID_ARGUMENT,
          std::string("tc_tensor_wrap_device: device '") + device->spec +
              "' is not a GPU (wrap host memory with tc_tensor_wrap)"));
    if (!out_tensor)
      return fail(makeStatus(TC_STATUS_INVALID_ARGUMENT, "out_tensor is NULL"));
    int64_t numElements;
    size_t byteSize;
    if (tc_status status = checkShape(dtype, rank, dims, &numElements, &byteSize))
      return fail(status);
    if (byte_size != byteSize)
      return fail(makeStatus(TC_STATUS_INVALID_ARGUMENT,
                             "byte_size is " + std::to_string(byte_size) +
                                 " but a " + tc_dtype_name(dtype) +
                                 " tensor of shape " + formatDims(dims, rank) +
                                 " has " + std::to_string(byteSize) + " bytes"));
    if (byteSize && !data)
      return fail(makeStatus(TC_STATUS_INVALID_ARGUMENT, "data is NULL"));
    tc_tensor *tensor = newTensor(dtype, dims, rank, numElements, data, byteSize,
                                  release, user_data);
    if (!tensor)
      return fail(
          makeStatus(TC_STATUS_OUT_OF_MEMORY, "cannot allocate a tensor"));
    if (device)
      tensor->gpu = device->gpu;
    *out_tensor = tensor;
    return nullptr;
  });
  if (result && !released && release)
    release(user_data, data); // an exception left the body before fail()
  return result;
}
} // namespace

tc_status tc_tensor_wrap(tc_dtype_t dtype, int32_t rank, const int64_t *dims,
                         void *data, size_t byte_size,
                         tc_tensor_release_fn release, void *user_data,
                         tc_tensor **out_tensor) {
  return wrapBuffer("tc_tensor_wrap", nullptr, dtype, rank, dims, data,
                    byte_size, release, user_data, out_tensor);
}

tc_status tc_tensor_wrap_device(tc_device *device, tc_dtype_t dtype,
                                int32_t rank, const int64_t *dims, void *data,
                                size_t byte_size, tc_tensor_release_fn release,
                                void *user_data, tc_tensor **out_tensor) {
  if (!device) {
    if (release)
      release(user_data, data);
    return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                      "tc_tensor_wrap_device: device is NULL");
  }
  return wrapBuffer("tc_tensor_wrap_device", device, dtype, rank, dims, data,
                    byte_size, release, user_data, out_tensor);
}

const char *tc_tensor_device(const tc_tensor *tensor) {
  return tensor && tensor->gpu ? tensor->gpu->spec().c_str() : "cpu";
}

tc_status tc_tensor_copy(tc_tensor *target, const tc_tensor *source) {
  return guarded("tc_tensor_copy", [&]() -> tc_status {
    if (!target || !source)
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "tc_tensor_copy: target or source is NULL");
    if (target->dtype != source->dtype || target->dims != source->dims)
      return makeStatus(
          TC_STATUS_INVALID_ARGUMENT,
          std::string("tc_tensor_copy: the target is ") +
              tc_dtype_name(target->dtype) + " " +
              formatDims(target->dims.data(), target->dims.size()) +
              " but the source is " + tc_dtype_name(source->dtype) + " " +
              formatDims(source->dims.data(), source->dims.size()));
    if (target->gpu && source->gpu &&
        target->gpu->spec() != source->gpu->spec())
      return makeStatus(TC_STATUS_INVALID_ARGUMENT,
                        "tc_tensor_copy: the target is on " +
                            target->gpu->spec() + " but the source on " +
                            source->gpu->spec() +
                            "; copy through host memory");
    if (!source->byteSize)
      return nullptr;
    GpuDevice *gpu = target->gpu ? target->gpu.get() : source->gpu.get();
    if (!gpu) {
      std::memcpy(target->data, source->data, source->byteSize);
      return nullptr;
    }
    return gpu->copy(target->data, target->gpu != nullptr, source->data,
                     source->gpu != nullptr, source->byteSize);
  });
}

void tc_tensor_retain(tc_tensor *tensor) {
  if (tensor)
    tensor->refCount.fetch_add(1, std::memory_order_relaxed);
}

void tc_tensor_release(tc_tensor *tensor) {
  if (!tensor)
    return;
  // acq_rel: the thread freeing the tensor must see every other owner's
  // writes to it.
  if (tensor->refCount.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  if (tensor->release)
    tensor->release(tensor->releaseUserData, tensor->data);
  if (tensor->deviceBlock)
    tensor->gpu->releaseBlock(tensor->deviceBlock);
  delete tensor; // the last tensor of a released device frees the device

}

tc_dtype_t tc_tensor_dtype(const tc_tensor *tensor) {
  return tensor ? tensor->dtype : TC_DTYPE_INVALID;
}

int32_t tc_tensor_rank(const tc_tensor *tensor) {
  return tensor ? static_cast<int32_t>(tensor->dims.size()) : 0;
}

const int64_t *tc_tensor_dims(const tc_tensor *tensor) {
  return tensor && !tensor->dims.empty() ? tensor->dims.data() : nullptr;
}

int64_t tc_tensor_num_elements(const tc_tensor *tensor) {
  return tensor ? tensor->numElements : 0;
}

void *tc_tensor_data(const tc_tensor *tensor) {
  return tensor ? tensor->data : nullptr;
}

size_t tc_tensor_byte_size(const tc_tensor *tensor) {
  return tensor ? tensor->byteSize : 0;
}

} // extern "C"
