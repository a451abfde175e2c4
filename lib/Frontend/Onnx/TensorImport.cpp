//===- TensorImport.cpp - ONNX element types and tensors to MLIR ----------===//
//
// Weights become dense_resource blobs that own the bytes the protobuf parser
// already allocated (no copy); tiny tensors become dense<> attributes so that
// folding sees shape vectors and scalars.
//
//===----------------------------------------------------------------------===//

#include "TensorImport.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tc::onnx;
using ::onnx::TensorProto;

Type mlir::tc::onnx::convertElementType(MLIRContext *ctx, int32_t dataType,
                                        std::string &why) {
  auto uint = [&](unsigned width) {
    return IntegerType::get(ctx, width, IntegerType::Unsigned);
  };
  switch (dataType) {
  case TensorProto::FLOAT:
    return Float32Type::get(ctx);
  case TensorProto::DOUBLE:
    return Float64Type::get(ctx);
  case TensorProto::FLOAT16:
    return Float16Type::get(ctx);
  case TensorProto::BFLOAT16:
    return BFloat16Type::get(ctx);
  case TensorProto::BOOL:
    return IntegerType::get(ctx, 1);
  case TensorProto::INT8:
    return IntegerType::get(ctx, 8);
  case TensorProto::INT16:
    return IntegerType::get(ctx, 16);
  case TensorProto::INT32:
    return IntegerType::get(ctx, 32);
  case TensorProto::INT64:
    return IntegerType::get(ctx, 64);
  case TensorProto::UINT8:
    return uint(8);
  case TensorProto::UINT16:
    return uint(16);
  case TensorProto::UINT32:
    return uint(32);
  case TensorProto::UINT64:
    return uint(64);
  // Newer than Debian's onnx.proto, hence the numbers.
  case 17:
    return Float8E4M3FNType::get(ctx);
  case 18:
    return Float8E4M3FNUZType::get(ctx);
  case 19:
    return Float8E5M2Type::get(ctx);
  case 20:
    return Float8E5M2FNUZType::get(ctx);
  case 24:
    return Float8E8M0FNUType::get(ctx);
  case 21:
    return uint(4);
  case 22:
    return IntegerType::get(ctx, 4);
  case 23:
    return Float4E2M1FNType::get(ctx);
  case 25:
    return uint(2);
  case 26:
    return IntegerType::get(ctx, 2);
  default:
    why = "element type " + dataTypeName(dataType) + " is not supported";
    return nullptr;
  }
}

std::string mlir::tc::onnx::dataTypeName(int32_t dataType) {
  if (::onnx::TensorProto_DataType_IsValid(dataType))
    return ::onnx::TensorProto_DataType_Name(
        static_cast<::onnx::TensorProto_DataType>(dataType));
  // Types newer than Debian's onnx.proto.
  switch (dataType) {
  case 17:
    return "FLOAT8E4M3FN";
  case 18:
    return "FLOAT8E4M3FNUZ";
  case 19:
    return "FLOAT8E5M2";
  case 20:
    return "FLOAT8E5M2FNUZ";
  case 21:
    return "UINT4";
  case 22:
    return "INT4";
  case 23:
    return "FLOAT4E2M1";
  case 24:
    return "FLOAT8E8M0";
  case 25:
    return "UINT2";
  case 26:
    return "INT2";
  default:
    return "data type " + std::to_string(dataType);
  }
}

