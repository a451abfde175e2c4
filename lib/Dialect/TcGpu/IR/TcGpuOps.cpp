//===- TcGpuOps.cpp - the tc_gpu dialect: registration and verifiers ------===//

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tc_gpu;

#include "tc/Dialect/TcGpu/IR/TcGpuDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tc/Dialect/TcGpu/IR/TcGpuOps.cpp.inc"

LogicalResult TunedChoiceOp::verify() {
  if (getCandidates().empty())
    return emitOpError("expects at least one candidate");
  if (bool(getEnv()) != getSite().has_value())
    return emitOpError("expects both an environment and a site, or neither");
  return success();
}

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
  auto check = [&](MemRefType tile, StringRef name, bool kInner, int64_t own,
                   char side) -> LogicalResult {
    int64_t rows = kInner ? own : getK(), columns = kInner ? getK() : own;
    if (covers(tile, rows, columns))
      return success();
    InFlightDiagnostic diag = emitOpError("expects ")
                              << name << " to hold at least " << rows << "x"
                              << columns << " elements (";
    if (kInner)
      diag << side << " x K)";
    else
      diag << "K x " << side << ")";
    return diag;
  };
  if (failed(check(getLhs().getType(), "lhs", getLhsKInner(), getM(), 'M')) ||
      failed(check(getRhs().getType(), "rhs", getRhsKInner(), getN(), 'N')))
    return failure();
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

LogicalResult BlockMmaForEachOp::verify() {
  if (failed(verifyTile(*this, getTile(), getAcc().getType())))
    return failure();
  Block &body = getBody().front();
  Builder b(getContext());
  if (body.getNumArguments() != 3 ||
      body.getArgument(0).getType() != b.getIndexType() ||
      body.getArgument(1).getType() != b.getIndexType() ||
      body.getArgument(2).getType() != b.getF32Type())
    return emitOpError("expects a body of (row: index, column: index, value: "
                       "f32)");
  return success();
}

LogicalResult BlockMmaScaleRowsOp::verify() {
  ArrayRef<int64_t> tile = getTile();
  if (failed(verifyTile(*this, tile, getAcc().getType())))
    return failure();
  MemRefType factors = getFactors().getType();
  if (!factors.hasStaticShape() || factors.getDimSize(0) < tile[0])
    return emitOpError("expects factors to hold at least ")
           << tile[0] << " elements (one per row)";
  return success();
}

SmallVector<int64_t> AttentionOp::getPermutationOf(OpOperand &operand) {
  std::optional<ArrayRef<int64_t>> permutation;
  if (&operand == &getQueryMutable())
    permutation = getQueryPermutation();
  else if (&operand == &getKeyMutable())
    permutation = getKeyPermutation();
  else if (&operand == &getValueMutable())
    permutation = getValuePermutation();
  else if (&operand == &getInitMutable())
    permutation = getInitPermutation();
  if (permutation)
    return SmallVector<int64_t>(*permutation);
  return llvm::to_vector(llvm::seq<int64_t>(
      0, cast<ShapedType>(operand.get().getType()).getRank()));
}

SmallVector<int64_t> AttentionOp::getLogicalShape(OpOperand &operand) {
  auto type = cast<ShapedType>(operand.get().getType());
  SmallVector<int64_t> shape;
  for (int64_t d : getPermutationOf(operand))
    shape.push_back(type.getDimSize(d));
  return shape;
}

