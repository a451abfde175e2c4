//===- Scan.cpp - tc.cumsum, tc.top_k and tc.non_zero to linalg -----------===//
//
// Both are written as generics with an extra reduction loop over the axis,
// which keeps them parallel over every other dimension and tileable:
// cumsum sums the elements on the right side of the current position
// (quadratic in the axis length, which is short where ONNX models use it),
// top_k ranks every element against the others of its row (ties: lower
// index first) and then picks the element of rank j for output position j.
// non_zero is a sequential scan (scf.for): its output size is data.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

/// Maps of a nest over `rank` dims plus one reduction loop `rank` that
/// replaces `axis`.
AffineMap axisReplacedMap(MLIRContext *ctx, int64_t rank, int64_t axis) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    exprs.push_back(getAffineDimExpr(i == axis ? rank : i, ctx));
  return AffineMap::get(rank + 1, 0, exprs, ctx);
}

struct CumSumPattern : OpConversionPattern<CumSumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank(), axis = op.getAxis();
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    bool isFloat = isa<FloatType>(type.getElementType());
    Value init = filledTensor(rewriter, loc, type,
                              dynamicSizesOf(rewriter, loc, input),
                              scalarConstant(rewriter, loc, type.getElementType(), 0));
    SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
    iterators.push_back(utils::IteratorType::reduction);
    auto identity = AffineMap::getMultiDimIdentityMap(rank + 1, ctx)
                        .getMajorSubMap(rank);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{input}, ValueRange{init},
        {axisReplacedMap(ctx, rank, axis), identity}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value position = linalg::IndexOp::create(b, l, axis);
          Value source = linalg::IndexOp::create(b, l, rank);
          using P = arith::CmpIPredicate;
          P predicate = reverse ? (exclusive ? P::sgt : P::sge)
                                : (exclusive ? P::slt : P::sle);
          Value take = arith::CmpIOp::create(b, l, predicate, source, position);
          Value zero = scalarConstant(b, l, args[0].getType(), 0);
          Value term = arith::SelectOp::create(b, l, take, args[0], zero);
          Value sum = isFloat ? Value(arith::AddFOp::create(b, l, args[1], term))
                              : Value(arith::AddIOp::create(b, l, args[1], term));
          linalg::YieldOp::create(b, l, sum);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct TopKPattern : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank(), axis = op.getAxis();
    Type tcType = elementTypeOf(op.getInput());
    bool isFloat = isa<FloatType>(tcType);
    bool isUnsigned = isUnsignedInt(tcType) || tcType.isInteger(1);
    bool smallest = op.getSmallest();
    Type i64 = rewriter.getI64Type();
    SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
    iterators.push_back(utils::IteratorType::reduction);
    auto identity = AffineMap::getMultiDimIdentityMap(rank + 1, ctx)
                        .getMajorSubMap(rank);
    AffineMap other = axisReplacedMap(ctx, rank, axis);

    // rank[i] = number of elements of the row that come before element i.
    auto rankType = type.clone(i64);
    Value zeros = filledTensor(rewriter, loc, rankType,
                               dynamicSizesOf(rewriter, loc, input),
                               scalarConstant(rewriter, loc, i64, 0));
    Value ranks =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{rankType}, ValueRange{input, input},
            ValueRange{zeros}, {identity, other, identity}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value self = args[0], rival = args[1];
              Value before;
              if (isFloat) {
                using P = arith::CmpFPredicate;
                before = arith::CmpFOp::create(b, l, smallest ? P::OLT : P::OGT,
                                               rival, self);
              } else {
                using P = arith::CmpIPredicate;
                P predicate = smallest ? (isUnsigned ? P::ult : P::slt)
                                       : (isUnsigned ? P::ugt : P::sgt);
                before = arith::CmpIOp::create(b, l, predicate, rival, self);
              }
              Value equal =
                  isFloat ? Value(arith::CmpFOp::create(
                                b, l, arith::CmpFPredicate::OEQ, rival, self))
                          : Value(arith::CmpIOp::create(
                                b, l, arith::CmpIPredicate::eq, rival, self));
              Value earlier = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, linalg::IndexOp::create(b, l, rank),
                  linalg::IndexOp::create(b, l, axis));
              Value tie = arith::AndIOp::create(b, l, equal, earlier);
              Value counts = arith::OrIOp::create(b, l, before, tie);
              Value one = arith::ExtUIOp::create(b, l, i64, counts);
              linalg::YieldOp::create(
                  b, l, ValueRange{arith::AddIOp::create(b, l, args[2], one)});
            })
            .getResult(0);

    // Output position j takes the element of rank j.
    auto valuesType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getValues().getType()));
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    SmallVector<Value> outSizes = dynamicSizesOf(rewriter, loc, input, axis);
    Value valueInit = filledTensor(rewriter, loc, valuesType, outSizes,
                                   scalarConstant(rewriter, loc,
                                                  valuesType.getElementType(), 0));
    Value indexInit = filledTensor(rewriter, loc, indicesType, outSizes,
                                   scalarConstant(rewriter, loc, i64, 0));
    auto pick = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valuesType, indicesType},
        ValueRange{input, ranks}, ValueRange{valueInit, indexInit},
        {other, other, identity, identity}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value j = arith::IndexCastOp::create(b, l, i64,
                                               linalg::IndexOp::create(b, l, axis));
          Value match =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, args[1], j);
          Value source = arith::IndexCastOp::create(
              b, l, i64, linalg::IndexOp::create(b, l, rank));
          Value value = arith::SelectOp::create(b, l, match, args[0], args[2]);
          Value index = arith::SelectOp::create(b, l, match, source, args[3]);
          linalg::YieldOp::create(b, l, ValueRange{value, index});
        });
    rewriter.replaceOp(op, pick.getResults());
    return success();
  }
};

