//===- KernelMapping.h - the phases that make GPU kernels -------*- C++ -*-===//
//
// After bufferization every linalg op on buffers becomes a GPU kernel, in
// phases, each also a pass of its own (Passes.td) and all of them, in this
// order, --tc-gpu-map-kernels:
//
//   1. prepareKernelOps         --tc-gpu-prepare-kernel-ops
//   2. buildAttentionKernels    --tc-gpu-build-attention-kernels
//   3. buildReductionKernels    --tc-gpu-build-reduction-kernels
//   4. buildElementwiseKernels  --tc-gpu-build-elementwise-kernels
//   5. mapKernelLoops           --tc-gpu-map-kernel-loops
//
// Phases 2 and 3 build gpu.launch ops; 3 and 4 also leave scf.parallel
// loops marked with kGpuKernelMarker, which 5 maps to blocks and threads.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_GPU_KERNELMAPPING_H
#define TC_TARGET_GPU_KERNELMAPPING_H

#include "tc/Dialect/Tc/IR/TcAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tc::gpu {

/// Whether the phases make kernels of `func`: not of declarations (the
/// model-support helpers) nor of host functions
/// (--tc-gpu-keep-host-arrays), which work on host memory.
bool mapsKernelsOf(func::FuncOp func);

/// Whether `op` is inside a loop a phase marked as a kernel.
inline bool isInKernelLoop(Operation *op) {
  for (auto loop = op->getParentOfType<scf::ParallelOp>(); loop;
       loop = loop->getParentOfType<scf::ParallelOp>())
    if (loop->hasAttr(kGpuKernelMarker))
      return true;
  return false;
}

/// A clone becomes an allocation and a copy, a memref.copy a linalg.copy,
/// and the host loops that touch buffer elements outside linalg one GPU
/// thread's loops.
LogicalResult prepareKernelOps(func::FuncOp func);
/// Each tc_gpu.attention becomes its fused kernel.
LogicalResult buildAttentionKernels(func::FuncOp func, bool asyncCopies);
/// The ops with reduction loops and the ops they fuse become kernels.
LogicalResult buildReductionKernels(func::FuncOp func, bool asyncCopies,
                                    int64_t minBlockReduction);
/// Every other linalg op becomes a kernel loop.
LogicalResult buildElementwiseKernels(func::FuncOp func);
/// The marked kernel loops are mapped to blocks and threads; `blockSize`
/// threads per block (1 to 1024).
LogicalResult mapKernelLoops(func::FuncOp func, int64_t blockSize);

} // namespace mlir::tc::gpu

#endif // TC_TARGET_GPU_KERNELMAPPING_H
