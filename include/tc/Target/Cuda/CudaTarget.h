//===- CudaTarget.h - the NVIDIA back end ----------------------*- C++ -*-===//

#ifndef TC_TARGET_CUDA_CUDATARGET_H
#define TC_TARGET_CUDA_CUDATARGET_H

namespace mlir::tc::gpu {

/// Registers the NVIDIA back end ("cuda:<sm>") with registerGpuBackend.
void registerCudaBackend();

} // namespace mlir::tc::gpu

#endif // TC_TARGET_CUDA_CUDATARGET_H
