//===- TcOps.td - all tc ops, by family -----------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCOPS_TD
#define TC_DIALECT_TC_IR_TCOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"
include "tc/Dialect/Tc/IR/TcAttrDefs.td"
include "tc/Dialect/Tc/IR/TcElementwiseOps.td"
include "tc/Dialect/Tc/IR/TcContractionOps.td"
include "tc/Dialect/Tc/IR/TcPoolingOps.td"
include "tc/Dialect/Tc/IR/TcReductionOps.td"
include "tc/Dialect/Tc/IR/TcNormalizationOps.td"
include "tc/Dialect/Tc/IR/TcAttentionOps.td"
include "tc/Dialect/Tc/IR/TcSamplingOps.td"
include "tc/Dialect/Tc/IR/TcShapeOps.td"
include "tc/Dialect/Tc/IR/TcTensorOps.td"

#endif // TC_DIALECT_TC_IR_TCOPS_TD
