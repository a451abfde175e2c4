//===- ControlFlowHandlers.cpp - ONNX If, Loop and Scan into scf regions --===//
//
// Subgraphs import into the regions of scf ops and read values of the
// enclosing graph directly, as ONNX subgraphs do.
//   If   -> scf.if; branch results of different shapes meet in a type with
//           dynamic sizes (tensor.cast in the branch).
//   Loop -> scf.while carrying the iteration count, the condition, the loop
//           state and one growing tensor per scan output (a concat per trip).
//   Scan -> scf.for over the scanned axis; scan inputs are sliced and scan
//           outputs inserted, one slice per iteration.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "../TensorImport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// The most static type both branch results fit, or null.
Type join(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getElementType() != tb.getElementType() ||
      ta.getRank() != tb.getRank())
    return nullptr;
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    shape.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(shape, ta.getElementType());
}

LogicalResult ifOp(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  FailureOr<Value> condIn = ctx.requireInput(0);
  if (failed(condIn))
    return failure();
  const auto *thenAttr = ctx.attr("then_branch");
  const auto *elseAttr = ctx.attr("else_branch");
  if (!thenAttr || !elseAttr || !thenAttr->has_g() || !elseAttr->has_g())
    return ctx.invalid("then_branch and else_branch are required");
  auto condType = NodeContext::typeOf(*condIn);
  if (!condType.getElementType().isInteger(1) ||
      (condType.hasStaticShape() && condType.getNumElements() != 1))
    return ctx.invalid("the condition must be a single bool");
  Value cond = *condIn;
  if (condType.getRank() != 0)
    cond = reshapeTo(ctx, cond, {});
  if (!cond)
    return failure();
  Value flag = tensor::ExtractOp::create(ctx.builder, ctx.loc, cond, ValueRange{});

  // Import both branches into detached blocks first: the result types are
  // only known afterwards.
  auto thenBlock = std::make_unique<Block>(), elseBlock = std::make_unique<Block>();
  FailureOr<SmallVector<Value>> thenValues =
      ctx.importSubgraph(thenAttr->g(), thenBlock.get(), {});
  FailureOr<SmallVector<Value>> elseValues =
      ctx.importSubgraph(elseAttr->g(), elseBlock.get(), {});
  if (failed(thenValues) || failed(elseValues))
    return failure();
  if (thenValues->size() != elseValues->size())
    return ctx.invalid("the branches have different numbers of outputs");
  SmallVector<Type> types;
  for (auto [a, b] : llvm::zip(*thenValues, *elseValues)) {
    Type t = join(a.getType(), b.getType());
    if (!t)
      return ctx.unsupported(llvm::formatv("branch outputs of types {0} and {1}",
                                           a.getType(), b.getType()));
    types.push_back(t);
  }
  auto op = scf::IfOp::create(ctx.builder, ctx.loc, types, flag,
                              /*withElseRegion=*/true);
  auto fill = [&](Region &region, std::unique_ptr<Block> &block,
                  ArrayRef<Value> values) {
    region.front().erase();
    region.push_back(block.release());
    OpBuilder b = OpBuilder::atBlockEnd(&region.front());
    SmallVector<Value> yielded;
    for (auto [v, t] : llvm::zip(values, types))
      yielded.push_back(v.getType() == t
                            ? v
                            : tensor::CastOp::create(b, ctx.loc, t, v).getResult());
    scf::YieldOp::create(b, ctx.loc, yielded);
  };
  fill(op.getThenRegion(), thenBlock, *thenValues);
  fill(op.getElseRegion(), elseBlock, *elseValues);
  llvm::append_range(results, op.getResults());
  return success();
}
/// `v` converted to `type` with tensor.cast when the two differ but are
/// compatible; null otherwise.
Value castIfNeeded(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (!join(v.getType(), type))
    return nullptr;
  return tensor::CastOp::create(b, loc, type, v);
}

/// [d0, ...] -> [1, d0, ...] (one slice of a stacked output).
Value prependUnitDim(NodeContext &ctx, Value v) {
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, NodeContext::typeOf(v).getShape());
  return reshapeTo(ctx, v, shape);
}

