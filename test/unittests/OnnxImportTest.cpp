//===- OnnxImportTest.cpp - the ONNX importer's building blocks -----------===//

#include "../../lib/Frontend/Onnx/ModelLoader.h"
#include "../../lib/Frontend/Onnx/TensorImport.h"
#include "tc/Frontend/Onnx/Importer.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tc::onnx;

namespace {
TEST(OnnxTensorImport, ElementTypes) {
  MLIRContext context;
  std::string why;
  EXPECT_TRUE(convertElementType(&context, ::onnx::TensorProto::FLOAT, why).isF32());
  EXPECT_TRUE(convertElementType(&context, ::onnx::TensorProto::BOOL, why).isInteger(1));
  EXPECT_TRUE(
      convertElementType(&context, ::onnx::TensorProto::UINT8, why).isUnsignedInteger(8));
  EXPECT_TRUE(convertElementType(&context, 22, why).isSignlessInteger(4)); // INT4
  EXPECT_FALSE(convertElementType(&context, ::onnx::TensorProto::STRING, why));
  EXPECT_EQ(why, "element type STRING is not supported");
}

TEST(OnnxTensorImport, TypedFieldsAndInlineConstants) {
  MLIRContext context;
  ::onnx::TensorProto t;
  t.set_name("w");
  t.set_data_type(::onnx::TensorProto::INT64);
  t.add_dims(3);
  for (int64_t v : {4, -5, 6})
    t.add_int64_data(v);
  std::string error, unsupported;
  TensorImporter importer(&context, "", /*inlineElementLimit=*/16);
  ElementsAttr attr = importer.import(t, error, unsupported);
  ASSERT_TRUE(attr) << error << unsupported;
  auto dense = dyn_cast<DenseIntElementsAttr>(attr);
  ASSERT_TRUE(dense);
  EXPECT_EQ(SmallVector<int64_t>(dense.getValues<int64_t>()),
            (SmallVector<int64_t>{4, -5, 6}));
}

TEST(OnnxTensorImport, LargeTensorsBecomeResources) {
  MLIRContext context;
  ::onnx::TensorProto t;
  t.set_name("big.weight");
  t.set_data_type(::onnx::TensorProto::FLOAT);
  t.add_dims(32);
  t.set_raw_data(std::string(32 * 4, '\0'));
  std::string error, unsupported;
  TensorImporter importer(&context, "", 16);
  ElementsAttr attr = importer.import(t, error, unsupported);
  ASSERT_TRUE(attr);
  EXPECT_TRUE(isa<DenseResourceElementsAttr>(attr));
}

TEST(OnnxTensorImport, SizeMismatchIsAnError) {
  MLIRContext context;
  ::onnx::TensorProto t;
  t.set_name("w");
  t.set_data_type(::onnx::TensorProto::FLOAT);
  t.add_dims(4);
  t.set_raw_data(std::string(8, '\0'));
  std::string error, unsupported;
  TensorImporter importer(&context, "", 16);
  EXPECT_FALSE(importer.import(t, error, unsupported));
  EXPECT_EQ(error, "tensor 'w' of shape [4] and type FLOAT needs 16 bytes but "
                   "holds 8");
}

::onnx::NodeProto *addNode(::onnx::GraphProto &g, const char *name,
                           std::vector<std::string> in,
                           std::vector<std::string> out) {
  auto *n = g.add_node();
  n->set_name(name);
  n->set_op_type("Relu");
  for (auto &i : in)
    n->add_input(i);
  for (auto &o : out)
    n->add_output(o);
  return n;
}

TEST(OnnxModelLoader, SortsNodesTopologically) {
  ::onnx::GraphProto g;
  g.add_input()->set_name("x");
  addNode(g, "second", {"a"}, {"b"});
  addNode(g, "first", {"x"}, {"a"});
  g.add_output()->set_name("b");
  std::string error;
  ASSERT_TRUE(checkAndSortGraph(g, error)) << error;
  EXPECT_EQ(g.node(0).name(), "first");
  EXPECT_EQ(g.node(1).name(), "second");
}

TEST(OnnxModelLoader, RejectsCyclesAndUndefinedValues) {
  ::onnx::GraphProto cyclic;
  addNode(cyclic, "p", {"b"}, {"a"});
  addNode(cyclic, "q", {"a"}, {"b"});
  std::string error;
  EXPECT_FALSE(checkAndSortGraph(cyclic, error));
  EXPECT_EQ(error, "the graph has a cycle through node 'p' (Relu)");

  ::onnx::GraphProto undefined;
  addNode(undefined, "r", {"ghost"}, {"y"});
  EXPECT_FALSE(checkAndSortGraph(undefined, error));
  EXPECT_EQ(error, "node 'r' (Relu) reads value 'ghost', which no graph input, "
                   "initializer or node produces");
}

TEST(OnnxImporter, GarbageIsNotAModel) {
  MLIRContext context;
  ImportResult result = importOnnxBytes(context, "\x08\x01\xff\xff");
  EXPECT_FALSE(result.succeeded());
  EXPECT_EQ(result.fatalError,
            "not a valid ONNX model: the protobuf is malformed or truncated");
}
} // namespace
