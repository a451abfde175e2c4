//===- ShapeUtils.cpp - shape arithmetic shared by tc verifiers -----------===//

#include "tc/Dialect/Tc/IR/ShapeUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
// Walks two shapes aligned at their trailing dimension, as numpy does.
// Returns the index of the first mismatching pair (counted from the back).
std::optional<size_t> firstBroadcastMismatch(ArrayRef<int64_t> lhs,
                                             ArrayRef<int64_t> rhs) {
  size_t n = std::min(lhs.size(), rhs.size());
  for (size_t i = 0; i < n; ++i) {
    int64_t a = lhs[lhs.size() - 1 - i], b = rhs[rhs.size() - 1 - i];
    if (a == b || a == 1 || b == 1 || ShapedType::isDynamic(a) ||
        ShapedType::isDynamic(b))
      continue;
    return i;
  }
  return std::nullopt;
}
} // namespace

std::optional<SmallVector<int64_t>>
tc::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  if (firstBroadcastMismatch(lhs, rhs))
    return std::nullopt;
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t b = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    int64_t &out = result[rank - 1 - i];
    if (a == 1)
      out = b;
    else if (b == 1)
      out = a;
    else if (ShapedType::isDynamic(a))
      out = b; // b is dynamic or a static N > 1 that a must equal
    else
      out = a;
  }
  return result;
}

std::string tc::describeBroadcastMismatch(ArrayRef<int64_t> lhs,
                                          StringRef lhsName,
                                          ArrayRef<int64_t> rhs,
                                          StringRef rhsName) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::optional<size_t> i = firstBroadcastMismatch(lhs, rhs);
  if (!i)
    return text;
  size_t li = lhs.size() - 1 - *i, ri = rhs.size() - 1 - *i;
  os << "dimension " << li << " of " << lhsName << " (" << lhs[li]
     << ") does not match dimension " << ri << " of " << rhsName << " ("
     << rhs[ri] << ") and neither is 1";
  return text;
}

bool tc::isBroadcastableTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  size_t offset = to.size() - from.size();
  for (auto [i, size] : llvm::enumerate(from))
    if (size != 1 && !areCompatibleSizes(size, to[offset + i]))
      return false;
  return true;
}

bool tc::areCompatibleReturnTypes(TypeRange inferred, TypeRange declared) {
  if (inferred.size() != declared.size())
    return false;
  for (auto [a, b] : llvm::zip(inferred, declared)) {
    if (a == b)
      continue;
    auto ta = dyn_cast<RankedTensorType>(a);
    auto tb = dyn_cast<RankedTensorType>(b);
    if (!ta || !tb || ta.getElementType() != tb.getElementType() ||
        ta.getRank() != tb.getRank())
      return false;
    for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
      if (!areCompatibleSizes(x, y))
        return false;
  }
  return true;
}

std::optional<int64_t> tc::getStaticElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (ShapedType::isDynamic(size))
      return std::nullopt;
    count *= size;
  }
  return count;
}

std::optional<int64_t> tc::getWindowedOutputSize(int64_t input, int64_t window,
                                                 int64_t stride,
                                                 int64_t dilation,
                                                 int64_t padBegin,
                                                 int64_t padEnd,
                                                 bool ceilMode) {
  if (ShapedType::isDynamic(input))
    return ShapedType::kDynamic;
  int64_t span = dilation * (window - 1) + 1;
  int64_t room = input + padBegin + padEnd - span;
  if (room < 0)
    return std::nullopt;
  int64_t out = room / stride + 1;
  if (ceilMode && room % stride != 0) {
    // The extra window must start inside the input or its begin padding.
    if ((out) * stride < input + padBegin)
      ++out;
  }
  return out;
}

std::string tc::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << '?';
        else
          os << size;
      },
      "x");
  return text;
}
