//===- Importer.cpp - the public ONNX import entry points -----------------===//

#include "tc/Frontend/Onnx/Importer.h"

#include "GraphImporter.h"
#include "ModelLoader.h"

#include "tc/Dialect/Tc/IR/TcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::tc::onnx;

namespace {
/// Opsets of the default domain that tc imports: every one up to the newest
/// that the onnx package of the setup scripts defines (handlers register the
/// version where an op's semantics changed, e.g. broadcasting at 7).
constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 25;

/// The ONNX node name that a NameLoc built by the importer carries.
std::string nodeNameOf(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  return "";
}
std::string opTypeOf(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    if (auto child = dyn_cast<NameLoc>(name.getChildLoc()))
      return child.getName().str();
  return "";
}
} // namespace

void ImportResult::printErrors(llvm::raw_ostream &os,
                               llvm::StringRef modelPath) const {
  if (!fatalError.empty()) {
    os << modelPath << ": error: " << fatalError << "\n";
    return;
  }
  os << modelPath << ": error: " << issues.size()
     << (issues.size() == 1 ? " unsupported piece" : " unsupported pieces")
     << " in the model:\n";
  for (const ImportIssue &issue : issues)
    os << "  " << issue.nodeName << " (" << issue.opType
       << "): " << issue.reason << "\n";
}

void mlir::tc::onnx::loadImportDialects(MLIRContext &context) {
  context.loadDialect<tc::TcDialect, func::FuncDialect, scf::SCFDialect,
                      tensor::TensorDialect, arith::ArithDialect>();
}

namespace {
/// Imports a parsed model (consuming its tensors' bytes).
ImportResult importModel(MLIRContext &context, ::onnx::ModelProto *model,
                         const ImportOptions &options, ImportResult result) {
  loadImportDialects(context);
  if (!model)
    return result;
  int64_t opset = getDefaultOpset(*model);
  if (opset < kMinOpset || opset > kMaxOpset) {
    result.issues.push_back(
        {"<model>", "opset_import",
         llvm::formatv("default-domain opset {0} is outside the supported "
                       "range [{1}, {2}]",
                       opset, kMinOpset, kMaxOpset)});
    return result;
  }
  ::onnx::GraphProto &graph = *model->mutable_graph();
  if (!checkAndSortGraph(graph, result.fatalError))
    return result;

  OpBuilder builder(&context);
  Location loc = NameLoc::get(builder.getStringAttr(
      graph.name().empty() ? "onnx_graph" : graph.name()));
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, loc, options.functionName,
                                   builder.getFunctionType({}, {}));
  GraphImporter importer(&context, options, opset, result);
  importer.importGraph(graph, func);
  result.filesRead.insert(result.filesRead.end(),
                          importer.externalFiles().begin(),
                          importer.externalFiles().end());
  if (!result.fatalError.empty() || !result.issues.empty())
    return result;

  // Ops built with explicit result types (reshape, broadcast, ...) are
  // checked here; each failure names its node.
  std::vector<ImportIssue> verifyIssues;
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        verifyIssues.push_back({nodeNameOf(diag.getLocation()),
                                opTypeOf(diag.getLocation()),
                                "invalid node: " + diag.str()});
      return success();
    });
    if (failed(verify(*module)) && verifyIssues.empty())
      verifyIssues.push_back({"<model>", "", "the imported IR does not verify"});
  }
  if (!verifyIssues.empty()) {
    result.issues = std::move(verifyIssues);
    return result;
  }
  result.module = std::move(module);
  return result;
}
} // namespace

ImportResult mlir::tc::onnx::importOnnxBytes(MLIRContext &context,
                                             llvm::StringRef bytes,
                                             const ImportOptions &options) {
  ImportResult result;
  std::unique_ptr<::onnx::ModelProto> model =
      parseModel(bytes, result.fatalError);
  return importModel(context, model.get(), options, std::move(result));
}

ImportResult mlir::tc::onnx::importOnnxFile(MLIRContext &context,
                                            llvm::StringRef path,
                                            const ImportOptions &options) {
  ImportOptions withDir = options;
  if (withDir.externalDataDir.empty()) {
    withDir.externalDataDir = llvm::sys::path::parent_path(path).str();
    if (withDir.externalDataDir.empty())
      withDir.externalDataDir = ".";
  }
  ImportResult result;
  std::unique_ptr<::onnx::ModelProto> model =
      parseModelFile(path, result.fatalError);
  return importModel(context, model.get(), withDir, std::move(result));
}

void mlir::tc::onnx::registerOnnxImportTranslation(
    std::function<ImportOptions()> getOptions) {
  TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model into the tc dialect",
      [getOptions](llvm::SourceMgr &sourceMgr,
                   MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        llvm::StringRef path = buffer->getBufferIdentifier();
        ImportOptions options = getOptions();
        options.externalDataDir = llvm::sys::path::parent_path(path).str();
        if (options.externalDataDir.empty())
          options.externalDataDir = ".";
        ImportResult result =
            importOnnxBytes(*context, buffer->getBuffer(), options);
        if (!result.succeeded()) {
          result.printErrors(llvm::errs(), path);
          return nullptr;
        }
        return OwningOpRef<Operation *>(result.module.release());
      },
      [](DialectRegistry &registry) {
        registry.insert<tc::TcDialect, func::FuncDialect, scf::SCFDialect,
                        tensor::TensorDialect, arith::ArithDialect>();
      });
}
