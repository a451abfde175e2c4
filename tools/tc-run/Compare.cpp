//===- Compare.cpp - comparing and printing tensors for tc-run
//---------------===//

#include "Compare.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace tc::run;

namespace {

double halfToDouble(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1f,
      mantissa = bits & 0x3ff;
  double value;
  if (exponent == 0)
    value = std::ldexp(mantissa, -24); // subnormal
  else if (exponent == 31)
    value = mantissa ? NAN : INFINITY;
  else
    value = std::ldexp(mantissa | 0x400, exponent - 25);
  return sign ? -value : value;
}

double bf16ToDouble(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

// The 8- and 4-bit float formats (the MLIR/ml_dtypes types of the same
// names), decoded from their bit pattern. They differ in where NaN and
// infinity live: E5M2 is IEEE-like; E4M3FN has no infinity and one NaN
// pattern per sign (all ones); the FNUZ formats have neither infinity nor
// negative zero, and 0x80 is their NaN; E2M1FN has no special values.
double narrowFloatToDouble(tc_dtype_t dtype, uint8_t bits) {
  int exponentBits, mantissaBits, bias;
  switch (dtype) {
  case TC_DTYPE_F8E4M3FN:
    if ((bits & 0x7f) == 0x7f)
      return NAN;
    exponentBits = 4, mantissaBits = 3, bias = 7;
    break;
  case TC_DTYPE_F8E4M3FNUZ:
    if (bits == 0x80)
      return NAN;
    exponentBits = 4, mantissaBits = 3, bias = 8;
    break;
  case TC_DTYPE_F8E5M2:
    if ((bits & 0x7c) == 0x7c)
      return (bits & 3) ? NAN : (bits & 0x80) ? -INFINITY : INFINITY;
    exponentBits = 5, mantissaBits = 2, bias = 15;
    break;
  case TC_DTYPE_F8E5M2FNUZ:
    if (bits == 0x80)
      return NAN;
    exponentBits = 5, mantissaBits = 2, bias = 16;
    break;
  case TC_DTYPE_F8E8M0FNU: // an unsigned power of two
    return bits == 0xff ? NAN : std::ldexp(1.0, bits - 127);
  case TC_DTYPE_F4E2M1FN:
    bits &= 0xf; // the high nibble is not part of the value
    exponentBits = 2, mantissaBits = 1, bias = 1;
    break;
  default:
    return NAN;
  }
  int width = 1 + exponentBits + mantissaBits;
  int exponent = (bits >> mantissaBits) & ((1 << exponentBits) - 1);
  int mantissa = bits & ((1 << mantissaBits) - 1);
  double value =
      exponent == 0
          ? std::ldexp(mantissa, 1 - bias - mantissaBits) // subnormal
          : std::ldexp(mantissa | (1 << mantissaBits),
                       exponent - bias - mantissaBits);
  return (bits >> (width - 1)) & 1 ? -value : value;
}

bool isNarrowFloat(tc_dtype_t dtype) {
  return dtype == TC_DTYPE_F8E4M3FN || dtype == TC_DTYPE_F8E4M3FNUZ ||
         dtype == TC_DTYPE_F8E5M2 || dtype == TC_DTYPE_F8E5M2FNUZ ||
         dtype == TC_DTYPE_F8E8M0FNU || dtype == TC_DTYPE_F4E2M1FN;
}

bool isFloating(tc_dtype_t dtype) {
  return dtype == TC_DTYPE_F16 || dtype == TC_DTYPE_BF16 ||
         dtype == TC_DTYPE_F32 || dtype == TC_DTYPE_F64 ||
         isNarrowFloat(dtype);
}

template <typename T> T load(const void *data, int64_t index) {
  T value;
  std::memcpy(&value, static_cast<const char *>(data) + index * sizeof(T),
              sizeof(T));
  return value;
}

// Element `index` as a double (exact for every type but 64-bit integers
// beyond 2^53, which are compared on their bytes instead).
double asDouble(const tc_tensor *tensor, int64_t index) {
  const void *data = tc_tensor_data(tensor);
  switch (tc_tensor_dtype(tensor)) {
  case TC_DTYPE_F16:
    return halfToDouble(load<uint16_t>(data, index));
  case TC_DTYPE_BF16:
    return bf16ToDouble(load<uint16_t>(data, index));
  case TC_DTYPE_F32:
    return load<float>(data, index);
  case TC_DTYPE_F64:
    return load<double>(data, index);
  case TC_DTYPE_I8:
    return load<int8_t>(data, index);
  case TC_DTYPE_I16:
    return load<int16_t>(data, index);
  case TC_DTYPE_I32:
    return load<int32_t>(data, index);
  case TC_DTYPE_I64:
    return static_cast<double>(load<int64_t>(data, index));
  case TC_DTYPE_U8:
    return load<uint8_t>(data, index);
  case TC_DTYPE_U16:
    return load<uint16_t>(data, index);
  case TC_DTYPE_U32:
    return load<uint32_t>(data, index);
  case TC_DTYPE_U64:
    return static_cast<double>(load<uint64_t>(data, index));
  case TC_DTYPE_BOOL:
    return load<uint8_t>(data, index) != 0;
  case TC_DTYPE_I4: // one byte each, sign-extended (module_abi.h)
  case TC_DTYPE_I2:
    return load<int8_t>(data, index);
  case TC_DTYPE_U4:
  case TC_DTYPE_U2:
    return load<uint8_t>(data, index);
  case TC_DTYPE_INVALID:
    break;
  default:
    if (isNarrowFloat(tc_tensor_dtype(tensor)))
      return narrowFloatToDouble(tc_tensor_dtype(tensor),
                                 load<uint8_t>(data, index));
    break;
  }
  return NAN;
}

std::string formatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", value);
  return buffer;
}

// Row-major index -> "[i, j, k]".
std::string formatIndex(const tc_tensor *tensor, int64_t flat) {
  int32_t rank = tc_tensor_rank(tensor);
  std::vector<int64_t> index(rank);
  for (int32_t axis = rank - 1; axis >= 0; --axis) {
    int64_t extent = tc_tensor_dims(tensor)[axis];
    index[axis] = flat % extent;
    flat /= extent;
  }
  std::string text = "[";
  for (int32_t axis = 0; axis < rank; ++axis)
    text += (axis ? ", " : "") + std::to_string(index[axis]);
  return text + "]";
}

std::string formatElement(const tc_tensor *tensor, int64_t index) {
  // 64-bit integers print exactly, not through a double.
  switch (tc_tensor_dtype(tensor)) {
  case TC_DTYPE_I64:
    return std::to_string(load<int64_t>(tc_tensor_data(tensor), index));
  case TC_DTYPE_U64:
    return std::to_string(load<uint64_t>(tc_tensor_data(tensor), index));
  default:
    return formatNumber(asDouble(tensor, index));
  }
}

} // namespace

