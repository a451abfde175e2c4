//===- AttentionKernel.cpp - tc_gpu.attention as one kernel ---------------===//
//
// softmax(scale Q K^T + mask) V without the scores in device memory (the
// flash-attention scheme). A block of 128 threads takes 32 query rows of
// one batch and walks the keys Bc at a time:
//   stage K's and V's tiles in shared memory (Q's was staged once);
//   S = Q K^T on matrix cores (tc_gpu.block_mma), written to a shared tile;
//   each row's threads take the row's new maximum m' (over its logits, the
//     scale and mask applied, the keys past the end left out), the
//     correction alpha = exp(m - m') of what came before, and the
//     probabilities p = exp(s - m'), rounded to the operands' type into a
//     shared tile; the row's sum l becomes alpha l + sum(p);
//   the output accumulator, held in registers, is scaled by alpha row by
//     row (tc_gpu.block_mma_scale_rows) and gains P V (tc_gpu.block_mma).
// At the end the accumulator is divided by l and written out in the
// output's type. Nothing here names a vendor: the block products take each
// target's matrix instruction in --tc-gpu-expand-block-mma.
//
// A row whose logits are all -inf so far keeps m = -inf; its exponentials
// then subtract 0 instead, so that they are 0 rather than NaN, and a row
// masked out entirely ends 0 / 0 = NaN, as the softmax of its lowering.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Gpu/AttentionKernel.h"

#include "tc/Target/Gpu/CooperativeKernels.h"
#include "tc/Target/Gpu/ElementwiseKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tc::gpu {

namespace {

/// Query rows per block, and threads per row (the softmax's share of a
/// row): 128 threads, each holding 8 accumulators of S and a quarter of a
/// row of the output (16 for a head of 64). 64 rows of 128 threads held
/// twice that and spilled on gfx942 (ViT-B/16); 64 rows of 256 threads
/// spilled on sm_90 at ptxas's 128 registers, and gave BERT-base's 12
/// heads of 128 queries only 24 blocks for an H200's 132 multiprocessors.
constexpr int64_t kAttentionRows = 32;
constexpr int64_t kThreadsPerRow = 4;
constexpr int64_t kAttentionKeys = 32;
/// A head is padded to whole steps of every matrix instruction's K (16).
constexpr int64_t kHeadStep = 16;

int64_t roundUp(int64_t v, int64_t step) {
  return (v + step - 1) / step * step;
}

/// An extent of the attention (Lq, Lk, a batch dim): known when the
/// kernel is built, or only at run time (`value`, then set).
struct Extent {
  int64_t known = ShapedType::kDynamic;
  Value value;
  bool isStatic() const { return !ShapedType::isDynamic(known); }
  /// Whether the extent is statically a multiple of `step`.
  bool multipleOf(int64_t step) const {
    return isStatic() && known % step == 0;
  }
};

/// Builds the kernel's body: small helpers over one builder.
struct Emitter : KernelBuilder {
  int64_t threads;

  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value negativeInfinity() {
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(b.getF32Type(), APFloat::getInf(APFloat::IEEEsingle(),
                                                       /*Negative=*/true)));
  }
  Value less(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                 index(c));
  }
  Value less(Value x, const Extent &extent) {
    if (extent.isStatic())
      return less(x, extent.known);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                 extent.value);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value load(Value memref, ValueRange indices) {
    return memref::LoadOp::create(b, loc, memref, indices);
  }
  void store(Value value, Value memref, ValueRange indices) {
    memref::StoreOp::create(b, loc, value, memref, indices);
  }
  void barrier() { mlir::gpu::BarrierOp::create(b, loc); }

  /// Runs `body` where `guard` holds.
  void when(Value guard, function_ref<void()> body) {
    auto branch = scf::IfOp::create(b, loc, TypeRange{}, guard,
                                    /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    body();
  }

  /// `body(e)` for e = thread, thread + T, ... below `count` (a multiple of
  /// the block's T threads): consecutive threads, consecutive elements.
  void forEachOfBlock(Value thread, int64_t count,
                      function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, loc, index(0), index(count),
                                   index(threads));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    body(add(loop.getInductionVar(), thread));
  }
};