LogicalResult loop(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  const auto *bodyAttr = ctx.attr("body");
  if (!bodyAttr || !bodyAttr->has_g())
    return ctx.invalid("the body is required");
  const ::onnx::GraphProto &body = bodyAttr->g();
  size_t numStates = ctx.numInputs() >= 2 ? ctx.numInputs() - 2 : 0;
  int numScans = body.output_size() - 1 - static_cast<int>(numStates);
  if (body.input_size() != static_cast<int>(numStates) + 2 || numScans < 0)
    return ctx.invalid("the body's inputs and outputs do not match the loop");
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  auto i64 = b.getI64Type(), i1 = b.getI1Type();
  auto scalarOf = [&](Value t, Type element) -> Value {
    auto type = NodeContext::typeOf(t);
    if (type.getElementType() != element || (type.hasStaticShape() && type.getNumElements() != 1))
      return nullptr;
    Value s = type.getRank() == 0 ? t : reshapeTo(ctx, t, {});
    return s ? tensor::ExtractOp::create(b, loc, s, ValueRange{}).getResult() : nullptr;
  };
  Value maxTrips = ctx.input(0) ? scalarOf(ctx.input(0), i64) : nullptr;
  Value cond = ctx.input(1) ? scalarOf(ctx.input(1), i1)
                            : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
  if ((ctx.input(0) && !maxTrips) || !cond)
    return ctx.invalid("M must be an int64 scalar and cond a bool scalar");

  // The body is imported first, into a detached block: a scan output's
  // per-trip type is the body's value when the body does not declare it.
  SmallVector<Value> init = {arith::ConstantIntOp::create(b, loc, i64, 0), cond};
  SmallVector<Type> stateTypes;
  for (size_t i = 0; i < numStates; ++i) {
    if (failed(ctx.requireInput(2 + i)))
      return failure();
    init.push_back(ctx.input(2 + i));
    stateTypes.push_back(ctx.input(2 + i).getType());
  }
  auto after = std::make_unique<Block>();
  after->addArgument(i64, loc);
  after->addArgument(i1, loc);
  for (Type t : stateTypes)
    after->addArgument(t, loc);
  SmallVector<Value> bodyArgs;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(after.get());
    bodyArgs.push_back(tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({}, i64), ValueRange{after->getArgument(0)}));
    bodyArgs.push_back(tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({}, i1), ValueRange{after->getArgument(1)}));
  }
  for (size_t i = 0; i < numStates; ++i)
    bodyArgs.push_back(after->getArgument(2 + i));
  FailureOr<SmallVector<Value>> outs = ctx.importSubgraph(body, after.get(), bodyArgs);
  if (failed(outs))
    return failure();

  // Scan outputs grow by one slice per trip from empty tensors.
  SmallVector<Type> scanTypes;
  for (int k = 0; k < numScans; ++k) {
    const auto &out = body.output(1 + numStates + k);
    auto perTrip = NodeContext::typeOf((*outs)[1 + numStates + k]);
    if (out.type().has_tensor_type() && out.type().tensor_type().elem_type()) {
      std::string why;
      Type declared = convertElementType(
          b.getContext(), out.type().tensor_type().elem_type(), why);
      if (!declared)
        return ctx.unsupported(why);
      if (declared != perTrip.getElementType())
        return ctx.invalid("a scan output's element type differs from the "
                           "body's value");
    }
    if (!perTrip.hasStaticShape())
      return ctx.unsupported("scan outputs of dynamic per-trip shape");
    SmallVector<int64_t> shape = {ShapedType::kDynamic}, empty = {0};
    llvm::append_range(shape, perTrip.getShape());
    llvm::append_range(empty, perTrip.getShape());
    auto emptyType = RankedTensorType::get(empty, perTrip.getElementType());
    Value start = ctx.constant(DenseElementsAttr::get(
        emptyType, ArrayRef<Attribute>()));
    auto grownType = RankedTensorType::get(shape, perTrip.getElementType());
    init.push_back(tensor::CastOp::create(b, loc, grownType, start));
    scanTypes.push_back(grownType);
    after->addArgument(grownType, loc);
  }
  SmallVector<Type> types;
  for (Value v : init)
    types.push_back(v.getType());
  auto whileOp = scf::WhileOp::create(b, loc, types, init);
  // createBlock moves the insertion point into the new block; the nodes
  // after the Loop continue after the scf.while.
  OpBuilder::InsertionGuard guard(b);

  // Before: keep going while the trip count allows and cond holds.
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types,
                                SmallVector<Location>(types.size(), loc));
  {
    Value go = before->getArgument(1);
    if (maxTrips) {
      Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         before->getArgument(0), maxTrips);
      go = arith::AndIOp::create(b, loc, go, more);
    }
    scf::ConditionOp::create(b, loc, go, before->getArguments());
  }

  // After: the body, then the next trip's values.
  Block *afterBlock = after.release();
  whileOp.getAfter().push_back(afterBlock);
  b.setInsertionPointToEnd(afterBlock);
  Value nextCond = scalarOf((*outs)[0], i1);
  if (!nextCond)
    return ctx.invalid("the body's cond output must be a bool scalar");
  Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
  SmallVector<Value> next = {
      arith::AddIOp::create(b, loc, afterBlock->getArgument(0), one), nextCond};
  for (size_t i = 0; i < numStates; ++i) {
    Value v = castIfNeeded(b, loc, (*outs)[1 + i], stateTypes[i]);
    if (!v)
      return ctx.unsupported("a loop state whose type changes between trips");
    next.push_back(v);
  }
  for (int k = 0; k < numScans; ++k) {
    Value slice = prependUnitDim(ctx, (*outs)[1 + numStates + k]);
    Value grown = slice ? ctx.build<ConcatOp>(
                              {afterBlock->getArgument(2 + numStates + k), slice},
                              {ctx.namedAttr("axis", b.getI64IntegerAttr(0))},
                              {scanTypes[k]})
                        : nullptr;
    if (!grown)
      return failure();
    next.push_back(grown);
  }
  scf::YieldOp::create(b, loc, next);
  for (size_t i = 2; i < whileOp.getNumResults(); ++i)
    results.push_back(whileOp.getResult(i));
  return success();
}

