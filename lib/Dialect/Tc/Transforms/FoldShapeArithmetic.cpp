//===- FoldShapeArithmetic.cpp - the --tc-fold-shape-arithmetic pass ------===//
//
// Exporters compute the shapes of Reshape, Expand and Slice from Shape ops:
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape. With a dynamic axis
// (torch.onnx.export's dynamic_axes) Shape is no longer a constant, so
// folding stops, and every size the chain computes becomes "?", the static
// ones included (the 12 heads and 64 features of an attention reshape). This
// pass tracks the elements of small integer tensors one by one: an element
// is known when it follows from constants and static sizes, whatever the
// other elements are. Then:
//   - a value whose elements are all known becomes a constant;
//   - a reshape or broadcast takes the known elements of its shape operand
//     as static sizes (and drops the operand once all are static);
//   - a dynamic_slice whose bounds are all known becomes a tc.slice;
// and shape inference carries the refined types downstream, where more
// elements become known, until nothing changes.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Fusion/IR/FusionDialect.h"
#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Dialect/Tc/IR/TcOps.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <functional>
#include <limits>
#include <map>

namespace mlir::tc {
#define GEN_PASS_DEF_TCFOLDSHAPEARITHMETICPASS
#include "tc/Dialect/Tc/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// A dynamic extent, named by where it comes from once equal extents are
/// traced to one origin (ShapeElements::origin): a function argument's
/// named dim (its ONNX dim_param), or a value's dimension.
using Symbol = std::pair<const void *, int64_t>;

/// An element of a shape vector: `coefficient` times the product of
/// `symbols` (sorted), e.g. 64, or batch * sequence * 64. What the analysis
/// cannot express is std::nullopt.
struct Term {
  int64_t coefficient = 1;
  SmallVector<Symbol, 2> symbols;

  static Term constant(int64_t value) { return Term{value, {}}; }
  bool isConstant() const { return symbols.empty(); }
  bool operator==(const Term &other) const {
    return coefficient == other.coefficient && symbols == other.symbols;
  }
  /// A product of extents (never negative) with a positive coefficient.
  bool isNonNegative() const { return coefficient >= 0; }
};

/// The elements of a small integer tensor, each a term or unknown.
using Elements = SmallVector<std::optional<Term>>;

/// Shape vectors, their elements and scalars: rank 0 or 1, static, short.
constexpr int64_t kMaxTracked = 64;

bool isTracked(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getRank() <= 1 &&
         tensor.getNumElements() <= kMaxTracked &&
         isa<IntegerType>(tensor.getElementType());
}

std::optional<int64_t> constantOf(const std::optional<Term> &term) {
  if (!term || !term->isConstant())
    return std::nullopt;
  return term->coefficient;
}

bool allConstant(const Elements &elements) {
  return llvm::all_of(elements, [](auto &e) { return constantOf(e).has_value(); });
}

std::optional<Term> multiply(const Term &a, const Term &b) {
  Term r;
  if (__builtin_mul_overflow(a.coefficient, b.coefficient, &r.coefficient))
    return std::nullopt;
  r.symbols = a.symbols;
  r.symbols.append(b.symbols.begin(), b.symbols.end());
  llvm::sort(r.symbols);
  return r;
}

/// a / b when it is exact as terms: b's symbols all among a's, and the
/// coefficients dividing (integer Div of extents, as the exporters' -1
/// inference computes it).
std::optional<Term> divide(const Term &a, const Term &b) {
  if (b.coefficient == 0 || a.coefficient % b.coefficient != 0)
    return std::nullopt;
  Term r{a.coefficient / b.coefficient, a.symbols};
  for (const Symbol &symbol : b.symbols) {
    auto it = llvm::find(r.symbols, symbol);
    if (it == r.symbols.end())
      return std::nullopt;
    r.symbols.erase(it);
  }
  return r;
}

/// Elementwise `fn` with numpy broadcasting of a one-element side.
std::optional<Elements>
combine(const Elements &lhs, const Elements &rhs,
        function_ref<std::optional<Term>(const Term &, const Term &)> fn) {
  size_t n = std::max(lhs.size(), rhs.size());
  if ((lhs.size() != n && lhs.size() != 1) ||
      (rhs.size() != n && rhs.size() != 1))
    return std::nullopt;
  Elements result;
  for (size_t i = 0; i < n; ++i) {
    const std::optional<Term> &a = lhs[lhs.size() == 1 ? 0 : i];
    const std::optional<Term> &b = rhs[rhs.size() == 1 ? 0 : i];
    result.push_back(a && b ? fn(*a, *b) : std::nullopt);
  }
  return result;
}

/// Overflow-checked constant arithmetic: what would overflow is unknown.
std::optional<Term> checked(bool overflow, int64_t value) {
  return overflow ? std::nullopt : std::optional<Term>(Term::constant(value));
}

class ShapeElements {
public:
  /// The elements of `value`, or nullopt when it is not a tracked tensor.
  std::optional<Elements> get(Value value) {
    if (!isTracked(value.getType()))
      return std::nullopt;
    auto it = cache.find(value);
    if (it != cache.end())
      return it->second;
    std::optional<Elements> result = compute(value);
    int64_t count = cast<RankedTensorType>(value.getType()).getNumElements();
    if (result && static_cast<int64_t>(result->size()) != count)
      result = std::nullopt;
    if (!result)
      result = Elements(count, std::nullopt);
    return cache[value] = result;
  }