std::string tc::run::describeType(const tc_tensor *tensor) {
  std::string text = std::string(tc_dtype_name(tc_tensor_dtype(tensor))) + "[";
  for (int32_t i = 0; i < tc_tensor_rank(tensor); ++i)
    text += (i ? ", " : "") + std::to_string(tc_tensor_dims(tensor)[i]);
  return text + "]";
}

std::string tc::run::formatValues(const tc_tensor *tensor, int64_t limit) {
  int64_t count = tc_tensor_num_elements(tensor);
  std::string text = "[";
  for (int64_t i = 0; i < count && i < limit; ++i)
    text += (i ? ", " : "") + formatElement(tensor, i);
  if (count > limit)
    text += ", ...";
  return text + "]";
}

CompareResult tc::run::compareTensors(const tc_tensor *actual,
                                      const tc_tensor *expected,
                                      const Tolerance &tolerance) {
  CompareResult result;
  if (tc_tensor_dtype(actual) != tc_tensor_dtype(expected)) {
    result.line = std::string("MISMATCH: dtype ") +
                  tc_dtype_name(tc_tensor_dtype(actual)) + " but expected " +
                  tc_dtype_name(tc_tensor_dtype(expected));
    return result;
  }
  int32_t rank = tc_tensor_rank(actual);
  bool sameShape = rank == tc_tensor_rank(expected);
  for (int32_t i = 0; sameShape && i < rank; ++i)
    sameShape = tc_tensor_dims(actual)[i] == tc_tensor_dims(expected)[i];
  if (!sameShape) {
    result.line = "MISMATCH: shape " + describeType(actual) + " but expected " +
                  describeType(expected);
    return result;
  }

  tc_dtype_t dtype = tc_tensor_dtype(actual);
  int64_t count = tc_tensor_num_elements(actual);
  bool floating = isFloating(dtype);
  size_t elementSize = tc_dtype_size(dtype);
  double maxAbs = 0, maxRel = 0;
  int64_t mismatches = 0, firstMismatch = -1;
  for (int64_t i = 0; i < count; ++i) {
    bool equal;
    if (!floating) {
      // Exact, on the bytes: no rounding of 64-bit integers. bool bytes are
      // 0 or 1 by the ABI.
      equal = std::memcmp(static_cast<const char *>(tc_tensor_data(actual)) +
                              i * elementSize,
                          static_cast<const char *>(tc_tensor_data(expected)) +
                              i * elementSize,
                          elementSize) == 0;
      if (!equal) {
        double diff = std::fabs(asDouble(actual, i) - asDouble(expected, i));
        maxAbs = std::max(maxAbs, diff);
        double magnitude = std::fabs(asDouble(expected, i));
        if (magnitude > 0)
          maxRel = std::max(maxRel, diff / magnitude);
      }
    } else {
      double a = asDouble(actual, i), e = asDouble(expected, i);
      if (std::isnan(a) || std::isnan(e)) {
        equal = std::isnan(a) && std::isnan(e);
      } else if (std::isinf(a) || std::isinf(e)) {
        equal = a == e;
      } else {
        double diff = std::fabs(a - e);
        maxAbs = std::max(maxAbs, diff);
        if (e != 0)
          maxRel = std::max(maxRel, diff / std::fabs(e));
        equal = diff <= tolerance.atol + tolerance.rtol * std::fabs(e);
      }
    }
    if (!equal) {
      if (firstMismatch < 0)
        firstMismatch = i;
      ++mismatches;
    }
  }

  result.ok = mismatches == 0;
  std::string stats = describeType(actual) + ", max abs error " +
                      formatNumber(maxAbs) + ", max rel error " +
                      formatNumber(maxRel) + ", " + std::to_string(mismatches) +
                      " of " + std::to_string(count) + " mismatched";
  if (floating)
    stats += " (rtol " + formatNumber(tolerance.rtol) + ", atol " +
             formatNumber(tolerance.atol) + ")";
  else
    stats += " (exact)";
  if (result.ok) {
    result.line = "OK: " + stats;
  } else {
    result.line = "MISMATCH: " + stats + "; first at " +
                  formatIndex(actual, firstMismatch) + ": got " +
                  formatElement(actual, firstMismatch) + ", expected " +
                  formatElement(expected, firstMismatch);
  }
  return result;
}
