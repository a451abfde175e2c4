//===- RocmTarget.h - the AMD back end -------------------------*- C++ -*-===//

#ifndef TC_TARGET_ROCM_ROCMTARGET_H
#define TC_TARGET_ROCM_ROCMTARGET_H

namespace mlir::tc::gpu {

/// Registers the AMD back end ("rocm:<gfx>") with registerGpuBackend.
void registerRocmBackend();

} // namespace mlir::tc::gpu

#endif // TC_TARGET_ROCM_ROCMTARGET_H
