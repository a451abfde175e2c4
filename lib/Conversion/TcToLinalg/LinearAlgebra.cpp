//===- LinearAlgebra.cpp - tc.det to scf loops -----------------------------===//
//
// Determinants by LU decomposition with partial pivoting, one matrix at a
// time: the elimination is sequential over the columns, and each step
// updates the whole trailing matrix in place (bufferization turns the
// tensor inserts into stores on one working copy). The determinant is the
// product of the pivots, negated once per row swap.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

struct DetPattern : OpConversionPattern<DetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type tcType = elementTypeOf(op.getInput());
    Type acc = accumulatorType(tcType);
    Value work = castTensor(rewriter, loc, adaptor.getInput(), tcType, acc);
    auto type = cast<RankedTensorType>(work.getType());
    int64_t batchRank = type.getRank() - 2;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value size = dimValue(rewriter, loc, work, batchRank);
    SmallVector<Value> extents;
    Value matrices = one;
    for (int64_t d = 0; d < batchRank; ++d) {
      extents.push_back(dimValue(rewriter, loc, work, d));
      matrices = arith::MulIOp::create(rewriter, loc, matrices, extents.back());
    }
    auto resultType = RankedTensorType::get(type.getShape().drop_back(2), acc);
    SmallVector<Value> batchSizes;
    for (int64_t d = 0; d < batchRank; ++d)
      if (resultType.isDynamicDim(d))
        batchSizes.push_back(extents[d]);
    Value accOne = scalarConstant(rewriter, loc, acc, 1.0);
    Value result = filledTensor(rewriter, loc, resultType, batchSizes, accOne);
    Value accZero = scalarConstant(rewriter, loc, acc, 0.0);

    auto perMatrix = scf::ForOp::create(
        rewriter, loc, zero, matrices, one, ValueRange{work, result},
        [&](OpBuilder &b, Location l, Value flat, ValueRange args) {
          SmallVector<Value> batch = delinearize(b, l, flat, extents);
          auto at = [&](Value i, Value j) {
            SmallVector<Value> indices(batch);
            indices.append({i, j});
            return indices;
          };
          auto get = [&](OpBuilder &gb, Location gl, Value m, Value i, Value j) {
            return tensor::ExtractOp::create(gb, gl, m, at(i, j)).getResult();
          };
          // The running product lives in the result tensor (filled with 1,
          // the determinant of an empty matrix) rather than in a
          // loop-carried scalar: after bufferization the loops carry no
          // values, which lets the GPU targets run them in a kernel.
          auto columns = scf::ForOp::create(
              b, l, zero, size, one, ValueRange{args[0], args[1]},
              [&](OpBuilder &cb, Location cl, Value k, ValueRange c) {
                // The row with the largest magnitude in column k.
                auto search = scf::ForOp::create(
                    cb, cl, k, size, one,
                    ValueRange{k, scalarConstant(cb, cl, acc, -1.0)},
                    [&](OpBuilder &sb, Location sl, Value i, ValueRange s) {
                      Value v = math::AbsFOp::create(sb, sl, get(sb, sl, c[0], i, k));
                      Value better = arith::CmpFOp::create(
                          sb, sl, arith::CmpFPredicate::OGT, v, s[1]);
                      scf::YieldOp::create(
                          sb, sl,
                          ValueRange{arith::SelectOp::create(sb, sl, better, i, s[0]),
                                     arith::SelectOp::create(sb, sl, better, v, s[1])});
                    });
                Value p = search.getResult(0);
                Value swap = arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::ne,
                                                   p, k);
                auto swapped = scf::IfOp::create(
                    cb, cl, swap,
                    [&](OpBuilder &tb, Location tl) {
                      auto rows = scf::ForOp::create(
                          tb, tl, zero, size, one, ValueRange{c[0]},
                          [&](OpBuilder &rb, Location rl, Value j, ValueRange r) {
                            Value top = get(rb, rl, r[0], k, j);
                            Value other = get(rb, rl, r[0], p, j);
                            Value m = tensor::InsertOp::create(rb, rl, other, r[0],
                                                               at(k, j));
                            m = tensor::InsertOp::create(rb, rl, top, m, at(p, j));
                            scf::YieldOp::create(rb, rl, ValueRange{m});
                          });
                      scf::YieldOp::create(tb, tl, rows.getResults());
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, ValueRange{c[0]});
                    });
                Value m = swapped.getResult(0);
                Value pivot = get(cb, cl, m, k, k);
                Value previous = tensor::ExtractOp::create(cb, cl, c[1], batch);
                Value signedPivot = arith::SelectOp::create(
                    cb, cl, swap, arith::NegFOp::create(cb, cl, pivot), pivot);
                Value det = arith::MulFOp::create(cb, cl, previous, signedPivot);
                Value dets = tensor::InsertOp::create(cb, cl, det, c[1], batch);
                // A zero pivot means a zero column below it: the determinant
                // is 0 and there is nothing to eliminate.
                Value nonZero = arith::CmpFOp::create(
                    cb, cl, arith::CmpFPredicate::UNE, pivot, accZero);
                auto eliminated = scf::IfOp::create(
                    cb, cl, nonZero,
                    [&](OpBuilder &tb, Location tl) {
                      Value next = arith::AddIOp::create(tb, tl, k, one);
                      auto rows = scf::ForOp::create(
                          tb, tl, next, size, one, ValueRange{m},
                          [&](OpBuilder &rb, Location rl, Value i, ValueRange r) {
                            Value factor = arith::DivFOp::create(
                                rb, rl, get(rb, rl, r[0], i, k), pivot);
                            auto cols = scf::ForOp::create(
                                rb, rl, next, size, one, ValueRange{r[0]},
                                [&](OpBuilder &jb, Location jl, Value j,
                                    ValueRange w) {
                                  Value updated = arith::SubFOp::create(
                                      jb, jl, get(jb, jl, w[0], i, j),
                                      arith::MulFOp::create(
                                          jb, jl, factor, get(jb, jl, w[0], k, j)));
                                  scf::YieldOp::create(
                                      jb, jl,
                                      ValueRange{tensor::InsertOp::create(
                                          jb, jl, updated, w[0], at(i, j))});
                                });
                            scf::YieldOp::create(rb, rl, cols.getResults());
                          });
                      scf::YieldOp::create(tb, tl, rows.getResults());
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, ValueRange{m});
                    });
                scf::YieldOp::create(cb, cl,
                                     ValueRange{eliminated.getResult(0), dets});
              });
          scf::YieldOp::create(b, l, columns.getResults());
        });
    Value det = castTensor(rewriter, loc, perMatrix.getResult(1), acc, tcType);
    rewriter.replaceOp(op, det);
    return success();
  }
};

} // namespace

void populateLinearAlgebraPatterns(TcTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<DetPattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