namespace {
/// Bytes one element takes in tc's blob layout: sub-byte types (i1, 4- and
/// 2-bit types) take a byte each, as MLIR's dense storage does.
size_t elementBytes(Type type) {
  return std::max<size_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// ONNX packs 4-bit types two to a byte and 2-bit types four to a byte,
/// low bits first; tc stores one element per byte.
std::string unpackSubByte(const std::string &packed, unsigned bits,
                          int64_t count) {
  std::string out(count, '\0');
  unsigned perByte = 8 / bits, mask = (1u << bits) - 1;
  for (int64_t i = 0; i < count; ++i)
    out[i] = static_cast<char>(
        (static_cast<unsigned char>(packed[i / perByte]) >> (bits * (i % perByte))) &
        mask);
  return out;
}

/// Serializes ONNX's typed repeated fields into little-endian bytes of the
/// element type.
template <typename Repeated>
void appendTruncated(const Repeated &values, size_t width, std::string &out) {
  out.reserve(values.size() * width);
  for (auto value : values) {
    uint64_t bits;
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, float>) {
      uint32_t b;
      std::memcpy(&b, &value, 4);
      bits = b;
    } else if constexpr (std::is_same_v<std::decay_t<decltype(value)>,
                                        double>) {
      std::memcpy(&bits, &value, 8);
    } else {
      bits = static_cast<uint64_t>(value);
    }
    char buffer[8];
    std::memcpy(buffer, &bits, 8); // little-endian hosts only
    out.append(buffer, width);
  }
}

/// A resource key must be a bare identifier.
std::string blobName(llvm::StringRef name) {
  std::string key;
  for (char c : name)
    key.push_back(llvm::isAlnum(c) || c == '_' || c == '.' ? c : '_');
  if (key.empty() || llvm::isDigit(key.front()))
    key.insert(key.begin(), '_');
  return key;
}
} // namespace

bool TensorImporter::readExternal(const TensorProto &tensor,
                                  size_t expectedBytes, std::string &bytes,
                                  std::string &error) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &entry : tensor.external_data()) {
    if (entry.key() == "location")
      location = entry.value();
    else if (entry.key() == "offset" || entry.key() == "length") {
      int64_t value;
      if (llvm::StringRef(entry.value()).getAsInteger(10, value) ||
          value < 0) {
        error = llvm::formatv("tensor '{0}': external-data {1} '{2}' is not "
                              "a non-negative integer",
                              tensor.name(), entry.key(), entry.value());
        return false;
      }
      (entry.key() == "offset" ? offset : length) = value;
    }
  }
  if (location.empty()) {
    error = llvm::formatv("tensor '{0}' is stored externally but names no "
                          "location",
                          tensor.name());
    return false;
  }
  // The spec requires a path relative to the model's directory, without
  // "..": anything else could read files outside the model.
  llvm::StringRef loc(location);
  bool escapes = llvm::sys::path::is_absolute(loc) ||
                 llvm::any_of(llvm::make_range(llvm::sys::path::begin(loc),
                                               llvm::sys::path::end(loc)),
                              [](llvm::StringRef part) { return part == ".."; });
  if (escapes) {
    error = llvm::formatv("tensor '{0}': external-data location '{1}' must "
                          "be a relative path inside the model's directory",
                          tensor.name(), location);
    return false;
  }
  llvm::SmallString<256> path(externalDataDir);
  llvm::sys::path::append(path, loc);
  // A FIFO or device would block or never end.
  if (llvm::sys::fs::exists(path) && !llvm::sys::fs::is_regular_file(path)) {
    error = llvm::formatv("tensor '{0}': external-data file '{1}' is not a "
                          "regular file",
                          tensor.name(), path);
    return false;
  }
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    error = llvm::formatv("tensor '{0}': cannot read external-data file "
                          "'{1}': {2}",
                          tensor.name(), path, file.getError().message());
    return false;
  }
  if (llvm::find(filesRead, path.str()) == filesRead.end())
    filesRead.push_back(path.str().str());
  size_t size = (*file)->getBufferSize();
  size_t count = length >= 0 ? static_cast<size_t>(length) : size - std::min<size_t>(offset, size);
  if (static_cast<size_t>(offset) > size || count > size - offset) {
    error = llvm::formatv("tensor '{0}': external-data range [{1}, {1} + {2}) "
                          "lies outside '{3}' ({4} bytes)",
                          tensor.name(), offset, count, path, size);
    return false;
  }
  if (count != expectedBytes) {
    error = llvm::formatv("tensor '{0}' needs {1} bytes for its shape but "
                          "its external data has {2}",
                          tensor.name(), expectedBytes, count);
    return false;
  }
  bytes.assign((*file)->getBufferStart() + offset, count);
  return true;
}

