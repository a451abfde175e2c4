//===- Reduction.cpp - tc reductions and arg-reductions to linalg ---------===//
//
// A reduction is one generic with reduction iterators over the reduced axes,
// producing the kept dims; keepdims re-inserts the 1s with expand_shape (a
// view). f16/bf16 accumulate in f32. The mean divides by the element count
// of the reduced axes, read at run time when an axis is dynamic.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

enum class Kind { Sum, Mean, Max, Min, Prod };

template <typename OpTy, Kind kind>
struct ReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    Type tcType = elementTypeOf(op.getInput());
    bool isFloat = isa<FloatType>(tcType);
    bool isUnsigned = isUnsignedInt(tcType) || tcType.isInteger(1);
    Type accType = accumulatorType(resultType.getElementType());
    SmallVector<int64_t> axes(op.getAxes());
    llvm::sort(axes);

    Value init;
    switch (kind) {
    case Kind::Sum:
    case Kind::Mean:
      init = scalarConstant(rewriter, loc, accType, 0);
      break;
    case Kind::Prod:
      init = scalarConstant(rewriter, loc, accType, 1);
      break;
    case Kind::Max:
      init = isFloat ? minValueOf(rewriter, loc, accType)
                     : minValueOf(rewriter, loc, tcType);
      break;
    case Kind::Min:
      init = isFloat ? maxValueOf(rewriter, loc, accType)
                     : maxValueOf(rewriter, loc, tcType);
      break;
    }
    Value reduced = reduceTensor(
        rewriter, loc, input, axes, accType, init,
        [&](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          x = castScalar(b, l, x, tcType, isFloat ? accType : tcType);
          switch (kind) {
          case Kind::Sum:
          case Kind::Mean:
            return isFloat ? Value(arith::AddFOp::create(b, l, x, acc))
                           : Value(arith::AddIOp::create(b, l, x, acc));
          case Kind::Prod:
            return isFloat ? Value(arith::MulFOp::create(b, l, x, acc))
                           : Value(arith::MulIOp::create(b, l, x, acc));
          case Kind::Max:
            if (isFloat)
              return arith::MaximumFOp::create(b, l, x, acc);
            return isUnsigned ? Value(arith::MaxUIOp::create(b, l, x, acc))
                              : Value(arith::MaxSIOp::create(b, l, x, acc));
          case Kind::Min:
            if (isFloat)
              return arith::MinimumFOp::create(b, l, x, acc);
            return isUnsigned ? Value(arith::MinUIOp::create(b, l, x, acc))
                              : Value(arith::MinSIOp::create(b, l, x, acc));
          }
          llvm_unreachable("reduction kind");
        });

    auto reducedType = cast<RankedTensorType>(reduced.getType());
    if (kind == Kind::Mean) {
      Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t axis : axes)
        count = arith::MulIOp::create(rewriter, loc, count,
                                      dimValue(rewriter, loc, input, axis));
      Value countInt =
          arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), count);
      SmallVector<Value> dynamicSizes;
      for (int64_t i = 0; i < reducedType.getRank(); ++i)
        if (reducedType.isDynamicDim(i))
          dynamicSizes.push_back(
              tensor::DimOp::create(rewriter, loc, reduced, i));
      reduced = buildParallelGeneric(
          rewriter, loc, reducedType, dynamicSizes, reduced,
          rewriter.getMultiDimIdentityMap(reducedType.getRank()),
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            if (isFloat) {
              Value divisor = arith::SIToFPOp::create(b, l, accType, countInt);
              return arith::DivFOp::create(b, l, args[0], divisor);
            }
            Value divisor = castScalar(b, l, countInt, b.getI64Type(), accType);
            return isUnsigned
                       ? Value(arith::DivUIOp::create(b, l, args[0], divisor))
                       : Value(arith::DivSIOp::create(b, l, args[0], divisor));
          });
    }
    if (accType != resultType.getElementType())
      reduced = castTensor(rewriter, loc, reduced, accType, tcType);
    rewriter.replaceOp(op, expandTo(rewriter, loc, reduced, resultType));
    return success();
  }
};

template <typename OpTy, bool isMax>
struct ArgReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    Type tcType = elementTypeOf(op.getInput());
    Type elementType = inputType.getElementType();
    int64_t rank = inputType.getRank();
    int64_t axis = op.getAxis();
    bool last = op.getSelectLastIndex();
    bool isFloat = isa<FloatType>(tcType);
    bool isUnsigned = isUnsignedInt(tcType) || tcType.isInteger(1);

    SmallVector<int64_t> shape;
    SmallVector<Value> dynamicSizes;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t i = 0; i < rank; ++i) {
      if (i == axis) {
        iterators.push_back(utils::IteratorType::reduction);
        continue;
      }
      iterators.push_back(utils::IteratorType::parallel);
      shape.push_back(inputType.getDimSize(i));
      if (inputType.isDynamicDim(i))
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, i));
    }
    auto valueType = RankedTensorType::get(shape, elementType);
    auto indexType = RankedTensorType::get(shape, rewriter.getI64Type());
    Value valueInit = filledTensor(
        rewriter, loc, valueType, dynamicSizes,
        isMax ? minValueOf(rewriter, loc, tcType) : maxValueOf(rewriter, loc, tcType));
    Value indexInit =
        filledTensor(rewriter, loc, indexType, dynamicSizes,
                     scalarConstant(rewriter, loc, rewriter.getI64Type(), 0));
    AffineMap reducedMap = dropAxesMap(rewriter.getContext(), rank, {axis});
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indexType}, ValueRange{input},
        ValueRange{valueInit, indexInit},
        {rewriter.getMultiDimIdentityMap(rank), reducedMap, reducedMap},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value better;
          if (isFloat) {
            using P = arith::CmpFPredicate;
            P predicate = isMax ? (last ? P::OGE : P::OGT)
                                : (last ? P::OLE : P::OLT);
            better = arith::CmpFOp::create(b, l, predicate, x, best);
          } else {
            using P = arith::CmpIPredicate;
            P predicate;
            if (isMax)
              predicate = isUnsigned ? (last ? P::uge : P::ugt)
                                     : (last ? P::sge : P::sgt);
            else
              predicate = isUnsigned ? (last ? P::ule : P::ult)
                                     : (last ? P::sle : P::slt);
            better = arith::CmpIOp::create(b, l, predicate, x, best);
          }
          Value index = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value newBest = arith::SelectOp::create(b, l, better, x, best);
          Value newIndex =
              arith::SelectOp::create(b, l, better, index, bestIndex);
          linalg::YieldOp::create(b, l, ValueRange{newBest, newIndex});
        });
    rewriter.replaceOp(op,
                       expandTo(rewriter, loc, generic.getResult(1), resultType));
    return success();
  }
};

} // namespace

void populateReductionPatterns(TcTypeConverter &converter,
                               RewritePatternSet &patterns) {
  patterns.add<ReducePattern<ReduceSumOp, Kind::Sum>,
               ReducePattern<ReduceMeanOp, Kind::Mean>,
               ReducePattern<ReduceMaxOp, Kind::Max>,
               ReducePattern<ReduceMinOp, Kind::Min>,
               ReducePattern<ReduceProdOp, Kind::Prod>,
               ArgReducePattern<ArgMaxOp, true>,
               ArgReducePattern<ArgMinOp, false>>(converter,
                                                  patterns.getContext());
}

} // namespace mlir::tc::to_linalg
