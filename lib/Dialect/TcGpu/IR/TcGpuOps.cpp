//===- TcGpuOps.cpp - the tc_gpu dialect: registration and verifiers ------===//

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tc_gpu;

#include "tc/Dialect/TcGpu/IR/TcGpuDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tc/Dialect/TcGpu/IR/TcGpuOps.cpp.inc"

void TcGpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tc/Dialect/TcGpu/IR/TcGpuOps.cpp.inc"
      >();
}

/// Checks `tile = [M, N, K]` and that the accumulator splits the M x N tile
/// evenly among the block's threads.
static LogicalResult verifyTile(Operation *op, ArrayRef<int64_t> tile,
                                VectorType acc) {
  if (tile.size() != 3 || llvm::any_of(tile, [](int64_t v) { return v <= 0; }))
    return op->emitOpError("expects tile = [M, N, K], all positive");
  if ((tile[0] * tile[1]) % acc.getNumElements() != 0)
    return op->emitOpError("accumulator of ")
           << acc.getNumElements() << " elements does not divide the "
           << tile[0] << "x" << tile[1] << " tile among threads";
  return success();
}

/// Whether `type` has a static shape of at least `rows` x `columns`.
static bool covers(MemRefType type, int64_t rows, int64_t columns) {
  return type.hasStaticShape() && type.getDimSize(0) >= rows &&
         type.getDimSize(1) >= columns;
}

int64_t BlockMmaOp::getThreads() {
  return getM() * getN() / getAcc().getType().getNumElements();
}

LogicalResult BlockMmaOp::verify() {
  if (failed(verifyTile(*this, getTile(), getAcc().getType())))
    return failure();
  if (getLhs().getType().getElementType() !=
      getRhs().getType().getElementType())
    return emitOpError("expects both tiles of one element type");
  if (!covers(getLhs().getType(), getK(), getM()))
    return emitOpError("expects lhs to hold at least ")
           << getK() << "x" << getM() << " elements (K x M)";
  if (!covers(getRhs().getType(), getK(), getN()))
    return emitOpError("expects rhs to hold at least ")
           << getK() << "x" << getN() << " elements (K x N)";
  return success();
}

LogicalResult BlockMmaStoreOp::verify() {
  ArrayRef<int64_t> tile = getTile();
  if (failed(verifyTile(*this, tile, getAcc().getType())))
    return failure();
  if (!covers(getDest().getType(), tile[0], tile[1]))
    return emitOpError("expects dest to hold at least ")
           << tile[0] << "x" << tile[1] << " elements";
  return success();
}

LogicalResult SubgroupMmaOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (shape.size() != 3 ||
      llvm::any_of(shape, [](int64_t v) { return v <= 0; }))
    return emitOpError("expects shape = [m, n, k], all positive");
  int64_t lanes = getSubgroupSize();
  if (lanes <= 0)
    return emitOpError("expects a positive subgroup_size");
  if (getA().getType().getElementType() != getB().getType().getElementType())
    return emitOpError("expects a and b of one element type");
  auto check = [&](StringRef name, VectorType type, AffineMap layout,
                   int64_t rows, int64_t columns) -> LogicalResult {
    if (layout.getNumDims() != 2 || layout.getNumResults() != 2 ||
        layout.getNumSymbols() != 0)
      return emitOpError("expects ")
             << name << "_layout (lane, element) -> (row, column)";
    // Lanes may hold copies of an element (RDNA's WMMA gives A and B to
    // both half-waves), so the lanes hold the matrix a whole number of times.
    int64_t held = type.getNumElements() * lanes;
    if (held < rows * columns || held % (rows * columns))
      return emitOpError("expects ")
             << name << " to hold " << rows << "x" << columns
             << " elements, or copies of them, over " << lanes << " lanes";
    return success();
  };
  return success(succeeded(check("a", getA().getType(), getALayout(), shape[0],
                                 shape[2])) &&
                 succeeded(check("b", getB().getType(), getBLayout(), shape[2],
                                 shape[1])) &&
                 succeeded(check("c", getC().getType(), getCLayout(), shape[0],
                                 shape[1])));
}
