//===- TensorImport.h - ONNX element types and tensors to MLIR ------------===//

#ifndef TC_LIB_FRONTEND_ONNX_TENSORIMPORT_H
#define TC_LIB_FRONTEND_ONNX_TENSORIMPORT_H

#include "OnnxProto.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace mlir::tc::onnx {

/// The MLIR element type of an ONNX TensorProto data type, or null (with
/// `why` set) for the types tc does not support.
Type convertElementType(MLIRContext *context, int32_t dataType,
                        std::string &why);

/// Human-readable name of an ONNX data type ("FLOAT8E4M3FN", "STRING").
std::string dataTypeName(int32_t dataType);

/// Reads TensorProtos into elements attributes.
class TensorImporter {
public:
  TensorImporter(MLIRContext *context, std::string externalDataDir,
                 int64_t inlineElementLimit)
      : context(context), externalDataDir(std::move(externalDataDir)),
        inlineElementLimit(inlineElementLimit) {}

  /// Converts `tensor` (taking over its raw bytes when it can, hence the
  /// mutable reference). Returns null with `error` set when the tensor is
  /// malformed (a size that disagrees with its shape, a bad external-data
  /// reference), and with `unsupported` set for a supported-file but
  /// unsupported-feature case (an element type tc lacks).
  ElementsAttr import(::onnx::TensorProto &tensor, std::string &error,
                      std::string &unsupported);

  /// The external-data files read so far, each once.
  const std::vector<std::string> &externalFiles() const { return filesRead; }

private:
  /// Reads the bytes of an external-data tensor.
  bool readExternal(const ::onnx::TensorProto &tensor, size_t expectedBytes,
                    std::string &bytes, std::string &error);

  MLIRContext *context;
  std::string externalDataDir;
  int64_t inlineElementLimit;
  std::vector<std::string> filesRead;
};

} // namespace mlir::tc::onnx

#endif // TC_LIB_FRONTEND_ONNX_TENSORIMPORT_H
