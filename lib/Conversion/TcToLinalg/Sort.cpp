//===- Sort.cpp - a stable argsort built from scf loops --------------------===//
//
// Merge sort rather than a rank-counting generic (what tc.top_k does):
// Unique and NonMaxSuppression sort whole tensors, where a quadratic
// number of comparisons would not scale. Runs of width 1, 2, 4, ... are
// merged from one permutation buffer into the other, then the two swap.
//
//===----------------------------------------------------------------------===//

#include "Sort.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tc::to_linalg {

Value buildStableArgSort(OpBuilder &b, Location loc, Value n, LessFn less) {
  using P = arith::CmpIPredicate;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto permType = RankedTensorType::get({ShapedType::kDynamic}, b.getIndexType());
  Value identity =
      scf::ForOp::create(
          b, loc, zero, n, one,
          ValueRange{tensor::EmptyOp::create(b, loc, permType, ValueRange{n})},
          [&](OpBuilder &fb, Location l, Value i, ValueRange args) {
            scf::YieldOp::create(
                fb, l, ValueRange{tensor::InsertOp::create(fb, l, i, args[0],
                                                           ValueRange{i})});
          })
          .getResult(0);
  Value scratch = tensor::EmptyOp::create(b, loc, permType, ValueRange{n});

  Type indexType = b.getIndexType();
  auto passes = scf::WhileOp::create(
      b, loc, TypeRange{indexType, permType, permType},
      ValueRange{one, identity, scratch},
      [&](OpBuilder &wb, Location l, ValueRange args) {
        Value more = arith::CmpIOp::create(wb, l, P::ult, args[0], n);
        scf::ConditionOp::create(wb, l, more, args);
      },
      [&](OpBuilder &wb, Location l, ValueRange args) {
        Value width = args[0], source = args[1];
        Value twice = arith::AddIOp::create(wb, l, width, width);
        auto runs = scf::ForOp::create(
            wb, l, zero, n, twice, ValueRange{args[2]},
            [&](OpBuilder &rb, Location rl, Value lo, ValueRange runArgs) {
              Value mid = arith::MinUIOp::create(
                  rb, rl, arith::AddIOp::create(rb, rl, lo, width), n);
              Value hi = arith::MinUIOp::create(
                  rb, rl, arith::AddIOp::create(rb, rl, lo, twice), n);
              auto merge = scf::ForOp::create(
                  rb, rl, lo, hi, one, ValueRange{lo, mid, runArgs[0]},
                  [&](OpBuilder &mb, Location ml, Value k, ValueRange m) {
                    Value i = m[0], j = m[1];
                    Value leftOk = arith::CmpIOp::create(mb, ml, P::ult, i, mid);
                    Value rightOk = arith::CmpIOp::create(mb, ml, P::ult, j, hi);
                    // At least one side has an element left; read valid
                    // positions only.
                    Value li = arith::SelectOp::create(mb, ml, leftOk, i, j);
                    Value ri = arith::SelectOp::create(mb, ml, rightOk, j, i);
                    Value left = tensor::ExtractOp::create(mb, ml, source, li);
                    Value right = tensor::ExtractOp::create(mb, ml, source, ri);
                    // Strictly less keeps equal elements in order.
                    Value rightFirst = less(mb, ml, right, left);
                    Value trueValue = arith::ConstantIntOp::create(mb, ml, 1, 1);
                    Value takeLeft = arith::AndIOp::create(
                        mb, ml, leftOk,
                        arith::OrIOp::create(
                            mb, ml,
                            arith::XOrIOp::create(mb, ml, rightOk, trueValue),
                            arith::XOrIOp::create(mb, ml, rightFirst, trueValue)));
                    Value picked =
                        arith::SelectOp::create(mb, ml, takeLeft, left, right);
                    Value out = tensor::InsertOp::create(mb, ml, picked, m[2],
                                                         ValueRange{k});
                    Value step = arith::SelectOp::create(mb, ml, takeLeft, one, zero);
                    Value nextI = arith::AddIOp::create(mb, ml, i, step);
                    Value nextJ = arith::AddIOp::create(
                        mb, ml, j, arith::SubIOp::create(mb, ml, one, step));
                    scf::YieldOp::create(mb, ml, ValueRange{nextI, nextJ, out});
                  });
              scf::YieldOp::create(rb, rl, ValueRange{merge.getResult(2)});
            });
        scf::YieldOp::create(wb, l,
                             ValueRange{twice, runs.getResult(0), source});
      });
  return passes.getResult(1);
}

} // namespace mlir::tc::to_linalg
