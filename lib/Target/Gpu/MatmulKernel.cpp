//===- MatmulKernel.cpp - shared-memory tiled contraction kernels ---------===//
//
// The general GPU path gives each thread one output element and lets it
// read a whole row of A and column of B from global memory: every element
// is read M or N times over. Here a block of T x T threads computes an
// RT x RT output tile, each thread R x R outputs (rows ty + T i, columns
// tx + T j); at each step of T along K, its threads first copy an RT x T
// tile of A and a T x RT tile of B into shared memory (R elements each,
// coalesced along the innermost index), wait at a barrier, then each
// accumulates T products per output from shared memory, reading 2R values
// for R x R multiply-adds. Global traffic drops by a factor of RT. An
// operand whose buffer runs contiguously along K or along its own side is
// copied in 16-byte vectors instead (Staging), four times fewer loads.
// The copies are pipelined: with two pairs of tiles, a step loads the
// next step's elements into registers before its products and stores
// them after, so the global loads' latency overlaps the products, and one
// barrier per step suffices. Where every target copies asynchronously,
// vectors that lie in their tile as in memory go by tc_gpu.async_copy
// into three sets of tiles instead, two steps in flight. On matrix cores
// an operand copied in vectors along K keeps K along its tile's columns.
//
// M, N and K may each be several loops, linearized: a convolution is the
// same kernel (implicit GEMM) with M the output channels, N the batch and
// output pixels (the side of the output's innermost loop) and K the input
// channels and window, A's tile read through the op's own indexing
// (`oh * stride + kh`) from the (padded) input. A depthwise convolution
// has one output channel per group and stays on the general path.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Cpu/RegisterTiling.h"
#include "tc/Target/Gpu/ElementwiseKernel.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tc::gpu {
namespace {

/// The loops of a contraction by role. A reads M and K, B reads N and K;
/// M, N and K may each be several loops (a convolution: M = batch and
/// output pixels, N = output channels, K = input channels and the window),
/// each list in the order its linear index runs (the last fastest).
struct Roles {
  SmallVector<unsigned> m, n, k, batch;
  OpOperand *a, *b;
};

std::optional<Roles> matchRoles(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      !cpu::hasMultiplyAddBody(op))
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (map.getNumSymbols() != 0 || !llvm::all_of(map.getResults(), isSimpleAffine))
      return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() != op.getNumParallelLoops() ||
      !llvm::all_of(out.getResults(), llvm::IsaPred<AffineDimExpr>))
    return std::nullopt;
  OpOperand *first = op.getDpsInputOperand(0), *second = op.getDpsInputOperand(1);
  auto reads = [&](OpOperand *in, unsigned d) {
    return op.getMatchingIndexingMap(in).isFunctionOfDim(d);
  };
  // Parallel loops in the output's order: those only the first input reads
  // are its rows, those only the second reads its columns, the others
  // (read by both or neither) batch.
  SmallVector<unsigned> firstOnly, secondOnly;
  Roles r;
  for (AffineExpr e : out.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    bool inFirst = reads(first, d), inSecond = reads(second, d);
    if (inFirst && !inSecond)
      firstOnly.push_back(d);
    else if (inSecond && !inFirst)
      secondOnly.push_back(d);
    else
      r.batch.push_back(d);
  }
  for (auto [d, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      r.k.push_back(d);
  if (firstOnly.empty() || secondOnly.empty())
    return std::nullopt;
  // N is the side that holds the output's innermost loop (threads along x
  // store consecutive outputs); for a matmul, B's columns.
  unsigned innermost = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  if (llvm::is_contained(firstOnly, innermost)) {
    r.a = second;
    r.b = first;
    r.m = secondOnly;
    r.n = firstOnly;
  } else {
    r.a = first;
    r.b = second;
    r.m = firstOnly;
    r.n = secondOnly;
  }
  // A side narrower than a tile would leave most of each block idle (a
  // depthwise convolution, whose one output channel per group is N = 1; a
  // matrix-vector product): the general path, one thread per output, fits.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto narrow = [&](ArrayRef<unsigned> dims) {
    int64_t extent = 1;
    for (unsigned d : dims) {
      if (ShapedType::isDynamic(ranges[d]))
        return false;
      extent *= ranges[d];
    }
    return extent < kMatmulTile;
  };
  if (narrow(r.m) || narrow(r.n))
    return std::nullopt;
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  for (OpOperand &operand : op->getOpOperands())
    if (!getElementTypeOrSelf(operand.get().getType()).isIntOrFloat())
      return std::nullopt;
  if (!element.isIntOrFloat())
    return std::nullopt;
  return r;
}

/// How an operand's tile is copied into shared memory at each step of K.
/// Where the operand is read straight from a buffer (or, transposed, from
/// its transpose's source) whose contiguous innermost dimension is indexed
/// by the last loop of K or of the operand's own role (M for A, N for B)
/// alone, each thread loads vectors of `lanes` elements along it: a
/// quarter of the load instructions for f32. Otherwise (lanes 1) thread
/// (ty, tx) loads scalars through loadFusedInput.
struct Staging {
  int64_t lanes = 1;
  /// Whether the vectors run along K (else along the own role).
  bool alongK = false;
  Value buffer;
  /// The buffer's indices at the op's loops.
  AffineMap map;
};