ElementsAttr TensorImporter::import(TensorProto &tensor, std::string &error,
                                    std::string &unsupported) {
  if (tensor.has_segment()) {
    unsupported = "segmented tensors are not supported";
    return nullptr;
  }
  Type element = convertElementType(context, tensor.data_type(), unsupported);
  if (!element)
    return nullptr;
  SmallVector<int64_t> shape;
  int64_t count = 1;
  for (int64_t dim : tensor.dims()) {
    // Guard the byte-size arithmetic below against overflow.
    if (dim < 0 || (dim > 0 && count > (int64_t(1) << 40) / dim)) {
      error = llvm::formatv("tensor '{0}' has a negative or absurd dimension "
                            "{1}",
                            tensor.name(), dim);
      return nullptr;
    }
    shape.push_back(dim);
    count *= dim;
  }
  auto type = RankedTensorType::get(shape, element);
  size_t width = elementBytes(element);
  unsigned bits = element.getIntOrFloatBitWidth();
  bool packed = bits == 4 || bits == 2;
  size_t perByte = packed ? 8 / bits : 1;
  size_t expected = packed ? (static_cast<size_t>(count) + perByte - 1) / perByte
                           : static_cast<size_t>(count) * width;

  // Collect the bytes; `owned` keeps a heap string the blob can adopt.
  std::unique_ptr<std::string> owned;
  if (tensor.data_location() == TensorProto::EXTERNAL) {
    owned = std::make_unique<std::string>();
    if (!readExternal(tensor, expected, *owned, error))
      return nullptr;
  } else if (tensor.has_raw_data()) {
    owned.reset(tensor.release_raw_data());
  } else {
    owned = std::make_unique<std::string>();
    switch (tensor.data_type()) {
    case TensorProto::FLOAT:
      appendTruncated(tensor.float_data(), width, *owned);
      break;
    case TensorProto::DOUBLE:
      appendTruncated(tensor.double_data(), width, *owned);
      break;
    case TensorProto::INT64:
      appendTruncated(tensor.int64_data(), width, *owned);
      break;
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      appendTruncated(tensor.uint64_data(), width, *owned);
      break;
    default: // int32_data carries every narrower type, f16 and bf16 bits
      appendTruncated(tensor.int32_data(), width, *owned);
      break;
    }
  }
  if (owned->size() != expected) {
    error = llvm::formatv("tensor '{0}' of shape [{1}] and type {2} needs {3} "
                          "bytes but holds {4}",
                          tensor.name(), llvm::join(llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }), ", "),
                          dataTypeName(tensor.data_type()), expected,
                          owned->size());
    return nullptr;
  }

  if (packed)
    *owned = unpackSubByte(*owned, bits, count);
  ArrayRef<char> data(owned->data(), owned->size());
  if (count <= inlineElementLimit) {
    if (element.isInteger(1)) {
      SmallVector<bool> bits;
      for (char c : data)
        bits.push_back(c != 0);
      return DenseElementsAttr::get(type, bits);
    }
    return DenseElementsAttr::getFromRawBuffer(type, data);
  }
  size_t align = std::max<size_t>(width, 1);
  if (reinterpret_cast<uintptr_t>(data.data()) % align != 0) {
    // Misaligned heap data cannot be adopted; copy it once.
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(data, align);
    return DenseResourceElementsAttr::get(type, blobName(tensor.name()),
                                          std::move(blob));
  }
  std::string *adopted = owned.release();
  AsmResourceBlob blob(
      data, align,
      [adopted](void *, size_t, size_t) { delete adopted; },
      /*dataIsMutable=*/false);
  return DenseResourceElementsAttr::get(type, blobName(tensor.name()),
                                        std::move(blob));
}
