//===- TensorFile.cpp - file helpers shared by tc-run's readers
//--------------===//

#include "TensorFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace tc::run;

std::string tc::run::takeMessage(tc_status status) {
  std::string message = tc_status_message(status);
  tc_status_free(status);
  return message;
}

bool tc::run::readFile(const std::string &path, std::string &contents,
                       std::string &error) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(info.st_mode)) {
    error = "cannot read '" + path + "': it is a directory";
    return false;
  }
  // A FIFO or a device would block or never end; tensors come from files.
  if (!S_ISREG(info.st_mode)) {
    error = "cannot read '" + path + "': it is not a regular file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  contents = buffer.str();
  return true;
}

bool tc::run::shapeSize(tc_dtype_t dtype, const std::vector<int64_t> &dims,
                        uint64_t &count, uint64_t &bytes, std::string &error) {
  uint64_t elementSize = tc_dtype_size(dtype);
  count = 1;
  bool empty = false;
  for (int64_t dim : dims) {
    if (dim < 0) {
      error = "negative extent " + std::to_string(dim);
      return false;
    }
    empty |= dim == 0;
  }
  // Sizes stay below 2^62 bytes, far above any memory, so nothing wraps.
  constexpr uint64_t kLimit = uint64_t(1) << 62;
  for (int64_t dim : dims) {
    if (empty)
      break;
    if (count > kLimit / static_cast<uint64_t>(dim) / elementSize) {
      error = "the shape has more elements than memory can hold";
      return false;
    }
    count *= static_cast<uint64_t>(dim);
  }
  if (empty)
    count = 0;
  bytes = count * elementSize;
  return true;
}

static bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TensorPtr tc::run::readTensorFile(const std::string &path, std::string &error) {
  if (endsWith(path, ".npy"))
    return readNpy(path, error);
  if (endsWith(path, ".pb")) {
    std::string ignoredName;
    return readTensorProto(path, ignoredName, error);
  }
  error = "'" + path + "': unknown file type (expected .npy or .pb)";
  return nullptr;
}

namespace {
// How a .npy stand-in maps to `wanted`: the stand-in dtypes it accepts and
// the bit width of its values (0: keep the bytes as they are).
bool standInFor(tc_dtype_t wanted, tc_dtype_t found, unsigned &bits,
                bool &isSigned) {
  bits = 0;
  isSigned = false;
  switch (wanted) {
  case TC_DTYPE_BF16:
    return found == TC_DTYPE_U16;
  case TC_DTYPE_F8E4M3FN:
  case TC_DTYPE_F8E4M3FNUZ:
  case TC_DTYPE_F8E5M2:
  case TC_DTYPE_F8E5M2FNUZ:
  case TC_DTYPE_F8E8M0FNU:
    return found == TC_DTYPE_U8;
  case TC_DTYPE_F4E2M1FN:
    bits = 4;
    return found == TC_DTYPE_U8;
  case TC_DTYPE_I4:
  case TC_DTYPE_I2:
  case TC_DTYPE_U4:
  case TC_DTYPE_U2:
    bits = wanted == TC_DTYPE_I4 || wanted == TC_DTYPE_U4 ? 4 : 2;
    isSigned = wanted == TC_DTYPE_I4 || wanted == TC_DTYPE_I2;
    return found == TC_DTYPE_I8 || found == TC_DTYPE_U8;
  default:
    return false;
  }
}
} // namespace

TensorPtr tc::run::adoptStandIn(TensorPtr tensor, tc_dtype_t wanted,
                                std::string &error) {
  unsigned bits;
  bool isSigned;
  if (!tensor || !standInFor(wanted, tc_tensor_dtype(tensor.get()), bits,
                             isSigned))
    return tensor;
  tc_tensor *retyped = nullptr;
  if (tc_status status = tc_tensor_create_copy(
          wanted, tc_tensor_rank(tensor.get()), tc_tensor_dims(tensor.get()),
          tc_tensor_data(tensor.get()), tc_tensor_byte_size(tensor.get()),
          &retyped)) {
    error = takeMessage(status);
    return nullptr;
  }
  if (bits) {
    // Canonical bytes (module_abi.h): only the type's own bits, extended.
    auto *data = static_cast<uint8_t *>(tc_tensor_data(retyped));
    for (int64_t i = 0, e = tc_tensor_num_elements(retyped); i < e; ++i) {
      unsigned value = data[i] & ((1u << bits) - 1);
      if (isSigned && (value >> (bits - 1)))
        value |= 0xffu << bits;
      data[i] = static_cast<uint8_t>(value);
    }
  }
  return TensorPtr(retyped);
}
