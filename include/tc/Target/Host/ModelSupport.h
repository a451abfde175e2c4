//===- ModelSupport.h - helpers linked into model libraries -----*- C++ -*-===//

#ifndef TC_TARGET_HOST_MODELSUPPORT_H
#define TC_TARGET_HOST_MODELSUPPORT_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tc::host {

/// Links into `module` the model-support helpers it declares (the image
/// codecs of tc.image_decode), from bitcode embedded in tc. Models that
/// declare none are left unchanged.
LogicalResult linkModelSupport(llvm::Module &module, std::string &error);

} // namespace mlir::tc::host

#endif // TC_TARGET_HOST_MODELSUPPORT_H