Staging planStaging(linalg::LinalgOp op, const ContractionFusion &fusion,
                    OpOperand *operand, ArrayRef<unsigned> own,
                    ArrayRef<unsigned> k, int64_t outputsPerSide) {
  Staging scalar;
  if (llvm::any_of(fusion.pads, [&](const PaddedInput &p) { return p.operand == operand; }))
    return scalar;
  Value buffer = operand->get();
  SmallVector<AffineExpr> exprs(op.getMatchingIndexingMap(operand).getResults());
  const PermutedInput *permuted = llvm::find_if(
      fusion.permuted, [&](const PermutedInput &p) { return p.operand == operand; });
  if (permuted != fusion.permuted.end()) {
    if (permuted->copy)
      return scalar;
    buffer = permuted->source;
    SmallVector<AffineExpr> at(exprs.size());
    for (auto [i, expr] : llvm::enumerate(exprs))
      at[permuted->permutation[i]] = expr;
    exprs = at;
  }
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || exprs.empty() || own.empty() || k.empty())
    return scalar;
  auto last = dyn_cast<AffineDimExpr>(exprs.back());
  if (!last)
    return scalar;
  unsigned d = last.getPosition();
  // Consecutive linear positions of the role are consecutive values of
  // its last loop, and only the innermost index follows that loop.
  if (llvm::any_of(ArrayRef(exprs).drop_back(),
                   [&](AffineExpr e) { return e.isFunctionOfDim(d); }))
    return scalar;
  Staging plan;
  if (d == k.back())
    plan.alongK = true;
  else if (d != own.back())
    return scalar;
  int64_t bytes = elementBytes(type.getElementType());
  int64_t extent = op.getStaticLoopRanges()[d];
  if (bytes == 0 || ShapedType::isDynamic(extent))
    return scalar;
  // A vector never straddles a row of the loop (its extent is a multiple
  // of the lanes) nor the tile (the tile's sides are too), so each is
  // wholly inside the operand or wholly outside, and starts aligned.
  int64_t side = plan.alongK ? kMatmulTile : kMatmulTile * outputsPerSide;
  int64_t lanes = kVectorBytes / bytes;
  while (lanes > 1 && (extent % lanes != 0 || side % lanes != 0 ||
                       !rowsAligned(type, lanes)))
    lanes /= 2;
  if (lanes < 2)
    return scalar;
  plan.lanes = lanes;
  plan.buffer = buffer;
  plan.map = AffineMap::get(op.getNumLoops(), 0, exprs, op.getContext());
  return plan;
}

/// The extents of the roles: M, N, K and batch, linearized (values at the
/// insertion point).
struct Extents {
  Value m, n, k, batches;
};

Extents extentsOf(RewriterBase &rewriter, Location loc, const Roles &r,
                  ArrayRef<Value> sizes) {
  auto product = [&](ArrayRef<unsigned> dims) {
    Value result = indexConstant(rewriter, loc, 1);
    for (unsigned d : dims)
      result = rewriter.createOrFold<arith::MulIOp>(loc, result, sizes[d]);
    return result;
  };
  return {product(r.m), product(r.n), product(r.k), product(r.batch)};
}

/// Whether `op` multiplies 16-bit floats (f16 or bf16, both operands
/// alike), or TF32 values held in f32, and accumulates in f32: what matrix
/// cores compute. Its kernel then multiplies the shared tiles by
/// tc_gpu.block_mma, which each target expands to its matrix instructions
/// (or scalar code).
bool suitsMatrixCores(linalg::LinalgOp op, const Roles &r) {
  Type a = getElementTypeOrSelf(r.a->get().getType());
  Type b = getElementTypeOrSelf(r.b->get().getType());
  Type out = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  // f32 factors that --precision=tf32 rounded (marked by the lowering of
  // their tc op) are TF32 values, multiplied as they are.
  bool tf32 = a.isF32() && op->hasAttr(kTf32FactorsAttr);
  if (a != b || !(a.isF16() || a.isBF16() || tf32) || !out.isF32())
    return false;
  // The product is an f32 product of the (widened) operands.
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (auto mul = dyn_cast<arith::MulFOp>(inner))
      for (Value factor : mul->getOperands()) {
        if (tf32) {
          if (!isa<BlockArgument>(factor))
            return false;
          continue;
        }
        auto widen = factor.getDefiningOp<arith::ExtFOp>();
        if (!widen || !isa<BlockArgument>(widen.getIn()))
          return false;
      }
    else if (!isa<arith::ExtFOp, arith::AddFOp>(inner) ||
             (tf32 && isa<arith::ExtFOp>(inner)))
      return false;
  }
  return true;
}

/// How emitTiledKernel stages `op`'s operands at register tile R: the
/// operands' staging, the shared tiles' layout, and the pipeline (three
/// stages where an operand goes by asynchronous copies and three sets of
/// tiles fit, else two). Also what tells two configurations that build the
/// same kernel apart (a three-stage configuration whose operands cannot be
/// copied asynchronously builds the two-stage kernel).
struct TilePlan {
  Staging a, b;
  bool aKInner = false, bKInner = false;
  MemRefType aTile, bTile;
  bool aAsync = false, bAsync = false;
  int64_t stages = 2;
};

