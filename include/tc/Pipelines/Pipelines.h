//===- Pipelines.h - the registered stages of the compiler --------*- C++ -*-===//
//
// The compiler's stages as pass pipelines, each registered so that
// `tc-opt --<name>` reproduces exactly what tc-compile runs for it:
//   tc-graph-pipeline       the graph stage, on an imported tc module
//   tc-cpu-pipeline         tc to the LLVM dialect with the model.so ABI
//                           (built in lib/Target/Cpu/Pipeline.cpp)
//   tc-gpu-kernel-pipeline  tc to outlined, vendor-neutral GPU kernels
//   tc-gpu-host-pipeline    their host code to the LLVM dialect with the
//                           GPU entry point
//   tc-gpu-emulation-pipeline  the kernels run on the CPU (a test target)
//                           (the three built in lib/Target/Gpu/Pipeline.cpp)
// Each takes the options tc-compile sets from its flags; tc-compile
// composes them.
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
                     "compute in: fp32, tf32, fp16 or bf16 "
                     "(--tc-apply-precision)"),
      llvm::cl::init("fp32")};
};

/// tc-cpu-pipeline's options (CpuPipelineOptions).
struct CpuPipelineRegistrationOptions
    : public PassPipelineOptions<CpuPipelineRegistrationOptions> {
  Option<int64_t> maxWorkgroups{
      *this, "max-workgroups",
      llvm::cl::desc("the most workgroups a kernel is split into"),
      llvm::cl::init(64)};
  Option<bool> winograd{
      *this, "winograd",
      llvm::cl::desc("compute eligible 3x3 convolutions by Winograd's "
                     "F(4x4, 3x3) or F(2x2, 3x3)"),
      llvm::cl::init(true)};
  Option<bool> channelsLast{
      *this, "channels-last",
      llvm::cl::desc("compute the convolutions of depthwise-separable "
                     "networks channels-last (--tc-channels-last)"),
      llvm::cl::init(true)};
  Option<bool> emitEntry{
      *this, "emit-entry",
      llvm::cl::desc("end with --tc-cpu-emit-entry (false: for shape "
                     "buckets to merge first)"),
      llvm::cl::init(true)};
};

/// tc-gpu-kernel-pipeline's and tc-gpu-emulation-pipeline's options
/// (GpuPipelineOptions).
struct GpuPipelineRegistrationOptions
    : public PassPipelineOptions<GpuPipelineRegistrationOptions> {
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("threads per block"),
                            llvm::cl::init(256)};
  Option<std::string> targets{
      *this, "targets",
      llvm::cl::desc("the GPU targets the kernels are for (comma-separated "
                     "--target spellings; --tc-gpu-configure-kernels)"),
      llvm::cl::init("")};
  Option<bool> reverse{
      *this, "reverse",
      llvm::cl::desc("gpu-emulation: run blocks and threads last to first "
                     "(a race check)"),
      llvm::cl::init(false)};
  Option<std::string> matrixTarget{
      *this, "matrix-target",
      llvm::cl::desc("gpu-emulation: the GPU target whose matrix "
                     "instructions the block matrix products use (empty: "
                     "none)"),
      llvm::cl::init("")};
  Option<int64_t> candidates{
      *this, "candidates",
      llvm::cl::desc("alternative configurations per contraction kernel "
                     "(--tc-gpu-configure-kernels; 0: none)"),
      llvm::cl::init(0)};
  Option<int64_t> candidate{
      *this, "candidate",
      llvm::cl::desc("gpu-emulation: the alternative every tunable kernel "
                     "runs (--tc-gpu-lower-tuned-choices; -1: the heuristic "
                     "one)"),
      llvm::cl::init(-1)};
};

/// The graph stage: shape inference and clean-up, the shape arithmetic of
/// dynamic-axis exports, the composite patterns (GELU, layer norm,
/// attention), constant folding, and the precision policy.
void buildGraphPipeline(OpPassManager &pm, const GraphPipelineOptions &options);

/// The graph stage's last step, the precision policy (tc-apply-precision,
/// then the folding of the weights it narrowed or rounded); nothing for
/// fp32. tc-compile --calibrate runs it apart, after the calibration run.
void buildPrecisionPipeline(OpPassManager &pm, StringRef precision);

/// Registers every pipeline above.
void registerTcPipelines();

} // namespace mlir::tc

#endif // TC_PIPELINES_PIPELINES_H
