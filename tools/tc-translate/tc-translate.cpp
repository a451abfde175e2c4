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
#include "tc/Frontend/Onnx/Importer.h"
#include "tc/InitAllDialects.h"

int main(int argc, char **argv) {
  mlir::tc::onnx::registerOnnxImportTranslation();
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
