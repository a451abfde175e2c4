//===- TensorTest.cpp - dtypes and tc_tensor
//---------------------------------===//

#include "TestUtil.h"

#include <cstring>
#include <vector>

using namespace tc::test;

namespace {

TEST(DtypeTest, NamesRoundTripAndSizes) {
  struct Case {
    tc_dtype_t dtype;
    const char *name;
    size_t size;
  };
  const Case cases[] = {
      {TC_DTYPE_F16, "f16", 2},   {TC_DTYPE_BF16, "bf16", 2},
      {TC_DTYPE_F32, "f32", 4},   {TC_DTYPE_F64, "f64", 8},
      {TC_DTYPE_I8, "i8", 1},     {TC_DTYPE_I16, "i16", 2},
      {TC_DTYPE_I32, "i32", 4},   {TC_DTYPE_I64, "i64", 8},
      {TC_DTYPE_U8, "u8", 1},     {TC_DTYPE_U16, "u16", 2},
      {TC_DTYPE_U32, "u32", 4},   {TC_DTYPE_U64, "u64", 8},
      {TC_DTYPE_BOOL, "bool", 1},
      // The narrow types take one byte per element (module_abi.h).
      {TC_DTYPE_F8E4M3FN, "f8e4m3fn", 1},
      {TC_DTYPE_F8E4M3FNUZ, "f8e4m3fnuz", 1},
      {TC_DTYPE_F8E5M2, "f8e5m2", 1},
      {TC_DTYPE_F8E5M2FNUZ, "f8e5m2fnuz", 1},
      {TC_DTYPE_F8E8M0FNU, "f8e8m0fnu", 1},
      {TC_DTYPE_F4E2M1FN, "f4e2m1fn", 1},
      {TC_DTYPE_I4, "i4", 1},     {TC_DTYPE_U4, "u4", 1},
      {TC_DTYPE_I2, "i2", 1},     {TC_DTYPE_U2, "u2", 1},
  };
  for (const Case &c : cases) {
    EXPECT_STREQ(tc_dtype_name(c.dtype), c.name);
    EXPECT_EQ(tc_dtype_size(c.dtype), c.size);
    tc_dtype_t parsed = TC_DTYPE_INVALID;
    TC_EXPECT_OK(tc_dtype_from_name(c.name, &parsed));
    EXPECT_EQ(parsed, c.dtype);
  }
  EXPECT_EQ(tc_dtype_size(TC_DTYPE_INVALID), 0u);
  EXPECT_STREQ(tc_dtype_name(static_cast<tc_dtype_t>(99)), "invalid");
  tc_dtype_t parsed;
  Error error = take(tc_dtype_from_name("float32", &parsed));
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(error.message, "unknown dtype 'float32'");
}

TEST(TensorTest, CreateCopyIsAlignedAndOwnsItsData) {
  std::vector<float> values = {1, 2, 3, 4, 5, 6};
  int64_t dims[] = {2, 3};
  tc_tensor *tensor = nullptr;
  TC_ASSERT_OK(tc_tensor_create_copy(TC_DTYPE_F32, 2, dims, values.data(),
                                     values.size() * sizeof(float), &tensor));
  Owned<tc_tensor> owned(tensor);
  values[0] = 100; // the tensor has its own copy
  EXPECT_EQ(tc_tensor_dtype(tensor), TC_DTYPE_F32);
  EXPECT_EQ(tc_tensor_rank(tensor), 2);
  EXPECT_EQ(tc_tensor_dims(tensor)[0], 2);
  EXPECT_EQ(tc_tensor_dims(tensor)[1], 3);
  EXPECT_EQ(tc_tensor_num_elements(tensor), 6);
  EXPECT_EQ(tc_tensor_byte_size(tensor), 24u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tc_tensor_data(tensor)) % 64, 0u);
  EXPECT_EQ(static_cast<float *>(tc_tensor_data(tensor))[0], 1.0f);
  EXPECT_EQ(static_cast<float *>(tc_tensor_data(tensor))[5], 6.0f);
}