TilePlan planTiles(linalg::LinalgOp op, const Roles &r,
                   const ContractionFusion &fusion, int64_t R,
                   bool asyncCopies) {
  MLIRContext *ctx = op.getContext();
  const int64_t T = kMatmulTile, E = T * R;
  TilePlan plan;
  plan.a = planStaging(op, fusion, r.a, r.m, r.k, R);
  plan.b = planStaging(op, fusion, r.b, r.n, r.k, R);
  auto workgroup =
      mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
  auto shared = [&](Value operand, int64_t rows, int64_t columns) {
    return MemRefType::get({rows, columns},
                           getElementTypeOrSelf(operand.getType()), AffineMap(),
                           workgroup);
  };
  // Shared tiles: A transposed, [T of K][E rows of M, then padding], B
  // [T of K][E columns of N, then padding]. A thread's R rows are
  // consecutive in a row of A's tile: one vector read per step of K. The
  // padding (16 bytes) keeps the rows 16-byte aligned and spreads a
  // column's elements over the memory banks, for the staging stores and
  // for matrix loads that read 8 rows at once (ldmatrix).
  auto padOf = [&](OpOperand *operand) {
    int64_t bytes = std::max<int64_t>(
        1, elementBytes(getElementTypeOrSelf(operand->get().getType())));
    return std::max<int64_t>(1, kVectorBytes / bytes);
  };
  // block_mma also reads tiles that keep K along their columns
  // ([E of the own side][T of K, then padding]): an operand copied in
  // vectors along K then lands in shared memory as it lies in global
  // memory, each vector in consecutive elements, and the matrix loads
  // read it without transposing.
  const bool matrixCores = suitsMatrixCores(op, r);
  plan.aKInner = matrixCores && plan.a.lanes > 1 && plan.a.alongK;
  plan.bKInner = matrixCores && plan.b.lanes > 1 && plan.b.alongK;
  auto tileType = [&](OpOperand *operand, bool kInner) {
    int64_t pad = padOf(operand);
    return kInner ? shared(operand->get(), E, T + pad)
                  : shared(operand->get(), T, E + pad);
  };
  plan.aTile = tileType(r.a, plan.aKInner);
  plan.bTile = tileType(r.b, plan.bKInner);
  // Operands staged in vectors that lie in their tile as in memory
  // (along the tile's rows) go by asynchronous copies where every target
  // has them; then three sets of A and B tiles, where they fit (else two,
  // and no asynchronous copies). Otherwise two pairs.
  plan.aAsync =
      asyncCopies && plan.a.lanes > 1 && plan.a.alongK == plan.aKInner;
  plan.bAsync =
      asyncCopies && plan.b.lanes > 1 && plan.b.alongK == plan.bKInner;
  if ((plan.aAsync || plan.bAsync) &&
      3 * (bufferBytes(plan.aTile) + bufferBytes(plan.bTile)) <=
          kPortableSharedBytes)
    plan.stages = 3;
  else
    plan.aAsync = plan.bAsync = false;
  return plan;
}

