//===- ModelLoader.cpp - parse and sanity-check an ONNX model -------------===//
//
// Everything here guards the importer against malformed files: a truncated or
// foreign file, duplicate names, values nobody produces, cycles. Each gives
// one message naming the node or value and stops the import.
//
//===----------------------------------------------------------------------===//

#include "ModelLoader.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::tc::onnx;

namespace {
/// Parses from `stream` and checks the result is a plausible model.
std::unique_ptr<::onnx::ModelProto>
parseFrom(google::protobuf::io::ZeroCopyInputStream &stream,
          std::string &error) {
  auto model = std::make_unique<::onnx::ModelProto>();
  google::protobuf::io::CodedInputStream coded(&stream);
  coded.SetTotalBytesLimit(INT_MAX);
  // Protobuf's own recursion guard protects against deeply nested graphs.
  coded.SetRecursionLimit(256);
  if (!model->ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    error = "not a valid ONNX model: the protobuf is malformed or truncated";
    return nullptr;
  }
  if (!model->has_graph() || model->ir_version() <= 0) {
    error = "not a valid ONNX model: no graph or no IR version";
    return nullptr;
  }
  return model;
}
} // namespace

std::unique_ptr<::onnx::ModelProto>
mlir::tc::onnx::parseModelFile(llvm::StringRef path, std::string &error) {
  std::string p = path.str();
  // O_NONBLOCK: opening a FIFO would wait for a writer forever; it is
  // refused below as not a regular file.
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = llvm::formatv("cannot read the model file: {0}",
                          std::strerror(errno));
    return nullptr;
  }
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    error = "cannot read the model file: not a regular file";
    return nullptr;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (info.st_size > INT_MAX) {
    ::close(fd);
    error = "the model file is larger than protobuf's 2 GiB limit; store "
            "the weights as external data";
    return nullptr;
  }
  std::unique_ptr<::onnx::ModelProto> model;
  {
    google::protobuf::io::FileInputStream stream(fd, /*block_size=*/1 << 20);
    model = parseFrom(stream, error);
  }
  ::close(fd);
  return model;
}

std::unique_ptr<::onnx::ModelProto>
mlir::tc::onnx::parseModel(llvm::StringRef bytes, std::string &error) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    error = "the model file is larger than protobuf's 2 GiB limit; store "
            "the weights as external data";
    return nullptr;
  }
  google::protobuf::io::ArrayInputStream raw(bytes.data(),
                                             static_cast<int>(bytes.size()));
  return parseFrom(raw, error);
}

int64_t mlir::tc::onnx::getDefaultOpset(const ::onnx::ModelProto &model) {
  int64_t opset = -1;
  for (const auto &import : model.opset_import())
    if (import.domain().empty() || import.domain() == "ai.onnx")
      opset = std::max<int64_t>(opset, import.version());
  // IR version < 3 models carry no opset_import and mean opset 1.
  if (opset < 0 && model.opset_import_size() == 0)
    opset = 1;
  return opset;
}

static std::string describeNode(const ::onnx::NodeProto &node, int index) {
  if (!node.name().empty())
    return llvm::formatv("node '{0}' ({1})", node.name(), node.op_type());
  return llvm::formatv("node #{0} ({1})", index, node.op_type());
}

/// Values a subgraph reads from its enclosing scopes: names used by its
/// nodes (and their own subgraphs) that it does not define itself.
static void collectOuterReferences(const ::onnx::GraphProto &graph,
                                   llvm::StringSet<> &refs) {
  llvm::StringSet<> defined;
  for (const auto &input : graph.input())
    defined.insert(input.name());
  for (const auto &init : graph.initializer())
    defined.insert(init.name());
  for (const auto &node : graph.node())
    for (const std::string &out : node.output())
      defined.insert(out);
  llvm::StringSet<> used;
  for (const auto &node : graph.node()) {
    for (const std::string &in : node.input())
      if (!in.empty())
        used.insert(in);
    for (const auto &attr : node.attribute()) {
      if (attr.has_g())
        collectOuterReferences(attr.g(), used);
      for (const auto &g : attr.graphs())
        collectOuterReferences(g, used);
    }
  }
  for (const auto &name : used)
    if (!defined.contains(name.getKey()))
      refs.insert(name.getKey());
}

