//===- InitAllDialects.h - register tc's dialects and the upstream ones ---===//

#ifndef TC_INITALLDIALECTS_H
#define TC_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::tc {

/// Registers the tc and fusion dialects.
void registerTcDialects(DialectRegistry &registry);

/// Registers tc's dialects plus every upstream dialect and extension the
/// pipeline lowers through (linalg, tensor, bufferization, scf, vector, gpu,
/// nvvm, rocdl, llvm, ...), as the tools need them.
void registerAllTcToolDialects(DialectRegistry &registry);

} // namespace mlir::tc

#endif // TC_INITALLDIALECTS_H
