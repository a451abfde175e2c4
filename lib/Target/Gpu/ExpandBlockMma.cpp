//===- ExpandBlockMma.cpp - tc_gpu.block_mma for one target ---------------===//
//
// A block's matrix product over shared tiles becomes, with the target's
// matrix instruction, the subgroups' instructions: the block's M x N tile
// is cut into the instruction's m x n tiles, the subgroups are laid out as
// a gm x gn grid over them (the grid that loads the fewest fragments), and
// each lane loads, for each of its subgroup's tiles and each k-step, the
// elements the instruction's layouts give it, straight from the shared
// tiles. Its accumulator holds its tiles' result fragments one after the
// other. Without an instruction (a target without matrix cores, tiles it
// does not divide) each thread owns an Rm x Rn block of the tile (rows
// consecutive, columns strided by the threads along a row, as the CUDA-core
// contraction kernel) and multiply-adds in f32.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/MatrixCores.h"
#include "tc/Target/Gpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUEXPANDBLOCKMMAPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

struct Builder : KernelBuilder {
  Value linearThread() { return linearThreadId(b, loc).first; }

  /// Result `result` of `layout` at (lane, element).
  Value at(AffineMap layout, unsigned result, Value lane, int64_t element) {
    return layoutAt(b, loc, layout, result, lane, element);
  }

  Value load(Value memref, Value row, Value column) {
    return memref::LoadOp::create(b, loc, memref, ValueRange{row, column});
  }
  /// A factor in f32 (TF32 factors already are).
  Value widen(Value v) {
    if (v.getType().isF32())
      return v;
    return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  }
};

/// How the block's subgroups share the tile with `instruction`, if it
/// divides it: a gm x gn grid of subgroups, each tm x tn instruction tiles.
struct SubgroupGrid {
  int64_t gn = 1, tm = 1, tn = 1;
};

std::optional<SubgroupGrid> planGrid(const MatrixInstruction &mma, int64_t M,
                                     int64_t N, int64_t K, int64_t threads) {
  if (M % mma.m || N % mma.n || K % mma.k || threads % mma.subgroupSize)
    return std::nullopt;
  int64_t subgroups = threads / mma.subgroupSize;
  int64_t tilesM = M / mma.m, tilesN = N / mma.n;
  std::optional<SubgroupGrid> best;
  int64_t bestLoads = 0;
  for (int64_t gm = 1; gm <= subgroups; ++gm) {
    int64_t gn = subgroups / gm;
    if (subgroups % gm || tilesM % gm || tilesN % gn)
      continue;
    SubgroupGrid grid{gn, tilesM / gm, tilesN / gn};
    int64_t loads = grid.tm * mma.aElements() + grid.tn * mma.bElements();
    if (!best || loads < bestLoads) {
      best = grid;
      bestLoads = loads;
    }
  }
  return best;
}

/// The subgroup's share: its lane, and the first row and column of each of
/// its instruction tiles.
struct Share {
  Value lane;
  SmallVector<Value> rows, columns;
};

Share shareOf(Builder &e, const MatrixInstruction &mma,
              const SubgroupGrid &grid) {
  Value linear = e.linearThread();
  Value subgroup = e.div(linear, mma.subgroupSize);
  Share share;
  share.lane = e.rem(linear, mma.subgroupSize);
  Value sm = e.div(subgroup, grid.gn), sn = e.rem(subgroup, grid.gn);
  for (int64_t i = 0; i < grid.tm; ++i)
    share.rows.push_back(e.mul(e.add(e.mul(sm, grid.tm), i), mma.m));
  for (int64_t j = 0; j < grid.tn; ++j)
    share.columns.push_back(e.mul(e.add(e.mul(sn, grid.tn), j), mma.n));
  return share;
}

/// One operand's shared tile as block_mma reads it: K along its rows
/// (`tile[k][own]`) or, `kInner`, along its columns (`tile[own][k]`).
struct OperandTile {
  Value tile;
  bool kInner;
  /// The layout result (of the instruction's operand layout) that gives
  /// the position along K: 1 for A (m x k), 0 for B (k x n).
  unsigned kResult;

  MemRefType type() const { return cast<MemRefType>(tile.getType()); }
  /// The layout result that indexes the tile's rows.
  unsigned rowResult() const { return kInner ? 1 - kResult : kResult; }
  /// (row, column) of the tile at position `k` along K and `own` along
  /// the operand's side.
  std::pair<Value, Value> at(Value k, Value own) const {
    return kInner ? std::make_pair(own, k) : std::make_pair(k, own);
  }
};

