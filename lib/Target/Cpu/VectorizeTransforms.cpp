//===- VectorizeTransforms.cpp - --tc-cpu-vectorize-transforms ------------===//
//
// Winograd's tile transforms (--tc-cpu-winograd-conv) are generics
//   out[p, q, ...] += sum_{r, s} c1[p, r] c2[q, s] x[..., r, ..., s, ...]
// whose matrices c1, c2 are small constants (B^T is 6x6, A^T 4x6) with
// many zeros and ones. As a contraction each output would cost R x S
// multiply-adds with coefficients loaded from memory; computed as two
// passes of 1-D transforms, t[r, q] = sum_s c2[q, s] x[r, s], then
// out[p, q] += sum_r c1[p, r] t[r, q], with the coefficients folded into
// the code (a zero skipped, a one an add, a minus one a subtract, others a
// multiply-add with a constant), a 6x6 tile costs about 130 vector
// operations instead of 1300. This pass writes that code for each tile:
// loops over the tiles and over the lanes in whole vectors, and inside,
// the tile's loads, both passes fully unrolled, and the stores.
//
// Runs on buffers, in the workgroup functions, before
// --tc-cpu-vectorize-contractions.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUVECTORIZETRANSFORMSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// The largest constant matrix taken as a transform's (Winograd's are at
/// most 6x6; a larger one would unroll into too much code).
constexpr int64_t kMaxMatrix = 8;

/// The values of a small constant f32 matrix read through memref.get_global.
std::optional<SmallVector<SmallVector<double>>> constantMatrix(Value value) {
  auto get = value.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  auto global =
      SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  if (!global || !global.getConstant())
    return std::nullopt;
  auto dense = dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
  auto type = dense ? dyn_cast<RankedTensorType>(dense.getType()) : nullptr;
  if (!type || type.getRank() != 2 || !type.getElementType().isF32() ||
      type.getDimSize(0) > kMaxMatrix || type.getDimSize(1) > kMaxMatrix)
    return std::nullopt;
  SmallVector<SmallVector<double>> matrix(type.getDimSize(0));
  auto values = dense.getValues<APFloat>();
  for (int64_t i = 0; i < type.getDimSize(0); ++i)
    for (int64_t j = 0; j < type.getDimSize(1); ++j)
      matrix[i].push_back(values[i * type.getDimSize(1) + j].convertToDouble());
  return matrix;
}

struct Transform {
  linalg::GenericOp op;
  SmallVector<SmallVector<double>> c1, c2;
  unsigned p, q, r, s; // c1 is read at (p, r), c2 at (q, s)
  unsigned lanes;      // the output's last loop, x's last too
};

bool isDim(AffineExpr e, unsigned &position) {
  auto d = dyn_cast<AffineDimExpr>(e);
  if (d)
    position = d.getPosition();
  return static_cast<bool>(d);
}

/// Whether `value` is a memref whose last dimension is contiguous.
bool unitLastStride(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getRank() > 0 && type.isLastDimUnitStride();
}

std::optional<Transform> match(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 3 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 2)
    return std::nullopt;
  // Body: out + (c1 * c2) * x.
  Block &body = *op.getBlock();
  auto args = body.getArguments();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getNumOperands() == 1
                 ? yield.getOperand(0).getDefiningOp<arith::AddFOp>()
                 : nullptr;
  if (!add || add.getLhs() != args[3] || body.getOperations().size() != 4)
    return std::nullopt;
  auto term = add.getRhs().getDefiningOp<arith::MulFOp>();
  auto weight = term ? term.getLhs().getDefiningOp<arith::MulFOp>() : nullptr;
  if (!weight || term.getRhs() != args[2] || weight.getLhs() != args[0] ||
      weight.getRhs() != args[1])
    return std::nullopt;

  Transform t;
  t.op = op;
  std::optional<SmallVector<SmallVector<double>>> c1 =
      constantMatrix(op.getDpsInputOperand(0)->get());
  std::optional<SmallVector<SmallVector<double>>> c2 =
      constantMatrix(op.getDpsInputOperand(1)->get());
  if (!c1 || !c2)
    return std::nullopt;
  t.c1 = *c1;
  t.c2 = *c2;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[0].getNumResults() != 2 || maps[1].getNumResults() != 2 ||
      !isDim(maps[0].getResult(0), t.p) || !isDim(maps[0].getResult(1), t.r) ||
      !isDim(maps[1].getResult(0), t.q) || !isDim(maps[1].getResult(1), t.s))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto parallel = [&](unsigned loop) {
    return iterators[loop] == utils::IteratorType::parallel;
  };
  if (!parallel(t.p) || !parallel(t.q) || parallel(t.r) || parallel(t.s) ||
      t.p == t.q || t.r == t.s)
    return std::nullopt;
  AffineMap x = maps[2], out = maps[3];
  if (!out.isProjectedPermutation() || out.getNumResults() == 0 ||
      !isDim(out.getResults().back(), t.lanes) || t.lanes == t.p ||
      t.lanes == t.q || x.getNumResults() == 0 ||
      x.getResults().back() != out.getResults().back() ||
      x.isFunctionOfDim(t.p) || x.isFunctionOfDim(t.q) ||
      !out.isFunctionOfDim(t.p) || !out.isFunctionOfDim(t.q))
    return std::nullopt;
  // The lanes loop is read nowhere but in x's and the output's last dims.
  for (unsigned i = 0; i + 1 < x.getNumResults(); ++i)
    if (x.getResult(i).isFunctionOfDim(t.lanes))
      return std::nullopt;
  // The tile's loops are static; the others may be dynamic (a batch).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamic(ranges[t.lanes]) ||
      ranges[t.p] != static_cast<int64_t>(t.c1.size()) ||
      ranges[t.r] != static_cast<int64_t>(t.c1.front().size()) ||
      ranges[t.q] != static_cast<int64_t>(t.c2.size()) ||
      ranges[t.s] != static_cast<int64_t>(t.c2.front().size()))
    return std::nullopt;
  int64_t width = registerLanes(Float32Type::get(op.getContext()));
  if (ranges[t.lanes] % width != 0 && ranges[t.lanes] > width)
    return std::nullopt;
  if (!unitLastStride(op.getDpsInputOperand(2)->get()) ||
      !unitLastStride(op.getDpsInitOperand(0)->get()))
    return std::nullopt;
  return t;
}