/// `name` as a list of n ints (zeros where absent).
SmallVector<int64_t> readIntList(NodeContext &ctx, llvm::StringRef name,
                                 int64_t n) {
  SmallVector<int64_t> v =
      ctx.getInts(name).value_or(SmallVector<int64_t>(n, 0));
  v.resize(n, 0);
  return v;
}

/// What a scan iterates: the initial states and the scan inputs, with the
/// per-input and per-output axes and directions.
struct ScanOperands {
  SmallVector<Value> states, scanInputs;
  SmallVector<int64_t> inAxes, inDirs, outAxes, outDirs;
};

LogicalResult buildScan(NodeContext &ctx, const ::onnx::GraphProto &body,
                        const ScanOperands &operands,
                        SmallVectorImpl<Value> &results);

/// Scan-9+: states carried, scan inputs sliced along their scan axis (moved
/// to the front), scan outputs stacked. Directions reverse the index.
LogicalResult scan(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  const auto *bodyAttr = ctx.attr("body");
  if (!bodyAttr || !bodyAttr->has_g())
    return ctx.invalid("the body is required");
  const ::onnx::GraphProto &body = bodyAttr->g();
  int64_t numScanIn = ctx.getInt("num_scan_inputs", 0);
  int64_t numStates = static_cast<int64_t>(ctx.numInputs()) - numScanIn;
  int64_t numScanOut = body.output_size() - numStates;
  if (numScanIn < 1 || numStates < 0 || numScanOut < 0 ||
      body.input_size() != numStates + numScanIn)
    return ctx.invalid("the body's inputs and outputs do not match the scan");
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    if (failed(ctx.requireInput(i)))
      return failure();
  ScanOperands operands;
  operands.states.assign(ctx.allInputs().begin(),
                         ctx.allInputs().begin() + numStates);
  operands.scanInputs.assign(ctx.allInputs().begin() + numStates,
                             ctx.allInputs().end());
  operands.inAxes = readIntList(ctx, "scan_input_axes", numScanIn);
  operands.inDirs = readIntList(ctx, "scan_input_directions", numScanIn);
  operands.outAxes = readIntList(ctx, "scan_output_axes", numScanOut);
  operands.outDirs = readIntList(ctx, "scan_output_directions", numScanOut);
  return buildScan(ctx, body, operands, results);
}