/// The kernel for `op` with R x R outputs per thread, at the insertion
/// point (`op` stays).
void emitTiledKernel(RewriterBase &rewriter, linalg::LinalgOp op,
                     const Roles &r, const ContractionFusion &fusion,
                     ArrayRef<Value> sizes, const Extents &extents, int64_t R,
                     bool asyncCopies) {
  Location loc = op.getLoc();
  const int64_t T = kMatmulTile, E = T * R;
  auto index = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
  Value tile = index(T), one = index(1);
  auto ceilDiv = [&](Value v) {
    Value up = arith::AddIOp::create(rewriter, loc, v, index(E - 1));
    return arith::DivUIOp::create(rewriter, loc, up, index(E)).getResult();
  };
  Value batches = extents.batches;
  Value mSize = extents.m, nSize = extents.n, kSize = extents.k;
  TilePlan plan = planTiles(op, r, fusion, R, asyncCopies);
  const Staging &aStaging = plan.a, &bStaging = plan.b;
  const bool aKInner = plan.aKInner, bKInner = plan.bKInner;
  const bool aAsync = plan.aAsync, bAsync = plan.bAsync;
  const int64_t stages = plan.stages;
  MemRefType aTileType = plan.aTile, bTileType = plan.bTile;
  // With matrix cores the products accumulate in tc_gpu.block_mma's
  // registers, in the target's layout, and the fused epilogue runs on them
  // there (tc_gpu.block_mma_for_each); else the accumulators are the K
  // loop's carried values (registers).
  const bool matrixCores = suitsMatrixCores(op, r);
  Value output = op.getDpsInitOperand(0)->get();
  Type element = getElementTypeOrSelf(output.getType());
  // The steps of K use the sets of tiles in turn (below).
  SmallVector<Type> sharedTiles;
  for (int64_t set = 0; set < stages; ++set)
    sharedTiles.append({aTileType, bTileType});
  auto launch = mlir::gpu::LaunchOp::create(
      rewriter, loc, ceilDiv(nSize), ceilDiv(mSize), batches, tile, tile, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, sharedTiles);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  ArrayRef<BlockArgument> attributions = launch.getWorkgroupAttributions();
  SmallVector<Value> aTiles, bTiles;
  for (int64_t set = 0; set < stages; ++set) {
    aTiles.push_back(attributions[2 * set]);
    bTiles.push_back(attributions[2 * set + 1]);
  }
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  Value bx = launch.getBlockIds().x, by = launch.getBlockIds().y;
  Value bz = launch.getBlockIds().z;
  auto add = [&](Value a, int64_t c) {
    return c == 0 ? a : arith::AddIOp::create(rewriter, loc, a, index(c)).getResult();
  };
  auto mulAdd = [&](Value a, int64_t c, Value b) {
    Value scaled = arith::MulIOp::create(rewriter, loc, a, index(c));
    return arith::AddIOp::create(rewriter, loc, scaled, b).getResult();
  };
  auto less = [&](Value a, Value b) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, a, b)
        .getResult();
  };
  auto both = [&](Value a, Value b) {
    return arith::AndIOp::create(rewriter, loc, a, b).getResult();
  };
  // A thread owns rows R ty + i and columns tx + T j of the block's E x E
  // tile (i, j < R): consecutive threads, consecutive columns, for the
  // stores and the reads of B's tile; its rows in one vector of A's. The
  // scalar staging of A's tile copies rows ty + T i.
  // Each position in the tile (local) and in the loops (global).
  Value blockRow = arith::MulIOp::create(rewriter, loc, by, index(E));
  Value ownRow = mulAdd(ty, R, blockRow), columnBase = mulAdd(bx, E, tx);
  Value stageRowBase = mulAdd(by, E, ty);
  SmallVector<Value> rows, columns, localColumns, stageRows, stageLocalRows;
  for (int64_t i = 0; i < R; ++i) {
    rows.push_back(add(ownRow, i));
    columns.push_back(add(columnBase, T * i));
    localColumns.push_back(add(tx, T * i));
    stageRows.push_back(add(stageRowBase, T * i));
    stageLocalRows.push_back(add(ty, T * i));
  }
  Value localRow = arith::MulIOp::create(rewriter, loc, ty, index(R));
  // The loop values at (row, column, k), each linear; null leaves a role
  // unset.
  SmallVector<Value> batchLoops(op.getNumLoops());
  delinearizeLoops(rewriter, loc, bz, r.batch, sizes, batchLoops);
  auto loopsAt = [&](Value row, Value column, Value k) {
    SmallVector<Value> loops = batchLoops;
    if (row)
      delinearizeLoops(rewriter, loc, row, r.m, sizes, loops);
    if (column)
      delinearizeLoops(rewriter, loc, column, r.n, sizes, loops);
    if (k)
      delinearizeLoops(rewriter, loc, k, r.k, sizes, loops);
    return loops;
  };
  // What `compute` builds when `guard` holds, else zero (of `type`).
  auto orZero = [&](Type type, Value guard, function_ref<Value()> compute) {
    return KernelBuilder{rewriter, loc}.orZero(type, guard, compute);
  };
  // `operand` at `loops` when `guard`, else zero.
  auto guardedLoad = [&](OpOperand *operand, ArrayRef<Value> loops, Value guard) {
    return orZero(getElementTypeOrSelf(operand->get().getType()), guard, [&] {
      return loadFusedInput(rewriter, loc, op, fusion, operand, loops);
    });
  };
  // One step of K's staging comes in two halves: loadStep reads the step's
  // elements from global memory into registers, storeStep writes them into
  // a pair of shared tiles. The kernel issues the next step's loads before
  // this step's products (below), so their latency overlaps the products.
  //
  // Scalars: for A's tile, thread (ty, tx) loads rows ty + T i at K offset
  // tx; for B's, K offset ty at columns tx + T j.
  // Vectors: the tile's E T / L vectors go to the block's threads in order
  // of their linear id, consecutive threads taking consecutive vectors
  // along the buffer's innermost dimension. Along K, vector v is at own
  // position v / (T / L) and K offset (v % (T / L)) L; along the own role,
  // at K offset v / (E / L) and own position (v % (E / L)) L. A thread's
  // positions do not depend on the step.
  struct VectorSlot {
    Value valid; // null when every thread has a vector of this round
    Value ownLocal, kLocal;
  };
  auto vectorSlots = [&](const Staging &plan) {
    SmallVector<VectorSlot> slots;
    if (plan.lanes == 1)
      return slots;
    const int64_t L = plan.lanes, count = E * T / L, threads = T * T;
    const int64_t perOwn = plan.alongK ? T / L : E / L;
    Value linear = mulAdd(ty, T, tx);
    for (int64_t round = 0; round * threads < count; ++round) {
      Value v = add(linear, round * threads);
      VectorSlot slot;
      if ((round + 1) * threads > count)
        slot.valid = less(v, index(count));
      Value major = arith::DivUIOp::create(rewriter, loc, v, index(perOwn));
      Value minor = arith::MulIOp::create(
          rewriter, loc, arith::RemUIOp::create(rewriter, loc, v, index(perOwn)),
          index(L));
      slot.ownLocal = plan.alongK ? major : minor;
      slot.kLocal = plan.alongK ? minor : major;
      slots.push_back(slot);
    }
    return slots;
  };
  SmallVector<VectorSlot> aSlots = vectorSlots(aStaging);
  SmallVector<VectorSlot> bSlots = vectorSlots(bStaging);
  // Where a slot's vector lies in the operand's buffer at step k0, and
  // whether it is inside the operand (else it reads as zeros).
  struct VectorSource {
    SmallVector<Value> indices;
    Value inside;
  };
  auto sourceOf = [&](const Staging &plan, const VectorSlot &slot, bool isA,
                      Value k0) {
    Value ownBase =
        arith::MulIOp::create(rewriter, loc, isA ? by : bx, index(E));
    Value ownAt = arith::AddIOp::create(rewriter, loc, ownBase, slot.ownLocal);
    Value kAt = arith::AddIOp::create(rewriter, loc, k0, slot.kLocal);
    SmallVector<Value> loops =
        isA ? loopsAt(ownAt, nullptr, kAt) : loopsAt(nullptr, ownAt, kAt);
    return VectorSource{
        indicesAt(rewriter, loc, plan.map, loops),
        both(less(ownAt, isA ? mSize : nSize), less(kAt, kSize))};
  };
  auto loadVectors = [&](const Staging &plan, ArrayRef<VectorSlot> slots,
                         bool isA, Value k0) {
    SmallVector<Value> vectors;
    const int64_t L = plan.lanes;
    for (const VectorSlot &slot : slots) {
      Type elementType =
          cast<MemRefType>(plan.buffer.getType()).getElementType();
      auto vectorType = VectorType::get({L}, elementType);
      VectorSource source = sourceOf(plan, slot, isA, k0);
      Value guard = source.inside;
      if (slot.valid)
        guard = both(slot.valid, guard);
      vectors.push_back(orZero(vectorType, guard, [&] {
        return vector::LoadOp::create(
                   rewriter, loc, vectorType, plan.buffer, source.indices,
                   /*nontemporal=*/false,
                   llvm::MaybeAlign(L * elementBytes(elementType)))
            .getResult();
      }));
    }
    return vectors;
  };
  // The shared tile's indices of element `l` of a slot's vector.
  auto destinationOf = [&](const Staging &plan, const VectorSlot &slot,
                           int64_t l, bool kInner) {
    Value ownAtLane = plan.alongK ? slot.ownLocal : add(slot.ownLocal, l);
    Value kAtLane = plan.alongK ? add(slot.kLocal, l) : slot.kLocal;
    return kInner ? SmallVector<Value>{ownAtLane, kAtLane}
                  : SmallVector<Value>{kAtLane, ownAtLane};
  };
  // A slot's guard (the last round's threads past the tile's vectors
  // have none) around what `body` builds.
  auto ifSlot = [&](const VectorSlot &slot, function_ref<void()> body) {
    OpBuilder::InsertionGuard g(rewriter);
    if (slot.valid) {
      auto some = scf::IfOp::create(rewriter, loc, TypeRange{}, slot.valid,
                                    /*withElseRegion=*/false);
      rewriter.setInsertionPointToStart(&some.getThenRegion().front());
    }
    body();
  };
  // Asynchronous copies of a step's vectors straight into a set's tile:
  // each vector's elements are consecutive there too (along K in a K-inner
  // tile, along the own side in a K-major one).
  auto copyVectors = [&](const Staging &plan, ArrayRef<VectorSlot> slots,
                         bool isA, Value k0, Value sharedTile, bool kInner) {
    for (const VectorSlot &slot : slots)
      ifSlot(slot, [&] {
        VectorSource source = sourceOf(plan, slot, isA, k0);
        tc_gpu::AsyncCopyOp::create(
            rewriter, loc, plan.buffer, source.indices, sharedTile,
            destinationOf(plan, slot, 0, kInner), source.inside, plan.lanes);
      });
  };
  auto storeVectors = [&](const Staging &plan, ArrayRef<VectorSlot> slots,
                          ArrayRef<Value> vectors, Value sharedTile,
                          bool kInner) {
    for (auto [slot, vector] : llvm::zip_equal(slots, vectors))
      ifSlot(slot, [&] {
        for (int64_t l = 0; l < plan.lanes; ++l) {
          Value element = vector::ExtractOp::create(rewriter, loc, vector, l);
          memref::StoreOp::create(rewriter, loc, element, sharedTile,
                                  destinationOf(plan, slot, l, kInner));
        }
      });
  };
  struct Staged {
    SmallVector<Value> aScalars, bScalars, aVectors, bVectors;
  };
  auto loadStep = [&](Value k0) {
    Staged staged;
    Value kA = arith::AddIOp::create(rewriter, loc, k0, tx);
    Value kB = arith::AddIOp::create(rewriter, loc, k0, ty);
    for (int64_t i = 0; i < R; ++i) {
      if (aStaging.lanes == 1)
        staged.aScalars.push_back(
            guardedLoad(r.a, loopsAt(stageRows[i], nullptr, kA),
                        both(less(stageRows[i], mSize), less(kA, kSize))));
      if (bStaging.lanes == 1)
        staged.bScalars.push_back(
            guardedLoad(r.b, loopsAt(nullptr, columns[i], kB),
                        both(less(columns[i], nSize), less(kB, kSize))));
    }
    // (Asynchronously copied operands are not staged through registers.)
    if (!aAsync)
      staged.aVectors = loadVectors(aStaging, aSlots, /*isA=*/true, k0);
    if (!bAsync)
      staged.bVectors = loadVectors(bStaging, bSlots, /*isA=*/false, k0);
    return staged;
  };
  auto storeStep = [&](const Staged &staged, Value aTile, Value bTile) {
    for (auto [i, a] : llvm::enumerate(staged.aScalars))
      memref::StoreOp::create(rewriter, loc, a, aTile,
                              ValueRange{tx, stageLocalRows[i]});
    for (auto [i, b] : llvm::enumerate(staged.bScalars))
      memref::StoreOp::create(rewriter, loc, b, bTile,
                              ValueRange{ty, localColumns[i]});
    if (!aAsync)
      storeVectors(aStaging, aSlots, staged.aVectors, aTile, aKInner);
    if (!bAsync)
      storeVectors(bStaging, bSlots, staged.bVectors, bTile, bKInner);
  };
  // Whether output (i, j) of this thread is inside the result.
  // (On matrix cores the epilogue guards each element where it lies.)
  SmallVector<Value> inside;
  for (int64_t i = 0; i < R && !matrixCores; ++i)
    for (int64_t j = 0; j < R; ++j)
      inside.push_back(both(less(rows[i], mSize), less(columns[j], nSize)));
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  // The accumulators start from the output (linalg accumulates into it),
  // or from the value the fused init op would have stored there.
  // With matrix cores, the block's accumulator starts at zero and the
  // start values join in the epilogue.
  auto startAt = [&](int64_t i, int64_t j) {
    return orZero(element, inside[i * R + j], [&] {
      return fusedStartValue(
          rewriter, loc, op, fusion,
          indicesAt(rewriter, loc, outMap, loopsAt(rows[i], columns[j], nullptr)));
    });
  };
  auto accumulator = VectorType::get({R * R}, rewriter.getF32Type());
  SmallVector<Value> starts;
  if (matrixCores)
    starts.push_back(arith::ConstantOp::create(rewriter, loc, accumulator,
                                               rewriter.getZeroAttr(accumulator)));
  else
    for (int64_t i = 0; i < R; ++i)
      for (int64_t j = 0; j < R; ++j)
        starts.push_back(startAt(i, j));
  // The products of one step: the accumulators `accs` plus the product of
  // the tiles.
  auto multiply = [&](Value aTile, Value bTile, ValueRange accs) {
    SmallVector<Value> products;
    if (matrixCores) {
      products.push_back(tc_gpu::BlockMmaOp::create(
          rewriter, loc, accumulator, aTile, bTile, accs[0],
          rewriter.getDenseI64ArrayAttr({E, E, T}), aKInner, bKInner));
      return products;
    }
    auto inner = scf::ForOp::create(rewriter, loc, index(0), tile, one, accs);
    {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(inner.getBody());
      Value kk = inner.getInductionVar();
      SmallVector<Value> as, bs;
      // A's R values are adjacent (and aligned: the tile's rows start at
      // multiples of 16 bytes, the thread's rows at a multiple of R): LLVM's
      // load-store vectorizer makes one vector load of them.
      for (int64_t i = 0; i < R; ++i) {
        as.push_back(memref::LoadOp::create(rewriter, loc, aTile,
                                            ValueRange{kk, add(localRow, i)}));
        bs.push_back(memref::LoadOp::create(rewriter, loc, bTile,
                                            ValueRange{kk, localColumns[i]}));
      }
      // The op's body, once per owned output: block arguments follow the
      // operands.
      Block &combine = *op.getBlock();
      SmallVector<Value> sums;
      for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < R; ++j) {
          IRMapping mapping;
          mapping.map(combine.getArgument(r.a->getOperandNumber()), as[i]);
          mapping.map(combine.getArgument(r.b->getOperandNumber()), bs[j]);
          mapping.map(
              combine.getArgument(op.getDpsInitOperand(0)->getOperandNumber()),
              inner.getRegionIterArgs()[i * R + j]);
          for (Operation &inst : combine.without_terminator())
            rewriter.clone(inst, mapping);
          sums.push_back(
              mapping.lookup(combine.getTerminator()->getOperand(0)));
        }
      scf::YieldOp::create(rewriter, loc, sums);
    }
    llvm::append_range(products, inner.getResults());
    return products;
  };
  scf::ForOp steps;
  if (stages == 2) {
    // Two pairs of shared tiles, used in turn: step s multiplies pair s % 2
    // while its threads stage step s + 1 into the other pair. One barrier
    // per step then orders both the stores before their reads (at the next
    // step) and the reads before the stores that overwrite the pair (two
    // steps later). Past the last step the loads are all guarded off and
    // store zeros nobody reads.
    storeStep(loadStep(index(0)), aTiles[0], bTiles[0]);
    mlir::gpu::BarrierOp::create(rewriter, loc);
    steps = scf::ForOp::create(rewriter, loc, index(0), kSize, tile, starts);
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(steps.getBody());
    Value k0 = steps.getInductionVar();
    Value stepIndex = arith::DivUIOp::create(rewriter, loc, k0, tile);
    Value odd = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(rewriter, loc, stepIndex, index(2)), index(0));
    auto pick = [&](ArrayRef<Value> pair, bool current) {
      return arith::SelectOp::create(rewriter, loc, odd, pair[current ? 1 : 0],
                                     pair[current ? 0 : 1])
          .getResult();
    };
    Value aTile = pick(aTiles, true), bTile = pick(bTiles, true);
    Staged next = loadStep(add(k0, T));
    SmallVector<Value> products =
        multiply(aTile, bTile, steps.getRegionIterArgs());
    storeStep(next, pick(aTiles, false), pick(bTiles, false));
    mlir::gpu::BarrierOp::create(rewriter, loc);
    scf::YieldOp::create(rewriter, loc, products);
  } else {
    // Three sets of tiles: step s multiplies set s % 3 while the copies of
    // steps s + 1 and s + 2 are in flight. Each step first waits for its
    // own group of copies (at most one newer group pending), then a
    // barrier makes every thread's copies visible and orders the previous
    // step's reads of set (s + 2) % 3 before this step's copies into it.
    // Operands staged through registers (scalars) still load one step
    // ahead and store after the products into set (s + 1) % 3, which no
    // thread reads until the next step's barrier. Copies past the last
    // step write zeros into sets nobody reads; the kernel waits for them
    // before it ends.
    auto issue = [&](Value k0, Value aTile, Value bTile) {
      if (aAsync)
        copyVectors(aStaging, aSlots, /*isA=*/true, k0, aTile, aKInner);
      if (bAsync)
        copyVectors(bStaging, bSlots, /*isA=*/false, k0, bTile, bKInner);
      tc_gpu::AsyncCommitOp::create(rewriter, loc);
    };
    for (int64_t set = 0; set + 1 < stages; ++set)
      issue(index(set * T), aTiles[set], bTiles[set]);
    storeStep(loadStep(index(0)), aTiles[0], bTiles[0]);
    steps = scf::ForOp::create(rewriter, loc, index(0), kSize, tile, starts);
    {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(steps.getBody());
      Value k0 = steps.getInductionVar();
      Value stepIndex = arith::DivUIOp::create(rewriter, loc, k0, tile);
      // The tile of set (s + ahead) % stages.
      auto setAt = [&](ArrayRef<Value> tiles, int64_t ahead) {
        Value at = arith::RemUIOp::create(rewriter, loc, add(stepIndex, ahead),
                                          index(stages));
        Value chosen = tiles[0];
        for (int64_t set = 1; set < stages; ++set)
          chosen = arith::SelectOp::create(
              rewriter, loc,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, at,
                                    index(set)),
              tiles[set], chosen);
        return chosen;
      };
      tc_gpu::AsyncWaitOp::create(rewriter, loc, stages - 2);
      mlir::gpu::BarrierOp::create(rewriter, loc);
      issue(add(k0, (stages - 1) * T), setAt(aTiles, stages - 1),
            setAt(bTiles, stages - 1));
      Staged next = loadStep(add(k0, T));
      SmallVector<Value> products = multiply(setAt(aTiles, 0), setAt(bTiles, 0),
                                             steps.getRegionIterArgs());
      if (!aAsync || !bAsync)
        storeStep(next, setAt(aTiles, 1), setAt(bTiles, 1));
      scf::YieldOp::create(rewriter, loc, products);
    }
    tc_gpu::AsyncWaitOp::create(rewriter, loc, 0);
  }
  if (matrixCores) {
    // Each thread runs the epilogue on its accumulator elements where the
    // target's layout puts them (tc_gpu.block_mma_for_each, expanded per
    // target): the results go from registers to the output, without a
    // shared tile of them or a barrier.
    auto each = tc_gpu::BlockMmaForEachOp::create(
        rewriter, loc, steps.getResult(0),
        rewriter.getDenseI64ArrayAttr({E, E, T}),
        TypeAttr::get(getElementTypeOrSelf(r.a->get().getType())));
    Type indexType = rewriter.getIndexType();
    Block *block = rewriter.createBlock(
        &each.getBody(), {}, {indexType, indexType, rewriter.getF32Type()},
        {loc, loc, loc});
    rewriter.setInsertionPointToStart(block);
    Value row =
        arith::AddIOp::create(rewriter, loc, blockRow, block->getArgument(0));
    Value column = mulAdd(bx, E, block->getArgument(1));
    auto store = scf::IfOp::create(rewriter, loc, TypeRange{},
                                   both(less(row, mSize), less(column, nSize)),
                                   /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(&store.getThenRegion().front());
      SmallVector<Value> indices =
          indicesAt(rewriter, loc, outMap, loopsAt(row, column, nullptr));
      Value start = fusedStartValue(rewriter, loc, op, fusion, indices);
      storeFusedResult(
          rewriter, loc, op, fusion,
          arith::AddFOp::create(rewriter, loc, start, block->getArgument(2)),
          indices);
    }
    tc_gpu::YieldOp::create(rewriter, loc);
    rewriter.setInsertionPointAfter(each);
  } else {
    for (int64_t i = 0; i < R; ++i)
      for (int64_t j = 0; j < R; ++j) {
        auto store =
            scf::IfOp::create(rewriter, loc, TypeRange{}, inside[i * R + j],
                              /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g(rewriter);
        rewriter.setInsertionPointToStart(&store.getThenRegion().front());
        storeFusedResult(rewriter, loc, op, fusion, steps.getResult(i * R + j),
                         indicesAt(rewriter, loc, outMap,
                                   loopsAt(rows[i], columns[j], nullptr)));
      }
  }
  mlir::gpu::TerminatorOp::create(rewriter, loc);
}

} // namespace

