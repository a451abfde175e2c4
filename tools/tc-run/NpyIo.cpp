//===- NpyIo.cpp - numpy .npy files
//------------------------------------------===//
//
// Format: "\x93NUMPY", major and minor version bytes, the header length
// (uint16 for version 1, uint32 for 2 and 3), then a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with
// spaces and a newline, then the raw elements.
//
//===----------------------------------------------------------------------===//

#include "TensorFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

using namespace tc::run;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

struct NpyType {
  char kind; // numpy kind character: f, i, u, b
  size_t size;
  tc_dtype_t dtype;
};

constexpr NpyType kTypes[] = {
    {'f', 2, TC_DTYPE_F16}, {'f', 4, TC_DTYPE_F32}, {'f', 8, TC_DTYPE_F64},
    {'i', 1, TC_DTYPE_I8},  {'i', 2, TC_DTYPE_I16}, {'i', 4, TC_DTYPE_I32},
    {'i', 8, TC_DTYPE_I64}, {'u', 1, TC_DTYPE_U8},  {'u', 2, TC_DTYPE_U16},
    {'u', 4, TC_DTYPE_U32}, {'u', 8, TC_DTYPE_U64}, {'b', 1, TC_DTYPE_BOOL},
};

// Finds the value text after "'key':" in the header dict.
bool findValue(const std::string &header, const std::string &key, size_t &pos) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  at = header.find(':', at + key.size() + 2);
  if (at == std::string::npos)
    return false;
  pos = header.find_first_not_of(' ', at + 1);
  return pos != std::string::npos;
}

bool parseDescr(const std::string &header, tc_dtype_t &dtype,
                std::string &error) {
  size_t pos;
  if (!findValue(header, "descr", pos)) {
    error = "the header has no 'descr'";
    return false;
  }
  if (header[pos] != '\'' && header[pos] != '"') {
    error = "structured dtypes are not supported (descr " +
            header.substr(pos, 20) + "...)";
    return false;
  }
  size_t end = header.find(header[pos], pos + 1);
  if (end == std::string::npos) {
    error = "unterminated 'descr'";
    return false;
  }
  std::string descr = header.substr(pos + 1, end - pos - 1);
  if (descr.size() < 2) {
    error = "unsupported dtype '" + descr + "'";
    return false;
  }
  char order = descr[0];
  char kind = descr[1];
  size_t size = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (descr[i] < '0' || descr[i] > '9' || size > 1000) {
      size = 0;
      break;
    }
    size = size * 10 + (descr[i] - '0');
  }
  if (kind == 'O') {
    error = "object arrays (dtype '" + descr + "') are not supported";
    return false;
  }
  if (order == '>' && size > 1) {
    error = "big-endian data (dtype '" + descr +
            "') is not supported; convert with arr.astype(arr.dtype."
            "newbyteorder('<'))";
    return false;
  }
  if (order != '<' && order != '|' && order != '=' && order != '>') {
    error = "unsupported dtype '" + descr + "'";
    return false;
  }
  for (const NpyType &type : kTypes) {
    if (type.kind == kind && type.size == size) {
      dtype = type.dtype;
      return true;
    }
  }
  error = "unsupported dtype '" + descr +
          "' (supported: float16/32/64, int8-64, uint8-64, bool)";
  return false;
}

bool parseShape(const std::string &header, std::vector<int64_t> &shape,
                std::string &error) {
  size_t pos;
  if (!findValue(header, "shape", pos) || header[pos] != '(') {
    error = "the header has no 'shape' tuple";
    return false;
  }
  size_t end = header.find(')', pos);
  if (end == std::string::npos) {
    error = "unterminated 'shape'";
    return false;
  }
  std::string tuple = header.substr(pos + 1, end - pos - 1);
  size_t i = 0;
  while (true) {
    while (i < tuple.size() && (tuple[i] == ' ' || tuple[i] == ','))
      ++i;
    if (i == tuple.size())
      return true;
    size_t start = i;
    int64_t value = 0;
    while (i < tuple.size() && tuple[i] >= '0' && tuple[i] <= '9' &&
           i - start < 18)
      value = value * 10 + (tuple[i++] - '0');
    if (i == start ||
        (i < tuple.size() && tuple[i] != ',' && tuple[i] != ' ')) {
      error = "malformed 'shape' (" + tuple + ")";
      return false;
    }
    shape.push_back(value);
  }
}

} // namespace

TensorPtr tc::run::readNpy(const std::string &path, std::string &error) {
  std::string contents;
  if (!readFile(path, contents, error))
    return nullptr;
  return parseNpy(contents, path, error);
}

