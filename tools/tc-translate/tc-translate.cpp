//===- tc-translate.cpp - convert between ONNX, MLIR and binaries ---------===//
//
// The registration point for tc's translations: the ONNX importer
// (--import-onnx), upstream's LLVM IR translations, and the model
// serializations as they land.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

#include <cstdlib>
#include <map>
#include "tc/Frontend/Onnx/Importer.h"
#include "tc/InitAllDialects.h"

namespace {
llvm::cl::list<std::string> onnxBind(
    "onnx-bind",
    llvm::cl::desc("--import-onnx: replace graph input NAME by the "
                   "TensorProto in FILE (NAME=FILE), e.g. a shape parameter"),
    llvm::cl::value_desc("name=file.pb"));

/// Parses NAME=FILE pairs; exits with a message naming a malformed one.
std::map<std::string, std::string> parseBindings() {
  std::map<std::string, std::string> bindings;
  for (const std::string &entry : onnxBind) {
    auto [name, file] = llvm::StringRef(entry).split('=');
    if (name.empty() || file.empty()) {
      llvm::errs() << "tc-translate: error: --onnx-bind expects NAME=FILE, got '"
                   << entry << "'\n";
      std::exit(1);
    }
    bindings[name.str()] = file.str();
  }
  return bindings;
}
} // namespace

int main(int argc, char **argv) {
  mlir::tc::onnx::registerOnnxImportTranslation([] {
    mlir::tc::onnx::ImportOptions options;
    options.boundInputs = parseBindings();
    return options;
  });
  mlir::registerToLLVMIRTranslation();
  mlir::registerFromLLVMIRTranslation();
  // Print MLIR back out unchanged: lets tc-translate check that a file
  // parses and verifies with every tc dialect loaded.
  mlir::TranslateFromMLIRRegistration roundTrip(
      "tc-roundtrip", "parse, verify and print MLIR with the tc dialects",
      [](mlir::Operation *op, llvm::raw_ostream &os) {
        op->print(os);
        os << '\n';
        return mlir::success();
      },
      [](mlir::DialectRegistry &registry) {
        mlir::tc::registerAllTcToolDialects(registry);
      });
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "tc translation driver\n"));
}
