//===- InitAllDialects.cpp - dialect registration for the tools -----------===//

#include "tc/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "tc/Dialect/Fusion/IR/FusionDialect.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"

void mlir::tc::registerTcDialects(DialectRegistry &registry) {
  registry.insert<tc::TcDialect, fusion::FusionDialect, func::FuncDialect>();
}

void mlir::tc::registerAllTcToolDialects(DialectRegistry &registry) {
  registerTcDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}