  /// Extent `dim` of `value` as a term: its static size, or the symbol of
  /// the extent it is traced to (equal extents get one symbol, so that
  /// batch * sequence * 64 / (batch * sequence * 4) is 16).
  Term extent(Value value, int64_t dim) {
    int64_t size = cast<RankedTensorType>(value.getType()).getDimSize(dim);
    if (!ShapedType::isDynamic(size))
      return Term::constant(size);
    auto key = std::make_pair(value, dim);
    auto it = origins.find(key);
    if (it != origins.end())
      return it->second;
    Term term = traceExtent(value, dim);
    return origins[key] = term;
  }

private:
  Term symbolOf(Value value, int64_t dim) {
    return Term{1, {Symbol(value.getAsOpaquePointer(), dim)}};
  }

  /// Where a dynamic extent comes from, through the ops that keep it.
  Term traceExtent(Value value, int64_t dim) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // Arguments with one ONNX dim_param have one extent (checked when a
      // model runs).
      auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (func && arg.getOwner()->isEntryBlock())
        if (auto names = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                          kDimParamsAttr))
          if (dim < static_cast<int64_t>(names.size()))
            if (auto name = dyn_cast<StringAttr>(names[dim]);
                name && !name.getValue().empty())
              return Term{1, {Symbol(name.getAsOpaquePointer(), -1)}};
      return symbolOf(value, dim);
    }
    Operation *op = value.getDefiningOp();
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    auto aligned = [&](Value operand) -> std::optional<int64_t> {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        return std::nullopt;
      int64_t d = dim - (rank - type.getRank());
      if (d < 0 || !type.isDynamicDim(d))
        return std::nullopt;
      return d;
    };
    // Elementwise ops, broadcasting or not: a dynamic operand extent on the
    // same axis equals the result's (tc checks it when the model runs).
    if (op->hasTrait<mlir::OpTrait::Elementwise>() ||
        op->hasTrait<mlir::OpTrait::SameOperandsAndResultType>() ||
        isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, ModOp, AndOp,
            OrOp, XorOp, CompareOp, SelectOp, PreluOp, CastOp, ClampOp,
            SoftmaxOp, LogSoftmaxOp, LayerNormOp, BatchNormOp>(op)) {
      for (Value operand : op->getOperands())
        if (std::optional<int64_t> d = aligned(operand))
          return extent(operand, *d);
      return symbolOf(value, dim);
    }
    if (auto transpose = dyn_cast<TransposeOp>(op))
      return extent(transpose.getInput(), transpose.getPermutation()[dim]);
    if (auto slice = dyn_cast<SliceOp>(op)) {
      if (slice.getStarts()[dim] == 0 && slice.getSteps()[dim] == 1 &&
          slice.getEnds()[dim] >= std::numeric_limits<int64_t>::max() / 2)
        return extent(slice.getInput(), dim);
      return symbolOf(value, dim);
    }
    if (isa<MatmulOp, BatchMatmulOp>(op)) {
      Value lhs = op->getOperand(0), rhs = op->getOperand(1);
      if (dim == rank - 1)
        return aligned(rhs) ? extent(rhs, *aligned(rhs)) : symbolOf(value, dim);
      if (dim == rank - 2 || !aligned(rhs))
        return aligned(lhs) ? extent(lhs, *aligned(lhs)) : symbolOf(value, dim);
      return extent(rhs, *aligned(rhs));
    }
    if (auto attention = dyn_cast<AttentionOp>(op)) {
      Value from = dim == rank - 1 ? attention.getValue() : attention.getQuery();
      return aligned(from) ? extent(from, *aligned(from)) : symbolOf(value, dim);
    }
    if (isa<ReshapeOp, BroadcastOp>(op)) {
      if (auto broadcast = dyn_cast<BroadcastOp>(op))
        if (std::optional<int64_t> d = aligned(broadcast.getInput()))
          return extent(broadcast.getInput(), *d);
      Value shape = op->getNumOperands() > 1 ? op->getOperand(1) : Value();
      if (shape)
        if (std::optional<Elements> sizes = get(shape))
          if (std::optional<Term> size = (*sizes)[dim];
              size && size->coefficient == 1 && size->symbols.size() == 1)
            return *size;
      return symbolOf(value, dim);
    }
    if (auto gather = dyn_cast<GatherOp>(op)) {
      int64_t axis = gather.getAxis();
      int64_t indicesRank = gather.getIndices().getType().getRank();
      if (dim < axis)
        return extent(gather.getInput(), dim);
      if (dim < axis + indicesRank)
        return extent(gather.getIndices(), dim - axis);
      return extent(gather.getInput(), dim - indicesRank + 1);
    }
    return symbolOf(value, dim);
  }

  std::optional<Elements> compute(Value value) {
    Operation *op = value.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
      if (!dense)
        return std::nullopt;
      Elements elements;
      bool isBool = dense.getElementType().isInteger(1);
      for (const APInt &v : dense.getValues<APInt>())
        elements.push_back(Term::constant(
            isBool ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue()));
      return elements;
    }
    if (auto shape = dyn_cast<ShapeOfOp>(op)) {
      Elements elements;
      for (int64_t d = 0; d < shape.getInput().getType().getRank(); ++d)
        elements.push_back(extent(shape.getInput(), d));
      return elements;
    }
    if (auto gather = dyn_cast<GatherOp>(op)) {
      std::optional<Elements> input = get(gather.getInput());
      std::optional<Elements> indices = get(gather.getIndices());
      if (!input || !indices || gather.getAxis() != 0 ||
          gather.getInput().getType().getRank() != 1)
        return std::nullopt;
      Elements elements;
      int64_t n = input->size();
      for (const std::optional<Term> &term : *indices) {
        std::optional<int64_t> index = constantOf(term);
        if (!index || *index < -n || *index >= n)
          elements.push_back(std::nullopt);
        else
          elements.push_back((*input)[*index < 0 ? *index + n : *index]);
      }
      return elements;
    }
    if (auto slice = dyn_cast<SliceOp>(op)) {
      std::optional<Elements> input = get(slice.getInput());
      if (!input || slice.getInput().getType().getRank() != 1)
        return std::nullopt;
      Elements elements;
      int64_t step = slice.getSteps()[0];
      for (int64_t i = slice.getStarts()[0];
           step > 0 ? i < slice.getEnds()[0] : i > slice.getEnds()[0];
           i += step) {
        if (i < 0 || i >= static_cast<int64_t>(input->size()))
          return std::nullopt;
        elements.push_back((*input)[i]);
      }
      return elements;
    }
    if (auto concat = dyn_cast<ConcatOp>(op)) {
      Elements elements;
      for (Value input : concat.getInputs()) {
        std::optional<Elements> part = get(input);
        if (!part)
          return std::nullopt;
        elements.append(part->begin(), part->end());
      }
      return elements;
    }
    // Same elements under another shape or integer type (shape vectors are
    // far inside every integer type's range).
    if (isa<ReshapeOp, CastOp>(op))
      return get(op->getOperand(0));
    if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp>(op)) {
      std::optional<Elements> lhs = get(op->getOperand(0));
      std::optional<Elements> rhs = get(op->getOperand(1));
      if (!lhs || !rhs)
        return std::nullopt;
      return combine(*lhs, *rhs,
                     [&](const Term &x, const Term &y) -> std::optional<Term> {
                       if (isa<MulOp>(op))
                         return multiply(x, y);
                       if (isa<DivOp>(op)) {
                         if (y.isConstant() && y.coefficient == -1 &&
                             x.coefficient == std::numeric_limits<int64_t>::min())
                           return std::nullopt;
                         if (x.isConstant() && y.isConstant())
                           return y.coefficient == 0
                                      ? std::nullopt
                                      : std::optional<Term>(Term::constant(
                                            x.coefficient / y.coefficient));
                         return divide(x, y);
                       }
                       if (isa<AddOp, SubOp>(op) && y.isConstant() &&
                           y.coefficient == 0)
                         return x;
                       if (isa<AddOp>(op) && x.isConstant() && x.coefficient == 0)
                         return y;
                       if ((isa<MaxOp, MinOp>(op)) && x == y)
                         return x;
                       if (!x.isConstant() || !y.isConstant())
                         return std::nullopt;
                       int64_t a = x.coefficient, b = y.coefficient, r = 0;
                       if (isa<AddOp>(op))
                         return checked(__builtin_add_overflow(a, b, &r), r);
                       if (isa<SubOp>(op))
                         return checked(__builtin_sub_overflow(a, b, &r), r);
                       return Term::constant(isa<MaxOp>(op) ? std::max(a, b)
                                                            : std::min(a, b));
                     });
    }
    if (auto compare = dyn_cast<CompareOp>(op)) {
      std::optional<Elements> lhs = get(compare.getLhs());
      std::optional<Elements> rhs = get(compare.getRhs());
      if (!lhs || !rhs)
        return std::nullopt;
      ComparePredicate predicate = compare.getPredicate();
      return combine(*lhs, *rhs,
                     [&](const Term &x, const Term &y) -> std::optional<Term> {
                       std::optional<bool> equal;
                       if (x == y)
                         equal = true;
                       else if (x.isConstant() && y.isConstant())
                         equal = false;
                       // An extent is never negative: it is not -1.
                       else if ((x.isConstant() && x.coefficient < 0 &&
                                 y.isNonNegative()) ||
                                (y.isConstant() && y.coefficient < 0 &&
                                 x.isNonNegative()))
                         equal = false;
                       if (predicate == ComparePredicate::eq && equal)
                         return Term::constant(*equal);
                       if (predicate == ComparePredicate::ne && equal)
                         return Term::constant(!*equal);
                       if (!x.isConstant() || !y.isConstant())
                         return std::nullopt;
                       int64_t a = x.coefficient, b = y.coefficient;
                       switch (predicate) {
                       case ComparePredicate::eq:
                         return Term::constant(a == b);
                       case ComparePredicate::ne:
                         return Term::constant(a != b);
                       case ComparePredicate::lt:
                         return Term::constant(a < b);
                       case ComparePredicate::le:
                         return Term::constant(a <= b);
                       case ComparePredicate::gt:
                         return Term::constant(a > b);
                       case ComparePredicate::ge:
                         return Term::constant(a >= b);
                       }
                       return std::nullopt;
                     });
    }
    if (auto select = dyn_cast<SelectOp>(op)) {
      std::optional<Elements> condition = get(select.getCondition());
      std::optional<Elements> onTrue = get(select.getOnTrue());
      std::optional<Elements> onFalse = get(select.getOnFalse());
      if (!condition || !onTrue || !onFalse)
        return std::nullopt;
      size_t n = std::max({condition->size(), onTrue->size(), onFalse->size()});
      for (const Elements *e : {&*condition, &*onTrue, &*onFalse})
        if (e->size() != n && e->size() != 1)
          return std::nullopt;
      auto at = [&](const Elements &e, size_t i) {
        return e.size() == 1 ? e[0] : e[i];
      };
      Elements elements;
      for (size_t i = 0; i < n; ++i) {
        std::optional<int64_t> c = constantOf(at(*condition, i));
        std::optional<Term> t = at(*onTrue, i), f = at(*onFalse, i);
        // Either side will do when they agree, whatever the condition.
        if (t && f && *t == *f)
          elements.push_back(t);
        else if (c)
          elements.push_back(*c ? t : f);
        else
          elements.push_back(std::nullopt);
      }
      return elements;
    }
    if (isa<ReduceProdOp, ReduceSumOp>(op)) {
      std::optional<Elements> input = get(op->getOperand(0));
      if (!input || llvm::any_of(*input, [](auto &e) { return !e; }))
        return std::nullopt;
      if (isa<ReduceProdOp>(op)) {
        std::optional<Term> product = Term::constant(1);
        for (const std::optional<Term> &e : *input)
          if (!(product = multiply(*product, *e)))
            return std::nullopt;
        return Elements{product};
      }
      if (!allConstant(*input))
        return std::nullopt;
      int64_t sum = 0;
      for (const std::optional<Term> &e : *input)
        if (__builtin_add_overflow(sum, e->coefficient, &sum))
          return std::nullopt;
      return Elements{Term::constant(sum)};
    }
    return std::nullopt;
  }

  DenseMap<Value, std::optional<Elements>> cache;
  std::map<std::pair<Value, int64_t>, Term,
           std::function<bool(const std::pair<Value, int64_t> &,
                              const std::pair<Value, int64_t> &)>>
      origins{[](const std::pair<Value, int64_t> &a,
                 const std::pair<Value, int64_t> &b) {
        return std::make_pair(a.first.getAsOpaquePointer(), a.second) <
               std::make_pair(b.first.getAsOpaquePointer(), b.second);
      }};
};

