//===- GraphImporter.cpp - one ONNX graph to one func.func ----------------===//

#include "GraphImporter.h"
#include "ModelLoader.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tc/Dialect/Tc/IR/ShapeUtils.h"
#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>

using namespace mlir;
using namespace mlir::tc::onnx;

//===----------------------------------------------------------------------===//
// OpRegistry
//===----------------------------------------------------------------------===//

void OpRegistry::add(llvm::StringRef opType, int sinceVersion,
                     Handler handler) {
  auto &versions = ops[opType];
  versions.emplace_back(sinceVersion, handler);
  llvm::sort(versions, [](auto &a, auto &b) { return a.first < b.first; });
}

Handler OpRegistry::lookup(llvm::StringRef opType, int64_t opset) const {
  auto it = ops.find(opType);
  if (it == ops.end())
    return nullptr;
  Handler found = nullptr;
  for (auto &[since, handler] : it->second)
    if (since <= opset)
      found = handler;
  return found;
}

int OpRegistry::firstVersion(llvm::StringRef opType) const {
  auto it = ops.find(opType);
  return it == ops.end() ? -1 : it->second.front().first;
}

const OpRegistry &OpRegistry::get() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    registerElementwiseHandlers(r);
    registerContractionHandlers(r);
    registerNormalizationHandlers(r);
    registerPoolingHandlers(r);
    registerReductionHandlers(r);
    registerShapeHandlers(r);
    registerTensorHandlers(r);
    registerLayoutHandlers(r);
    registerLossHandlers(r);
    registerAttentionHandlers(r);
    registerQuantizationHandlers(r);
    registerSignalHandlers(r);
    registerEinsumHandlers(r);
    registerResizeHandlers(r);
    registerSamplingHandlers(r);
    registerControlFlowHandlers(r);
    registerCompositeHandlers(r);
    registerIndexingHandlers(r);
    registerRecurrentHandlers(r);
    registerLayoutExtraHandlers(r);
    registerRandomHandlers(r);
    return r;
  }();
  return registry;
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(GraphImporter &importer,
                         const ::onnx::NodeProto &node, int64_t opset,
                         Location loc, SmallVector<Value> inputs)
    : node(node), opset(opset), loc(loc), builder(importer.getBuilder()),
      importer(importer), inputs(std::move(inputs)) {
  for (const auto &a : node.attribute())
    attributes[a.name()] = &a;
}

FailureOr<Value> NodeContext::requireInput(size_t i) {
  if (Value v = input(i))
    return v;
  return invalid(llvm::formatv("input #{0} is required", i));
}

FailureOr<Value> NodeContext::requireInput(size_t i, int64_t minRank,
                                           int64_t maxRank) {
  FailureOr<Value> v = requireInput(i);
  if (failed(v) || failed(requireRank(i, minRank, maxRank)))
    return failure();
  return v;
}

LogicalResult NodeContext::requireRank(size_t i, int64_t minRank,
                                       int64_t maxRank) {
  Value v = input(i);
  if (!v)
    return success();
  int64_t rank = typeOf(v).getRank();
  if (rank >= minRank && rank <= maxRank)
    return success();
  std::string want;
  if (minRank == maxRank)
    want = llvm::formatv("{0}-D", minRank);
  else if (maxRank == kAnyRank)
    want = llvm::formatv("at least {0}-D", minRank);
  else if (minRank == 0)
    want = llvm::formatv("at most {0}-D", maxRank);
  else if (maxRank == minRank + 1)
    want = llvm::formatv("{0}-D or {1}-D", minRank, maxRank);
  else
    want = llvm::formatv("{0}-D to {1}-D", minRank, maxRank);
  return invalid(llvm::formatv("input #{0} ({1}) must be {2}, it is {3}-D", i,
                               node.input(i), want, rank));
}

const ::onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  auto it = attributes.find(name);
  return it == attributes.end() ? nullptr : it->second;
}

int64_t NodeContext::getInt(llvm::StringRef name, int64_t dflt) const {
  const auto *a = attr(name);
  return a ? a->i() : dflt;
}

float NodeContext::getFloat(llvm::StringRef name, float dflt) const {
  const auto *a = attr(name);
  return a ? a->f() : dflt;
}

std::string NodeContext::getString(llvm::StringRef name,
                                   llvm::StringRef dflt) const {
  const auto *a = attr(name);
  return a ? a->s() : dflt.str();
}

