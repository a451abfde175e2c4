//===- Scatter.cpp - tc.scatter_elements/_nd, tc.tensor_scatter to linalg -===//
//
// Scatters are sequential by nature (later updates win, or combine with
// earlier ones), so they become an scf.for nest over the updates that
// carries the result tensor: extract the update and its target position,
// combine with the element there ("none", "add", "mul", "max", "min"),
// insert. Bufferization turns the chain of inserts into in-place stores on a
// copy of the input. Indices wrap when negative; one still out of range
// fails a run-time check (CPU) and is clamped into range.
//
// tensor_scatter's writes never collide (one run of positions per batch),
// so it is a parallel generic over the cache instead: each element works
// out which update position, if any, lands on it.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

Value combine(OpBuilder &b, Location loc, StringRef reduction, Value old,
              Value update, Type tcType) {
  bool isFloat = isa<FloatType>(tcType);
  bool isUnsigned = isUnsignedInt(tcType) || tcType.isInteger(1);
  if (reduction == "add")
    return isFloat ? Value(arith::AddFOp::create(b, loc, old, update))
                   : Value(arith::AddIOp::create(b, loc, old, update));
  if (reduction == "mul")
    return isFloat ? Value(arith::MulFOp::create(b, loc, old, update))
                   : Value(arith::MulIOp::create(b, loc, old, update));
  if (reduction == "max") {
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, old, update);
    return isUnsigned ? Value(arith::MaxUIOp::create(b, loc, old, update))
                      : Value(arith::MaxSIOp::create(b, loc, old, update));
  }
  if (reduction == "min") {
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, old, update);
    return isUnsigned ? Value(arith::MinUIOp::create(b, loc, old, update))
                      : Value(arith::MinSIOp::create(b, loc, old, update));
  }
  return update;
}

/// Builds the loop nest over `shape` (of `updates`) carrying `init`;
/// `body(b, loc, ivs, acc)` returns the new accumulator.
Value loopOverUpdates(
    OpBuilder &b, Location loc, Value updates, Value init,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  auto type = cast<RankedTensorType>(updates.getType());
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(dimValue(b, loc, updates, i));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{init},
      [&](OpBuilder &nested, Location l, ValueRange ivs, ValueRange iterArgs)
          -> scf::ValueVector { return {body(nested, l, ivs, iterArgs[0])}; });
  return nest.results.empty() ? init : nest.results[0];
}

struct ScatterElementsPattern : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    int64_t axis = op.getAxis();
    Type tcType = elementTypeOf(op.getInput());
    bool unsignedIndices = isUnsignedInt(elementTypeOf(op.getIndices()));
    StringRef reduction = op.getReduction();
    Value result = loopOverUpdates(
        rewriter, loc, updates, input,
        [&](OpBuilder &b, Location l, ValueRange ivs, Value acc) {
          Value update = tensor::ExtractOp::create(b, l, updates, ivs);
          Value index = tensor::ExtractOp::create(b, l, indices, ivs);
          SmallVector<Value> target(ivs);
          target[axis] = normalizeIndex(b, l, index, dimValue(b, l, input, axis),
                                        unsignedIndices, op);
          Value old = tensor::ExtractOp::create(b, l, acc, target);
          Value value = combine(b, l, reduction, old, update, tcType);
          return tensor::InsertOp::create(b, l, value, acc, target).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterNDPattern : OpConversionPattern<ScatterNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t q = indicesType.getDimSize(indicesType.getRank() - 1);
    if (ShapedType::isDynamic(q))
      return rewriter.notifyMatchFailure(op, "index depth unknown");
    int64_t batch = indicesType.getRank() - 1;
    Type tcType = elementTypeOf(op.getInput());
    bool unsignedIndices = isUnsignedInt(elementTypeOf(op.getIndices()));
    StringRef reduction = op.getReduction();
    Value result = loopOverUpdates(
        rewriter, loc, updates, input,
        [&](OpBuilder &b, Location l, ValueRange ivs, Value acc) {
          Value update = tensor::ExtractOp::create(b, l, updates, ivs);
          SmallVector<Value> target;
          SmallVector<Value> position(ivs.take_front(batch));
          position.push_back(Value());
          for (int64_t j = 0; j < q; ++j) {
            position.back() = arith::ConstantIndexOp::create(b, l, j);
            Value index = tensor::ExtractOp::create(b, l, indices, position);
            target.push_back(normalizeIndex(b, l, index, dimValue(b, l, input, j),
                                            unsignedIndices, op));
          }
          for (Value iv : ivs.drop_front(batch))
            target.push_back(iv);
          Value old = tensor::ExtractOp::create(b, l, acc, target);
          Value value = combine(b, l, reduction, old, update, tcType);
          return tensor::InsertOp::create(b, l, value, acc, target).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Cache position s of batch b receives update position j = s - w[b]
/// (circular: modulo the cache length) when 0 <= j < the update length.
struct TensorScatterPattern : OpConversionPattern<TensorScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensorScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value cache = adaptor.getCache(), update = adaptor.getUpdate(),
          writeIndices = adaptor.getWriteIndices();
    auto type = cast<RankedTensorType>(cache.getType());
    int64_t rank = type.getRank(), axis = op.getAxis();
    bool circular = op.getCircular();
    Value cacheLength = dimValue(rewriter, loc, cache, axis);
    Value updateLength = dimValue(rewriter, loc, update, axis);
    Value result = buildParallelGeneric(
        rewriter, loc, type, dynamicSizesOf(rewriter, loc, cache), {cache},
        {rewriter.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          using P = arith::CmpIPredicate;
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(linalg::IndexOp::create(b, l, d));
          Value start = zero;
          if (writeIndices)
            start = toIndex(b, l, tensor::ExtractOp::create(
                                      b, l, writeIndices, ValueRange{position[0]}));
          Value j = arith::SubIOp::create(b, l, position[axis], start);
          if (circular) {
            Value r = arith::RemSIOp::create(b, l, j, cacheLength);
            Value negative = arith::CmpIOp::create(b, l, P::slt, r, zero);
            j = arith::SelectOp::create(
                b, l, negative, arith::AddIOp::create(b, l, r, cacheLength), r);
          }
          Value hit = arith::AndIOp::create(
              b, l, arith::CmpIOp::create(b, l, P::sge, j, zero),
              arith::CmpIOp::create(b, l, P::slt, j, updateLength));
          // Read the update only where it lands: j is out of its range
          // elsewhere.
          auto pick = scf::IfOp::create(
              b, l, hit,
              [&](OpBuilder &tb, Location tl) {
                SmallVector<Value> source(position);
                source[axis] = j;
                scf::YieldOp::create(
                    tb, tl, ValueRange{tensor::ExtractOp::create(tb, tl, update,
                                                                 source)});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, ValueRange{args[0]});
              });
          return pick.getResult(0);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateScatterPatterns(TcTypeConverter &converter,
                             RewritePatternSet &patterns) {
  patterns.add<ScatterElementsPattern, ScatterNDPattern, TensorScatterPattern>(
      converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