std::optional<TiledContractionShape> tiledContractionShape(linalg::LinalgOp op) {
  std::optional<Roles> roles = matchRoles(op);
  if (!roles)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto extent = [&](ArrayRef<unsigned> dims) {
    int64_t product = 1;
    for (unsigned d : dims) {
      if (ShapedType::isDynamic(ranges[d]))
        return ShapedType::kDynamic;
      product *= ranges[d];
    }
    return product;
  };
  TiledContractionShape shape;
  shape.m = extent(roles->m);
  shape.n = extent(roles->n);
  shape.batches = extent(roles->batch);
  if (suitsMatrixCores(op, *roles))
    shape.matrixElement = getElementTypeOrSelf(roles->a->get().getType());
  return shape;
}

bool takesLargeTile(const TiledContractionShape &shape) {
  const int64_t E = kMatmulTile * kMatmulLargeRegisterTile;
  if (!shape.matrixElement || ShapedType::isDynamic(shape.m) ||
      ShapedType::isDynamic(shape.n) || ShapedType::isDynamic(shape.batches) ||
      shape.m < E || shape.n < E)
    return false;
  return llvm::divideCeil(shape.m, E) * llvm::divideCeil(shape.n, E) *
             shape.batches >=
         kMatmulWideBlocks;
}