std::optional<SmallVector<int64_t>>
NodeContext::getInts(llvm::StringRef name) const {
  const auto *a = attr(name);
  if (!a)
    return std::nullopt;
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

DenseElementsAttr NodeContext::getConstant(Value v) const {
  DenseElementsAttr attr;
  if (v && matchPattern(v, m_Constant(&attr)))
    return attr;
  return nullptr;
}

std::optional<SmallVector<int64_t>>
NodeContext::getConstantInts(Value v) const {
  DenseElementsAttr attr = getConstant(v);
  if (!attr || !isa<IntegerType>(attr.getElementType()))
    return std::nullopt;
  bool isUnsigned = attr.getElementType().isUnsignedInteger();
  SmallVector<int64_t> values;
  for (const APInt &value : attr.getValues<APInt>())
    values.push_back(isUnsigned ? static_cast<int64_t>(value.getZExtValue())
                                : value.getSExtValue());
  return values;
}

Value NodeContext::constant(DenseElementsAttr value) {
  return tc::ConstantOp::create(builder, loc, value);
}

Value NodeContext::constantI64(ArrayRef<int64_t> values, bool scalar) {
  auto type = RankedTensorType::get(
      scalar ? ArrayRef<int64_t>{} : ArrayRef<int64_t>{(int64_t)values.size()},
      builder.getI64Type());
  return constant(DenseIntElementsAttr::get(type, values));
}

Value NodeContext::scalar(Type elementType, double value) {
  auto type = RankedTensorType::get({}, elementType);
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    APFloat v(value);
    bool lost;
    v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    return constant(DenseElementsAttr::get(type, v));
  }
  auto intType = cast<IntegerType>(elementType);
  APInt v(intType.getWidth(), static_cast<uint64_t>(static_cast<int64_t>(value)),
          /*isSigned=*/!intType.isUnsigned());
  return constant(DenseElementsAttr::get(type, v));
}

Value NodeContext::buildNamed(llvm::StringRef opName, ValueRange operands,
                              ArrayRef<NamedAttribute> attrs,
                              TypeRange resultTypes) {
  // A null operand is a value whose building failed (and said why).
  if (llvm::is_contained(operands, Value()))
    return nullptr;
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  bool infer = resultTypes.empty();
  // A placeholder result type until inference replaces it.
  if (infer)
    state.addTypes(UnrankedTensorType::get(builder.getF32Type()));
  else
    state.addTypes(resultTypes);
  Operation *op = builder.create(state);
  if (infer) {
    auto iface = cast<InferTypeOpInterface>(op);
    SmallVector<Type, 1> inferred;
    if (failed(iface.inferReturnTypes(
            op->getContext(), loc, op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), inferred))) {
      op->erase();
      (void)invalid(importer.takeLastDiagnostic());
      return nullptr;
    }
    if (inferred.size() != op->getNumResults()) {
      // Ops with several results: build again with the inferred types.
      op->erase();
      state.types.assign(inferred.begin(), inferred.end());
      op = builder.create(state);
    } else {
      for (auto [result, type] : llvm::zip(op->getResults(), inferred))
        result.setType(type);
    }
  }
  // Folders assume a valid op (a reshape keeps the element count, a
  // broadcast's shapes fit), and a malformed model can build any: verify
  // first, so that a bad op is reported against its node, never folded.
  if (failed(mlir::verify(op, /*verifyRecursively=*/false))) {
    op->erase();
    (void)invalid(importer.takeLastDiagnostic());
    return nullptr;
  }
  // Fold eagerly: shape arithmetic on constants becomes constants here, so
  // the handlers downstream (Reshape, Expand, ...) see static shapes.
  SmallVector<OpFoldResult, 1> folded;
  if (op->getNumResults() == 1 && succeeded(op->fold(folded)) &&
      folded.size() == 1) {
    Value result;
    if (auto value = dyn_cast<Value>(folded.front())) {
      if (value.getType() == op->getResult(0).getType())
        result = value;
    } else if (auto attr = dyn_cast_if_present<ElementsAttr>(
                   dyn_cast<Attribute>(folded.front()))) {
      if (attr.getType() == op->getResult(0).getType())
        result = tc::ConstantOp::create(builder, loc, attr);
    }
    if (result) {
      op->erase();
      return result;
    }
  }
  return op->getResult(0);
}

