//===- NodeContext.h - what an op handler sees of one ONNX node -----------===//
//
// Handlers are table-driven (OpRegistry): one function per ONNX op and opset
// range, which reads the node through a NodeContext and builds tc ops with it.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_FRONTEND_ONNX_NODECONTEXT_H
#define TC_LIB_FRONTEND_ONNX_NODECONTEXT_H

#include "OnnxProto.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <limits>
#include <optional>
#include <string>

namespace mlir::tc::onnx {

class GraphImporter;

class NodeContext {
public:
  NodeContext(GraphImporter &importer, const ::onnx::NodeProto &node,
              int64_t opset, Location loc, SmallVector<Value> inputs);

  const ::onnx::NodeProto &node;
  const int64_t opset;
  const Location loc;
  OpBuilder &builder;

  //===--- Inputs ---------------------------------------------------------===//

  size_t numInputs() const { return inputs.size(); }
  /// The i-th input, or null when it is omitted or absent.
  Value input(size_t i) const { return i < inputs.size() ? inputs[i] : Value(); }
  ArrayRef<Value> allInputs() const { return inputs; }
  /// Fails (recording why) unless input i is present.
  FailureOr<Value> requireInput(size_t i);
  /// No upper bound for requireInput and requireRank.
  static constexpr int64_t kAnyRank = std::numeric_limits<int64_t>::max();
  /// Fails (recording why) unless input i is present and its rank is in
  /// [minRank, maxRank]. Handlers check ranks before reading dimensions:
  /// a malformed model may give any input any rank.
  FailureOr<Value> requireInput(size_t i, int64_t minRank,
                                int64_t maxRank = kAnyRank);
  /// Fails (recording why) when input i is present with a rank outside
  /// [minRank, maxRank]; an absent (optional) input passes.
  LogicalResult requireRank(size_t i, int64_t minRank,
                            int64_t maxRank = kAnyRank);
  static RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }

  //===--- Attributes -----------------------------------------------------===//

  const ::onnx::AttributeProto *attr(llvm::StringRef name) const;
  bool hasAttr(llvm::StringRef name) const { return attr(name) != nullptr; }
  int64_t getInt(llvm::StringRef name, int64_t dflt) const;
  float getFloat(llvm::StringRef name, float dflt) const;
  std::string getString(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<SmallVector<int64_t>> getInts(llvm::StringRef name) const;

  //===--- Constants known at import time ---------------------------------===//

  /// The value of `v` when a tc.constant with a dense<> attribute defines it.
  DenseElementsAttr getConstant(Value v) const;
  /// The integer values of a constant integer tensor.
  std::optional<SmallVector<int64_t>> getConstantInts(Value v) const;
  Value constant(DenseElementsAttr value);
  Value constantI64(ArrayRef<int64_t> values, bool scalar = false);
  /// A 0-d constant of `elementType` holding `value`.
  Value scalar(Type elementType, double value);

  //===--- Building -------------------------------------------------------===//

  /// Builds an OpTy with `operands` and `attrs`; its result types are
  /// `resultTypes` or, when empty, inferred. Folds it when its operands are
  /// constant. Returns null (with the problem recorded) when inference or
  /// the verifier rejects the op, and null when an operand is null (an
  /// earlier build that failed). For ops with several results, the first
  /// (the others through its defining op).
  template <typename OpTy>
  Value build(ValueRange operands, ArrayRef<NamedAttribute> attrs = {},
              TypeRange resultTypes = {}) {
    return buildNamed(OpTy::getOperationName(), operands, attrs, resultTypes);
  }
  Value buildNamed(llvm::StringRef opName, ValueRange operands,
                   ArrayRef<NamedAttribute> attrs, TypeRange resultTypes);

  NamedAttribute namedAttr(llvm::StringRef name, Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  DenseI64ArrayAttr i64Array(ArrayRef<int64_t> values) {
    return builder.getDenseI64ArrayAttr(values);
  }

  //===--- Subgraphs (If, Loop, Scan) -------------------------------------===//

  /// Imports `graph` at the end of `block`, binding the graph's inputs to
  /// `arguments` (values of the enclosing scope stay visible). Returns the
  /// graph's outputs; failure when something in it was reported.
  FailureOr<SmallVector<Value>> importSubgraph(const ::onnx::GraphProto &graph,
                                               Block *block,
                                               ValueRange arguments);

  //===--- Problems -------------------------------------------------------===//

  /// Records that this node uses something tc does not support.
  LogicalResult unsupported(const llvm::Twine &reason);
  /// Records that this node is malformed (violates the ONNX spec).
  LogicalResult invalid(const llvm::Twine &reason);
  /// Normalizes a possibly negative axis against `rank`.
  FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                   llvm::StringRef what = "axis");

private:
  GraphImporter &importer;
  SmallVector<Value> inputs;
  llvm::StringMap<const ::onnx::AttributeProto *> attributes;
};

/// A handler imports one node: it appends one value per node output it
/// produces (null for an output it does not produce).
using Handler = LogicalResult (*)(NodeContext &ctx,
                                  SmallVectorImpl<Value> &results);

/// The handlers of every supported op, by op type and opset range.
class OpRegistry {
public:
  /// `handler` imports `opType` from opset `sinceVersion` until the next
  /// registered version.
  void add(llvm::StringRef opType, int sinceVersion, Handler handler);
  /// The handler for `opType` at `opset`, or null.
  Handler lookup(llvm::StringRef opType, int64_t opset) const;
  bool knows(llvm::StringRef opType) const { return ops.count(opType); }
  /// The lowest opset any handler covers for `opType`.
  int firstVersion(llvm::StringRef opType) const;

  static const OpRegistry &get();

private:
  llvm::StringMap<SmallVector<std::pair<int, Handler>, 2>> ops;
};

// One registration function per op family (Handlers/*.cpp).
void registerElementwiseHandlers(OpRegistry &registry);
void registerContractionHandlers(OpRegistry &registry);
void registerNormalizationHandlers(OpRegistry &registry);
void registerPoolingHandlers(OpRegistry &registry);
void registerReductionHandlers(OpRegistry &registry);
void registerShapeHandlers(OpRegistry &registry);
void registerTensorHandlers(OpRegistry &registry);
void registerLayoutHandlers(OpRegistry &registry);
void registerLossHandlers(OpRegistry &registry);
void registerAttentionHandlers(OpRegistry &registry);
void registerQuantizationHandlers(OpRegistry &registry);
void registerSignalHandlers(OpRegistry &registry);
void registerEinsumHandlers(OpRegistry &registry);
void registerResizeHandlers(OpRegistry &registry);
void registerSamplingHandlers(OpRegistry &registry);
void registerControlFlowHandlers(OpRegistry &registry);
void registerCompositeHandlers(OpRegistry &registry);
void registerIndexingHandlers(OpRegistry &registry);
void registerRecurrentHandlers(OpRegistry &registry);
void registerLayoutExtraHandlers(OpRegistry &registry);
void registerRandomHandlers(OpRegistry &registry);

} // namespace mlir::tc::onnx

#endif // TC_LIB_FRONTEND_ONNX_NODECONTEXT_H