TEST(TensorTest, CreateCopyChecksTheByteSize) {
  float values[3] = {};
  int64_t dims[] = {2, 2};
  tc_tensor *tensor = nullptr;
  Error error = take(tc_tensor_create_copy(TC_DTYPE_F32, 2, dims, values,
                                           sizeof(values), &tensor));
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(error.message, "byte_size is 12");
  TC_EXPECT_CONTAINS(error.message, "has 16 bytes");
  EXPECT_EQ(tensor, nullptr);
}

TEST(TensorTest, ShapesAreChecked) {
  tc_tensor *tensor = nullptr;
  int64_t negative[] = {2, -1};
  Error error =
      take(tc_tensor_create_zeroed(TC_DTYPE_I32, 2, negative, &tensor));
  TC_EXPECT_CONTAINS(error.message, "negative extent -1 at axis 1");
  int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 40};
  error = take(tc_tensor_create_zeroed(TC_DTYPE_I32, 2, huge, &tensor));
  TC_EXPECT_CONTAINS(error.message, "too large");
  error = take(tc_tensor_create_zeroed(static_cast<tc_dtype_t>(42), 0, nullptr,
                                       &tensor));
  TC_EXPECT_CONTAINS(error.message, "invalid dtype value 42");
  EXPECT_EQ(tensor, nullptr);
}

TEST(TensorTest, ZeroedScalarAndEmpty) {
  tc_tensor *scalar = nullptr;
  TC_ASSERT_OK(tc_tensor_create_zeroed(TC_DTYPE_F64, 0, nullptr, &scalar));
  Owned<tc_tensor> ownedScalar(scalar);
  EXPECT_EQ(tc_tensor_rank(scalar), 0);
  EXPECT_EQ(tc_tensor_dims(scalar), nullptr);
  EXPECT_EQ(tc_tensor_num_elements(scalar), 1);
  EXPECT_EQ(*static_cast<double *>(tc_tensor_data(scalar)), 0.0);

  int64_t dims[] = {3, 0, int64_t(1) << 62};
  tc_tensor *empty = nullptr;
  TC_ASSERT_OK(tc_tensor_create_zeroed(TC_DTYPE_U8, 3, dims, &empty));
  Owned<tc_tensor> ownedEmpty(empty);
  EXPECT_EQ(tc_tensor_num_elements(empty), 0);
  EXPECT_EQ(tc_tensor_byte_size(empty), 0u);
}

struct ReleaseLog {
  int calls = 0;
  void *data = nullptr;
};

void logRelease(void *userData, void *data) {
  auto *log = static_cast<ReleaseLog *>(userData);
  ++log->calls;
  log->data = data;
}

TEST(TensorTest, WrapDoesNotCopyAndReleasesOnce) {
  int32_t values[4] = {1, 2, 3, 4};
  int64_t dims[] = {4};
  ReleaseLog log;
  tc_tensor *tensor = nullptr;
  TC_ASSERT_OK(tc_tensor_wrap(TC_DTYPE_I32, 1, dims, values, sizeof(values),
                              logRelease, &log, &tensor));
  EXPECT_EQ(tc_tensor_data(tensor), values);
  tc_tensor_retain(tensor);
  tc_tensor_release(tensor);
  EXPECT_EQ(log.calls, 0); // one reference left
  tc_tensor_release(tensor);
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.data, values);
  tc_tensor_release(nullptr);
}

TEST(TensorTest, FailedWrapStillReleasesTheBuffer) {
  int32_t values[4] = {};
  int64_t dims[] = {5};
  ReleaseLog log;
  tc_tensor *tensor = nullptr;
  Error error = take(tc_tensor_wrap(TC_DTYPE_I32, 1, dims, values,
                                    sizeof(values), logRelease, &log, &tensor));
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(tensor, nullptr);
}

} // namespace
