//===- ModelLoader.h - parse and sanity-check an ONNX model ---------------===//

#ifndef TC_LIB_FRONTEND_ONNX_MODELLOADER_H
#define TC_LIB_FRONTEND_ONNX_MODELLOADER_H

#include "OnnxProto.h"

#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>

namespace mlir::tc::onnx {

/// Parses serialized ModelProto bytes. Returns null and sets `error` when the
/// bytes are not a complete ONNX model.
std::unique_ptr<::onnx::ModelProto> parseModel(llvm::StringRef bytes,
                                               std::string &error);

/// Parses the model file at `path`, streaming it through a small buffer so
/// that peak memory stays near the size of the parsed model (no copy of the
/// whole file next to it).
std::unique_ptr<::onnx::ModelProto> parseModelFile(llvm::StringRef path,
                                                   std::string &error);

/// Checks the structure of the main graph before any op is built: unique
/// value names, every input produced by a graph input, initializer or earlier
/// node, no cycles. Reorders `graph`'s nodes topologically (ONNX requires
/// topological order, but exporters do not always honour it). Sets `error`
/// and returns false on the first problem.
bool checkAndSortGraph(::onnx::GraphProto &graph, std::string &error);

/// The default-domain opset the model imports, or -1 when it imports none.
int64_t getDefaultOpset(const ::onnx::ModelProto &model);

} // namespace mlir::tc::onnx

#endif // TC_LIB_FRONTEND_ONNX_MODELLOADER_H