/// NonZero: one pass counts the non-zero elements (the output's size), a
/// second writes each one's indices into the next column. Sequential:
/// the column of an element depends on every element before it.
struct NonZeroPattern : OpConversionPattern<NonZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NonZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank();
    Type i64 = rewriter.getI64Type();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> extents;
    Value total = one;
    for (int64_t d = 0; d < rank; ++d) {
      extents.push_back(tensor::DimOp::create(rewriter, loc, input, d));
      total = arith::MulIOp::create(rewriter, loc, total, extents.back());
    }
    auto indicesOf = [&](OpBuilder &b, Location l, Value flat) {
      return delinearize(b, l, flat, extents);
    };
    auto isNonZero = [&](OpBuilder &b, Location l, Value flat) -> Value {
      Value v = tensor::ExtractOp::create(b, l, input, indicesOf(b, l, flat));
      if (isa<FloatType>(v.getType()))
        return arith::CmpFOp::create(
            b, l, arith::CmpFPredicate::UNE, v,
            arith::ConstantOp::create(b, l, b.getFloatAttr(v.getType(), 0.0)));
      return arith::CmpIOp::create(
          b, l, arith::CmpIPredicate::ne, v,
          arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), 0)));
    };
    auto count = scf::ForOp::create(
        rewriter, loc, zero, total, one, ValueRange{zero},
        [&](OpBuilder &b, Location l, Value flat, ValueRange args) {
          Value step = arith::SelectOp::create(b, l, isNonZero(b, l, flat),
                                               one, zero);
          scf::YieldOp::create(b, l,
                               ValueRange{arith::AddIOp::create(b, l, args[0], step)});
        });
    auto resultType = RankedTensorType::get({rank, ShapedType::kDynamic}, i64);
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType,
                                         ValueRange{count.getResult(0)});
    auto fill = scf::ForOp::create(
        rewriter, loc, zero, total, one, ValueRange{init, zero},
        [&](OpBuilder &b, Location l, Value flat, ValueRange args) {
          auto write = scf::IfOp::create(
              b, l, isNonZero(b, l, flat),
              [&](OpBuilder &tb, Location tl) {
                Value out = args[0];
                SmallVector<Value> indices = indicesOf(tb, tl, flat);
                for (int64_t d = 0; d < rank; ++d)
                  out = tensor::InsertOp::create(
                      tb, tl, arith::IndexCastOp::create(tb, tl, i64, indices[d]),
                      out,
                      ValueRange{arith::ConstantIndexOp::create(tb, tl, d), args[1]});
                Value next = arith::AddIOp::create(tb, tl, args[1], one);
                scf::YieldOp::create(tb, tl, ValueRange{out, next});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, ValueRange{args[0], args[1]});
              });
          scf::YieldOp::create(b, l, write.getResults());
        });
    Value result = fill.getResult(0);
    if (result.getType() != op.getType())
      result = tensor::CastOp::create(rewriter, loc, op.getType(), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateScanPatterns(TcTypeConverter &converter,
                          RewritePatternSet &patterns) {
  patterns.add<CumSumPattern, NonZeroPattern, TopKPattern>(converter,
                                                          patterns.getContext());
}

} // namespace mlir::tc::to_linalg