bool mlir::tc::onnx::checkAndSortGraph(::onnx::GraphProto &graph,
                                       std::string &error) {
  // Who defines each value: -1 for graph inputs and initializers, otherwise
  // the index of the producing node.
  llvm::StringMap<int> producer;
  auto define = [&](const std::string &name, int who,
                    llvm::StringRef what) -> bool {
    if (name.empty())
      return true; // an omitted optional output
    auto [it, inserted] = producer.try_emplace(name, who);
    if (inserted)
      return true;
    // ONNX IR < 4 lists initializers among the graph inputs as well.
    if (who == -1 && it->second == -1 && what == "initializer")
      return true;
    error = llvm::formatv("value '{0}' is defined twice (again as {1})", name,
                          what);
    return false;
  };
  llvm::StringSet<> inputNames;
  for (const auto &input : graph.input()) {
    if (!inputNames.insert(input.name()).second) {
      error = llvm::formatv("graph input '{0}' is declared twice",
                            input.name());
      return false;
    }
    if (!define(input.name(), -1, "graph input"))
      return false;
  }
  llvm::StringSet<> initNames;
  for (const auto &init : graph.initializer()) {
    if (!initNames.insert(init.name()).second) {
      error = llvm::formatv("initializer '{0}' is declared twice", init.name());
      return false;
    }
    if (!define(init.name(), -1, "initializer"))
      return false;
  }
  int numNodes = graph.node_size();
  for (int i = 0; i < numNodes; ++i)
    for (const std::string &out : graph.node(i).output())
      if (!define(out, i, "an output of " + describeNode(graph.node(i), i)))
        return false;

  // Kahn's algorithm over node -> node edges. Values from enclosing scopes
  // are not visible in the main graph; subgraph bodies are checked when they
  // are imported.
  std::vector<int> pending(numNodes, 0);
  std::vector<std::vector<int>> users(numNodes);
  for (int i = 0; i < numNodes; ++i) {
    // A node with subgraphs also depends on what they read from this scope.
    std::vector<std::string> reads(graph.node(i).input().begin(),
                                   graph.node(i).input().end());
    llvm::StringSet<> implicit;
    for (const auto &attr : graph.node(i).attribute()) {
      if (attr.has_g())
        collectOuterReferences(attr.g(), implicit);
      for (const auto &g : attr.graphs())
        collectOuterReferences(g, implicit);
    }
    for (const auto &name : implicit)
      if (producer.count(name.getKey()))
        reads.push_back(name.getKey().str());
    for (const std::string &in : reads) {
      if (in.empty())
        continue; // an omitted optional input
      auto it = producer.find(in);
      if (it == producer.end()) {
        error = llvm::formatv("{0} reads value '{1}', which no graph input, "
                              "initializer or node produces",
                              describeNode(graph.node(i), i), in);
        return false;
      }
      if (it->second >= 0) {
        ++pending[i];
        users[it->second].push_back(i);
      }
    }
  }
  std::deque<int> ready;
  for (int i = 0; i < numNodes; ++i)
    if (pending[i] == 0)
      ready.push_back(i);
  std::vector<int> order;
  order.reserve(numNodes);
  while (!ready.empty()) {
    int n = ready.front();
    ready.pop_front();
    order.push_back(n);
    for (int user : users[n])
      if (--pending[user] == 0)
        ready.push_back(user);
  }
  if (static_cast<int>(order.size()) != numNodes) {
    for (int i = 0; i < numNodes; ++i)
      if (pending[i] != 0) {
        error = llvm::formatv("the graph has a cycle through {0}",
                              describeNode(graph.node(i), i));
        return false;
      }
  }
  bool sorted = true;
  for (int i = 0; i < numNodes; ++i)
    sorted &= order[i] == i;
  if (!sorted) {
    google::protobuf::RepeatedPtrField<::onnx::NodeProto> nodes;
    for (int i : order)
      *nodes.Add() = std::move(*graph.mutable_node(i));
    graph.mutable_node()->Swap(&nodes);
  }
  for (const auto &output : graph.output())
    if (!producer.count(output.name())) {
      error = llvm::formatv("graph output '{0}' is produced by no node, "
                            "input or initializer",
                            output.name());
      return false;
    }
  return true;
}
