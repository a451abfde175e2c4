//===- Dtype.cpp - element types: names and sizes
//---------------------------===//

#include "Internal.h"

#include <cstring>

namespace {
struct DtypeEntry {
  tc_dtype_t dtype;
  const char *name;
  size_t size;
};

// Spelled as in the metadata grammar of module_abi.h.
constexpr DtypeEntry kDtypes[] = {
    {TC_DTYPE_F16, "f16", 2},   {TC_DTYPE_BF16, "bf16", 2},
    {TC_DTYPE_F32, "f32", 4},   {TC_DTYPE_F64, "f64", 8},
    {TC_DTYPE_I8, "i8", 1},     {TC_DTYPE_I16, "i16", 2},
    {TC_DTYPE_I32, "i32", 4},   {TC_DTYPE_I64, "i64", 8},
    {TC_DTYPE_U8, "u8", 1},     {TC_DTYPE_U16, "u16", 2},
    {TC_DTYPE_U32, "u32", 4},   {TC_DTYPE_U64, "u64", 8},
    {TC_DTYPE_BOOL, "bool", 1},
    // One byte per element even below 8 bits (module_abi.h).
    {TC_DTYPE_F8E4M3FN, "f8e4m3fn", 1},
    {TC_DTYPE_F8E4M3FNUZ, "f8e4m3fnuz", 1},
    {TC_DTYPE_F8E5M2, "f8e5m2", 1},
    {TC_DTYPE_F8E5M2FNUZ, "f8e5m2fnuz", 1},
    {TC_DTYPE_F8E8M0FNU, "f8e8m0fnu", 1},
    {TC_DTYPE_F4E2M1FN, "f4e2m1fn", 1},
    {TC_DTYPE_I4, "i4", 1},     {TC_DTYPE_U4, "u4", 1},
    {TC_DTYPE_I2, "i2", 1},     {TC_DTYPE_U2, "u2", 1},
};

const DtypeEntry *lookup(tc_dtype_t dtype) {
  for (const DtypeEntry &entry : kDtypes)
    if (entry.dtype == dtype)
      return &entry;
  return nullptr;
}
} // namespace

extern "C" {

const char *tc_dtype_name(tc_dtype_t dtype) {
  const DtypeEntry *entry = lookup(dtype);
  return entry ? entry->name : "invalid";
}

size_t tc_dtype_size(tc_dtype_t dtype) {
  const DtypeEntry *entry = lookup(dtype);
  return entry ? entry->size : 0;
}

tc_status tc_dtype_from_name(const char *name, tc_dtype_t *out_dtype) {
  return tc::rt::guarded("tc_dtype_from_name", [&]() -> tc_status {
    if (!name || !out_dtype)
      return tc::rt::makeStatus(TC_STATUS_INVALID_ARGUMENT,
                                "tc_dtype_from_name: NULL argument");
    for (const DtypeEntry &entry : kDtypes) {
      if (std::strcmp(entry.name, name) == 0) {
        *out_dtype = entry.dtype;
        return nullptr;
      }
    }
    return tc::rt::makeStatus(
        TC_STATUS_INVALID_ARGUMENT,
        std::string("unknown dtype '") + name +
            "' (expected one of f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 "
            "u64 bool f8e4m3fn f8e4m3fnuz f8e5m2 f8e5m2fnuz f8e8m0fnu f4e2m1fn "
            "i4 u4 i2 u2)");
  });
}

} // extern "C"
