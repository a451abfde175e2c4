//===- Importer.h - import ONNX models into the tc dialect ----------------===//
//
// The public entry point of the ONNX front end: reads a model file (with its
// external data) and builds `func.func @main` over tc ops. Malformed models
// give one fatal error; unsupported pieces (operators, attribute values,
// element types, opsets) are all collected and reported together.
//
//===----------------------------------------------------------------------===//

#ifndef TC_FRONTEND_ONNX_IMPORTER_H
#define TC_FRONTEND_ONNX_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mlir::tc::onnx {

/// Options of the importer. Libraries take plain structs; flags live in
/// tools/.
struct ImportOptions {
  /// Directory that external-data paths are relative to; empty means the
  /// directory of the model file.
  std::string externalDataDir;
  /// Tensors with at most this many elements become inline `dense<...>`
  /// attributes (shape vectors, scalars: what folding needs to see); larger
  /// ones become `dense_resource` blobs.
  int64_t inlineElementLimit = 16;
  /// Name of the function the graph becomes.
  std::string functionName = "main";
  /// Graph inputs to specialize: name -> path of a TensorProto (.pb) whose
  /// value replaces the input. Shape parameters (Reshape's shape, a
  /// reduction's axes, Resize's scales, ...) given as graph inputs become
  /// constants this way, so the shapes they decide are known when compiling.
  std::map<std::string, std::string> boundInputs;
  /// Named symbolic dimensions (ONNX dim_param) to specialize: name ->
  /// extent. Every input and output dimension with that name becomes that
  /// static extent, so one model imports once per shape bucket. A name that
  /// no graph input has is an error.
  std::map<std::string, int64_t> dimParams;
};

/// One piece of a model the importer does not support.
struct ImportIssue {
  std::string nodeName; ///< ONNX node name (or a synthesized one)
  std::string opType;   ///< ONNX op type, with its domain when not default
  std::string reason;   ///< what is unsupported and why
};

/// The outcome of an import: a module, or a fatal error, or the list of
/// unsupported pieces.
struct ImportResult {
  OwningOpRef<ModuleOp> module;
  /// Set when the file is not a usable ONNX model (one clear message).
  std::string fatalError;
  /// Every unsupported piece found in the graph.
  std::vector<ImportIssue> issues;
  /// The files the import read besides the model itself: external data
  /// (a tool must not overwrite them with its output).
  std::vector<std::string> filesRead;

  bool succeeded() const { return module && fatalError.empty() && issues.empty(); }
  /// Prints the fatal error or the issue list, one line each.
  void printErrors(llvm::raw_ostream &os, llvm::StringRef modelPath) const;
};

/// Registers the dialects the importer produces into `context`.
void loadImportDialects(MLIRContext &context);

/// Imports the ONNX model at `path`.
ImportResult importOnnxFile(MLIRContext &context, llvm::StringRef path,
                            const ImportOptions &options = {});

/// Imports a model from serialized bytes; external data, if any, is looked
/// up under options.externalDataDir.
ImportResult importOnnxBytes(MLIRContext &context, llvm::StringRef bytes,
                             const ImportOptions &options = {});

/// Registers `--import-onnx` with mlir-translate's registry (tc-translate).
/// `getOptions` is called for each import, after the tool parsed its flags.
void registerOnnxImportTranslation(
    std::function<ImportOptions()> getOptions = [] { return ImportOptions(); });

} // namespace mlir::tc::onnx

#endif // TC_FRONTEND_ONNX_IMPORTER_H
