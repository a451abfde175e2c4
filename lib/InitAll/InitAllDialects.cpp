//===- InitAllDialects.cpp - dialect registration for the tools -----------===//

#include "tc/InitAllDialects.h"
#include "tc/InitAllPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "tc/Dialect/Fusion/IR/FusionDialect.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/TcCpu/IR/TcCpuDialect.h"
#include "tc/Dialect/TcGpu/IR/TcGpuDialect.h"
#include "tc/Dialect/TcGpu/Transforms/BufferizableOpInterfaceImpl.h"

void mlir::tc::registerTcDialects(DialectRegistry &registry) {
  // scf and tensor carry the control flow the ONNX importer produces.
  registry.insert<tc::TcDialect, fusion::FusionDialect, tc_gpu::TcGpuDialect,
                  tc_cpu::TcCpuDialect, func::FuncDialect, scf::SCFDialect,
                  tensor::TensorDialect, arith::ArithDialect>();
  tc_gpu::registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::tc::registerAllTcToolDialects(DialectRegistry &registry) {
  registerAllGpuBackends();
  registerTcDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // GPU kernels are serialized through these: the NVVM and ROCDL target
  // attributes and the translations of the device dialects to LLVM IR.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);
}
