//===- GraphImporter.h - one ONNX graph to one func.func ------------------===//

#ifndef TC_LIB_FRONTEND_ONNX_GRAPHIMPORTER_H
#define TC_LIB_FRONTEND_ONNX_GRAPHIMPORTER_H

#include "NodeContext.h"
#include "TensorImport.h"
#include "tc/Frontend/Onnx/Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tc::onnx {

class GraphImporter {
public:
  GraphImporter(MLIRContext *context, const ImportOptions &options,
                int64_t opset, ImportResult &result);

  /// Builds `func` (already created, empty) from `graph`.
  void importGraph(::onnx::GraphProto &graph, func::FuncOp func);

  /// See NodeContext::importSubgraph.
  FailureOr<SmallVector<Value>> importSubgraph(const ::onnx::GraphProto &graph,
                                               Block *block,
                                               ValueRange arguments);

  /// Records an issue against the node being imported.
  void addIssue(const ::onnx::NodeProto &node, const llvm::Twine &reason);

  OpBuilder &getBuilder() { return builder; }
  /// The message of the last error diagnostic emitted during op building.
  std::string takeLastDiagnostic();

  /// The external-data files the graph's tensors were read from.
  const std::vector<std::string> &externalFiles() const {
    return tensors.externalFiles();
  }

private:
  friend class NodeContext;

  /// The value named `name`, importing an initializer on first use. Null for
  /// an omitted name or a value poisoned by an earlier unsupported node.
  Value lookup(const std::string &name);
  void importNode(const ::onnx::NodeProto &node, int index);
  FailureOr<Type> convertValueType(const ::onnx::ValueInfoProto &info,
                                   SmallVectorImpl<std::string> &dimNames);
  /// A graph output declared without a type or without a shape (which the
  /// ONNX spec allows) takes the type it is computed with; a declared
  /// element type must match it. A null type when the output declares its
  /// shape (convertValueType reads it then).
  FailureOr<Type> undeclaredOutputType(const ::onnx::ValueInfoProto &info,
                                       RankedTensorType computed,
                                       SmallVectorImpl<std::string> &dimNames);
  Location nodeLocation(const ::onnx::NodeProto &node, int index);

  MLIRContext *context;
  OpBuilder builder;
  const ImportOptions &options;
  int64_t opset;
  ImportResult &result;
  TensorImporter tensors;
  const OpRegistry &registry;
  Block *entry = nullptr;

  llvm::StringMap<Value> values;
  llvm::StringMap<::onnx::TensorProto *> pendingInitializers;
  /// Outputs of nodes that could not be imported: their users are skipped
  /// silently, so each root problem is reported once.
  llvm::StringSet<> poisoned;
  std::string lastDiagnostic;
  const ::onnx::NodeProto *currentNode = nullptr;
  /// Initializers of subgraphs, kept alive while they may be looked up.
  std::vector<std::unique_ptr<::onnx::TensorProto>> subgraphInitializers;
  std::string currentNodeName;
};

} // namespace mlir::tc::onnx

#endif // TC_LIB_FRONTEND_ONNX_GRAPHIMPORTER_H
