//===- Passes.td - conversions out of the tc dialect ----------------------===//

#ifndef TC_CONVERSION_PASSES_TD
#define TC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTcToLinalgPass : Pass<"convert-tc-to-linalg"> {
  let summary = "Lower tc ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every tc op into linalg named ops and generics on tensors (with
    tensor, arith, math and scf ops where a computation is data dependent).
    Unsigned integer element types (`ui8`...) become signless, and the
    operations that care (division, comparison, casts, shifts, min/max) use
    their unsigned forms. Works on any op, so it can run on a whole module or
    inside one `fusion.group`. Broadcasting follows numpy; a dynamic
    dimension is assumed not to broadcast (only a static size 1 does).

    With `collapse-shared-weight-batch`, a batch matmul whose rhs batch
    extents are all a static 1 (one weight for the whole batch) and whose lhs
    batch is not becomes a 2-D `linalg.matmul` over the lhs with its batch
    collapsed into the rows, expanded back: the CPU pipeline's contraction
    kernels and weight packing see the matmul they know, at any batch and
    sequence length. The GPU pipeline keeps the batched generic, whose
    fusions it relies on.

    With `dense-strided-pointwise`, a 1x1 convolution with strides and no
    padding (static output size) copies the positions it reads into a
    dense tensor and is the matmul of an unstrided one, whose CPU register
    tile has the whole image in its lanes; without it, it stays a windowed
    generic, which the GPU kernels compute without the copy.
  }];
  let options = [
    Option<"collapseSharedWeightBatch", "collapse-shared-weight-batch", "bool",
           /*default=*/"false",
           "Lower a batch matmul with a shared (batch-broadcast) rhs to a 2-D "
           "matmul over the collapsed lhs">,
    Option<"denseStridedPointwise", "dense-strided-pointwise", "bool",
           /*default=*/"false",
           "Lower a strided 1x1 convolution to a dense copy of the positions "
           "it reads and a matmul">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::memref::MemRefDialect"
  ];
}

#endif // TC_CONVERSION_PASSES_TD
