//===- tc-opt.cpp - run tc and upstream passes on MLIR text ---------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tc/InitAllDialects.h"
#include "tc/InitAllPasses.h"

int main(int argc, char **argv) {
  mlir::tc::registerAllTcToolPasses();
  mlir::DialectRegistry registry;
  mlir::tc::registerAllTcToolDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tc optimizer driver: tc, fusion and upstream passes\n",
      registry));
}
