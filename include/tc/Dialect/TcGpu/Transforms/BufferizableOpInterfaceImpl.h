//===- BufferizableOpInterfaceImpl.h - tc_gpu ops on buffers ----*- C++ -*-===//

#ifndef TC_DIALECT_TCGPU_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define TC_DIALECT_TCGPU_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace tc_gpu {
/// How one-shot bufferization turns the destination-style tc_gpu ops
/// (tc_gpu.attention) from tensors into buffers.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace tc_gpu
} // namespace mlir

#endif // TC_DIALECT_TCGPU_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
