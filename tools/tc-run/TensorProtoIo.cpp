//===- TensorProtoIo.cpp - onnx TensorProto (.pb) files
//----------------------===//
//
// A minimal protobuf wire-format reader for the TensorProto fields tc-run
// needs, so that the tool does not depend on libprotobuf or the onnx
// library (the runtime side of tc must stay light):
//   1 dims (int64, packed or not)     2 data_type (int32)
//   4 float_data (packed or not)      5 int32_data
//   7 int64_data                      8 name (string)
//   9 raw_data (bytes, little-endian; 4- and 2-bit types packed, low bits
//     first, and unpacked here to one byte per element)  10 double_data
//   11 uint64_data                    13/14 external data (rejected)
// Other fields are skipped by wire type.
//
//===----------------------------------------------------------------------===//

#include "TensorFile.h"

#include <cstring>
#include <vector>

using namespace tc::run;

namespace {

enum WireType { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

class Reader {
public:
  Reader(const char *begin, const char *end) : pos(begin), end(end) {}
  bool atEnd() const { return pos == end; }

  bool varint(uint64_t &value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos == end)
        return false;
      uint8_t byte = static_cast<uint8_t>(*pos++);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  }

  bool fixed(void *out, size_t size) {
    if (static_cast<size_t>(end - pos) < size)
      return false;
    std::memcpy(out, pos, size); // little-endian on the wire and the host
    pos += size;
    return true;
  }

  bool bytes(const char *&begin, size_t &size) {
    uint64_t length;
    if (!varint(length) || length > static_cast<uint64_t>(end - pos))
      return false;
    begin = pos;
    size = length;
    pos += length;
    return true;
  }

  bool skip(int wireType) {
    uint64_t ignored;
    const char *begin;
    size_t size;
    switch (wireType) {
    case kVarint:
      return varint(ignored);
    case kFixed64:
      return fixed(&ignored, 8);
    case kLengthDelimited:
      return bytes(begin, size);
    case kFixed32:
      return fixed(&ignored, 4);
    default:
      return false; // groups (3, 4) are not used by onnx
    }
  }

private:
  const char *pos;
  const char *end;
};

// Reads a repeated scalar field in either encoding: packed (one
// length-delimited run) or one value per tag.
template <typename T, typename ReadOne>
bool readRepeated(Reader &reader, int wireType, int scalarWireType,
                  std::vector<T> &values, ReadOne readOne) {
  if (wireType == kLengthDelimited) {
    const char *begin;
    size_t size;
    if (!reader.bytes(begin, size))
      return false;
    Reader packed(begin, begin + size);
    while (!packed.atEnd()) {
      T value;
      if (!readOne(packed, value))
        return false;
      values.push_back(value);
    }
    return true;
  }
  if (wireType != scalarWireType)
    return false;
  T value;
  if (!readOne(reader, value))
    return false;
  values.push_back(value);
  return true;
}

template <typename T> bool readVarintAs(Reader &reader, T &value) {
  uint64_t raw;
  if (!reader.varint(raw))
    return false;
  value = static_cast<T>(raw);
  return true;
}

template <typename T> bool readFixedAs(Reader &reader, T &value) {
  return reader.fixed(&value, sizeof(T));
}

bool dtypeFromOnnx(int64_t type, tc_dtype_t &dtype) {
  switch (type) {
  case 1:
    dtype = TC_DTYPE_F32;
    return true;
  case 2:
    dtype = TC_DTYPE_U8;
    return true;
  case 3:
    dtype = TC_DTYPE_I8;
    return true;
  case 4:
    dtype = TC_DTYPE_U16;
    return true;
  case 5:
    dtype = TC_DTYPE_I16;
    return true;
  case 6:
    dtype = TC_DTYPE_I32;
    return true;
  case 7:
    dtype = TC_DTYPE_I64;
    return true;
  case 9:
    dtype = TC_DTYPE_BOOL;
    return true;
  case 10:
    dtype = TC_DTYPE_F16;
    return true;
  case 11:
    dtype = TC_DTYPE_F64;
    return true;
  case 12:
    dtype = TC_DTYPE_U32;
    return true;
  case 13:
    dtype = TC_DTYPE_U64;
    return true;
  case 16:
    dtype = TC_DTYPE_BF16;
    return true;
  // Numbers newer than some onnx.proto copies, hence no names.
  case 17:
    dtype = TC_DTYPE_F8E4M3FN;
    return true;
  case 18:
    dtype = TC_DTYPE_F8E4M3FNUZ;
    return true;
  case 19:
    dtype = TC_DTYPE_F8E5M2;
    return true;
  case 20:
    dtype = TC_DTYPE_F8E5M2FNUZ;
    return true;
  case 21:
    dtype = TC_DTYPE_U4;
    return true;
  case 22:
    dtype = TC_DTYPE_I4;
    return true;
  case 23:
    dtype = TC_DTYPE_F4E2M1FN;
    return true;
  case 24:
    dtype = TC_DTYPE_F8E8M0FNU;
    return true;
  case 25:
    dtype = TC_DTYPE_U2;
    return true;
  case 26:
    dtype = TC_DTYPE_I2;
    return true;
  default:
    return false;
  }
}

// Copies typed values into the tensor buffer, narrowing each to the element
// type (onnx stores 8- and 16-bit types one per int32, f16/bf16 as bits).
template <typename Source>
void narrowInto(const std::vector<Source> &values, tc_dtype_t dtype,
                void *data) {
  auto store = [&](auto tag) {
    using Target = decltype(tag);
    auto *out = static_cast<Target *>(data);
    for (size_t i = 0; i < values.size(); ++i)
      out[i] = static_cast<Target>(values[i]);
  };
  switch (tc_dtype_size(dtype)) {
  case 1:
    store(uint8_t());
    break;
  case 2:
    store(uint16_t());
    break;
  case 4:
    store(uint32_t());
    break;
  case 8:
    store(uint64_t());
    break;
  default:
    break;
  }
}

// Bits per element of the types onnx packs several to a byte (4-bit types
// two per byte, 2-bit types four), 0 for the others.
unsigned packedBits(tc_dtype_t dtype) {
  switch (dtype) {
  case TC_DTYPE_I4:
  case TC_DTYPE_U4:
  case TC_DTYPE_F4E2M1FN:
    return 4;
  case TC_DTYPE_I2:
  case TC_DTYPE_U2:
    return 2;
  default:
    return 0;
  }
}

// Spreads packed elements (low bits first) into one byte each, the layout of
// module_abi.h: signed integers sign-extended, the others zero-extended.
void unpackInto(const uint8_t *packed, size_t count, tc_dtype_t dtype,
                void *data) {
  unsigned bits = packedBits(dtype), perByte = 8 / bits;
  bool isSigned = dtype == TC_DTYPE_I4 || dtype == TC_DTYPE_I2;
  auto *out = static_cast<uint8_t *>(data);
  for (size_t i = 0; i < count; ++i) {
    unsigned value =
        (packed[i / perByte] >> (bits * (i % perByte))) & ((1u << bits) - 1);
    if (isSigned && (value >> (bits - 1)))
      value |= 0xffu << bits;
    out[i] = static_cast<uint8_t>(value);
  }
}

} // namespace

