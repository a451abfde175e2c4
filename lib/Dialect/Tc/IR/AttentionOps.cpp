//===- AttentionOps.cpp - tc.attention type inference ---------------------===//

#include "OpUtils.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::detail;

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  RankedTensorType query = getRankedType(adaptor.getQuery());
  RankedTensorType key = getRankedType(adaptor.getKey());
  RankedTensorType value = getRankedType(adaptor.getValue());
  int64_t rank = query.getRank();
  if (rank < 2 || key.getRank() != rank || value.getRank() != rank)
    return emitInferError(loc, name,
                          "expects query, key and value of one rank >= 2, "
                          "got ranks ",
                          query.getRank(), ", ", key.getRank(), " and ",
                          value.getRank());
  // The key's head and sequence axes: [..., Lk, D], or [..., D, Lk].
  bool transposed = static_cast<bool>(adaptor.getKeyTransposed());
  int64_t keyHead = transposed ? rank - 2 : rank - 1;
  int64_t keyLength = transposed ? rank - 1 : rank - 2;
  if (!areCompatibleSizes(query.getDimSize(rank - 1), key.getDimSize(keyHead)))
    return emitInferError(loc, name, "head size mismatch: query dimension ",
                          rank - 1, " is ", query.getDimSize(rank - 1),
                          " but key dimension ", keyHead, " is ",
                          key.getDimSize(keyHead));
  if (!areCompatibleSizes(key.getDimSize(keyLength), value.getDimSize(rank - 2)))
    return emitInferError(loc, name, "sequence length mismatch: key dimension ",
                          keyLength, " is ", key.getDimSize(keyLength),
                          " but value dimension ", rank - 2, " is ",
                          value.getDimSize(rank - 2));

  // Batch dimensions: query against key (the scores), then against value.
  ArrayRef<int64_t> queryBatch = query.getShape().drop_back(2);
  ArrayRef<int64_t> keyBatch = key.getShape().drop_back(2);
  ArrayRef<int64_t> valueBatch = value.getShape().drop_back(2);
  std::optional<SmallVector<int64_t>> scoresBatch =
      broadcastShapes(queryBatch, keyBatch);
  if (!scoresBatch)
    return emitInferError(
        loc, name, "batch dimensions do not broadcast: ",
        describeBroadcastMismatch(queryBatch, "query", keyBatch, "key"));
  std::optional<SmallVector<int64_t>> batch =
      broadcastShapes(*scoresBatch, valueBatch);
  if (!batch)
    return emitInferError(
        loc, name, "batch dimensions do not broadcast: ",
        describeBroadcastMismatch(queryBatch, "query", valueBatch, "value"));

  if (Value mask = adaptor.getMask()) {
    RankedTensorType maskType = getRankedType(mask);
    if (maskType.getElementType() != query.getElementType())
      return emitInferError(loc, name, "mask element type ",
                            maskType.getElementType(),
                            " differs from the query's ",
                            query.getElementType());
    // The mask is added to the scores; it may not make them larger, since
    // the softmax and the second contraction run over the scores' shape.
    SmallVector<int64_t> scores(*scoresBatch);
    scores.push_back(query.getDimSize(rank - 2));
    scores.push_back(key.getDimSize(keyLength));
    if (!isBroadcastableTo(maskType.getShape(), scores))
      return emitInferError(loc, name, "mask of shape [",
                            formatShape(maskType.getShape()),
                            "] does not broadcast to the scores' shape [",
                            formatShape(scores), "]");
  }

  batch->push_back(query.getDimSize(rank - 2));
  batch->push_back(value.getDimSize(rank - 1));
  inferred.push_back(RankedTensorType::get(*batch, query.getElementType()));
  return success();
}