/// Types only change where every user is a tc or fusion op (they re-infer)
/// or the return of a public single-block function, whose signature
/// --tc-infer-shapes then updates (as it does for its own refinements);
/// others (a call, say) keep the declared type.
bool usersFollow(Value value) {
  return llvm::all_of(value.getUsers(), [](Operation *user) {
    if (isa<func::ReturnOp>(user)) {
      auto func = dyn_cast<func::FuncOp>(user->getParentOp());
      return func && func.isPublic() && func.getBody().hasOneBlock();
    }
    return isa_and_nonnull<TcDialect, fusion::FusionDialect>(
        user->getDialect());
  });
}

/// `sizes` of `type` replaced by the known non-negative `elements`; nullopt
/// when they contradict a static size.
std::optional<RankedTensorType> withSizes(RankedTensorType type,
                                          const Elements &sizes) {
  SmallVector<int64_t> shape(type.getShape());
  for (auto [size, term] : llvm::zip(shape, sizes)) {
    std::optional<int64_t> known = constantOf(term);
    if (!known || *known < 0)
      continue;
    if (!ShapedType::isDynamic(size) && size != *known)
      return std::nullopt;
    size = *known;
  }
  return type.clone(shape);
}

/// ONNX's clamping of a slice bound into a static dimension of size `size`:
/// negative bounds count from the end, then [0, size] for positive steps,
/// [0, size - 1] (starts) and [-1, size - 1] (ends) for negative ones.
int64_t clampBound(int64_t bound, int64_t size, bool isStart, int64_t step) {
  if (bound < 0)
    bound += size;
  int64_t low = step > 0 || isStart ? 0 : -1;
  int64_t high = step > 0 ? size : size - 1;
  return std::max(low, std::min(bound, std::max(high, low)));
}