/// The indices of an operand whose logical shape is `shape` (its batch
/// dims broadcasting to the output's `batchRank` ones; a mask of lower rank
/// aligns to the right) at batch position `batchIndex` and (`row`,
/// `column`) of its last two logical dims, stored with `permutation`
/// (logical dim i is stored dim permutation[i]). Only a static extent of 1
/// broadcasts: --tc-gpu-form-attention checks that each dynamic one equals
/// the output's.
SmallVector<Value> indicesOf(Emitter &e, ArrayRef<int64_t> shape,
                             ArrayRef<int64_t> permutation, int64_t batchRank,
                             ArrayRef<Value> batchIndex, Value row,
                             Value column) {
  int64_t rank = shape.size();
  int64_t full = batchRank + 2;
  SmallVector<Value> indices(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t at = d + full - rank;
    Value loop = at < full - 2 ? batchIndex[at] : at == full - 2 ? row : column;
    indices[permutation[d]] = shape[d] == 1 ? e.index(0) : loop;
  }
  return indices;
}

} // namespace

std::optional<AttentionPlan> planAttention(int64_t head, int64_t valueHead) {
  if (head <= 0 || valueHead <= 0)
    return std::nullopt;
  AttentionPlan plan;
  plan.keys = kAttentionKeys;
  // Up to 64 the heads round to 16; beyond, to 32, so that every
  // accumulator's share divides the scalar fallback's thread blocks.
  auto pad = [](int64_t d) {
    return d <= 64 ? roundUp(d, kHeadStep) : roundUp(d, 2 * kHeadStep);
  };
  plan.head = pad(head);
  plan.valueHead = pad(valueHead);
  plan.rows = kAttentionRows;
  plan.threads = plan.rows * kThreadsPerRow;
  int64_t bytes16 = 2;
  plan.sharedBytes =
      plan.head * plan.rows * bytes16                              // Q^T
      + plan.keys * (plan.head + kVectorBytes / bytes16) * bytes16 // K (or K^T)
      + plan.keys * plan.valueHead * bytes16                       // V
      + plan.rows * (plan.keys + 1) * 4                            // S
      + plan.keys * plan.rows * bytes16                            // P^T
      + plan.rows * plan.valueHead * 4                             // O
      + plan.rows * 4     // row factors
      + plan.threads * 4; // row partials
  if (plan.sharedBytes > kPortableSharedBytes)
    return std::nullopt;
  return plan;
}

