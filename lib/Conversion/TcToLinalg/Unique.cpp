//===- Unique.cpp - tc.unique to a sort and scans ---------------------------===//
//
// The input is viewed as `slices` items (its elements, or its slices along
// the axis) of `length` elements each. A stable argsort orders the items
// (lexicographically for slices); a scan over the sorted order counts the
// runs of equal items (the result's size), and a second scan fills each
// run's first position (the smallest, since the sort is stable), its count
// and the inverse index of every item. For first-occurrence order, a third
// scan renumbers the runs in the order their first items appear. The values
// are then gathered from the input at the first positions.
//
//===----------------------------------------------------------------------===//

#include "Sort.h"
#include "Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {
using P = arith::CmpIPredicate;

/// `cond ? value : otherwise()`, where `otherwise` is built in the else
/// branch only: it may read out of range when `cond` holds.
Value orElse(OpBuilder &b, Location l, Value cond, bool value,
             function_ref<Value(OpBuilder &, Location)> otherwise) {
  auto choice = scf::IfOp::create(
      b, l, cond,
      [&](OpBuilder &tb, Location tl) {
        scf::YieldOp::create(
            tb, tl, ValueRange{arith::ConstantIntOp::create(tb, tl, value, 1)});
      },
      [&](OpBuilder &eb, Location el) {
        scf::YieldOp::create(eb, el, ValueRange{otherwise(eb, el)});
      });
  return choice.getResult(0);
}

/// Element `t` of item `s` of the input, the input seen as
/// [outer..., slices, inner...] with `t` enumerating outer x inner.
struct ItemView {
  Value input;
  SmallVector<Value> extents;
  std::optional<int64_t> axis; // none: items are the flat elements
  bool isFloat, isUnsigned;

  Value element(OpBuilder &b, Location l, Value s, Value t) const {
    if (!axis)
      return tensor::ExtractOp::create(b, l, input, delinearize(b, l, s, extents));
    SmallVector<Value> others(extents);
    others.erase(others.begin() + *axis);
    SmallVector<Value> indices = delinearize(b, l, t, others);
    indices.insert(indices.begin() + *axis, s);
    return tensor::ExtractOp::create(b, l, input, indices);
  }

  Value lessThan(OpBuilder &b, Location l, Value x, Value y) const {
    if (isFloat)
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, y);
    return arith::CmpIOp::create(b, l, isUnsigned ? P::ult : P::slt, x, y);
  }
  Value equal(OpBuilder &b, Location l, Value x, Value y) const {
    if (isFloat)
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, x, y);
    return arith::CmpIOp::create(b, l, P::eq, x, y);
  }

  /// (less, equal) of items `s1` and `s2`: their first differing element
  /// decides.
  std::pair<Value, Value> compare(OpBuilder &b, Location l, Value s1, Value s2,
                                  Value length) const {
    Value zero = arith::ConstantIndexOp::create(b, l, 0);
    if (!axis) {
      Value x = element(b, l, s1, zero), y = element(b, l, s2, zero);
      return {lessThan(b, l, x, y), equal(b, l, x, y)};
    }
    Value one = arith::ConstantIndexOp::create(b, l, 1);
    // Advance t while the items agree at t.
    auto scan = scf::WhileOp::create(
        b, l, TypeRange{b.getIndexType()}, ValueRange{zero},
        [&](OpBuilder &wb, Location wl, ValueRange args) {
          Value t = args[0];
          Value past = arith::CmpIOp::create(wb, wl, P::uge, t, length);
          Value same = orElse(wb, wl, past, false, [&](OpBuilder &eb, Location el) {
            return equal(eb, el, element(eb, el, s1, t), element(eb, el, s2, t));
          });
          scf::ConditionOp::create(wb, wl, same, args);
        },
        [&](OpBuilder &wb, Location wl, ValueRange args) {
          scf::YieldOp::create(wb, wl,
                               ValueRange{arith::AddIOp::create(wb, wl, args[0], one)});
        });
    Value t = scan.getResult(0);
    Value same = arith::CmpIOp::create(b, l, P::eq, t, length);
    Value less = orElse(b, l, same, false, [&](OpBuilder &eb, Location el) {
      return lessThan(eb, el, element(eb, el, s1, t), element(eb, el, s2, t));
    });
    return {less, same};
  }
};