/// Scan-8: like Scan-9 but every input and output has a leading batch axis
/// (the scan axis is 1) and sequence_lens may shorten sequences. With a
/// batch of one and no sequence_lens that is Scan-9 on the inputs without
/// their batch axis.
LogicalResult scan8(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  const auto *bodyAttr = ctx.attr("body");
  if (!bodyAttr || !bodyAttr->has_g())
    return ctx.invalid("the body is required");
  const ::onnx::GraphProto &body = bodyAttr->g();
  if (ctx.input(0))
    return ctx.unsupported("sequence_lens (Scan-8)");
  int64_t numScanIn = ctx.getInt("num_scan_inputs", 0);
  int64_t numStates = static_cast<int64_t>(ctx.numInputs()) - 1 - numScanIn;
  int64_t numScanOut = body.output_size() - numStates;
  if (numScanIn < 1 || numStates < 0 || numScanOut < 0 ||
      body.input_size() != numStates + numScanIn)
    return ctx.invalid("the body's inputs and outputs do not match the scan");
  // [1, ...] -> [...]
  auto dropBatch = [&](Value v) -> Value {
    auto t = NodeContext::typeOf(v);
    if (t.getRank() < 1 || t.getDimSize(0) != 1)
      return nullptr;
    return reshapeTo(ctx, v, t.getShape().drop_front());
  };
  ScanOperands operands;
  for (Value v : ctx.allInputs().drop_front()) {
    Value unbatched = v ? dropBatch(v) : nullptr;
    if (!unbatched)
      return ctx.unsupported("Scan-8 with a batch size other than 1");
    (operands.states.size() < static_cast<size_t>(numStates)
         ? operands.states
         : operands.scanInputs)
        .push_back(unbatched);
  }
  operands.inAxes.assign(numScanIn, 0);
  operands.inDirs = readIntList(ctx, "directions", numScanIn);
  operands.outAxes.assign(numScanOut, 0);
  operands.outDirs.assign(numScanOut, 0);
  SmallVector<Value> unbatched;
  if (failed(buildScan(ctx, body, operands, unbatched)))
    return failure();
  for (Value v : unbatched) {
    SmallVector<int64_t> shape = {1};
    llvm::append_range(shape, NodeContext::typeOf(v).getShape());
    results.push_back(reshapeTo(ctx, v, shape));
    if (!results.back())
      return failure();
  }
  return success();
}

