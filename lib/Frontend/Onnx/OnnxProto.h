//===- OnnxProto.h - the ONNX protobuf classes, included one way ----------===//
//
// Debian's libonnx-dev generates the ONNX-ML variant of the protos; its CMake
// target defines ONNX_ML and ONNX_NAMESPACE=onnx.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_FRONTEND_ONNX_ONNXPROTO_H
#define TC_LIB_FRONTEND_ONNX_ONNXPROTO_H

#include <onnx/onnx_pb.h>

#endif // TC_LIB_FRONTEND_ONNX_ONNXPROTO_H