/// The matrices of tc_gpu.subgroup_load_matrices for the fragments of one
/// operand, when the target has the load, the fragments are its, and the
/// tile keeps each matrix row 16-byte aligned: identity layout, rows a
/// multiple of 16 bytes, and the loads' column origin a multiple of 8
/// elements (`columnStep`: the instruction's m or n for a K-major tile,
/// its k for a K-inner one).
std::optional<MatrixLoads> matrixLoadsFor(const MatrixInstruction &mma,
                                          const OperandTile &operand,
                                          AffineMap layout, int64_t count,
                                          int64_t sideStep) {
  MemRefType tile = operand.type();
  int64_t columnStep = operand.kInner ? mma.k : sideStep;
  if (!mma.matrixLoads || tile.getElementTypeBitWidth() != 16 ||
      !tile.hasStaticShape() || !tile.getLayout().isIdentity() ||
      tile.getDimSize(1) * 2 % 16 != 0 || columnStep % 8 != 0)
    return std::nullopt;
  return fragmentAsMatrixLoads(layout, count, mma.subgroupSize,
                               operand.rowResult());
}

void expandWithInstruction(tc_gpu::BlockMmaOp op, const MatrixInstruction &mma,
                           const SubgroupGrid &grid) {
  OpBuilder b(op);
  Builder e{{b, op.getLoc()}};
  Location loc = op.getLoc();
  Share share = shareOf(e, mma, grid);
  Type element = op.getLhs().getType().getElementType();
  Value acc = op.getAcc();
  int64_t cCount = mma.cElements();
  auto fragment = [&](int64_t count, function_ref<Value(int64_t)> elementAt) {
    SmallVector<Value> values;
    for (int64_t i = 0; i < count; ++i)
      values.push_back(elementAt(i));
    return vector::FromElementsOp::create(
               b, loc, VectorType::get({count}, element), values)
        .getResult();
  };
  // lhs holds A (A[row][k] at lhs[k][row], or lhs[row][k] K-inner), rhs
  // holds B (B[k][column] at rhs[k][column], or rhs[column][k]).
  OperandTile lhs{op.getLhs(), op.getLhsKInner(), /*kResult=*/1};
  OperandTile rhs{op.getRhs(), op.getRhsKInner(), /*kResult=*/0};
  std::optional<MatrixLoads> aLoads =
      matrixLoadsFor(mma, lhs, mma.aLayout, mma.aElements(), mma.m);
  std::optional<MatrixLoads> bLoads =
      matrixLoadsFor(mma, rhs, mma.bLayout, mma.bElements(), mma.n);
  // The fragment of `operand` at (k0, own) along K and its side: by matrix
  // loads, or element by element where its layout puts them.
  auto fragmentAt = [&](const OperandTile &operand, AffineMap layout,
                        int64_t count, const std::optional<MatrixLoads> &loads,
                        int64_t k0, Value own) -> Value {
    if (loads) {
      auto [row, column] = operand.at(e.index(k0), own);
      auto type = VectorType::get({static_cast<int64_t>(loads->offsets.size())},
                                  element);
      return tc_gpu::SubgroupLoadMatricesOp::create(
          b, loc, type, operand.tile, row, column,
          b.getDenseI64ArrayAttr(loads->offsets), loads->transpose);
    }
    unsigned ownResult = 1 - operand.kResult;
    return fragment(count, [&](int64_t i) {
      auto [row, column] =
          operand.at(e.add(e.at(layout, operand.kResult, share.lane, i), k0),
                     e.add(own, e.at(layout, ownResult, share.lane, i)));
      return e.load(operand.tile, row, column);
    });
  };
  for (int64_t k0 = 0; k0 < op.getK(); k0 += mma.k) {
    SmallVector<Value> as, bs;
    for (Value row : share.rows)
      as.push_back(
          fragmentAt(lhs, mma.aLayout, mma.aElements(), aLoads, k0, row));
    // Two neighbouring B fragments of at most two matrices each (mma.sync's
    // k16 x n8) in one load of four, the second's mma.n further along N.
    bool pairs = bLoads && bLoads->offsets.size() <= 4 && mma.n % 8 == 0;
    for (size_t j = 0; j < share.columns.size(); ++j) {
      Value column = share.columns[j];
      if (pairs && j + 1 < share.columns.size()) {
        MatrixLoads both = *bLoads;
        unsigned own = rhs.kInner ? 0 : 1;
        for (size_t o = 0; o < bLoads->offsets.size(); o += 2) {
          int64_t next[2] = {bLoads->offsets[o], bLoads->offsets[o + 1]};
          next[own] += mma.n;
          both.offsets.append({next[0], next[1]});
        }
        Value loaded =
            fragmentAt(rhs, mma.bLayout, 2 * mma.bElements(), both, k0, column);
        int64_t half = bLoads->offsets.size();
        for (int64_t at : {int64_t(0), half})
          bs.push_back(vector::ExtractStridedSliceOp::create(
              b, loc, loaded, ArrayRef<int64_t>{at}, ArrayRef<int64_t>{half},
              ArrayRef<int64_t>{1}));
        ++j;
        continue;
      }
      bs.push_back(
          fragmentAt(rhs, mma.bLayout, mma.bElements(), bLoads, k0, column));
    }
    for (int64_t i = 0; i < grid.tm; ++i)
      for (int64_t j = 0; j < grid.tn; ++j) {
        int64_t offset = (i * grid.tn + j) * cCount;
        Value c = vector::ExtractStridedSliceOp::create(
            b, loc, acc, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{cCount},
            ArrayRef<int64_t>{1});
        Value d = tc_gpu::SubgroupMmaOp::create(
            b, loc, c.getType(), as[i], bs[j], c,
            b.getDenseI64ArrayAttr({mma.m, mma.n, mma.k}),
            b.getI64IntegerAttr(mma.subgroupSize),
            AffineMapAttr::get(mma.aLayout), AffineMapAttr::get(mma.bLayout),
            AffineMapAttr::get(mma.cLayout));
        acc = vector::InsertStridedSliceOp::create(
            b, loc, d, acc, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{1});
      }
  }
  op.replaceAllUsesWith(acc);
  op.erase();
}