FailureOr<SmallVector<Value>>
NodeContext::importSubgraph(const ::onnx::GraphProto &graph, Block *block,
                            ValueRange arguments) {
  return importer.importSubgraph(graph, block, arguments);
}

LogicalResult NodeContext::unsupported(const llvm::Twine &reason) {
  importer.addIssue(node, reason);
  return failure();
}

LogicalResult NodeContext::invalid(const llvm::Twine &reason) {
  importer.addIssue(node, "invalid node: " + reason);
  return failure();
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank,
                                              llvm::StringRef what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return invalid(llvm::formatv("{0} {1} is out of range for rank {2}",
                                         what, axis, rank));
  return normalized;
}

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

/// Named symbolic dims (dim_param) tie sizes together across inputs and
/// outputs: the same name is the same size. Recorded as `tc.dim_params` on
/// arguments and results that have any.
static bool hasNamedDim(ArrayAttr names) {
  return llvm::any_of(names, [](Attribute a) {
    return !cast<StringAttr>(a).getValue().empty();
  });
}

GraphImporter::GraphImporter(MLIRContext *context, const ImportOptions &options,
                             int64_t opset, ImportResult &result)
    : context(context), builder(context), options(options), opset(opset),
      result(result),
      tensors(context, options.externalDataDir, options.inlineElementLimit),
      registry(OpRegistry::get()) {}

void GraphImporter::addIssue(const ::onnx::NodeProto &node,
                             const llvm::Twine &reason) {
  std::string opType = node.op_type();
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    opType = node.domain() + "." + opType;
  result.issues.push_back({currentNodeName, opType, reason.str()});
}

std::string GraphImporter::takeLastDiagnostic() {
  std::string message = std::move(lastDiagnostic);
  lastDiagnostic.clear();
  return message.empty() ? std::string("type inference failed") : message;
}

Location GraphImporter::nodeLocation(const ::onnx::NodeProto &node,
                                     int index) {
  return NameLoc::get(StringAttr::get(context, currentNodeName),
                      NameLoc::get(StringAttr::get(context, node.op_type())));
}

Value GraphImporter::lookup(const std::string &name) {
  if (name.empty() || poisoned.contains(name))
    return nullptr;
  if (Value v = values.lookup(name))
    return v;
  auto pending = pendingInitializers.find(name);
  if (pending == pendingInitializers.end())
    return nullptr;
  ::onnx::TensorProto *tensor = pending->second;
  pendingInitializers.erase(pending);
  std::string error, unsupported;
  ElementsAttr attr = tensors.import(*tensor, error, unsupported);
  if (!attr) {
    if (!error.empty() && result.fatalError.empty())
      result.fatalError = error;
    else if (error.empty())
      result.issues.push_back({name, "initializer", unsupported});
    poisoned.insert(name);
    return nullptr;
  }
  // Initializers live at the top of the function, whoever asks first.
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  Value v = tc::ConstantOp::create(
      builder, NameLoc::get(StringAttr::get(context, name)), attr);
  values[name] = v;
  return v;
}

FailureOr<Type>
GraphImporter::convertValueType(const ::onnx::ValueInfoProto &info,
                                SmallVectorImpl<std::string> &dimNames) {
  auto report = [&](const llvm::Twine &reason) -> FailureOr<Type> {
    result.issues.push_back({info.name(), "graph input/output", reason.str()});
    return failure();
  };
  if (!info.type().has_tensor_type())
    return report("only tensor values are supported (sequence, map, optional "
                  "and sparse values are not)");
  const auto &tensorType = info.type().tensor_type();
  std::string why;
  Type element = convertElementType(context, tensorType.elem_type(), why);
  if (!element)
    return report(why);
  if (!tensorType.has_shape())
    return report("the value has no shape (unknown rank)");
  SmallVector<int64_t> shape;
  for (const auto &dim : tensorType.shape().dim()) {
    if (dim.has_dim_value()) {
      if (dim.dim_value() < 0 || dim.dim_value() > (int64_t(1) << 40)) {
        if (result.fatalError.empty())
          result.fatalError = llvm::formatv("value '{0}' has a negative or "
                                            "absurd dimension {1}",
                                            info.name(), dim.dim_value());
        return failure();
      }
      shape.push_back(dim.dim_value());
      dimNames.push_back("");
    } else if (auto bound = options.dimParams.find(dim.dim_param());
               dim.has_dim_param() && bound != options.dimParams.end()) {
      // A specialized symbolic dimension (a shape bucket).
      shape.push_back(bound->second);
      dimNames.push_back("");
    } else {
      shape.push_back(ShapedType::kDynamic);
      dimNames.push_back(dim.has_dim_param() ? dim.dim_param() : "");
    }
  }
  return Type(RankedTensorType::get(shape, element));
}

