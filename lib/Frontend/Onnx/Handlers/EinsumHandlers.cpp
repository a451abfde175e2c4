//===- EinsumHandlers.cpp - ONNX Einsum to tc -----------------------------===//
//
// The equation is parsed into one label list per operand (ellipsis
// dimensions get labels of their own, right-aligned across operands as
// they broadcast). Each operand first loses its repeated labels (diagonals,
// taken exactly with a strided slice of the flattened square) and the
// labels nothing else uses (summed). Operands are then contracted left to
// right, each pair as one (batch) matmul: [batch, lhs-only, summed] x
// [batch, summed, rhs-only]. A final transpose gives the output's label
// order.
//
//===----------------------------------------------------------------------===//

#include "HandlerUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace mlir::tc;
using namespace mlir::tc::onnx;

namespace {
/// Labels: letters are their character code; ellipsis dimension k (of the
/// longest ellipsis, counted from the left) is kEllipsis + k.
constexpr int kEllipsis = 1000;

/// An operand during the contraction: its value and one label per dimension.
struct Term {
  Value value;
  SmallVector<int> labels;
};

struct Equation {
  SmallVector<SmallVector<int>> inputs;
  SmallVector<int> output;
};

/// Letters of one side of the equation, with "..." standing for
/// `ellipsisRank` dimensions (the last ones of the longest ellipsis).
FailureOr<SmallVector<int>> parseTerm(NodeContext &ctx, StringRef term,
                                      int64_t rank, int64_t &ellipsisRank,
                                      bool isOutput, int64_t maxEllipsis) {
  SmallVector<int> labels;
  size_t dots = term.find("...");
  if (dots != StringRef::npos && term.find("...", dots + 3) != StringRef::npos)
    return ctx.invalid("more than one ellipsis in a term");
  StringRef before = dots == StringRef::npos ? term : term.take_front(dots);
  StringRef after = dots == StringRef::npos ? "" : term.drop_front(dots + 3);
  for (StringRef part : {before, after})
    for (char c : part)
      if (!llvm::isAlpha(c))
        return ctx.invalid(llvm::formatv("unexpected '{0}' in the equation", c));
  int64_t letters = before.size() + after.size();
  ellipsisRank = 0;
  if (dots != StringRef::npos)
    ellipsisRank = isOutput ? maxEllipsis : rank - letters;
  if (!isOutput && letters + ellipsisRank != rank)
    return ctx.invalid(llvm::formatv("term '{0}' does not match an operand of rank {1}",
                                     term, rank));
  if (ellipsisRank < 0)
    return ctx.invalid(llvm::formatv("term '{0}' has more labels than dimensions", term));
  for (char c : before)
    labels.push_back(c);
  for (int64_t k = 0; k < ellipsisRank; ++k)
    labels.push_back(kEllipsis + (maxEllipsis - ellipsisRank) + k);
  for (char c : after)
    labels.push_back(c);
  return labels;
}

FailureOr<Equation> parseEquation(NodeContext &ctx, ArrayRef<int64_t> ranks) {
  std::string text;
  for (char c : ctx.getString("equation", ""))
    if (!llvm::isSpace(c))
      text.push_back(c);
  StringRef eq(text);
  size_t arrow = eq.find("->");
  StringRef lhs = eq.take_front(arrow), rhs;
  bool explicitOutput = arrow != StringRef::npos;
  if (explicitOutput)
    rhs = eq.drop_front(arrow + 2);
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size())
    return ctx.invalid(llvm::formatv("the equation has {0} operands, the node {1}",
                                     terms.size(), ranks.size()));
  // The ellipsis spans the most dimensions any operand gives it.
  int64_t maxEllipsis = 0;
  for (auto [term, rank] : llvm::zip(terms, ranks)) {
    size_t dots = term.find("...");
    if (dots != StringRef::npos)
      maxEllipsis = std::max<int64_t>(maxEllipsis, rank - (int64_t(term.size()) - 3));
  }
  Equation result;
  for (auto [term, rank] : llvm::zip(terms, ranks)) {
    int64_t e;
    FailureOr<SmallVector<int>> labels = parseTerm(ctx, term, rank, e, false, maxEllipsis);
    if (failed(labels))
      return failure();
    result.inputs.push_back(*labels);
  }
  if (explicitOutput) {
    int64_t e;
    FailureOr<SmallVector<int>> labels = parseTerm(ctx, rhs, 0, e, true, maxEllipsis);
    if (failed(labels))
      return failure();
    result.output = *labels;
    for (int l : result.output) {
      if (llvm::count(result.output, l) != 1)
        return ctx.invalid("an output label repeats");
      if (llvm::none_of(result.inputs, [&](auto &in) { return llvm::is_contained(in, l); }))
        return ctx.invalid("an output label is in no operand");
    }
    return result;
  }
  // Implicit output: the ellipsis dimensions, then the letters used once,
  // in alphabetical order.
  for (int64_t k = 0; k < maxEllipsis; ++k)
    result.output.push_back(kEllipsis + k);
  std::map<int, int> uses;
  for (auto &in : result.inputs)
    for (int l : in)
      if (l < kEllipsis)
        ++uses[l];
  for (auto [l, n] : uses)
    if (n == 1)
      result.output.push_back(l);
  return result;
}

