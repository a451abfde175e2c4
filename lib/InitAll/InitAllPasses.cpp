//===- InitAllPasses.cpp - pass registration for the tools ----------------===//

#include "tc/InitAllPasses.h"

#include "mlir/InitAllPasses.h"
#include "tc/Conversion/Passes.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cuda/CudaTarget.h"
#include "tc/Target/Gpu/Passes.h"
#include "tc/Target/Rocm/RocmTarget.h"
#include "tc/Dialect/Fusion/Transforms/Passes.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "tc/Pipelines/Pipelines.h"

void mlir::tc::registerTcPasses() {
  tc::registerTcTransformsPasses();
  tc::registerTcConversionPasses();
  tc::cpu::registerTcCpuPasses();
  tc::gpu::registerTcGpuPasses();
  tc::registerTcPipelines();
  fusion::registerFusionTransformsPasses();
}

void mlir::tc::registerAllGpuBackends() {
  gpu::registerCudaBackend();
  gpu::registerRocmBackend();
}

void mlir::tc::registerAllTcToolPasses() {
  registerAllGpuBackends();
  registerTcPasses();
  mlir::registerAllPasses();
}
