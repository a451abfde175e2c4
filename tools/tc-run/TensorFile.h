//===- TensorFile.h - reading and writing tensors for tc-run
//-----------------===//
//
// tc-run's file formats: .npy (numpy) and .pb (a serialized onnx
// TensorProto, as in the ONNX model zoo's test_data_set_N directories). Both
// readers return a tc_tensor the caller owns; on failure they return null
// and set `error` to a message that names the file.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TOOLS_TC_RUN_TENSORFILE_H
#define TC_TOOLS_TC_RUN_TENSORFILE_H

#include "tc-runtime/runtime.h"

#include <memory>
#include <string>
#include <vector>

namespace tc::run {

struct TensorDeleter {
  void operator()(tc_tensor *tensor) const { tc_tensor_release(tensor); }
};
using TensorPtr = std::unique_ptr<tc_tensor, TensorDeleter>;

/// The message of `status`, which is freed; "" for success.
std::string takeMessage(tc_status status);

/// Reads the whole file; false with `error` set on failure.
bool readFile(const std::string &path, std::string &contents,
              std::string &error);

/// The element count and the byte size of a `dtype` tensor of shape `dims`;
/// false with `error` set when an extent is negative or the size does not
/// fit in memory. The readers check a file's data against these before they
/// allocate, so a small file cannot make tc-run allocate what its header
/// claims.
bool shapeSize(tc_dtype_t dtype, const std::vector<int64_t> &dims,
               uint64_t &count, uint64_t &bytes, std::string &error);

/// .npy version 1, 2 or 3, little-endian, C order.
TensorPtr readNpy(const std::string &path, std::string &error);
/// The same from the file's bytes; `path` names them in messages (the
/// fuzzer of test/fuzz calls this).
TensorPtr parseNpy(const std::string &contents, const std::string &path,
                   std::string &error);
/// Writes version 1 (bf16, which numpy lacks, as its raw bits in '<u2'; the
/// narrow types as their bytes in '|u1', i4 and i2 in '|i1').
bool writeNpy(const std::string &path, const tc_tensor *tensor,
              std::string &error);

/// A serialized onnx TensorProto; `name` receives its name field ("" if
/// absent).
TensorPtr readTensorProto(const std::string &path, std::string &name,
                          std::string &error);
/// The same from the file's bytes.
TensorPtr parseTensorProto(const std::string &contents, const std::string &path,
                           std::string &name, std::string &error);

/// numpy has no bfloat16 and none of the narrow types (f8*, f4e2m1fn, i4,
/// u4, i2, u2), so .npy files carry them as stand-ins: bf16 as uint16 bits,
/// the float formats as uint8 bit patterns, the small integers as int8 or
/// uint8 values. When `tensor` is such a stand-in for `wanted`, returns it
/// retyped (small integers wrapped to their width, sign-extended for i4/i2;
/// f4 patterns masked to the low nibble), else `tensor` unchanged; null
/// with `error` set only if memory runs out.
TensorPtr adoptStandIn(TensorPtr tensor, tc_dtype_t wanted, std::string &error);

/// Picks the reader by extension (.npy or .pb).
TensorPtr readTensorFile(const std::string &path, std::string &error);

} // namespace tc::run

#endif // TC_TOOLS_TC_RUN_TENSORFILE_H