Value transposeTo(NodeContext &ctx, Value v, ArrayRef<int64_t> perm) {
  if (!v || llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return v;
  return ctx.build<TransposeOp>({v}, {ctx.namedAttr("permutation", ctx.i64Array(perm))});
}

/// `t` permuted so that its labels are `order`.
Term permuteTo(NodeContext &ctx, const Term &t, ArrayRef<int> order) {
  SmallVector<int64_t> perm;
  for (int l : order)
    perm.push_back(llvm::find(t.labels, l) - t.labels.begin());
  return {transposeTo(ctx, t.value, perm), SmallVector<int>(order)};
}

int64_t dimOf(const Term &t, int label) {
  return NodeContext::typeOf(t.value).getDimSize(llvm::find(t.labels, label) -
                                                 t.labels.begin());
}

/// Takes the diagonal of every label that `t` repeats.
FailureOr<Term> takeDiagonals(NodeContext &ctx, Term t) {
  while (true) {
    auto dup = llvm::find_if(t.labels, [&](int l) { return llvm::count(t.labels, l) > 1; });
    if (dup == t.labels.end())
      return t;
    int label = *dup;
    // The two occurrences go last; [..., n, n] flattened to [..., n * n]
    // has the diagonal at every (n + 1)-th element.
    SmallVector<int> order;
    SmallVector<int64_t> perm, at;
    for (auto [i, l] : llvm::enumerate(t.labels))
      (l == label && at.size() < 2 ? at : perm).push_back(i);
    for (int64_t i : perm)
      order.push_back(t.labels[i]);
    perm.append(at);
    auto type = NodeContext::typeOf(t.value);
    int64_t n = type.getDimSize(at[0]);
    if (n != type.getDimSize(at[1]))
      return ctx.invalid("a repeated label has different sizes");
    Value v = transposeTo(ctx, t.value, perm);
    SmallVector<int64_t> shape;
    for (int64_t i : ArrayRef<int64_t>(perm).drop_back(2))
      shape.push_back(type.getDimSize(i));
    shape.push_back(n * n);
    v = v ? reshapeTo(ctx, v, shape) : nullptr;
    SmallVector<int64_t> starts(shape.size(), 0), ends(shape), steps(shape.size(), 1);
    steps.back() = n + 1;
    v = v ? ctx.build<SliceOp>({v}, {ctx.namedAttr("starts", ctx.i64Array(starts)),
                                     ctx.namedAttr("ends", ctx.i64Array(ends)),
                                     ctx.namedAttr("steps", ctx.i64Array(steps))})
          : nullptr;
    if (!v)
      return failure();
    order.push_back(label);
    t = {v, order};
  }
}

/// Sums `t` over the labels for which `keep` is false.
Term sumOut(NodeContext &ctx, const Term &t, llvm::function_ref<bool(int)> keep) {
  SmallVector<int64_t> axes;
  SmallVector<int> rest;
  for (auto [i, l] : llvm::enumerate(t.labels))
    if (keep(l))
      rest.push_back(l);
    else
      axes.push_back(i);
  if (axes.empty() || !t.value)
    return t;
  return {ctx.build<ReduceSumOp>({t.value}, {ctx.namedAttr("axes", ctx.i64Array(axes))}),
          rest};
}

/// `t` with its size-1 dimensions stretched to `sizes` (ellipsis
/// broadcasting).
Term broadcastTo(NodeContext &ctx, const Term &t, const std::map<int, int64_t> &sizes) {
  auto type = NodeContext::typeOf(t.value);
  SmallVector<int64_t> shape;
  for (int l : t.labels)
    shape.push_back(sizes.at(l));
  if (llvm::equal(shape, type.getShape()))
    return t;
  return {ctx.build<BroadcastOp>({t.value}, {}, {type.clone(shape)}), t.labels};
}

int64_t product(const Term &t, ArrayRef<int> labels) {
  int64_t p = 1;
  for (int l : labels)
    p *= dimOf(t, l);
  return p;
}

/// a x b over their common labels, keeping the labels `keep` says are
/// still needed: [batch..., a-only..., b-only...].
FailureOr<Term> contract(NodeContext &ctx, Term a, Term b,
                         llvm::function_ref<bool(int)> keep) {
  // Labels of one side only that nothing needs any more are summed first.
  a = sumOut(ctx, a, [&](int l) { return keep(l) || llvm::is_contained(b.labels, l); });
  b = sumOut(ctx, b, [&](int l) { return keep(l) || llvm::is_contained(a.labels, l); });
  if (!a.value || !b.value)
    return failure();
  SmallVector<int> batch, summed, aOnly, bOnly;
  std::map<int, int64_t> sizes;
  for (int l : a.labels) {
    if (!llvm::is_contained(b.labels, l)) {
      aOnly.push_back(l);
      sizes[l] = dimOf(a, l);
      continue;
    }
    int64_t da = dimOf(a, l), db = dimOf(b, l);
    if (da != db && da != 1 && db != 1)
      return ctx.invalid("a label has incompatible sizes");
    sizes[l] = std::max(da, db);
    (keep(l) ? batch : summed).push_back(l);
  }
  for (int l : b.labels)
    if (!llvm::is_contained(a.labels, l)) {
      bOnly.push_back(l);
      sizes[l] = dimOf(b, l);
    }
  a = broadcastTo(ctx, a, sizes);
  b = broadcastTo(ctx, b, sizes);
  if (!a.value || !b.value)
    return failure();
  SmallVector<int> aOrder(batch), bOrder(batch);
  aOrder.append(aOnly);
  aOrder.append(summed);
  bOrder.append(summed);
  bOrder.append(bOnly);
  a = permuteTo(ctx, a, aOrder);
  b = permuteTo(ctx, b, bOrder);
  if (!a.value || !b.value)
    return failure();
  int64_t nb = product(a, batch), m = product(a, aOnly), k = product(a, summed),
          n = product(b, bOnly);
  if (m == 1 && n == 1 && aOnly.size() + bOnly.size() == 0) {
    // Only batch and summed labels: an elementwise product summed over the
    // summed labels (a dot product per batch element), no matmul needed.
    Value prod = a.value && b.value ? ctx.build<MulOp>({a.value, b.value}) : nullptr;
    Term t{prod, aOrder};
    t = sumOut(ctx, t, [&](int l) { return llvm::is_contained(batch, l); });
    if (!t.value)
      return failure();
    return t;
  }
  // Without batch labels a plain matmul does.
  Value lhs = a.value ? reshapeTo(ctx, a.value, batch.empty()
                                                    ? SmallVector<int64_t>{m, k}
                                                    : SmallVector<int64_t>{nb, m, k})
                      : nullptr;
  Value rhs = b.value ? reshapeTo(ctx, b.value, batch.empty()
                                                    ? SmallVector<int64_t>{k, n}
                                                    : SmallVector<int64_t>{nb, k, n})
                      : nullptr;
  Value r;
  if (lhs && rhs)
    r = batch.empty() ? ctx.build<MatmulOp>({lhs, rhs}) : ctx.build<BatchMatmulOp>({lhs, rhs});
  SmallVector<int> labels(batch);
  labels.append(aOnly);
  labels.append(bOnly);
  SmallVector<int64_t> shape;
  for (int l : labels)
    shape.push_back(sizes[l]);
  r = r ? reshapeTo(ctx, r, shape) : nullptr;
  if (!r)
    return failure();
  return Term{r, labels};
}

LogicalResult einsum(NodeContext &ctx, SmallVectorImpl<Value> &results) {
  if (ctx.numInputs() == 0)
    return ctx.invalid("Einsum needs an operand");
  SmallVector<int64_t> ranks;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    FailureOr<Value> v = ctx.requireInput(i);
    if (failed(v))
      return failure();
    auto t = NodeContext::typeOf(*v);
    if (!t.hasStaticShape())
      return ctx.unsupported("dynamically shaped operands");
    ranks.push_back(t.getRank());
  }
  FailureOr<Equation> eq = parseEquation(ctx, ranks);
  if (failed(eq))
    return failure();
  SmallVector<Term> terms;
  for (auto [i, labels] : llvm::enumerate(eq->inputs)) {
    FailureOr<Term> t = takeDiagonals(ctx, {ctx.input(i), labels});
    if (failed(t))
      return failure();
    terms.push_back(*t);
  }
  // Whether label l is needed after operand i: by the output or a later
  // operand.
  auto neededAfter = [&](size_t i, int l) {
    if (llvm::is_contained(eq->output, l))
      return true;
    for (size_t j = i + 1; j < terms.size(); ++j)
      if (llvm::is_contained(terms[j].labels, l))
        return true;
    return false;
  };
  Term acc = sumOut(ctx, terms[0], [&](int l) { return neededAfter(0, l); });
  for (size_t i = 1; i < terms.size() && acc.value; ++i) {
    FailureOr<Term> next =
        contract(ctx, acc, terms[i], [&](int l) { return neededAfter(i, l); });
    if (failed(next))
      return failure();
    acc = *next;
  }
  if (!acc.value)
    return failure();
  results.push_back(permuteTo(ctx, acc, eq->output).value);
  return success(results.back() != nullptr);
}
} // namespace

void mlir::tc::onnx::registerEinsumHandlers(OpRegistry &r) { r.add("Einsum", 12, einsum); }