class Folder {
public:
  explicit Folder(func::FuncOp func) : func(func) {}

  /// One round of rewrites; true when something changed.
  bool run() {
    bool changed = false;
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<TcDialect>(op->getDialect()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto reshape = dyn_cast<ReshapeOp>(op))
        changed |= refineReshape(reshape);
      else if (auto broadcast = dyn_cast<BroadcastOp>(op))
        changed |= refineBroadcast(broadcast);
      else if (auto slice = dyn_cast<DynamicSliceOp>(op))
        changed |= staticSlice(slice);
    }
    // Values the shape arithmetic fully determines become constants.
    for (Operation *op : ops) {
      if (isa<ConstantOp>(op) || op->getNumResults() != 1 || !op->getBlock())
        continue;
      Value result = op->getResult(0);
      if (result.use_empty() || !isTracked(result.getType()))
        continue;
      std::optional<Elements> elements = known.get(result);
      if (!elements || !allConstant(*elements))
        continue;
      auto type = cast<RankedTensorType>(result.getType());
      unsigned width = type.getElementType().getIntOrFloatBitWidth();
      SmallVector<APInt> values;
      for (const std::optional<Term> &e : *elements)
        values.push_back(APInt(width, static_cast<uint64_t>(e->coefficient),
                               /*isSigned=*/width > 1, /*implicitTrunc=*/true));
      OpBuilder b(op);
      auto constant = ConstantOp::create(
          b, op->getLoc(), DenseIntElementsAttr::get(type, values));
      result.replaceAllUsesWith(constant.getResult());
      changed = true;
    }
    return changed;
  }