FailureOr<Type>
GraphImporter::undeclaredOutputType(const ::onnx::ValueInfoProto &info,
                                    RankedTensorType computed,
                                    SmallVectorImpl<std::string> &dimNames) {
  bool untyped = !info.has_type() ||
                 info.type().value_case() == ::onnx::TypeProto::VALUE_NOT_SET;
  bool unshaped =
      info.type().has_tensor_type() && !info.type().tensor_type().has_shape();
  if (!untyped && !unshaped)
    return Type();
  // The element type, when declared, must be the computed one.
  if (!untyped && info.type().tensor_type().elem_type() != 0) {
    std::string why;
    Type element =
        convertElementType(context, info.type().tensor_type().elem_type(), why);
    if (!element) {
      result.issues.push_back({info.name(), "graph input/output", why});
      return failure();
    }
    if (element != computed.getElementType()) {
      result.issues.push_back(
          {info.name(), "graph output",
           llvm::formatv("declared as {0} but computed as {1}", element,
                         computed.getElementType())});
      return failure();
    }
  }
  dimNames.assign(computed.getRank(), "");
  return Type(computed);
}

void GraphImporter::importNode(const ::onnx::NodeProto &node, int index) {
  currentNode = &node;
  currentNodeName = node.name().empty()
                        ? llvm::formatv("{0}_{1}", node.op_type(), index).str()
                        : node.name();
  auto poisonOutputs = [&] {
    for (const std::string &out : node.output())
      if (!out.empty())
        poisoned.insert(out);
  };
  SmallVector<Value> inputs;
  for (const std::string &name : node.input()) {
    if (!name.empty() && poisoned.contains(name)) {
      poisonOutputs();
      return;
    }
    inputs.push_back(lookup(name));
    if (!name.empty() && !inputs.back()) {
      poisonOutputs(); // an initializer that failed to import
      return;
    }
  }
  // Values from other domains (com.microsoft, ai.onnx.ml) have no handlers.
  bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
  Handler handler =
      defaultDomain ? registry.lookup(node.op_type(), opset) : nullptr;
  if (!handler) {
    if (!defaultDomain)
      addIssue(node, "operators of domain '" + node.domain() +
                         "' are not supported");
    else if (registry.knows(node.op_type()))
      addIssue(node, llvm::formatv("not supported at opset {0} (supported "
                                   "from opset {1})",
                                   opset, registry.firstVersion(node.op_type())));
    else
      addIssue(node, "unknown operator");
    poisonOutputs();
    return;
  }
  NodeContext ctx(*this, node, opset, nodeLocation(node, index),
                  std::move(inputs));
  SmallVector<Value> outputs;
  size_t issuesBefore = result.issues.size();
  if (failed(handler(ctx, outputs))) {
    // Never fail silently: the node's outputs would just go missing.
    if (result.issues.size() == issuesBefore && result.fatalError.empty())
      addIssue(node, "invalid node: it could not be imported");
    poisonOutputs();
    return;
  }
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string &name = node.output(i);
    if (name.empty())
      continue;
    Value v = i < static_cast<int>(outputs.size()) ? outputs[i] : Value();
    if (!v) {
      addIssue(node, llvm::formatv("output #{0} is not supported", i));
      poisoned.insert(name);
      continue;
    }
    values[name] = v;
  }
}

