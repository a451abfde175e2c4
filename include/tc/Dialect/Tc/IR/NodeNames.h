//===- NodeNames.h - the ONNX node an op comes from -------------*- C++ -*-===//
//
// The importer gives every tc op the location NameLoc(node name,
// NameLoc(op type)); the ops lowered from it keep it. Run-time checks and
// errors of every stage name the node through it.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_NODENAMES_H
#define TC_DIALECT_TC_IR_NODENAMES_H

#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::tc {

/// "node 'conv_3' (Conv)" from `op`'s location (perhaps fused with others
/// by later rewrites), or the op's name without one.
std::string describeNode(Operation *op);

} // namespace mlir::tc

#endif // TC_DIALECT_TC_IR_NODENAMES_H