/// Without an instruction: thread t owns rows (t / TX) Rm + i and columns
/// t % TX + TX j of the tile, TX = N / Rn threads along a row; element
/// i Rn + j of its accumulator.
struct ThreadBlock {
  int64_t rm = 0, rn = 0;
  Value row, column;  // of its first element
  int64_t stride = 0; // TX
};

FailureOr<ThreadBlock> threadBlock(Builder &e, int64_t M, int64_t N,
                                   int64_t count) {
  ThreadBlock t;
  for (int64_t rn = 1; rn * rn <= count; ++rn)
    if (count % rn == 0 && N % rn == 0 && M % (count / rn) == 0) {
      t.rn = rn;
      t.rm = count / rn;
    }
  if (t.rn == 0)
    return failure();
  t.stride = N / t.rn;
  Value linear = e.linearThread();
  t.row = e.mul(e.div(linear, t.stride), t.rm);
  t.column = e.rem(linear, t.stride);
  return t;
}

LogicalResult expandScalar(tc_gpu::BlockMmaOp op) {
  OpBuilder b(op);
  Builder e{{b, op.getLoc()}};
  Location loc = op.getLoc();
  int64_t count = op.getAcc().getType().getNumElements();
  FailureOr<ThreadBlock> t = threadBlock(e, op.getM(), op.getN(), count);
  if (failed(t))
    return op.emitOpError("cannot share the tile among threads");
  auto loop = scf::ForOp::create(b, loc, e.index(0), e.index(op.getK()),
                                 e.index(1), ValueRange{op.getAcc()});
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value acc = loop.getRegionIterArgs()[0];
    SmallVector<Value> as, bs;
    auto load = [&](Value tile, bool kInner, Value own) {
      return e.widen(kInner ? e.load(tile, own, k) : e.load(tile, k, own));
    };
    for (int64_t i = 0; i < t->rm; ++i)
      as.push_back(load(op.getLhs(), op.getLhsKInner(), e.add(t->row, i)));
    for (int64_t j = 0; j < t->rn; ++j)
      bs.push_back(load(op.getRhs(), op.getRhsKInner(),
                        e.add(t->column, t->stride * j)));
    for (int64_t i = 0; i < t->rm; ++i)
      for (int64_t j = 0; j < t->rn; ++j) {
        int64_t at = i * t->rn + j;
        Value sum = arith::AddFOp::create(
            b, loc, vector::ExtractOp::create(b, loc, acc, at),
            arith::MulFOp::create(b, loc, as[i], bs[j]));
        acc = vector::InsertOp::create(b, loc, sum, acc, at);
      }
    scf::YieldOp::create(b, loc, acc);
  }
  op.replaceAllUsesWith(loop.getResult(0));
  op.erase();
  return success();
}

/// The instruction and grid for a block tile, if the target has one that
/// divides it.
std::optional<std::pair<const MatrixInstruction *, SubgroupGrid>>
planFor(InstructionFor instructionFor, Type element, ArrayRef<int64_t> tile,
        int64_t threads) {
  const MatrixInstruction *mma = instructionFor(element);
  if (!mma)
    return std::nullopt;
  std::optional<SubgroupGrid> grid =
      planGrid(*mma, tile[0], tile[1], tile[2], threads);
  if (!grid)
    return std::nullopt;
  return std::make_pair(mma, *grid);
}