/// A 1-D index tensor of `size` elements.
Value indexTensor(OpBuilder &b, Location loc, Value size) {
  auto type = RankedTensorType::get({ShapedType::kDynamic}, b.getIndexType());
  return tensor::EmptyOp::create(b, loc, type, ValueRange{size});
}

Value extractAt(OpBuilder &b, Location l, Value tensor, Value i) {
  return tensor::ExtractOp::create(b, l, tensor, ValueRange{i});
}

/// An index tensor as i64, cast to `type` (static extents where known).
Value asI64(OpBuilder &b, Location loc, Value indices, Type type) {
  auto i64Type = cast<RankedTensorType>(indices.getType()).clone(b.getI64Type());
  Value size = tensor::DimOp::create(b, loc, indices, 0);
  Value out = buildParallelGeneric(
      b, loc, i64Type, {size}, {indices}, {b.getMultiDimIdentityMap(1)},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::IndexCastOp::create(nb, l, nb.getI64Type(), args[0]);
      });
  if (out.getType() != type)
    out = tensor::CastOp::create(b, loc, type, out);
  return out;
}

struct UniquePattern : OpConversionPattern<UniqueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UniqueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank();
    Type tcType = elementTypeOf(op.getInput());
    std::optional<int64_t> axis;
    if (std::optional<uint64_t> a = op.getAxis())
      axis = static_cast<int64_t>(*a);
    ItemView view{input, {}, axis, isa<FloatType>(tcType),
                  isUnsignedInt(tcType) || tcType.isInteger(1)};
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value items = one, length = one;
    for (int64_t d = 0; d < rank; ++d) {
      view.extents.push_back(dimValue(rewriter, loc, input, d));
      if (!axis || d == *axis)
        items = arith::MulIOp::create(rewriter, loc, items, view.extents[d]);
      else
        length = arith::MulIOp::create(rewriter, loc, length, view.extents[d]);
    }

    Value order = buildStableArgSort(
        rewriter, loc, items, [&](OpBuilder &b, Location l, Value x, Value y) {
          return view.compare(b, l, x, y, length).first;
        });
    // Item t of the sorted order starts a run unless it equals item t - 1.
    auto startsRun = [&](OpBuilder &b, Location l, Value t) -> Value {
      Value first = arith::CmpIOp::create(b, l, P::eq, t, zero);
      return orElse(b, l, first, true, [&](OpBuilder &eb, Location el) {
        Value previous =
            extractAt(eb, el, order, arith::SubIOp::create(eb, el, t, one));
        Value same = view.compare(eb, el, previous, extractAt(eb, el, order, t),
                                  length)
                         .second;
        return arith::XOrIOp::create(eb, el, same,
                                     arith::ConstantIntOp::create(eb, el, 1, 1))
            .getResult();
      });
    };
    Value runs =
        scf::ForOp::create(
            rewriter, loc, zero, items, one, ValueRange{zero},
            [&](OpBuilder &b, Location l, Value t, ValueRange args) {
              Value step =
                  arith::SelectOp::create(b, l, startsRun(b, l, t), one, zero);
              scf::YieldOp::create(
                  b, l, ValueRange{arith::AddIOp::create(b, l, args[0], step)});
            })
            .getResult(0);

    // Per run (in sorted order): first position and count; per item: its run.
    auto fill = scf::ForOp::create(
        rewriter, loc, zero, items, one,
        ValueRange{zero, indexTensor(rewriter, loc, runs),
                   indexTensor(rewriter, loc, runs),
                   indexTensor(rewriter, loc, items)},
        [&](OpBuilder &b, Location l, Value t, ValueRange args) {
          // args[0] is the number of runs seen so far.
          Value item = extractAt(b, l, order, t);
          auto next = scf::IfOp::create(
              b, l, startsRun(b, l, t),
              [&](OpBuilder &tb, Location tl) {
                Value firsts = tensor::InsertOp::create(tb, tl, item, args[1],
                                                        ValueRange{args[0]});
                Value counts = tensor::InsertOp::create(tb, tl, one, args[2],
                                                        ValueRange{args[0]});
                scf::YieldOp::create(
                    tb, tl,
                    ValueRange{arith::AddIOp::create(tb, tl, args[0], one),
                               firsts, counts});
              },
              [&](OpBuilder &eb, Location el) {
                Value run = arith::SubIOp::create(eb, el, args[0], one);
                Value count = arith::AddIOp::create(
                    eb, el, extractAt(eb, el, args[2], run), one);
                Value counts = tensor::InsertOp::create(eb, el, count, args[2],
                                                        ValueRange{run});
                scf::YieldOp::create(eb, el, ValueRange{args[0], args[1], counts});
              });
          Value run = arith::SubIOp::create(b, l, next.getResult(0), one);
          Value inverse = tensor::InsertOp::create(b, l, run, args[3],
                                                   ValueRange{item});
          scf::YieldOp::create(b, l,
                               ValueRange{next.getResult(0), next.getResult(1),
                                          next.getResult(2), inverse});
        });
    Value firsts = fill.getResult(1), counts = fill.getResult(2),
          inverse = fill.getResult(3);

    if (op.getUnsorted()) {
      // Number the runs in the order of their first items: item s is the
      // first of its run when the run's first position is s.
      auto renumber = scf::ForOp::create(
          rewriter, loc, zero, items, one,
          ValueRange{zero, indexTensor(rewriter, loc, runs)},
          [&](OpBuilder &b, Location l, Value s, ValueRange args) {
            Value run = extractAt(b, l, inverse, s);
            Value isFirst = arith::CmpIOp::create(
                b, l, P::eq, extractAt(b, l, firsts, run), s);
            auto next = scf::IfOp::create(
                b, l, isFirst,
                [&](OpBuilder &tb, Location tl) {
                  Value ranks = tensor::InsertOp::create(tb, tl, args[0], args[1],
                                                         ValueRange{run});
                  scf::YieldOp::create(
                      tb, tl,
                      ValueRange{arith::AddIOp::create(tb, tl, args[0], one), ranks});
                },
                [&](OpBuilder &eb, Location el) {
                  scf::YieldOp::create(eb, el, ValueRange{args[0], args[1]});
                });
            scf::YieldOp::create(b, l, next.getResults());
          });
      Value rankOf = renumber.getResult(1);
      auto permute = scf::ForOp::create(
          rewriter, loc, zero, runs, one,
          ValueRange{indexTensor(rewriter, loc, runs),
                     indexTensor(rewriter, loc, runs)},
          [&](OpBuilder &b, Location l, Value run, ValueRange args) {
            Value r = extractAt(b, l, rankOf, run);
            Value f = tensor::InsertOp::create(b, l, extractAt(b, l, firsts, run),
                                               args[0], ValueRange{r});
            Value c = tensor::InsertOp::create(b, l, extractAt(b, l, counts, run),
                                               args[1], ValueRange{r});
            scf::YieldOp::create(b, l, ValueRange{f, c});
          });
      firsts = permute.getResult(0);
      counts = permute.getResult(1);
      auto idType = cast<RankedTensorType>(inverse.getType());
      inverse = buildParallelGeneric(
          rewriter, loc, idType, {items}, {inverse},
          {rewriter.getMultiDimIdentityMap(1)},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            return extractAt(b, l, rankOf, args[0]);
          });
    }

    // The values: the input at each run's first item.
    auto valuesType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getValues().getType()));
    SmallVector<Value> valueSizes;
    for (int64_t d = 0; d < valuesType.getRank(); ++d)
      if (valuesType.isDynamicDim(d))
        valueSizes.push_back((!axis || d == *axis) ? runs : view.extents[d]);
    Value values = buildParallelGeneric(
        rewriter, loc, valuesType, valueSizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          if (!axis) {
            Value item = extractAt(b, l, firsts, linalg::IndexOp::create(b, l, 0));
            return view.element(b, l, item, zero);
          }
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d)
            indices.push_back(linalg::IndexOp::create(b, l, d));
          indices[*axis] = extractAt(b, l, firsts, indices[*axis]);
          return tensor::ExtractOp::create(b, l, input, indices);
        });

    rewriter.replaceOp(
        op, {values, asI64(rewriter, loc, firsts, op.getIndices().getType()),
             asI64(rewriter, loc, inverse, op.getInverseIndices().getType()),
             asI64(rewriter, loc, counts, op.getCounts().getType())});
    return success();
  }
};

} // namespace

void populateUniquePatterns(TcTypeConverter &converter,
                            RewritePatternSet &patterns) {
  patterns.add<UniquePattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
