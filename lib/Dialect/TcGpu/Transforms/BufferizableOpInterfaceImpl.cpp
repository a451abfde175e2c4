//===- BufferizableOpInterfaceImpl.cpp - tc_gpu ops on buffers ------------===//
//
// tc_gpu.attention is destination-style like a linalg op: its inputs are
// read, `init` is written whole (never read, so a fresh tensor.empty needs
// no copy) and is the result's buffer.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/TcGpu/Transforms/BufferizableOpInterfaceImpl.h"

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::tc_gpu {
namespace {

struct AttentionOpInterface
    : bufferization::DstBufferizableOpInterfaceExternalModel<
          AttentionOpInterface, AttentionOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const bufferization::AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const bufferization::BufferizationOptions &options,
                          bufferization::BufferizationState &state) const {
    auto attention = cast<AttentionOp>(op);
    SmallVector<Value> buffers;
    for (OpOperand &operand : op->getOpOperands()) {
      FailureOr<Value> buffer =
          bufferization::getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    AttentionOp::create(rewriter, op->getLoc(), TypeRange{}, buffers,
                        attention->getAttrs());
    bufferization::replaceOpWithBufferizedValues(rewriter, op, buffers.back());
    return success();
  }
};

} // namespace

void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TcGpuDialect *) {
    AttentionOp::attachInterface<AttentionOpInterface>(*ctx);
  });
}

} // namespace mlir::tc_gpu
