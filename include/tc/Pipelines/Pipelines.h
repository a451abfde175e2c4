//===- Pipelines.h - the registered stages of the compiler --------*- C++ -*-===//
//
// The compiler's stages as pass pipelines, each registered so that
// `tc-opt --<name>` reproduces exactly what tc-compile runs for it:
//   tc-graph-pipeline   the graph stage, on an imported tc module
//   tc-cpu-pipeline     tc to the LLVM dialect with the model.so ABI
//                       (lib/Target/Cpu/Pipeline.cpp)
//   tc-gpu-kernel-pipeline  the vendor-neutral GPU kernels
//                       (lib/Target/Gpu/Pipeline.cpp)
// tc-compile composes them.
//
//===----------------------------------------------------------------------===//

#ifndef TC_PIPELINES_PIPELINES_H
#define TC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tc {

struct GraphPipelineOptions
    : public PassPipelineOptions<GraphPipelineOptions> {
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("the type contractions, convolutions and attention "
                     "compute in: fp32, fp16 or bf16 (--tc-apply-precision)"),
      llvm::cl::init("fp32")};
};

/// The graph stage: shape inference and clean-up, the shape arithmetic of
/// dynamic-axis exports, the composite patterns (GELU, layer norm,
/// attention), constant folding, and the precision policy.
void buildGraphPipeline(OpPassManager &pm, const GraphPipelineOptions &options);

/// Registers tc-graph-pipeline, tc-cpu-pipeline and tc-gpu-kernel-pipeline.
void registerTcPipelines();

} // namespace mlir::tc

#endif // TC_PIPELINES_PIPELINES_H