LogicalResult AttentionOp::verify() {
  auto init = cast<ShapedType>(getInit().getType());
  bool tensors = isa<RankedTensorType>(init);
  if (tensors != (getNumResults() == 1) || getNumResults() > 1)
    return emitOpError("expects one result on tensors and none on buffers");
  if (tensors && getResult().front().getType() != init)
    return emitOpError("expects the result to have the type of init");
  SmallVector<Value> all = {getQuery(), getKey(), getValue(), getInit()};
  if (getMask())
    all.push_back(getMask());
  Type element = cast<ShapedType>(getQuery().getType()).getElementType();
  if (!element.isF16() && !element.isBF16())
    return emitOpError("expects f16 or bf16 operands");
  for (Value operand : all) {
    auto type = cast<ShapedType>(operand.getType());
    if (!type.hasRank() || isa<RankedTensorType>(type) != tensors)
      return emitOpError("expects ranked operands, all tensors or all buffers");
    if (type.getElementType() != element)
      return emitOpError("expects every operand of one element type");
  }
  int64_t rank = cast<ShapedType>(getQuery().getType()).getRank();
  for (Value operand : {getQuery(), getKey(), getValue(), getInit()})
    if (cast<ShapedType>(operand.getType()).getRank() != rank)
      return emitOpError("expects query, key, value and init of one rank >= 2");
  if (rank < 2)
    return emitOpError("expects query, key, value and init of one rank >= 2");
  for (std::optional<ArrayRef<int64_t>> permutation :
       {getQueryPermutation(), getKeyPermutation(), getValuePermutation(),
        getInitPermutation()}) {
    if (!permutation)
      continue;
    if (static_cast<int64_t>(permutation->size()) != rank ||
        !isPermutationVector(*permutation))
      return emitOpError("expects permutations of the operands' ")
             << rank << " dimensions";
  }
  SmallVector<int64_t> query = getLogicalShape(getQueryMutable());
  SmallVector<int64_t> key = getLogicalShape(getKeyMutable());
  SmallVector<int64_t> value = getLogicalShape(getValueMutable());
  SmallVector<int64_t> out = getLogicalShape(getInitMutable());
  bool transposed = getKeyTransposed();
  int64_t keyD = key[rank - (transposed ? 2 : 1)];
  int64_t keyL = key[rank - (transposed ? 1 : 2)];
  auto same = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  if (!same(query[rank - 1], keyD))
    return emitOpError("expects query and key of one head size");
  if (!same(keyL, value[rank - 2]))
    return emitOpError("expects key and value of one length");
  if (!same(out[rank - 2], query[rank - 2]) ||
      !same(out[rank - 1], value[rank - 1]))
    return emitOpError("expects init of shape [batch..., Lq, Dv]");
  if (getMask() && cast<ShapedType>(getMask().getType()).getRank() > rank)
    return emitOpError("expects a mask of at most the scores' rank");
  return success();
}

void AttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // On buffers it reads its inputs and writes init; on tensors it is pure.
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (&operand == &getInitMutable())
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

LogicalResult SubgroupLoadMatricesOp::verify() {
  ArrayRef<int64_t> offsets = getOffsets();
  int64_t matrices = getNumMatrices();
  if (offsets.size() % 2 || !(matrices == 1 || matrices == 2 || matrices == 4))
    return emitOpError("expects offsets of 1, 2 or 4 matrices (row, column "
                       "pairs)");
  if (llvm::any_of(offsets, [](int64_t v) { return v < 0; }))
    return emitOpError("expects non-negative offsets");
  VectorType result = getResult().getType();
  if (result.getElementType() != getTile().getType().getElementType())
    return emitOpError("expects the tile's element type");
  if (result.getNumElements() != 2 * matrices)
    return emitOpError("expects ")
           << 2 * matrices << " elements, two of each matrix";
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto dest = cast<MemRefType>(getDest().getType());
  if (static_cast<int64_t>(getSourceIndices().size()) != source.getRank() ||
      static_cast<int64_t>(getDestIndices().size()) != dest.getRank())
    return emitOpError("expects one index per dimension of each memref");
  if (source.getElementType() != dest.getElementType())
    return emitOpError("expects both memrefs of one element type");
  if (!mlir::gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(dest))
    return emitOpError("expects dest in workgroup (shared) memory");
  Type element = source.getElementType();
  int64_t bytes =
      element.isIntOrFloat() ? element.getIntOrFloatBitWidth() / 8 : 0;
  int64_t total = bytes * getElements();
  if (getElements() <= 0 || !(total == 4 || total == 8 || total == 16))
    return emitOpError("expects a copy of 4, 8 or 16 bytes, not ")
           << getElements() << " elements";
  return success();
}

LogicalResult AsyncWaitOp::verify() {
  if (static_cast<int64_t>(getPending()) < 0)
    return emitOpError("expects a non-negative number of pending groups");
  return success();
}

LogicalResult MinBlocksHintOp::verify() {
  if (getBlocks() <= 0)
    return emitOpError("expects a positive number of blocks");
  if (!(*this)->getParentOfType<mlir::gpu::GPUFuncOp>() &&
      !(*this)->getParentOfType<mlir::gpu::LaunchOp>())
    return emitOpError("expects to be in a kernel");
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