/// Where each element of a thread's accumulator of `count` elements lies
/// in the block's M x N tile (`tile` multiplied in `element`), in the
/// order of the accumulator: the layout expandWithInstruction or
/// expandScalar gave it.
FailureOr<SmallVector<std::pair<Value, Value>>>
accumulatorPositions(Builder &e, Operation *op, InstructionFor instructionFor,
                     Type element, ArrayRef<int64_t> tile, int64_t count) {
  SmallVector<std::pair<Value, Value>> positions;
  int64_t threads = tile[0] * tile[1] / count;
  if (auto plan = planFor(instructionFor, element, tile, threads)) {
    const MatrixInstruction &mma = *plan->first;
    Share share = shareOf(e, mma, plan->second);
    for (Value row : share.rows)
      for (Value column : share.columns)
        for (int64_t c = 0; c < mma.cElements(); ++c)
          positions.emplace_back(
              e.add(row, e.at(mma.cLayout, 0, share.lane, c)),
              e.add(column, e.at(mma.cLayout, 1, share.lane, c)));
    return positions;
  }
  FailureOr<ThreadBlock> t = threadBlock(e, tile[0], tile[1], count);
  if (failed(t))
    return op->emitOpError("cannot share the tile among threads");
  for (int64_t i = 0; i < t->rm; ++i)
    for (int64_t j = 0; j < t->rn; ++j)
      positions.emplace_back(e.add(t->row, i), e.add(t->column, t->stride * j));
  return positions;
}

/// accumulatorPositions for the accumulator of `op` (a store or a row
/// scaling, which carry the product's tile and operand type).
template <typename OpTy>
FailureOr<SmallVector<std::pair<Value, Value>>>
positionsOf(Builder &e, OpTy op, InstructionFor instructionFor) {
  return accumulatorPositions(e, op, instructionFor, op.getOperandType(),
                              op.getTile(),
                              op.getAcc().getType().getNumElements());
}

/// Calls `body` at `op` for each element of its accumulator, with the
/// element's index and its row and column in the block's tile.
template <typename OpTy>
LogicalResult
forEachElement(OpTy op, InstructionFor instructionFor,
               function_ref<void(OpBuilder &, int64_t, Value, Value)> body) {
  OpBuilder b(op);
  Builder e{{b, op.getLoc()}};
  FailureOr<SmallVector<std::pair<Value, Value>>> positions =
      positionsOf(e, op, instructionFor);
  if (failed(positions))
    return failure();
  for (auto [i, position] : llvm::enumerate(*positions))
    body(b, i, position.first, position.second);
  return success();
}

LogicalResult store(tc_gpu::BlockMmaStoreOp op, InstructionFor instructionFor) {
  Location loc = op.getLoc();
  if (failed(forEachElement(
          op, instructionFor,
          [&](OpBuilder &b, int64_t i, Value row, Value column) {
            Value value = vector::ExtractOp::create(b, loc, op.getAcc(), i);
            memref::StoreOp::create(b, loc, value, op.getDest(),
                                    ValueRange{row, column});
          })))
    return failure();
  op.erase();
  return success();
}

LogicalResult scaleRows(tc_gpu::BlockMmaScaleRowsOp op,
                        InstructionFor instructionFor) {
  Location loc = op.getLoc();
  Value acc = op.getAcc();
  if (failed(forEachElement(
          op, instructionFor, [&](OpBuilder &b, int64_t i, Value row, Value) {
            Value factor = memref::LoadOp::create(b, loc, op.getFactors(),
                                                  ValueRange{row});
            Value scaled = arith::MulFOp::create(
                b, loc, vector::ExtractOp::create(b, loc, acc, i), factor);
            acc = vector::InsertOp::create(b, loc, scaled, acc, i);
          })))
    return failure();
  op.replaceAllUsesWith(acc);
  op.erase();
  return success();
}

LogicalResult forEach(tc_gpu::BlockMmaForEachOp op,
                      InstructionFor instructionFor) {
  Block &body = op.getBody().front();
  if (failed(
          forEachElement(op, instructionFor,
                         [&](OpBuilder &b, int64_t i, Value row, Value column) {
                           IRMapping mapping;
                           mapping.map(body.getArgument(0), row);
                           mapping.map(body.getArgument(1), column);
                           mapping.map(body.getArgument(2),
                                       vector::ExtractOp::create(
                                           b, op.getLoc(), op.getAcc(), i));
                           for (Operation &inner : body.without_terminator())
                             b.clone(inner, mapping);
                         })))
    return failure();
  op.erase();
  return success();
}

} // namespace