/// acc + coefficient * x with the coefficient folded in; `acc` may be null
/// (nothing yet), and so may the result (every coefficient was zero).
Value accumulate(OpBuilder &b, Location loc, Value acc, double coefficient,
                 Value x) {
  if (coefficient == 0)
    return acc;
  auto type = cast<VectorType>(x.getType());
  auto splat = [&]() -> Value {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, b.getF32FloatAttr(
                                         static_cast<float>(coefficient))));
  };
  if (!acc) {
    if (coefficient == 1)
      return x;
    if (coefficient == -1)
      return arith::NegFOp::create(b, loc, x);
    return arith::MulFOp::create(b, loc, splat(), x);
  }
  if (coefficient == 1)
    return arith::AddFOp::create(b, loc, acc, x);
  if (coefficient == -1)
    return arith::SubFOp::create(b, loc, acc, x);
  return vector::FMAOp::create(b, loc, splat(), x, acc);
}

void rewrite(RewriterBase &rewriter, const Transform &t) {
  linalg::GenericOp op = t.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t width = std::min(ranges[t.lanes],
                           registerLanes(rewriter.getF32Type()));
  auto vectorType = VectorType::get({width}, rewriter.getF32Type());
  Value x = op.getDpsInputOperand(2)->get();
  Value out = op.getDpsInitOperand(0)->get();
  AffineMap xMap = op.getIndexingMapsArray()[2];
  AffineMap outMap = op.getIndexingMapsArray()[3];

  // Loops over every loop but p, q, r and s; the lanes in whole vectors.
  SmallVector<Range, 4> bounds =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  SmallVector<OpFoldResult> loops(op.getNumLoops());
  for (unsigned i = 0; i < op.getNumLoops(); ++i) {
    if (i == t.p || i == t.q || i == t.r || i == t.s)
      continue;
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper =
        getValueOrCreateConstantIndexOp(rewriter, loc, bounds[i].size);
    Value step = arith::ConstantIndexOp::create(
        rewriter, loc, i == t.lanes ? width : 1);
    auto loop = scf::ForOp::create(rewriter, loc, lower, upper, step);
    rewriter.setInsertionPointToStart(loop.getBody());
    loops[i] = loop.getInductionVar();
  }
  auto indices = [&](AffineMap map, ArrayRef<std::pair<unsigned, int64_t>> fixed) {
    SmallVector<OpFoldResult> operands(loops);
    for (auto [loop, value] : fixed)
      operands[loop] = rewriter.getIndexAttr(value);
    SmallVector<Value> result;
    for (AffineExpr e : map.getResults())
      result.push_back(getValueOrCreateConstantIndexOp(
          rewriter, loc,
          affine::makeComposedFoldedAffineApply(
              rewriter, loc, AffineMap::get(map.getNumDims(), 0, e), operands)));
    return result;
  };

  int64_t rows = t.c1.front().size(), cols = t.c2.front().size();
  // t[r, q] = sum_s c2[q, s] x[r, s].
  SmallVector<SmallVector<Value>> partial(rows);
  for (int64_t r = 0; r < rows; ++r) {
    SmallVector<Value> xs;
    for (int64_t s = 0; s < cols; ++s)
      xs.push_back(vector::LoadOp::create(
          rewriter, loc, vectorType, x,
          indices(xMap, {{t.r, r}, {t.s, s}})));
    for (const SmallVector<double> &row : t.c2) {
      Value sum;
      for (int64_t s = 0; s < cols; ++s)
        sum = accumulate(rewriter, loc, sum, row[s], xs[s]);
      partial[r].push_back(sum);
    }
  }
  // out[p, q] += sum_r c1[p, r] t[r, q].
  for (auto [p, row] : llvm::enumerate(t.c1))
    for (int64_t q = 0; q < static_cast<int64_t>(t.c2.size()); ++q) {
      SmallVector<Value> at =
          indices(outMap, {{t.p, p}, {t.q, q}, {t.r, 0}, {t.s, 0}});
      Value sum = vector::LoadOp::create(rewriter, loc, vectorType, out, at);
      for (int64_t r = 0; r < rows; ++r)
        if (Value term = partial[r][q])
          sum = accumulate(rewriter, loc, sum, row[r], term);
      vector::StoreOp::create(rewriter, loc, sum, out, at);
    }
  rewriter.eraseOp(op);
}

struct CpuVectorizeTransformsPass
    : impl::CpuVectorizeTransformsPassBase<CpuVectorizeTransformsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Transform> transforms;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<Transform> t = match(op))
        transforms.push_back(*t);
    });
    IRRewriter rewriter(&getContext());
    for (const Transform &t : transforms)
      rewrite(rewriter, t);
  }
};

} // namespace
} // namespace mlir::tc::cpu