FailureOr<SmallVector<Value>>
GraphImporter::importSubgraph(const ::onnx::GraphProto &graph, Block *block,
                              ValueRange arguments) {
  if (graph.input_size() != static_cast<int>(arguments.size())) {
    addIssue(*currentNode, llvm::formatv("a subgraph takes {0} inputs, "
                                         "expected {1}",
                                         graph.input_size(), arguments.size()));
    return failure();
  }
  // Work on a sorted, checked copy: subgraphs obey the same rules.
  ::onnx::GraphProto sorted = graph;
  // Names from the enclosing scopes count as defined for the checks:
  // imported values, initializers not read yet, and poisoned values (whose
  // users are skipped quietly).
  llvm::StringSet<> outerNames;
  for (const auto &entry : values)
    outerNames.insert(entry.getKey());
  for (const auto &entry : pendingInitializers)
    outerNames.insert(entry.getKey());
  for (const auto &entry : poisoned)
    outerNames.insert(entry.getKey());
  for (const auto &input : graph.input())
    outerNames.erase(input.name());
  for (const auto &entry : outerNames)
    sorted.add_input()->set_name(entry.getKey().str());
  std::string error;
  if (!checkAndSortGraph(sorted, error)) {
    addIssue(*currentNode, "invalid subgraph: " + error);
    return failure();
  }
  const ::onnx::NodeProto *parentNode = currentNode;
  std::string parentName = currentNodeName;
  size_t issuesBefore = result.issues.size();
  for (auto [input, arg] : llvm::zip(graph.input(), arguments))
    values[input.name()] = arg;
  for (auto &init : *sorted.mutable_initializer()) {
    subgraphInitializers.push_back(
        std::make_unique<::onnx::TensorProto>(std::move(init)));
    pendingInitializers[subgraphInitializers.back()->name()] =
        subgraphInitializers.back().get();
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  for (int i = 0; i < sorted.node_size(); ++i) {
    importNode(sorted.node(i), i);
    if (!result.fatalError.empty())
      break;
  }
  currentNode = parentNode;
  currentNodeName = parentName;
  if (result.issues.size() != issuesBefore || !result.fatalError.empty())
    return failure();
  SmallVector<Value> outputs;
  for (const auto &output : graph.output()) {
    Value v = lookup(output.name());
    if (!v) {
      addIssue(*currentNode, "subgraph output '" + output.name() +
                                 "' is not available");
      return failure();
    }
    outputs.push_back(v);
  }
  return outputs;
}

void GraphImporter::importGraph(::onnx::GraphProto &graph, func::FuncOp func) {
  // Capture diagnostics from type inference and verification as issues.
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      lastDiagnostic = diag.str();
    return success();
  });

  entry = func.addEntryBlock();
  llvm::StringSet<> initializerNames;
  for (auto &init : *graph.mutable_initializer()) {
    initializerNames.insert(init.name());
    pendingInitializers[init.name()] = &init;
  }

  // Dimensions to specialize must name symbolic dimensions of the inputs.
  if (!options.dimParams.empty()) {
    std::set<std::string> named;
    for (const auto &input : graph.input())
      if (!initializerNames.contains(input.name()) &&
          input.type().tensor_type().has_shape())
        for (const auto &dim : input.type().tensor_type().shape().dim())
          if (dim.has_dim_param())
            named.insert(dim.dim_param());
    for (const auto &[name, extent] : options.dimParams) {
      if (named.count(name) && extent >= 0)
        continue;
      result.fatalError =
          named.count(name)
              ? llvm::formatv("cannot specialize the dimension '{0}' to {1}: "
                              "extents are not negative",
                              name, extent)
                    .str()
              : llvm::formatv("cannot specialize the dimension '{0}': no graph "
                              "input has a dimension of that name (named "
                              "dimensions: {1})",
                              name,
                              named.empty() ? std::string("none")
                                            : llvm::join(named, ", "))
                    .str();
      return;
    }
  }

  // Bound inputs become constants, like initializers.
  for (const auto &[name, path] : options.boundInputs) {
    const ::onnx::ValueInfoProto *info = nullptr;
    for (const auto &input : graph.input())
      if (input.name() == name)
        info = &input;
    if (!info || initializerNames.contains(name)) {
      result.fatalError = llvm::formatv("cannot bind '{0}': the graph has no "
                                        "input of that name",
                                        name);
      return;
    }
    auto tensor = std::make_unique<::onnx::TensorProto>();
    // A FIFO or a device would block or never end.
    if (llvm::sys::fs::exists(path) && !llvm::sys::fs::is_regular_file(path)) {
      result.fatalError = llvm::formatv("cannot bind '{0}': '{1}' is not a "
                                        "regular file",
                                        name, path);
      return;
    }
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!file || !tensor->ParseFromArray((*file)->getBufferStart(),
                                         (*file)->getBufferSize())) {
      result.fatalError = llvm::formatv("cannot bind '{0}': '{1}' is not a "
                                        "readable TensorProto file",
                                        name, path);
      return;
    }
    tensor->set_name(name);
    SmallVector<std::string> dims;
    FailureOr<Type> declared = convertValueType(*info, dims);
    if (failed(declared))
      return;
    std::string error, unsupported;
    ElementsAttr attr = tensors.import(*tensor, error, unsupported);
    if (!attr) {
      result.fatalError = "cannot bind '" + name + "': " +
                          (error.empty() ? unsupported : error);
      return;
    }
    auto want = cast<RankedTensorType>(*declared);
    auto got = cast<RankedTensorType>(attr.getType());
    if (want.getElementType() != got.getElementType() ||
        !tc::areCompatibleReturnTypes({want}, {got})) {
      result.fatalError = llvm::formatv("cannot bind '{0}': the value has type "
                                        "{1} but the input is declared as {2}",
                                        name, got, want);
      return;
    }
    initializerNames.insert(name);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(entry);
    values[name] = tc::ConstantOp::create(
        builder, NameLoc::get(StringAttr::get(context, name)), attr);
  }

  // Graph inputs that are not initializers become arguments.
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argDimNames;
  SmallVector<std::string> argNames;
  bool inputsOk = true;
  for (const auto &input : graph.input()) {
    if (initializerNames.contains(input.name()))
      continue;
    SmallVector<std::string> dims;
    FailureOr<Type> type = convertValueType(input, dims);
    if (failed(type)) {
      inputsOk = false;
      continue;
    }
    argTypes.push_back(*type);
    argNames.push_back(input.name());
    SmallVector<Attribute> dimAttrs;
    for (auto &d : dims)
      dimAttrs.push_back(StringAttr::get(context, d));
    argDimNames.push_back(ArrayAttr::get(context, dimAttrs));
  }
  if (!inputsOk || !result.fatalError.empty())
    return;
  func.setType(builder.getFunctionType(argTypes, {}));
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    BlockArgument arg =
        entry->addArgument(type, NameLoc::get(StringAttr::get(context, argNames[i])));
    values[argNames[i]] = arg;
    func.setArgAttr(i, kNameAttr, StringAttr::get(context, argNames[i]));
    if (hasNamedDim(cast<ArrayAttr>(argDimNames[i])))
      func.setArgAttr(i, kDimParamsAttr, argDimNames[i]);
  }

  builder.setInsertionPointToEnd(entry);
  for (int i = 0; i < graph.node_size(); ++i) {
    importNode(graph.node(i), i);
    if (!result.fatalError.empty())
      return;
  }
  currentNodeName.clear();

  SmallVector<Value> outputs;
  SmallVector<Type> outputTypes;
  for (const auto &output : graph.output()) {
    Value v = lookup(output.name());
    if (!v)
      continue; // its producer was reported
    SmallVector<std::string> dims;
    auto actual = cast<RankedTensorType>(v.getType());
    FailureOr<Type> declared = undeclaredOutputType(output, actual, dims);
    if (succeeded(declared) && !*declared)
      declared = convertValueType(output, dims);
    if (failed(declared))
      continue;
    auto declaredType = cast<RankedTensorType>(*declared);
    if (declaredType.getElementType() != actual.getElementType() ||
        declaredType.getRank() != actual.getRank()) {
      result.issues.push_back(
          {output.name(), "graph output",
           llvm::formatv("declared as {0} but computed as {1}", declaredType,
                         actual)});
      continue;
    }
    outputs.push_back(v);
    outputTypes.push_back(v.getType());
    SmallVector<Attribute> dimAttrs;
    for (auto &d : dims)
      dimAttrs.push_back(StringAttr::get(context, d));
    size_t index = outputs.size() - 1;
    func.setType(builder.getFunctionType(argTypes, outputTypes));
    func.setResultAttr(index, kNameAttr,
                       StringAttr::get(context, output.name()));
    ArrayAttr dimNames = ArrayAttr::get(context, dimAttrs);
    if (hasNamedDim(dimNames))
      func.setResultAttr(index, kDimParamsAttr, dimNames);
  }
  func.setType(builder.getFunctionType(argTypes, outputTypes));
  func::ReturnOp::create(builder, func.getLoc(), outputs);

  // Folding while importing leaves constants nobody reads; drop them.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (isOpTriviallyDead(&op))
      op.erase();
}
