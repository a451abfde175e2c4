//===- RecurrentHandlers.cpp - RNN, GRU and LSTM to tc --------------------===//
//
// With a static sequence length the recurrence is unrolled: the input
// projection of all time steps is one batch matmul, then every step is a
// small matmul with the recurrent weights plus elementwise gate math, and
// the per-step hidden states are concatenated into Y. Fusion regroups each
// step's elementwise tail into one kernel.
//
// sequence_lens is honoured by masking: a step at or past a batch entry's
// length keeps that entry's state and outputs zeros. The same masking is
// right for the reverse direction, whose state stays initial until the
// step at length - 1 is reached.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
enum class Cell { RNN, GRU, LSTM };

/// Unrolling emits about a dozen ops per step and direction; beyond this
/// many steps the node is reported rather than blown up.
constexpr int64_t kMaxUnrolledSteps = 512;

/// One entry of the `activations` attribute with its alpha and beta.
struct Activation {
  std::string name; // lower case
  float alpha = 0.0f, beta = 0.0f;
};

/// The slice [begin, end) of `v` along `axis`, everything along the others.
Value sliceAxis(NodeContext &ctx, Value v, int64_t axis, int64_t begin,
                int64_t end) {
  if (!v)
    return nullptr;
  auto type = NodeContext::typeOf(v);
  SmallVector<int64_t> starts(type.getRank(), 0), steps(type.getRank(), 1);
  SmallVector<int64_t> ends = wholeSliceEnds(type);
  starts[axis] = begin;
  ends[axis] = end;
  return ctx.build<SliceOp>({v}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                  ctx.namedAttr("ends", ctx.i64Array(ends)),
                                  ctx.namedAttr("steps", ctx.i64Array(steps))});
}

Value transposeBy(NodeContext &ctx, Value v, ArrayRef<int64_t> perm) {
  return v ? ctx.build<TransposeOp>({v}, {ctx.namedAttr("permutation",
                                                        ctx.i64Array(perm))})
           : nullptr;
}

/// Entry `index` of the leading (direction) axis of `v`, without that axis.
Value directionSlice(NodeContext &ctx, Value v, int64_t axis, int64_t index) {
  Value s = sliceAxis(ctx, v, axis, index, index + 1);
  if (!s)
    return nullptr;
  SmallVector<int64_t> shape(NodeContext::typeOf(s).getShape());
  shape.erase(shape.begin() + axis);
  return reshapeTo(ctx, s, shape);
}