Value layoutAt(OpBuilder &b, Location loc, AffineMap layout, unsigned result,
               Value lane, int64_t element) {
  MLIRContext *ctx = b.getContext();
  AffineExpr expr = layout.getResult(result).replaceDims(
      {getAffineDimExpr(0, ctx), getAffineConstantExpr(element, ctx)});
  return affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, expr),
                                       lane);
}

std::optional<MatrixLoads> fragmentAsMatrixLoads(AffineMap layout,
                                                 int64_t count,
                                                 int64_t subgroupSize,
                                                 unsigned rowResult) {
  int64_t matrices = count / 2;
  if (subgroupSize != 32 || count % 2 != 0 ||
      !(matrices == 1 || matrices == 2 || matrices == 4) ||
      layout.getNumDims() != 2 || layout.getNumSymbols() != 0 ||
      layout.getNumResults() != 2)
    return std::nullopt;
  // Element i of lane l at (tile row, tile column).
  auto at = [&](int64_t lane, int64_t i) {
    SmallVector<int64_t, 4> place = layout.compose({lane, i});
    return std::make_pair(place[rowResult], place[1 - rowResult]);
  };
  // Lane 0 holds the first two elements of each matrix; its first row
  // starts a 16-byte line.
  MatrixLoads loads;
  for (int64_t m = 0; m < matrices; ++m) {
    auto [row, column] = at(0, 2 * m);
    if (row < 0 || column < 0 || column % 8 != 0)
      return std::nullopt;
    loads.offsets.append({row, column});
  }
  // Lane l's pair j of matrix m, as the load gives it.
  auto loaded = [&](bool transpose, int64_t lane, int64_t i) {
    int64_t m = i / 2, pair = 2 * (lane % 4) + i % 2, line = lane / 4;
    int64_t row = loads.offsets[2 * m], column = loads.offsets[2 * m + 1];
    return transpose ? std::make_pair(row + pair, column + line)
                     : std::make_pair(row + line, column + pair);
  };
  for (bool transpose : {false, true}) {
    bool all = true;
    for (int64_t lane = 0; lane < 32 && all; ++lane)
      for (int64_t i = 0; i < count && all; ++i)
        all = at(lane, i) == loaded(transpose, lane, i);
    if (all) {
      loads.transpose = transpose;
      return loads;
    }
  }
  return std::nullopt;
}

LogicalResult expandBlockMmas(Operation *root, InstructionFor instructionFor) {
  SmallVector<tc_gpu::BlockMmaOp> products;
  SmallVector<tc_gpu::BlockMmaStoreOp> stores;
  SmallVector<tc_gpu::BlockMmaScaleRowsOp> scales;
  SmallVector<tc_gpu::BlockMmaForEachOp> epilogues;
  root->walk([&](tc_gpu::BlockMmaOp op) { products.push_back(op); });
  root->walk([&](tc_gpu::BlockMmaForEachOp op) { epilogues.push_back(op); });
  root->walk([&](tc_gpu::BlockMmaStoreOp op) { stores.push_back(op); });
  root->walk([&](tc_gpu::BlockMmaScaleRowsOp op) { scales.push_back(op); });
  bool ok = true;
  for (tc_gpu::BlockMmaOp op : products) {
    if (auto plan =
            planFor(instructionFor, op.getLhs().getType().getElementType(),
                    op.getTile(), op.getThreads()))
      expandWithInstruction(op, *plan->first, plan->second);
    else
      ok &= succeeded(expandScalar(op));
  }
  for (tc_gpu::BlockMmaStoreOp op : stores)
    ok &= succeeded(store(op, instructionFor));
  for (tc_gpu::BlockMmaScaleRowsOp op : scales)
    ok &= succeeded(scaleRows(op, instructionFor));
  for (tc_gpu::BlockMmaForEachOp op : epilogues)
    ok &= succeeded(forEach(op, instructionFor));
  return success(ok);
}

namespace {

struct GpuExpandBlockMmaPass
    : impl::GpuExpandBlockMmaPassBase<GpuExpandBlockMmaPass> {
  using Base::Base;
  void runOnOperation() override {
    TargetInstructions instructionFor;
    std::string error;
    if (failed(instructionFor.init(&getContext(), target, error))) {
      getOperation()->emitError("tc-gpu-expand-block-mma: ") << error;
      return signalPassFailure();
    }
    if (failed(expandBlockMmas(getOperation(), instructionFor)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc::gpu