TensorPtr tc::run::readTensorProto(const std::string &path, std::string &name,
                                   std::string &error) {
  std::string contents;
  if (!readFile(path, contents, error))
    return nullptr;
  return parseTensorProto(contents, path, name, error);
}

TensorPtr tc::run::parseTensorProto(const std::string &contents,
                                    const std::string &path, std::string &name,
                                    std::string &error) {
  auto fail = [&](const std::string &what) {
    error = "'" + path + "' is not a valid onnx TensorProto: " + what;
    return nullptr;
  };

  std::vector<int64_t> dims;
  int64_t dataType = 0;
  std::vector<float> floats;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<double> doubles;
  std::vector<uint64_t> uint64s;
  const char *raw = nullptr;
  size_t rawSize = 0;
  bool hasRaw = false;
  name.clear();

  Reader reader(contents.data(), contents.data() + contents.size());
  while (!reader.atEnd()) {
    uint64_t key;
    if (!reader.varint(key))
      return fail("truncated field key");
    int field = static_cast<int>(key >> 3);
    int wireType = static_cast<int>(key & 7);
    bool ok = true;
    const char *begin;
    size_t size;
    switch (field) {
    case 1:
      ok = readRepeated(reader, wireType, kVarint, dims, readVarintAs<int64_t>);
      break;
    case 2:
      ok = wireType == kVarint && readVarintAs(reader, dataType);
      break;
    case 4:
      ok = readRepeated(reader, wireType, kFixed32, floats, readFixedAs<float>);
      break;
    case 5:
      ok = readRepeated(reader, wireType, kVarint, int32s,
                        readVarintAs<int32_t>);
      break;
    case 6:
      return fail("string tensors are not supported");
    case 7:
      ok = readRepeated(reader, wireType, kVarint, int64s,
                        readVarintAs<int64_t>);
      break;
    case 8:
      ok = wireType == kLengthDelimited && reader.bytes(begin, size);
      if (ok)
        name.assign(begin, size);
      break;
    case 9:
      ok = wireType == kLengthDelimited && reader.bytes(raw, rawSize);
      hasRaw = ok;
      break;
    case 10:
      ok = readRepeated(reader, wireType, kFixed64, doubles,
                        readFixedAs<double>);
      break;
    case 11:
      ok = readRepeated(reader, wireType, kVarint, uint64s,
                        readVarintAs<uint64_t>);
      break;
    case 13:
      return fail("tensors with external data are not supported");
    case 14: {
      int64_t location = 0;
      ok = wireType == kVarint && readVarintAs(reader, location);
      if (ok && location != 0)
        return fail("tensors with external data are not supported");
      break;
    }
    default:
      ok = reader.skip(wireType);
      break;
    }
    if (!ok)
      return fail("field " + std::to_string(field) + " (wire type " +
                  std::to_string(wireType) + ") is malformed or truncated");
  }

  tc_dtype_t dtype;
  if (dataType == 0)
    return fail("no data_type");
  if (!dtypeFromOnnx(dataType, dtype))
    return fail("unsupported data_type " + std::to_string(dataType));
  uint64_t count = 0, byteSize = 0;
  std::string what;
  if (!shapeSize(dtype, dims, count, byteSize, what))
    return fail(what);

  // The data is checked against the shape before anything is allocated.
  unsigned bits = packedBits(dtype);
  size_t found = 0;
  const char *field = "";
  if (bits) {
    // raw_data holds the packed bytes; so does int32_data, one per value.
    uint64_t packedSize = (count / 8) * bits + ((count % 8) * bits + 7) / 8;
    found = hasRaw ? rawSize : int32s.size();
    if (found != packedSize)
      return fail(std::string(hasRaw ? "raw_data" : "int32_data") + " has " +
                  std::to_string(found) + (hasRaw ? " bytes" : " values") +
                  " but the shape needs " + std::to_string(packedSize) + " (" +
                  std::to_string(8 / bits) + " elements each)");
  } else if (hasRaw) {
    if (rawSize != byteSize)
      return fail("raw_data has " + std::to_string(rawSize) +
                  " bytes but the shape needs " + std::to_string(byteSize));
  } else {
    // Which typed field holds this data type's values.
    switch (dtype) {
    case TC_DTYPE_F32:
      found = floats.size(), field = "float_data";
      break;
    case TC_DTYPE_F64:
      found = doubles.size(), field = "double_data";
      break;
    case TC_DTYPE_I64:
      found = int64s.size(), field = "int64_data";
      break;
    case TC_DTYPE_U32:
    case TC_DTYPE_U64:
      found = uint64s.size(), field = "uint64_data";
      break;
    default: // the types ONNX stores in int32_data
      found = int32s.size(), field = "int32_data";
      break;
    }
    if (found != count)
      return fail(std::string(field) + " has " + std::to_string(found) +
                  " values but the shape needs " + std::to_string(count));
  }

  tc_tensor *tensor = nullptr;
  if (std::string message = takeMessage(tc_tensor_create_zeroed(
          dtype, static_cast<int32_t>(dims.size()), dims.data(), &tensor));
      !message.empty())
    return fail(message);
  TensorPtr owned(tensor);
  void *data = tc_tensor_data(tensor);
  if (bits) {
    std::vector<uint8_t> packed;
    if (hasRaw)
      packed.assign(raw, raw + rawSize);
    else
      for (int32_t value : int32s)
        packed.push_back(static_cast<uint8_t>(value));
    unpackInto(packed.data(), count, dtype, data);
    return owned;
  }
  if (hasRaw) {
    if (byteSize)
      std::memcpy(data, raw, byteSize);
    return owned;
  }
  if (count == 0)
    return owned;
  switch (dtype) {
  case TC_DTYPE_F32:
    std::memcpy(data, floats.data(), byteSize);
    break;
  case TC_DTYPE_F64:
    std::memcpy(data, doubles.data(), byteSize);
    break;
  case TC_DTYPE_I64:
    std::memcpy(data, int64s.data(), byteSize);
    break;
  case TC_DTYPE_U32:
  case TC_DTYPE_U64:
    narrowInto(uint64s, dtype, data);
    break;
  default:
    narrowInto(int32s, dtype, data);
    break;
  }
  return owned;
}