FailureOr<int64_t> registerTileOf(linalg::LinalgOp op,
                                  fusion::KernelConfigAttr config,
                                  bool asyncCopies) {
  ArrayRef<int64_t> tile = config.getTile();
  if (config.getStages() == 3 && !asyncCopies) {
    op.emitError() << "the GPU's tiled contraction pipelines three stages "
                      "only where every target of the build copies "
                      "asynchronously (--tc-gpu-map-kernels' async-copies), "
                      "not "
                   << config;
    return failure();
  }
  std::optional<TiledContractionShape> shape = tiledContractionShape(op);
  bool matrixCores = shape && shape->matrixElement;
  if (config.getStrategy() == kTiledContractionStrategy && tile.size() == 3 &&
      tile[0] == tile[1] && tile[2] == kMatmulTile &&
      (tile[0] == kMatmulTile * kMatmulRegisterTile ||
       tile[0] == kMatmulTile * kMatmulWideRegisterTile ||
       (matrixCores && tile[0] == kMatmulTile * kMatmulLargeRegisterTile)))
    return tile[0] / kMatmulTile;
  op.emitError() << "the GPU's tiled contraction builds tile = [32, 32, 16] or "
                    "[64, 64, 16] (and [128, 128, 16] on matrix cores), not "
                 << config;
  return failure();
}