LogicalResult buildScan(NodeContext &ctx, const ::onnx::GraphProto &body,
                        const ScanOperands &operands,
                        SmallVectorImpl<Value> &results) {
  int64_t numStates = operands.states.size(),
          numScanIn = operands.scanInputs.size(),
          numScanOut = operands.outAxes.size();
  ArrayRef<int64_t> inAxes = operands.inAxes, inDirs = operands.inDirs,
                    outAxes = operands.outAxes, outDirs = operands.outDirs;
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;

  // Move every scan axis to the front.
  SmallVector<Value> scanned;
  int64_t trips = ShapedType::kDynamic;
  for (int64_t k = 0; k < numScanIn; ++k) {
    Value x = operands.scanInputs[k];
    auto t = NodeContext::typeOf(x);
    FailureOr<int64_t> axis = ctx.normalizeAxis(inAxes[k], t.getRank());
    if (failed(axis))
      return failure();
    if (*axis != 0) {
      SmallVector<int64_t> perm = {*axis};
      for (int64_t d = 0; d < t.getRank(); ++d)
        if (d != *axis)
          perm.push_back(d);
      x = ctx.build<TransposeOp>({x}, {ctx.namedAttr("permutation", ctx.i64Array(perm))});
      if (!x)
        return failure();
    }
    auto xt = NodeContext::typeOf(x);
    if (!xt.hasStaticShape())
      return ctx.unsupported("scanning dynamically shaped inputs");
    if (ShapedType::isDynamic(trips))
      trips = xt.getDimSize(0);
    else if (trips != xt.getDimSize(0))
      return ctx.invalid("scan inputs differ in length");
    scanned.push_back(x);
  }
  SmallVector<RankedTensorType> outTypes;
  for (int64_t k = 0; k < numScanOut; ++k) {
    const auto &out = body.output(numStates + k);
    std::string why;
    Type element = out.type().has_tensor_type()
                       ? convertElementType(b.getContext(),
                                            out.type().tensor_type().elem_type(), why)
                       : Type();
    if (!element || !out.type().tensor_type().has_shape())
      return ctx.unsupported("scan outputs without a declared type and shape");
    SmallVector<int64_t> shape = {trips};
    for (const auto &d : out.type().tensor_type().shape().dim()) {
      if (!d.has_dim_value())
        return ctx.unsupported("scan outputs of dynamic per-step shape");
      if (d.dim_value() < 0 || d.dim_value() > (int64_t(1) << 40))
        return ctx.invalid("a scan output has a negative or absurd size");
      shape.push_back(d.dim_value());
    }
    outTypes.push_back(RankedTensorType::get(shape, element));
  }

  SmallVector<Value> init(operands.states);
  for (RankedTensorType t : outTypes)
    init.push_back(tensor::EmptyOp::create(b, loc, t.getShape(), t.getElementType()));
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, trips);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto forOp = scf::ForOp::create(b, loc, lb, ub, step, init);
  // With iteration arguments and no body builder, scf.for starts without a
  // terminator: the body is filled here and the yield added last.
  Block *loopBody = forOp.getBody();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(loopBody);
  Value iv = forOp.getInductionVar();
  // Reverse directions walk from the last position down.
  auto positionFor = [&](int64_t direction) -> Value {
    if (!direction)
      return iv;
    Value last = arith::ConstantIndexOp::create(b, loc, trips - 1);
    return arith::SubIOp::create(b, loc, last, iv).getResult();
  };
  // One slice of each scan input, without its leading unit dimension.
  SmallVector<Value> bodyArgs(forOp.getRegionIterArgs().begin(),
                              forOp.getRegionIterArgs().begin() + numStates);
  for (int64_t k = 0; k < numScanIn; ++k) {
    auto xt = NodeContext::typeOf(scanned[k]);
    SmallVector<OpFoldResult> offsets(xt.getRank(), b.getIndexAttr(0)),
        sizes, strides(xt.getRank(), b.getIndexAttr(1));
    offsets[0] = positionFor(inDirs[k]);
    sizes.push_back(b.getIndexAttr(1));
    for (int64_t d = 1; d < xt.getRank(); ++d)
      sizes.push_back(b.getIndexAttr(xt.getDimSize(d)));
    auto sliceType = RankedTensorType::get(xt.getShape().drop_front(),
                                           xt.getElementType());
    bodyArgs.push_back(tensor::ExtractSliceOp::create(
        b, loc, sliceType, scanned[k], offsets, sizes, strides));
  }
  FailureOr<SmallVector<Value>> outs = ctx.importSubgraph(body, loopBody, bodyArgs);
  if (failed(outs))
    return failure();
  b.setInsertionPointToEnd(loopBody);
  SmallVector<Value> yielded;
  for (int64_t i = 0; i < numStates; ++i) {
    Value v = castIfNeeded(b, loc, (*outs)[i], init[i].getType());
    if (!v)
      return ctx.unsupported("a scan state whose type changes between steps");
    yielded.push_back(v);
  }
  for (int64_t k = 0; k < numScanOut; ++k) {
    Value v = (*outs)[numStates + k];
    RankedTensorType t = outTypes[k];
    SmallVector<OpFoldResult> offsets(t.getRank(), b.getIndexAttr(0)),
        sizes, strides(t.getRank(), b.getIndexAttr(1));
    offsets[0] = positionFor(outDirs[k]);
    sizes.push_back(b.getIndexAttr(1));
    for (int64_t d = 1; d < t.getRank(); ++d)
      sizes.push_back(b.getIndexAttr(t.getDimSize(d)));
    yielded.push_back(tensor::InsertSliceOp::create(
        b, loc, v, forOp.getRegionIterArgs()[numStates + k], offsets, sizes,
        strides));
  }
  scf::YieldOp::create(b, loc, yielded);
  b.setInsertionPointAfter(forOp);
  for (int64_t i = 0; i < numStates; ++i)
    results.push_back(forOp.getResult(i));
  for (int64_t k = 0; k < numScanOut; ++k) {
    Value stacked = forOp.getResult(numStates + k);
    auto t = outTypes[k];
    FailureOr<int64_t> axis = ctx.normalizeAxis(outAxes[k], t.getRank());
    if (failed(axis))
      return failure();
    if (*axis != 0) {
      // Stacked at the front; move the new axis to where it belongs.
      SmallVector<int64_t> perm;
      for (int64_t d = 1; d <= *axis; ++d)
        perm.push_back(d);
      perm.push_back(0);
      for (int64_t d = *axis + 1; d < t.getRank(); ++d)
        perm.push_back(d);
      stacked = ctx.build<TransposeOp>(
          {stacked}, {ctx.namedAttr("permutation", ctx.i64Array(perm))});
    }
    results.push_back(stacked);
  }
  return success();
}
} // namespace

void mlir::tc::onnx::registerControlFlowHandlers(OpRegistry &r) {
  r.add("If", 1, ifOp);
  r.add("Loop", 1, loop);
  r.add("Scan", 8, scan8);
  r.add("Scan", 9, scan);
}