/// The activation functions of the spec's list, with defaults per cell
/// type. alpha and beta are consumed in order by the functions that take
/// them (as onnxruntime does), falling back to the ONNX operators' defaults.
FailureOr<SmallVector<Activation>>
readActivations(NodeContext &ctx, ArrayRef<StringRef> defaults,
                int64_t directions) {
  SmallVector<std::string> names;
  if (const auto *a = ctx.attr("activations")) {
    for (const std::string &s : a->strings())
      names.push_back(llvm::StringRef(s).lower());
  } else {
    for (int64_t d = 0; d < directions; ++d)
      for (StringRef n : defaults)
        names.push_back(n.lower());
  }
  if (names.size() != defaults.size() * directions)
    return ctx.invalid(llvm::formatv("expected {0} activations, got {1}",
                                     defaults.size() * directions,
                                     names.size()));
  SmallVector<float> alphas, betas;
  if (const auto *a = ctx.attr("activation_alpha"))
    alphas.assign(a->floats().begin(), a->floats().end());
  if (const auto *a = ctx.attr("activation_beta"))
    betas.assign(a->floats().begin(), a->floats().end());
  size_t nextAlpha = 0, nextBeta = 0;
  SmallVector<Activation> acts;
  for (const std::string &name : names) {
    // Default alpha, beta; NaN where the function takes none.
    float nan = std::numeric_limits<float>::quiet_NaN();
    std::pair<float, float> dflt =
        llvm::StringSwitch<std::pair<float, float>>(name)
            .Cases({"relu", "tanh", "sigmoid", "softsign", "softplus"},
                   {nan, nan})
            .Case("affine", {1.0f, 0.0f})
            .Case("leakyrelu", {0.01f, nan})
            .Case("thresholdedrelu", {1.0f, nan})
            .Case("scaledtanh", {1.0f, 1.0f})
            .Case("hardsigmoid", {0.2f, 0.5f})
            .Case("elu", {1.0f, nan})
            .Default({0.0f, 0.0f});
    bool known = llvm::is_contained(
        {"relu", "tanh", "sigmoid", "softsign", "softplus", "affine",
         "leakyrelu", "thresholdedrelu", "scaledtanh", "hardsigmoid", "elu"},
        name);
    if (!known)
      return ctx.unsupported("activation function '" + name + "'");
    Activation act{name, dflt.first, dflt.second};
    if (!std::isnan(dflt.first) && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (!std::isnan(dflt.second) && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    acts.push_back(act);
  }
  return acts;
}

/// `act` applied to `x`.
Value activate(NodeContext &ctx, const Activation &act, Value x) {
  if (!x)
    return nullptr;
  Type element = NodeContext::typeOf(x).getElementType();
  auto f32 = [&](float v) { return ctx.builder.getF32FloatAttr(v); };
  const std::string &n = act.name;
  if (n == "sigmoid")
    return ctx.build<SigmoidOp>({x});
  if (n == "tanh")
    return ctx.build<TanhOp>({x});
  if (n == "relu")
    return ctx.build<ReluOp>({x});
  if (n == "softsign")
    return ctx.build<SoftsignOp>({x});
  if (n == "softplus")
    return ctx.build<SoftplusOp>({x});
  if (n == "leakyrelu")
    return ctx.build<LeakyReluOp>({x}, {ctx.namedAttr("alpha", f32(act.alpha))});
  if (n == "elu")
    return ctx.build<EluOp>({x}, {ctx.namedAttr("alpha", f32(act.alpha))});
  if (n == "hardsigmoid")
    return ctx.build<HardSigmoidOp>({x}, {ctx.namedAttr("alpha", f32(act.alpha)),
                                          ctx.namedAttr("beta", f32(act.beta))});
  if (n == "affine") {
    Value y = ctx.build<MulOp>({x, ctx.scalar(element, act.alpha)});
    return y ? ctx.build<AddOp>({y, ctx.scalar(element, act.beta)}) : nullptr;
  }
  if (n == "scaledtanh") {
    Value y = ctx.build<MulOp>({x, ctx.scalar(element, act.beta)});
    y = y ? ctx.build<TanhOp>({y}) : nullptr;
    return y ? ctx.build<MulOp>({y, ctx.scalar(element, act.alpha)}) : nullptr;
  }
  // thresholdedrelu: x where x > alpha, else 0.
  Value above = compareValues(ctx, ComparePredicate::gt, x,
                              ctx.scalar(element, act.alpha));
  return above ? ctx.build<SelectOp>({above, x, ctx.scalar(element, 0)}) : nullptr;
}

/// What every step of one direction needs.
struct Direction {
  Value xProj;       // [T, B, G*H]: X W^T + biases folded in
  Value rT;          // [H, G*H] (GRU: [H, 2H], the z and r gates)
  Value rhT;         // GRU: [H, H], the h gate
  Value rbh;         // GRU with linear_before_reset: [H]
  Value rbzr;        // GRU with linear_before_reset: [2H]
  Value pi, po, pf;  // LSTM peepholes, [H] each (null when absent)
  ArrayRef<Activation> acts;
};

/// The recurrent node's shared settings.
struct Recurrence {
  Cell cell;
  int64_t gates, hidden;
  Type element;
  std::optional<float> clip;
  bool linearBeforeReset = false;
};

Value clipped(NodeContext &ctx, const Recurrence &rc, Value v) {
  if (!v || !rc.clip)
    return v;
  return ctx.build<ClampOp>({v, ctx.scalar(rc.element, -*rc.clip),
                             ctx.scalar(rc.element, *rc.clip)});
}

/// f(clip(v)).
Value gate(NodeContext &ctx, const Recurrence &rc, const Activation &f, Value v) {
  return activate(ctx, f, clipped(ctx, rc, v));
}

/// Gate k (of width H) of a [B, G*H] tensor.
Value gateSlice(NodeContext &ctx, const Recurrence &rc, Value v, int64_t k) {
  return v ? sliceAxis(ctx, v, 1, k * rc.hidden, (k + 1) * rc.hidden) : nullptr;
}

Value add(NodeContext &ctx, Value a, Value b) {
  return a && b ? ctx.build<AddOp>({a, b}) : nullptr;
}
Value mul(NodeContext &ctx, Value a, Value b) {
  return a && b ? ctx.build<MulOp>({a, b}) : nullptr;
}
Value matmul(NodeContext &ctx, Value a, Value b) {
  return a && b ? ctx.build<MatmulOp>({a, b}) : nullptr;
}

/// One step: the new hidden state (and cell state for LSTM) from the
/// step's input projection `x` ([B, G*H]) and the previous states.
std::pair<Value, Value> step(NodeContext &ctx, const Recurrence &rc,
                             const Direction &dir, Value x, Value h, Value c) {
  ArrayRef<Activation> acts = dir.acts;
  switch (rc.cell) {
  case Cell::RNN:
    return {gate(ctx, rc, acts[0], add(ctx, x, matmul(ctx, h, dir.rT))), nullptr};
  case Cell::LSTM: {
    // Gate order i, o, f, c.
    Value all = add(ctx, x, matmul(ctx, h, dir.rT));
    Value i = gateSlice(ctx, rc, all, 0), o = gateSlice(ctx, rc, all, 1),
          f = gateSlice(ctx, rc, all, 2), g = gateSlice(ctx, rc, all, 3);
    if (dir.pi) {
      i = add(ctx, i, mul(ctx, dir.pi, c));
      f = add(ctx, f, mul(ctx, dir.pf, c));
    }
    i = gate(ctx, rc, acts[0], i);
    f = gate(ctx, rc, acts[0], f);
    g = gate(ctx, rc, acts[1], g);
    Value cNew = add(ctx, mul(ctx, f, c), mul(ctx, i, g));
    if (dir.po)
      o = add(ctx, o, mul(ctx, dir.po, cNew));
    o = gate(ctx, rc, acts[0], o);
    return {mul(ctx, o, activate(ctx, acts[2], cNew)), cNew};
  }
  case Cell::GRU: {
    // Gate order z, r, h.
    Value zr = add(ctx, sliceAxis(ctx, x, 1, 0, 2 * rc.hidden),
                   matmul(ctx, h, dir.rT));
    if (dir.rbzr)
      zr = add(ctx, zr, dir.rbzr);
    Value z = gate(ctx, rc, acts[0], gateSlice(ctx, rc, zr, 0));
    Value r = gate(ctx, rc, acts[0], gateSlice(ctx, rc, zr, 1));
    Value xh = gateSlice(ctx, rc, x, 2), pre;
    if (rc.linearBeforeReset)
      pre = add(ctx, xh, mul(ctx, r, add(ctx, matmul(ctx, h, dir.rhT), dir.rbh)));
    else
      pre = add(ctx, xh, matmul(ctx, mul(ctx, r, h), dir.rhT));
    Value candidate = gate(ctx, rc, acts[1], pre);
    // (1 - z) * candidate + z * h
    Value keep = z ? ctx.build<SubOp>({ctx.scalar(rc.element, 1.0), z}) : nullptr;
    return {add(ctx, mul(ctx, keep, candidate), mul(ctx, z, h)), nullptr};
  }
  }
  return {nullptr, nullptr};
}

/// A zero state [B, H]; B comes from `x` ([T, B, I]) at run time when it
/// is dynamic.
Value zeroState(NodeContext &ctx, const Recurrence &rc, Value x) {
  int64_t batch = NodeContext::typeOf(x).getDimSize(1);
  auto type = RankedTensorType::get({batch, rc.hidden}, rc.element);
  if (!ShapedType::isDynamic(batch))
    return ctx.constant(DenseElementsAttr::get(
        type, ctx.builder.getZeroAttr(rc.element)));
  Value batchSize = sliceAxis(ctx, shapeOf(ctx, x), 0, 1, 2);
  Value shape = batchSize ? ctx.build<ConcatOp>(
                                {batchSize, ctx.constantI64({rc.hidden})},
                                {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(0))})
                          : nullptr;
  return shape ? ctx.build<BroadcastOp>({ctx.scalar(rc.element, 0), shape}, {},
                                        {type})
               : nullptr;
}

Value concatAlong(NodeContext &ctx, ArrayRef<Value> parts, int64_t axis) {
  if (llvm::is_contained(parts, Value()))
    return nullptr;
  if (parts.size() == 1)
    return parts.front();
  return ctx.build<ConcatOp>(
      parts, {ctx.namedAttr("axis", ctx.builder.getI64IntegerAttr(axis))});
}

/// `v` ([B, H]) with `lead` unit dimensions in front.
Value withUnitDims(NodeContext &ctx, Value v, int64_t lead) {
  if (!v)
    return nullptr;
  SmallVector<int64_t> shape(lead, 1);
  llvm::append_range(shape, NodeContext::typeOf(v).getShape());
  return reshapeTo(ctx, v, shape);
}

/// Checks that `v` has the static shape `want`.
LogicalResult expectShape(NodeContext &ctx, Value v, ArrayRef<int64_t> want,
                          StringRef what) {
  auto type = NodeContext::typeOf(v);
  if (!type.hasStaticShape())
    return ctx.unsupported(what + " with a dynamic shape");
  if (type.getShape() != want)
    return ctx.invalid(llvm::formatv("{0} has shape [{1}], expected [{2}]", what,
                                     llvm::make_range(type.getShape().begin(),
                                                      type.getShape().end()),
                                     llvm::make_range(want.begin(), want.end())));
  return success();
}

LogicalResult recurrent(NodeContext &ctx, SmallVectorImpl<Value> &results,
                        Cell cell) {
  FailureOr<Value> xIn = ctx.requireInput(0), w = ctx.requireInput(1),
                   r = ctx.requireInput(2);
  if (failed(xIn) || failed(w) || failed(r))
    return failure();
  Recurrence rc;
  rc.cell = cell;
  rc.gates = cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
  std::string direction = ctx.getString("direction", "forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return ctx.invalid("direction '" + direction + "'");
  int64_t directions = direction == "bidirectional" ? 2 : 1;
  if (cell == Cell::LSTM && ctx.getInt("input_forget", 0) != 0)
    return ctx.unsupported("input_forget=1 (coupled input and forget gates)");
  int64_t layout = ctx.getInt("layout", 0);

  auto xType = NodeContext::typeOf(*xIn);
  if (xType.getRank() != 3)
    return ctx.invalid("X must have rank 3");
  rc.element = xType.getElementType();
  if (!isa<FloatType>(rc.element))
    return ctx.invalid("X must be a float tensor");
  Value x = layout ? transposeBy(ctx, *xIn, {1, 0, 2}) : *xIn;
  if (!x)
    return failure();
  int64_t steps = NodeContext::typeOf(x).getDimSize(0);
  int64_t batch = NodeContext::typeOf(x).getDimSize(1);
  if (ShapedType::isDynamic(steps))
    return ctx.unsupported("a dynamic sequence length (the recurrence is "
                           "unrolled)");
  if (steps == 0)
    return ctx.unsupported("an empty sequence");
  if (steps > kMaxUnrolledSteps)
    return ctx.unsupported(llvm::formatv("a sequence of {0} steps (unrolled up "
                                         "to {1})",
                                         steps, kMaxUnrolledSteps));

  auto rType = NodeContext::typeOf(*r);
  if (rType.getRank() != 3 || rType.isDynamicDim(2))
    return ctx.unsupported("R must be [directions, gates * hidden, hidden] "
                           "with a static hidden size");
  rc.hidden = rType.getDimSize(2);
  if (ctx.hasAttr("hidden_size") && ctx.getInt("hidden_size", 0) != rc.hidden)
    return ctx.invalid("hidden_size does not match R");
  int64_t gh = rc.gates * rc.hidden;
  int64_t inputSize = NodeContext::typeOf(x).getDimSize(2);
  if (ShapedType::isDynamic(inputSize))
    return ctx.unsupported("a dynamic input size");
  if (failed(expectShape(ctx, *w, {directions, gh, inputSize}, "W")) ||
      failed(expectShape(ctx, *r, {directions, gh, rc.hidden}, "R")))
    return failure();
  if (ctx.hasAttr("clip"))
    rc.clip = ctx.getFloat("clip", 0.0f);
  rc.linearBeforeReset =
      cell == Cell::GRU && ctx.getInt("linear_before_reset", 0) != 0;

  SmallVector<StringRef, 3> defaults;
  if (cell == Cell::RNN)
    defaults = {"Tanh"};
  else if (cell == Cell::GRU)
    defaults = {"Sigmoid", "Tanh"};
  else
    defaults = {"Sigmoid", "Tanh", "Tanh"};
  FailureOr<SmallVector<Activation>> acts =
      readActivations(ctx, defaults, directions);
  if (failed(acts))
    return failure();

  Value bias = ctx.input(3), lens = ctx.input(4), h0 = ctx.input(5);
  Value c0 = cell == Cell::LSTM ? ctx.input(6) : Value();
  Value peep = cell == Cell::LSTM ? ctx.input(7) : Value();
  if (bias && failed(expectShape(ctx, bias, {directions, 2 * gh}, "B")))
    return failure();
  if (peep && failed(expectShape(ctx, peep, {directions, 3 * rc.hidden}, "P")))
    return failure();
  // The states are [directions, B, H], or [B, directions, H] with layout 1.
  int64_t stateAxis = layout ? 1 : 0;
  for (Value s : {h0, c0}) {
    if (!s)
      continue;
    auto st = NodeContext::typeOf(s);
    if (st.getRank() != 3 || st.getDimSize(stateAxis) != directions ||
        st.getDimSize(2) != rc.hidden)
      return ctx.invalid("initial_h/initial_c must be [directions, batch, "
                         "hidden] (layout 0) or [batch, directions, hidden]");
  }
  if (lens) {
    auto lt = NodeContext::typeOf(lens);
    if (lt.getRank() != 1 || !isa<IntegerType>(lt.getElementType()))
      return ctx.invalid("sequence_lens must be a 1-D integer tensor");
    // Lengths that are all the full sequence change nothing.
    if (auto known = ctx.getConstantInts(lens);
        known && llvm::all_of(*known, [&](int64_t n) { return n == steps; }))
      lens = nullptr;
  }

  bool wantY = ctx.node.output_size() > 0 && !ctx.node.output(0).empty();
  int64_t perDirection = defaults.size();
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < directions; ++d) {
    bool reverse = direction == "reverse" || d == 1;
    Direction dir;
    dir.acts = ArrayRef<Activation>(*acts).slice(d * perDirection, perDirection);
    // X W^T for all steps at once: one [T * B, I] x [I, G*H] matmul (a
    // dynamic B is the one dynamic size of both reshapes).
    Value wT = transposeBy(ctx, directionSlice(ctx, *w, 0, d), {1, 0});
    int64_t rowCount = ShapedType::isDynamic(batch) ? batch : steps * batch;
    Value rows = wT ? reshapeTo(ctx, x, {rowCount, inputSize}) : nullptr;
    Value proj = rows ? ctx.build<MatmulOp>({rows, wT}) : nullptr;
    dir.xProj = proj ? reshapeTo(ctx, proj, {steps, batch, gh}) : nullptr;
    if (bias) {
      // Both biases fold into the input projection, except GRU's
      // recurrent ones with linear_before_reset, which the reset gate
      // scales (and, to keep the sums in spec order, the z and r ones too).
      Value bd = directionSlice(ctx, bias, 0, d);
      Value wb = bd ? sliceAxis(ctx, bd, 0, 0, gh) : nullptr;
      Value rb = bd ? sliceAxis(ctx, bd, 0, gh, 2 * gh) : nullptr;
      dir.xProj = add(ctx, dir.xProj, wb);
      if (rc.linearBeforeReset) {
        dir.rbzr = rb ? sliceAxis(ctx, rb, 0, 0, 2 * rc.hidden) : nullptr;
        dir.rbh = rb ? sliceAxis(ctx, rb, 0, 2 * rc.hidden, gh) : nullptr;
      } else {
        dir.xProj = add(ctx, dir.xProj, rb);
      }
    }
    Value rd = directionSlice(ctx, *r, 0, d);
    if (!rd)
      return failure();
    if (cell == Cell::GRU) {
      dir.rT = transposeBy(ctx, sliceAxis(ctx, rd, 0, 0, 2 * rc.hidden), {1, 0});
      dir.rhT = transposeBy(ctx, sliceAxis(ctx, rd, 0, 2 * rc.hidden, gh), {1, 0});
    } else {
      dir.rT = transposeBy(ctx, rd, {1, 0});
    }
    if (peep) {
      Value pd = directionSlice(ctx, peep, 0, d);
      dir.pi = pd ? sliceAxis(ctx, pd, 0, 0, rc.hidden) : nullptr;
      dir.po = pd ? sliceAxis(ctx, pd, 0, rc.hidden, 2 * rc.hidden) : nullptr;
      dir.pf = pd ? sliceAxis(ctx, pd, 0, 2 * rc.hidden, 3 * rc.hidden) : nullptr;
      if (!dir.pf)
        return failure();
    }
    if (!dir.xProj || !dir.rT || (cell == Cell::GRU && !dir.rhT) ||
        (bias && rc.linearBeforeReset && !dir.rbh))
      return failure();
    Value h = h0 ? directionSlice(ctx, h0, stateAxis, d) : zeroState(ctx, rc, x);
    Value c;
    if (cell == Cell::LSTM)
      c = c0 ? directionSlice(ctx, c0, stateAxis, d) : zeroState(ctx, rc, x);
    Value zero = ctx.scalar(rc.element, 0);
    SmallVector<Value> outs(steps);
    for (int64_t s = 0; s < steps; ++s) {
      int64_t t = reverse ? steps - 1 - s : s;
      Value xt = sliceAxis(ctx, dir.xProj, 0, t, t + 1);
      xt = xt ? reshapeTo(ctx, xt, {batch, gh}) : nullptr;
      auto [hNew, cNew] = step(ctx, rc, dir, xt, h, c);
      if (!hNew || (cell == Cell::LSTM && !cNew))
        return failure();
      if (lens) {
        // Entries whose sequence has ended keep their state and emit 0.
        Type lensElement = NodeContext::typeOf(lens).getElementType();
        Value valid = compareValues(ctx, ComparePredicate::lt,
                                    ctx.scalar(lensElement, t), lens);
        valid = valid ? reshapeTo(ctx, valid, {batch, 1}) : nullptr;
        if (!valid)
          return failure();
        outs[t] = ctx.build<SelectOp>({valid, hNew, zero});
        h = ctx.build<SelectOp>({valid, hNew, h});
        if (c)
          c = ctx.build<SelectOp>({valid, cNew, c});
      } else {
        outs[t] = h = hNew;
        c = cNew;
      }
      if (!outs[t] || !h || (cell == Cell::LSTM && !c))
        return failure();
    }
    if (wantY) {
      SmallVector<Value> pieces;
      for (Value o : outs)
        pieces.push_back(withUnitDims(ctx, o, 2));
      ys.push_back(concatAlong(ctx, pieces, 0)); // [T, 1, B, H]
    }
    hs.push_back(withUnitDims(ctx, h, 1));
    if (c)
      cs.push_back(withUnitDims(ctx, c, 1));
  }
  Value y = wantY ? concatAlong(ctx, ys, 1) : nullptr; // [T, D, B, H]
  Value yh = concatAlong(ctx, hs, 0);                  // [D, B, H]
  Value yc = cell == Cell::LSTM ? concatAlong(ctx, cs, 0) : nullptr;
  if (layout) {
    y = wantY ? transposeBy(ctx, y, {2, 0, 1, 3}) : nullptr;
    yh = transposeBy(ctx, yh, {1, 0, 2});
    yc = cell == Cell::LSTM ? transposeBy(ctx, yc, {1, 0, 2}) : nullptr;
  }
  if ((wantY && !y) || !yh || (cell == Cell::LSTM && !yc))
    return failure();
  results.append({y, yh});
  if (cell == Cell::LSTM)
    results.push_back(yc);
  return success();
}
} // namespace

void mlir::tc::onnx::registerRecurrentHandlers(OpRegistry &r) {
  r.add("RNN", 1, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    return recurrent(ctx, results, Cell::RNN);
  });
  r.add("GRU", 1, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    return recurrent(ctx, results, Cell::GRU);
  });
  r.add("LSTM", 1, [](NodeContext &ctx, SmallVectorImpl<Value> &results) {
    return recurrent(ctx, results, Cell::LSTM);
  });
}