FailureOr<std::optional<int64_t>> configuredRegisterTile(linalg::LinalgOp op,
                                                         bool asyncCopies) {
  if (auto candidates =
          op->getAttrOfType<ArrayAttr>(fusion::FusionDialect::kCandidatesAttr))
    for (Attribute candidate : candidates)
      if (failed(registerTileOf(op, cast<fusion::KernelConfigAttr>(candidate),
                                asyncCopies)))
        return failure();
  auto config = op->getAttrOfType<fusion::KernelConfigAttr>(
      fusion::FusionDialect::kConfigAttr);
  if (!config)
    return std::optional<int64_t>();
  FailureOr<int64_t> registerTile = registerTileOf(op, config, asyncCopies);
  if (failed(registerTile))
    return failure();
  return std::optional<int64_t>(*registerTile);
}

LogicalResult buildTiledContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                                    const ContractionFusion &fusion,
                                    bool asyncCopies) {
  std::optional<Roles> roles = matchRoles(op);
  if (!roles)
    return failure();
  // A configuration (--tc-gpu-configure-kernels, or by hand) fixes the
  // tile, and may fix the pipeline's stages; MapKernels has checked it.
  FailureOr<std::optional<int64_t>> configured =
      configuredRegisterTile(op, asyncCopies);
  std::optional<int64_t> fixed = succeeded(configured) ? *configured : std::nullopt;
  // A configuration's stages, where it fixes them: three are the
  // asynchronous copies, two the register prefetch.
  const bool buildAsync = asyncCopies;
  auto asyncFor = [&](fusion::KernelConfigAttr config) {
    return config.getStages() == 0 ? buildAsync : config.getStages() == 3;
  };
  if (auto config = op->getAttrOfType<fusion::KernelConfigAttr>(
          fusion::FusionDialect::kConfigAttr))
    asyncCopies = asyncFor(config);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> sizes;
  for (Range range : op.createLoopRanges(rewriter, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  Extents extents = extentsOf(rewriter, loc, *roles, sizes);
  auto emitWith = [&](int64_t registerTile, bool async) {
    emitTiledKernel(rewriter, op, *roles, fusion, sizes, extents, registerTile,
                    async);
  };
  auto emit = [&](int64_t registerTile) {
    emitWith(registerTile, asyncCopies);
  };
  // A larger tile where both sides fill it and its blocks still cover the
  // GPU: 128 x 128 on matrix cores, else 64 x 64, else 32 x 32. Decided at
  // compile time for static extents, else by branches in the host code
  // (each candidate's kernel is built).
  auto index = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
  auto atLeast = [&](Value a, int64_t b) {
    return rewriter.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                                a, index(b));
  };
  auto fills = [&](int64_t registerTile) {
    const int64_t E = kMatmulTile * registerTile;
    auto tilesOf = [&](Value extent) {
      Value up =
          rewriter.createOrFold<arith::AddIOp>(loc, extent, index(E - 1));
      return rewriter.createOrFold<arith::DivUIOp>(loc, up, index(E));
    };
    Value blocks = rewriter.createOrFold<arith::MulIOp>(
        loc,
        rewriter.createOrFold<arith::MulIOp>(loc, tilesOf(extents.m),
                                             tilesOf(extents.n)),
        extents.batches);
    return rewriter.createOrFold<arith::AndIOp>(
        loc,
        rewriter.createOrFold<arith::AndIOp>(loc, atLeast(extents.m, E),
                                             atLeast(extents.n, E)),
        atLeast(blocks, kMatmulWideBlocks));
  };
  SmallVector<int64_t> candidates;
  if (suitsMatrixCores(op, *roles))
    candidates.push_back(kMatmulLargeRegisterTile);
  candidates.push_back(kMatmulWideRegisterTile);
  // The first candidate whose condition holds, else the small tile.
  std::function<void(ArrayRef<int64_t>)> choose = [&](ArrayRef<int64_t> rest) {
    if (rest.empty())
      return emit(kMatmulRegisterTile);
    Value condition = fills(rest.front());
    if (std::optional<int64_t> known = getConstantIntValue(condition))
      return *known ? emit(rest.front()) : choose(rest.drop_front());
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{}, condition,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
    emit(rest.front());
    rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
    choose(rest.drop_front());
  };
  auto heuristic = [&] {
    if (fixed)
      emit(*fixed);
    else
      choose(candidates);
  };
  // A tunable kernel: each alternative configuration's kernel in a case of
  // its own, the heuristic kernel in the default (choice -1).
  auto alternatives =
      op->getAttrOfType<ArrayAttr>(fusion::FusionDialect::kCandidatesAttr);
  auto key =
      op->getAttrOfType<StringAttr>(fusion::FusionDialect::kKernelKeyAttr);
  if (!alternatives || !key) {
    heuristic();
    rewriter.eraseOp(op);
    return success();
  }
  // Each alternative as the kernel it builds: a three-stage configuration
  // whose operands cannot be copied asynchronously (padded, permuted or
  // unaligned ones) builds the two-stage kernel, and says so; an
  // alternative that builds another's kernel is dropped, so that no two
  // alternatives time the same code.
  SmallVector<Attribute> distinct;
  for (Attribute candidate : alternatives) {
    auto config = cast<fusion::KernelConfigAttr>(candidate);
    int64_t registerTile = *registerTileOf(op, config, buildAsync);
    TilePlan plan =
        planTiles(op, *roles, fusion, registerTile, asyncFor(config));
    Attribute built = fusion::KernelConfigAttr::get(
        op->getContext(), config.getStrategy(), config.getTile(),
        config.getWorkgroups(), plan.stages);
    if (!llvm::is_contained(distinct, built))
      distinct.push_back(built);
  }
  alternatives = rewriter.getArrayAttr(distinct);
  Value choice = tc_gpu::TunedChoiceOp::create(
      rewriter, loc, rewriter.getIndexType(), key, alternatives,
      /*env=*/Value(), /*site=*/IntegerAttr());
  auto cases = llvm::to_vector(llvm::seq<int64_t>(0, alternatives.size()));
  auto tuned = scf::IndexSwitchOp::create(rewriter, loc, TypeRange{}, choice,
                                          cases, cases.size());
  OpBuilder::InsertionGuard g(rewriter);
  auto inRegion = [&](Region &region) {
    Block *block = rewriter.createBlock(&region);
    rewriter.setInsertionPointToStart(block);
    scf::YieldOp::create(rewriter, loc);
    rewriter.setInsertionPointToStart(block);
  };
  for (auto [region, candidate] :
       llvm::zip(tuned.getCaseRegions(), alternatives)) {
    auto config = cast<fusion::KernelConfigAttr>(candidate);
    inRegion(region);
    emitWith(*registerTileOf(op, config, buildAsync), asyncFor(config));
  }
  inRegion(tuned.getDefaultRegion());
  heuristic();
  rewriter.eraseOp(op);
  return success();
}

} // namespace mlir::tc::gpu