LogicalResult buildAttentionKernel(RewriterBase &rewriter,
                                   tc_gpu::AttentionOp op, bool asyncCopies) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      return op.emitOpError("expects buffers (run after bufferization)");
    if (type.isDynamicDim(type.getRank() - 1) && operand != op.getMask())
      return op.emitOpError("expects static heads for its kernel");
  }
  int64_t rank = cast<MemRefType>(op.getQuery().getType()).getRank();
  bool transposed = op.getKeyTransposed();
  // Each operand's logical shape and where its dims are stored.
  struct Operand {
    Value buffer;
    SmallVector<int64_t> shape, permutation;
  };
  auto operand = [&](OpOperand &o) {
    return Operand{o.get(), op.getLogicalShape(o), op.getPermutationOf(o)};
  };
  Operand q = operand(op.getQueryMutable()), k = operand(op.getKeyMutable()),
          v = operand(op.getValueMutable()), out = operand(op.getInitMutable());
  bool masked = static_cast<bool>(op.getMask());
  Operand m;
  if (masked)
    m = operand(op.getMaskMutable()[0]);
  const int64_t D = q.shape[rank - 1], Dv = v.shape[rank - 1];
  ArrayRef<int64_t> batch = ArrayRef<int64_t>(out.shape).drop_back(2);
  std::optional<AttentionPlan> plan = planAttention(D, Dv);
  if (!plan)
    return op.emitOpError("has heads too large for the attention kernel");
  const int64_t Br = plan->rows, Bc = plan->keys, Dp = plan->head,
                Dvp = plan->valueHead, T = plan->threads;
  const int64_t tpr = kThreadsPerRow;
  Type element = cast<MemRefType>(op.getQuery().getType()).getElementType();
  Type f32 = rewriter.getF32Type();
  auto workgroup =
      mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
  auto shared = [&](ArrayRef<int64_t> shape, Type type) {
    return MemRefType::get(shape, type, AffineMap(), workgroup);
  };
  // Vectors of L elements along the head (16 bytes): where the operand
  // stores its head dim innermost, contiguous and aligned (rowsAligned),
  // the head is a multiple of L (a vector is wholly inside it or past it)
  // and the rows' vectors share the block's threads evenly. 1 otherwise:
  // elements.
  const int64_t L =
      kVectorBytes / std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  auto headLanes = [&](const Operand &o, int64_t head, int64_t paddedHead,
                       int64_t rows, bool headFirst = false) -> int64_t {
    auto type = cast<MemRefType>(o.buffer.getType());
    int64_t headDim = o.permutation.size() - (headFirst ? 2 : 1);
    if (o.permutation[headDim] != type.getRank() - 1 || head % L != 0 ||
        paddedHead % L != 0 || (rows * paddedHead / L) % T != 0 ||
        !rowsAligned(type, L))
      return 1;
    return L;
  };
  // K and V are read along their heads in vectors where they can be
  // (decided once: the same at every step); a transposed key too, where
  // its head dim is still the one stored innermost (a transpose the
  // formation absorbed).
  const bool kVectors = headLanes(k, D, Dp, Bc, transposed) > 1;
  const bool vVectors = headLanes(v, Dv, Dvp, Bc) > 1;
  // K's tile keeps the head along its rows where K is read in vectors
  // ([Bc][Dp + a vector of padding], K as stored: S's rhs with K inner),
  // so that each vector lands in consecutive elements; else it is K^T
  // ([Dp][Bc]). Where every target copies asynchronously and two sets of
  // K's and V's tiles fit, the next step's K and V are copied
  // (tc_gpu.async_copy) while this step computes.
  const int64_t kPad = L;
  MemRefType kTileType =
      kVectors ? shared({Bc, Dp + kPad}, element) : shared({Dp, Bc}, element);
  MemRefType vTileType = shared({Bc, Dvp}, element);
  const bool prefetch =
      asyncCopies && kVectors && vVectors &&
      plan->sharedBytes + bufferBytes(kTileType) + bufferBytes(vTileType) <=
          kPortableSharedBytes;
  SmallVector<Type> tiles = {
      shared({Dp, Br}, element), // Q^T: lhs of S = Q K^T
      kTileType,                 // K^T or K: its rhs
      vTileType,                 // V: rhs of P V
      shared({Br, Bc + 1}, f32), // S (a row padded against bank conflicts)
      shared({Bc, Br}, element), // P^T: lhs of P V
      shared({Br, Dvp}, f32),    // O at the end
      shared({Br}, f32),         // a factor per row
      shared({T}, f32)};         // each thread's partial max or sum
  if (prefetch)
    tiles.append({kTileType, vTileType}); // the second set

  Emitter e{{rewriter, loc}, T};
  rewriter.setInsertionPoint(op);
  Value one = e.index(1);
  // The query rows, the keys and the batch dims: static, or read from the
  // buffers on the host (dynamic sequence lengths and batches).
  auto extentOf = [&](const Operand &o, int64_t d) {
    Extent extent{o.shape[d], Value()};
    if (!extent.isStatic())
      extent.value =
          memref::DimOp::create(rewriter, loc, o.buffer, o.permutation[d]);
    return extent;
  };
  // (A static extent's value, where dynamic ones join it.)
  auto valueOf = [&](const Extent &extent) {
    return extent.isStatic() ? e.index(extent.known) : extent.value;
  };
  const Extent Lq = extentOf(out, rank - 2);
  const Extent Lk = extentOf(k, rank - (transposed ? 1 : 2));
  SmallVector<Extent> batchExtents;
  for (int64_t d = 0; d + 2 < rank; ++d)
    batchExtents.push_back(extentOf(out, d));
  const bool staticBatch = llvm::all_of(
      batchExtents, [](const Extent &extent) { return extent.isStatic(); });
  Value queryBlocks, batches;
  if (Lq.isStatic()) {
    queryBlocks = e.index((Lq.known + Br - 1) / Br);
  } else {
    queryBlocks = arith::DivUIOp::create(rewriter, loc, e.add(Lq.value, Br - 1),
                                         e.index(Br));
  }
  if (staticBatch) {
    int64_t product = 1;
    for (const Extent &extent : batchExtents)
      product *= extent.known;
    batches = e.index(product);
  } else {
    batches = one;
    for (const Extent &extent : batchExtents)
      batches = arith::MulIOp::create(rewriter, loc, batches, valueOf(extent));
  }
  auto launch = mlir::gpu::LaunchOp::create(
      rewriter, loc, queryBlocks, batches, one, e.index(T), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, tiles);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  // Two blocks a multiprocessor at least (NVIDIA: .minnctapersm): told
  // nothing, ptxas held BERT-base's kernels to 72 registers and spilled 4
  // bytes for more; with it they take the 96 they need.
  tc_gpu::MinBlocksHintOp::create(rewriter, loc, 2);
  ArrayRef<BlockArgument> a = launch.getWorkgroupAttributions();
  Value qTile = a[0], kTile = a[1], vTile = a[2], sTile = a[3], pTile = a[4],
        oTile = a[5], factors = a[6], partials = a[7];
  Value thread = launch.getThreadIds().x;
  Value q0 = e.mul(launch.getBlockIds().x, Br);
  SmallVector<Value> batchIndex(batch.size());
  if (staticBatch) {
    Value linear = launch.getBlockIds().y;
    int64_t stride = 1;
    for (int64_t extent : batch)
      stride *= extent;
    for (auto [i, extent] : llvm::enumerate(batch)) {
      stride /= extent;
      batchIndex[i] = e.rem(e.div(linear, stride), extent);
    }
  } else {
    // The last batch dim varies fastest.
    Value rest = launch.getBlockIds().y;
    for (int64_t i = batch.size() - 1; i >= 0; --i) {
      Value extent = valueOf(batchExtents[i]);
      batchIndex[i] = arith::RemUIOp::create(rewriter, loc, rest, extent);
      rest = arith::DivUIOp::create(rewriter, loc, rest, extent);
    }
  }
  auto at = [&](const Operand &o, Value row, Value column) {
    return indicesOf(e, o.shape, o.permutation, batch.size(), batchIndex, row,
                     column);
  };

  // A guard that may be statically true (null).
  auto all = [&](Value a, Value b) { return !a ? b : !b ? a : e.both(a, b); };
  auto below = [&](Value v, int64_t bound, int64_t padded) {
    return bound == padded ? Value() : e.less(v, bound);
  };
  auto guarded = [&](Value guard, function_ref<Value()> compute) {
    return guard ? e.orZero(element, guard, compute) : compute();
  };
  VectorType headVector = VectorType::get({L}, element);
  // Operand `o`'s vector at (row, d) (at (d, row) with `headFirst`: a
  // transposed key), zero where `guard` fails.
  auto loadVector = [&](const Operand &o, Value guard, Value row, Value d,
                        bool headFirst = false) {
    auto load = [&]() -> Value {
      return vector::LoadOp::create(rewriter, loc, headVector, o.buffer,
                                    headFirst ? at(o, d, row) : at(o, row, d),
                                    /*nontemporal=*/false,
                                    llvm::MaybeAlign(kVectorBytes));
    };
    return guard ? e.orZero(headVector, guard, load) : load();
  };
  // `body(row, d)` for each vector of a rows x paddedHead tile: consecutive
  // threads, consecutive vectors along the head.
  auto forEachVector = [&](int64_t rows, int64_t paddedHead,
                           function_ref<void(Value, Value)> body) {
    int64_t perRow = paddedHead / L;
    e.forEachOfBlock(thread, rows * perRow, [&](Value i) {
      body(e.div(i, perRow), e.mul(e.rem(i, perRow), L));
    });
  };
  // The same for each element.
  auto forEachElement = [&](int64_t rows, int64_t paddedHead,
                            function_ref<void(Value, Value)> body) {
    e.forEachOfBlock(thread, rows * paddedHead, [&](Value i) {
      body(e.div(i, paddedHead), e.rem(i, paddedHead));
    });
  };

  // Q^T[d][r] = Q[q0 + r][d], zero past the rows and the head.
  auto qRowInside = [&](Value row) {
    return Lq.multipleOf(Br) ? Value() : e.less(row, Lq);
  };
  if (headLanes(q, D, Dp, Br) > 1) {
    forEachVector(Br, Dp, [&](Value r, Value d) {
      Value row = e.add(q0, r);
      Value x = loadVector(q, all(qRowInside(row), below(d, D, Dp)), row, d);
      for (int64_t l = 0; l < L; ++l)
        e.store(vector::ExtractOp::create(rewriter, loc, x, l), qTile,
                {e.add(d, l), r});
    });
  } else {
    forEachElement(Br, Dp, [&](Value r, Value d) {
      Value row = e.add(q0, r);
      Value x = guarded(all(qRowInside(row), below(d, D, Dp)),
                        [&] { return e.load(q.buffer, at(q, row, d)); });
      e.store(x, qTile, {d, r});
    });
  }

  VectorType sAcc = VectorType::get({Br * Bc / T}, f32);
  VectorType oAcc = VectorType::get({Br * Dvp / T}, f32);
  auto sTileShape = rewriter.getDenseI64ArrayAttr({Br, Bc, Dp});
  auto oTileShape = rewriter.getDenseI64ArrayAttr({Br, Dvp, Bc});
  TypeAttr operandType = TypeAttr::get(element);
  Value row = e.div(thread, tpr), part = e.rem(thread, tpr);
  Value firstOfRow = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, part, e.index(0));
  // The row's combination of the partials of its tpr threads.
  auto combineRow = [&](bool isMax) {
    Value total;
    for (int64_t i = 0; i < tpr; ++i) {
      Value x = e.load(partials, {e.add(e.mul(row, tpr), i)});
      total =
          !total ? x
          : isMax
              ? arith::MaximumFOp::create(rewriter, loc, total, x).getResult()
              : arith::AddFOp::create(rewriter, loc, total, x).getResult();
    }
    return total;
  };
  Value zeroO = arith::ConstantOp::create(rewriter, loc, oAcc,
                                          rewriter.getZeroAttr(oAcc));
  Value zeroS = arith::ConstantOp::create(rewriter, loc, sAcc,
                                          rewriter.getZeroAttr(sAcc));
  Value minusInf = e.negativeInfinity();
  // Starts the copies of the step at k0's K and V into `kSet` and `vSet`
  // (zeros past the keys and the head) and commits them as one group.
  auto copyKeysAndValues = [&](Value k0, Value kSet, Value vSet) {
    forEachVector(Bc, Dp, [&](Value c, Value d) {
      Value key = e.add(k0, c);
      Value valid = all(e.less(key, Lk), below(d, D, Dp));
      tc_gpu::AsyncCopyOp::create(rewriter, loc, k.buffer,
                                  transposed ? at(k, d, key) : at(k, key, d),
                                  kSet, ValueRange{c, d}, valid, L);
    });
    forEachVector(Bc, Dvp, [&](Value c, Value d) {
      Value key = e.add(k0, c);
      Value valid = all(e.less(key, Lk), below(d, Dv, Dvp));
      tc_gpu::AsyncCopyOp::create(rewriter, loc, v.buffer, at(v, key, d), vSet,
                                  ValueRange{c, d}, valid, L);
    });
    tc_gpu::AsyncCommitOp::create(rewriter, loc);
  };
  if (prefetch)
    copyKeysAndValues(e.index(0), kTile, vTile);
  // One step over keys k0 .. k0 + Bc: with `tail`, the last, partial one
  // whose keys past Lk are left out (the full steps need no key guards,
  // which cost ViT-B/16's kernel 40 registers and a spill). With the
  // prefetch, step s reads the set s % 2 and first starts the copies of
  // step s + 1 into the other one, which the end of step s - 1 freed.
  auto step = [&](Value k0, ValueRange carried, bool tail) {
    Value acc = carried[0], runningMax = carried[1], runningSum = carried[2];
    auto keyInside = [&](Value key) { return tail ? e.less(key, Lk) : Value(); };
    Value keys = kTile, values = vTile;
    if (prefetch) {
      Value odd = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                        e.rem(e.div(k0, Bc), 2), e.index(0));
      auto pick = [&](Value first, Value second, bool current) {
        return arith::SelectOp::create(rewriter, loc, odd,
                                       current ? second : first,
                                       current ? first : second)
            .getResult();
      };
      keys = pick(kTile, a[8], true);
      values = pick(vTile, a[9], true);
      copyKeysAndValues(e.add(k0, Bc), pick(kTile, a[8], false),
                        pick(vTile, a[9], false));
      tc_gpu::AsyncWaitOp::create(rewriter, loc, 1);
    } else if (kVectors) {
      // K[c][d] = K[k0 + c][d] (K inner): a vector along a row of the tile.
      forEachVector(Bc, Dp, [&](Value c, Value d) {
        Value key = e.add(k0, c);
        Value x = loadVector(k, all(keyInside(key), below(d, D, Dp)), key, d,
                             transposed);
        for (int64_t l = 0; l < L; ++l)
          e.store(vector::ExtractOp::create(rewriter, loc, x, l), kTile,
                  {c, e.add(d, l)});
      });
    } else {
      // K^T[d][c] = K[k0 + c][d].
      e.forEachOfBlock(thread, Bc * Dp, [&](Value i) {
        Value c = transposed ? e.rem(i, Bc) : e.div(i, Dp);
        Value d = transposed ? e.div(i, Bc) : e.rem(i, Dp);
        Value key = e.add(k0, c);
        Value x = guarded(all(keyInside(key), below(d, D, Dp)), [&] {
          return e.load(k.buffer, transposed ? at(k, d, key) : at(k, key, d));
        });
        e.store(x, kTile, {d, c});
      });
    }
    // V[c][d] = V[k0 + c][d], a vector a row's stretch of the tile.
    if (prefetch) {
      // (copied with K)
    } else if (vVectors) {
      forEachVector(Bc, Dvp, [&](Value c, Value d) {
        Value key = e.add(k0, c);
        Value x = loadVector(v, all(keyInside(key), below(d, Dv, Dvp)), key, d);
        // Its lanes one by one (LLVM merges the stores): NVIDIA's device
        // lowering reports an error on a vector.store to shared memory
        // (the workgroup address space has no mapping there).
        for (int64_t l = 0; l < L; ++l)
          e.store(vector::ExtractOp::create(rewriter, loc, x, l), vTile,
                  {c, e.add(d, l)});
      });
    } else {
      forEachElement(Bc, Dvp, [&](Value c, Value d) {
        Value key = e.add(k0, c);
        Value x = guarded(all(keyInside(key), below(d, Dv, Dvp)),
                          [&] { return e.load(v.buffer, at(v, key, d)); });
        e.store(x, vTile, {c, d});
      });
    }
    e.barrier();
    Value scores = tc_gpu::BlockMmaOp::create(
        rewriter, loc, sAcc, qTile, keys, zeroS, sTileShape,
        /*lhsKInner=*/false, /*rhsKInner=*/kVectors);
    tc_gpu::BlockMmaStoreOp::create(rewriter, loc, scores, sTile, sTileShape,
                                    operandType);
    e.barrier();

    // Thread `part` of row `row` takes the keys part + tpr j. Rows past Lq
    // read the mask's last row (their results are never stored).
    Value maskRow =
        Lq.multipleOf(Br)
            ? e.add(q0, row)
            : arith::MinUIOp::create(
                  rewriter, loc, e.add(q0, row),
                  Lq.isStatic()
                      ? e.index(Lq.known - 1)
                      : arith::SubIOp::create(rewriter, loc, Lq.value, one)
                            .getResult())
                  .getResult();
    auto logit = [&](int64_t j) {
      Value c = e.add(part, tpr * j);
      Value key = e.add(k0, c);
      Value x = arith::MulFOp::create(rewriter, loc, e.load(sTile, {row, c}),
                                      e.f32(op.getScale().convertToDouble()));
      if (masked) {
        Value bias = guarded(keyInside(key), [&] {
          return e.load(m.buffer, at(m, maskRow, key));
        });
        x = arith::AddFOp::create(
            rewriter, loc, x, arith::ExtFOp::create(rewriter, loc, f32, bias));
      }
      if (!tail)
        return x;
      return arith::SelectOp::create(rewriter, loc, keyInside(key), x,
                                     minusInf)
          .getResult();
    };
    Value localMax = minusInf;
    for (int64_t j = 0; j < Bc / tpr; ++j)
      localMax = arith::MaximumFOp::create(rewriter, loc, localMax, logit(j));
    e.store(localMax, partials, {thread});
    e.barrier();
    Value mNext =
        arith::MaximumFOp::create(rewriter, loc, runningMax, combineRow(true));
    Value stillInfinite = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OEQ, mNext, minusInf);
    Value base =
        arith::SelectOp::create(rewriter, loc, stillInfinite, e.f32(0), mNext);
    Value alpha = math::ExpOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, runningMax, base));
    Value sum = arith::MulFOp::create(rewriter, loc, runningSum, alpha);
    for (int64_t j = 0; j < Bc / tpr; ++j) {
      Value p = math::ExpOp::create(
          rewriter, loc, arith::SubFOp::create(rewriter, loc, logit(j), base));
      sum = arith::AddFOp::create(rewriter, loc, sum, p);
      e.store(arith::TruncFOp::create(rewriter, loc, element, p), pTile,
              {e.add(part, tpr * j), row});
    }
    e.when(firstOfRow, [&] { e.store(alpha, factors, {row}); });
    e.barrier();
    acc = tc_gpu::BlockMmaScaleRowsOp::create(rewriter, loc, oAcc, acc, factors,
                                              oTileShape, operandType);
    acc = tc_gpu::BlockMmaOp::create(rewriter, loc, oAcc, pTile, values, acc,
                                     oTileShape);
    // The next step overwrites the tiles only once every thread is done.
    e.barrier();
    return SmallVector<Value>{acc, mNext, sum};
  };
  SmallVector<Value> state = {zeroO, minusInf, e.f32(0)};
  // The steps over Bc keys each: with a static Lk, the full steps without
  // key guards, then the partial one; with a dynamic Lk, every step
  // guarded (its last may be partial).
  auto walkKeys = [&](Value steps, bool tail) {
    auto loop =
        scf::ForOp::create(rewriter, loc, e.index(0), steps, one, state);
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(rewriter, loc,
                         step(e.mul(loop.getInductionVar(), Bc),
                              loop.getRegionIterArgs(), tail));
    state.assign(loop.getResults().begin(), loop.getResults().end());
  };
  if (Lk.isStatic()) {
    const int64_t fullSteps = Lk.known / Bc;
    if (fullSteps > 0)
      walkKeys(e.index(fullSteps), /*tail=*/false);
    if (Lk.known % Bc != 0)
      state = step(e.index(fullSteps * Bc), state, /*tail=*/true);
  } else {
    walkKeys(arith::DivUIOp::create(rewriter, loc, e.add(Lk.value, Bc - 1),
                                    e.index(Bc)),
             /*tail=*/true);
  }

  // (The last step's copies, of keys past the end, are zeros nobody
  // reads; the kernel still waits for them.)
  if (prefetch)
    tc_gpu::AsyncWaitOp::create(rewriter, loc, 0);
  // O / l, written in the output's type.
  e.store(state[2], partials, {thread});
  e.barrier();
  e.when(firstOfRow, [&] {
    Value factor =
        arith::DivFOp::create(rewriter, loc, e.f32(1), combineRow(false));
    // No keys at all (a dynamic Lk of 0): the product of an empty P and V,
    // zeros, as the general lowering gives, not 0 / 0.
    if (!Lk.isStatic())
      factor = arith::SelectOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                Lk.value, e.index(0)),
          e.f32(0), factor);
    e.store(factor, factors, {row});
  });
  e.barrier();
  Value result = tc_gpu::BlockMmaScaleRowsOp::create(
      rewriter, loc, oAcc, state[0], factors, oTileShape,
      operandType);
  tc_gpu::BlockMmaStoreOp::create(rewriter, loc, result, oTile, oTileShape,
                                  operandType);
  e.barrier();
  e.forEachOfBlock(thread, Br * Dvp, [&](Value i) {
    Value r = e.div(i, Dvp), d = e.rem(i, Dvp);
    Value outRow = e.add(q0, r);
    e.when(e.both(e.less(outRow, Lq), e.less(d, Dv)), [&] {
      Value x = arith::TruncFOp::create(rewriter, loc, element,
                                        e.load(oTile, {r, d}));
      e.store(x, out.buffer, at(out, outRow, d));
    });
  });
  mlir::gpu::TerminatorOp::create(rewriter, loc);
  rewriter.eraseOp(op);
  return success();
}

} // namespace mlir::tc::gpu