TensorPtr tc::run::parseNpy(const std::string &contents,
                            const std::string &path, std::string &error) {
  auto fail = [&](const std::string &what) {
    error = "'" + path + "' is not a valid .npy file: " + what;
    return nullptr;
  };
  if (contents.size() < 10 ||
      std::memcmp(contents.data(), kMagic, kMagicSize) != 0)
    return fail("it does not start with the numpy magic string");
  int major = static_cast<unsigned char>(contents[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(contents[8]) |
                   static_cast<unsigned char>(contents[9]) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (contents.size() < 12)
      return fail("truncated header");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength =
          headerLength << 8 | static_cast<unsigned char>(contents[8 + i]);
    headerStart = 12;
  } else {
    return fail("unsupported format version " + std::to_string(major));
  }
  if (contents.size() < headerStart + headerLength)
    return fail("truncated header");
  std::string header = contents.substr(headerStart, headerLength);

  tc_dtype_t dtype;
  std::string what;
  if (!parseDescr(header, dtype, what))
    return fail(what);
  size_t pos;
  if (!findValue(header, "fortran_order", pos))
    return fail("the header has no 'fortran_order'");
  if (header.compare(pos, 4, "True") == 0)
    return fail("Fortran-order arrays are not supported; save "
                "np.ascontiguousarray(arr) instead");
  if (header.compare(pos, 5, "False") != 0)
    return fail("malformed 'fortran_order'");
  std::vector<int64_t> shape;
  if (!parseShape(header, shape, what))
    return fail(what);

  uint64_t count, expected;
  if (!shapeSize(dtype, shape, count, expected, what))
    return fail(what);
  size_t dataStart = headerStart + headerLength;
  if (contents.size() - dataStart != expected)
    return fail("the shape needs " + std::to_string(expected) +
                " bytes of data but the file has " +
                std::to_string(contents.size() - dataStart));
  tc_tensor *tensor = nullptr;
  if (std::string message = takeMessage(tc_tensor_create_zeroed(
          dtype, static_cast<int32_t>(shape.size()), shape.data(), &tensor));
      !message.empty())
    return fail(message);
  TensorPtr owned(tensor);
  if (expected)
    std::memcpy(tc_tensor_data(tensor), contents.data() + dataStart, expected);
  return owned;
}

bool tc::run::writeNpy(const std::string &path, const tc_tensor *tensor,
                       std::string &error) {
  const char *descr = nullptr;
  switch (tc_tensor_dtype(tensor)) {
  case TC_DTYPE_F16:
    descr = "<f2";
    break;
  case TC_DTYPE_BF16:
    descr = "<u2";
    break; // numpy has no bfloat16
  case TC_DTYPE_F32:
    descr = "<f4";
    break;
  case TC_DTYPE_F64:
    descr = "<f8";
    break;
  case TC_DTYPE_I8:
    descr = "|i1";
    break;
  case TC_DTYPE_I16:
    descr = "<i2";
    break;
  case TC_DTYPE_I32:
    descr = "<i4";
    break;
  case TC_DTYPE_I64:
    descr = "<i8";
    break;
  case TC_DTYPE_U8:
    descr = "|u1";
    break;
  case TC_DTYPE_U16:
    descr = "<u2";
    break;
  case TC_DTYPE_U32:
    descr = "<u4";
    break;
  case TC_DTYPE_U64:
    descr = "<u8";
    break;
  case TC_DTYPE_BOOL:
    descr = "|b1";
    break;
  // numpy has none of the narrow types: their bytes (module_abi.h), which
  // readers of these files accept back (adoptStandIn).
  case TC_DTYPE_I4:
  case TC_DTYPE_I2:
    descr = "|i1";
    break;
  case TC_DTYPE_U4:
  case TC_DTYPE_U2:
  case TC_DTYPE_F8E4M3FN:
  case TC_DTYPE_F8E4M3FNUZ:
  case TC_DTYPE_F8E5M2:
  case TC_DTYPE_F8E5M2FNUZ:
  case TC_DTYPE_F8E8M0FNU:
  case TC_DTYPE_F4E2M1FN:
    descr = "|u1";
    break;
  case TC_DTYPE_INVALID:
    break;
  }
  if (!descr) {
    error = "cannot write '" + path + "': invalid dtype";
    return false;
  }
  std::string shape = "(";
  int32_t rank = tc_tensor_rank(tensor);
  for (int32_t i = 0; i < rank; ++i)
    shape += std::to_string(tc_tensor_dims(tensor)[i]) + (rank == 1      ? ","
                                                          : i + 1 < rank ? ", "
                                                                         : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so the data starts on a 64-byte boundary, as numpy does.
  size_t total = kMagicSize + 4 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  out.write(kMagic, kMagicSize);
  const char version[2] = {1, 0};
  out.write(version, 2);
  const char length[2] = {static_cast<char>(header.size() & 0xff),
                          static_cast<char>(header.size() >> 8)};
  out.write(length, 2);
  out << header;
  out.write(static_cast<const char *>(tc_tensor_data(tensor)),
            static_cast<std::streamsize>(tc_tensor_byte_size(tensor)));
  out.close();
  if (!out) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}