private:
  bool refineReshape(ReshapeOp op) {
    Value shape = op.getShape();
    if (!shape || !usersFollow(op.getResult()))
      return false;
    std::optional<Elements> sizes = known.get(shape);
    if (!sizes)
      return false;
    std::optional<RankedTensorType> refined = withSizes(op.getType(), *sizes);
    if (!refined || *refined == op.getType())
      return maybeDropShape(op);
    op.getResult().setType(*refined);
    maybeDropShape(op);
    return true;
  }

  /// A fully static result needs no shape operand.
  bool maybeDropShape(ReshapeOp op) {
    if (!op.getShape() || op.getType().getNumDynamicDims() > 0)
      return false;
    op.getShapeMutable().clear();
    return true;
  }

  bool refineBroadcast(BroadcastOp op) {
    Value shape = op.getShape();
    if (!shape || !usersFollow(op.getResult()))
      return false;
    std::optional<Elements> elements = known.get(shape);
    if (!elements)
      return false;
    // Expand: each result size is the shape's element broadcast against
    // the input's aligned size, so a 1 in the shape keeps the input's.
    RankedTensorType input = op.getInput().getType();
    int64_t rank = op.getType().getRank();
    Elements sizes(rank, std::nullopt);
    for (int64_t i = 0; i < rank; ++i) {
      std::optional<int64_t> e = constantOf((*elements)[i]);
      int64_t inputDim = i - (rank - input.getRank());
      int64_t inputSize =
          inputDim >= 0 ? input.getDimSize(inputDim) : int64_t(1);
      if (!e)
        continue;
      if (*e != 1)
        sizes[i] = Term::constant(*e);
      else if (!ShapedType::isDynamic(inputSize))
        sizes[i] = Term::constant(inputSize);
    }
    std::optional<RankedTensorType> refined = withSizes(op.getType(), sizes);
    bool changed = false;
    if (refined && *refined != op.getType()) {
      op.getResult().setType(*refined);
      changed = true;
    }
    if (op.getType().hasStaticShape()) {
      op.getShapeMutable().clear();
      changed = true;
    }
    return changed;
  }

  bool staticSlice(DynamicSliceOp op) {
    std::optional<Elements> starts = known.get(op.getStarts());
    std::optional<Elements> ends = known.get(op.getEnds());
    if (op.getStepValues() || !starts || !ends || !allConstant(*starts) ||
        !allConstant(*ends) || !usersFollow(op.getResult()))
      return false;
    RankedTensorType input = op.getInput().getType();
    int64_t rank = input.getRank();
    // Unsliced dimensions are taken whole; a dynamic one keeps ONNX's
    // unclamped bounds, which tc.slice clamps when it runs.
    SmallVector<int64_t> first(rank, 0), last(rank), step(rank, 1);
    for (int64_t d = 0; d < rank; ++d)
      last[d] = ShapedType::isDynamic(input.getDimSize(d))
                    ? std::numeric_limits<int64_t>::max()
                    : input.getDimSize(d);
    for (auto [i, axis] : llvm::enumerate(op.getAxes())) {
      int64_t size = input.getDimSize(axis), s = op.getSteps()[i];
      int64_t begin = (*starts)[i]->coefficient, end = (*ends)[i]->coefficient;
      if (!ShapedType::isDynamic(size)) {
        begin = clampBound(begin, size, /*isStart=*/true, s);
        end = clampBound(end, size, /*isStart=*/false, s);
      }
      first[axis] = begin;
      last[axis] = end;
      step[axis] = s;
    }
    OpBuilder b(op);
    auto slice = SliceOp::create(b, op.getLoc(), op.getInput(),
                                 b.getDenseI64ArrayAttr(first),
                                 b.getDenseI64ArrayAttr(last),
                                 b.getDenseI64ArrayAttr(step));
    // Left for the canonicalizer to erase: `ops` and the analysis's cache
    // still refer to it in this round.
    op.getResult().replaceAllUsesWith(slice.getResult());
    return true;
  }

  func::FuncOp func;
  ShapeElements known;
};

struct TcFoldShapeArithmeticPass
    : tc::impl::TcFoldShapeArithmeticPassBase<TcFoldShapeArithmeticPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    OpPassManager refine(func::FuncOp::getOperationName());
    refine.addPass(createTcInferShapesPass());
    refine.addPass(createCanonicalizerPass());
    // Each round can only make elements known, and a graph has finitely
    // many; the bound keeps a pathological graph from taking long.
    for (int round = 0; round < 16; ++round) {
      if (!Folder(func).run())
        break;
      if (failed(runPipeline(refine, func)))
        return signalPassFailure();
    }
  }
};

} // namespace
