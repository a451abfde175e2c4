//===- PatternUtils.h - helpers of the composite-pattern fusion passes ----===//
//
// Private to lib/Dialect/Tc/Transforms. The fusion passes (FuseGelu.cpp,
// FuseLayerNorm.cpp, FuseAttention.cpp) match chains of small tc ops that
// exporters emit; these helpers read their constants and check that a chain
// owns its intermediate values.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_DIALECT_TC_TRANSFORMS_PATTERNUTILS_H
#define TC_LIB_DIALECT_TC_TRANSFORMS_PATTERNUTILS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::tc::fuse {

/// The value of a tc.constant holding one number (a scalar, or a tensor of
/// any rank with one element, or a splat), as a double. Integer constants
/// are read too (exponents are often i64).
std::optional<double> getScalarConstant(Value value);

/// `actual` equals `expected` within a relative tolerance of 1e-4: exporters
/// write constants like sqrt(2) and sqrt(2 / pi) with float precision, or
/// round them (0.7978845608 vs 0.79788456).
bool isNear(double actual, double expected);

/// True when `value` is a constant near `expected` (for f16 and bf16
/// constants, within their own precision).
bool isConstantNear(Value value, double expected);

/// For a binary op with a constant operand: the other operand when one of
/// the two is a constant near `expected` (the constant may be on either side
/// only when `commutative`).
Value otherThanConstant(Operation *op, double expected, bool commutative);

/// True when every use of `value` is by `user` (an op may read a value
/// twice, as mul(d, d) does).
bool onlyUsedBy(Value value, Operation *user);

/// The op defining `value` when it is an `OpTy` whose result only `user`
/// reads; null otherwise.
template <typename OpTy>
OpTy ownedBy(Value value, Operation *user) {
  auto op = value.getDefiningOp<OpTy>();
  if (!op || !onlyUsedBy(value, user))
    return nullptr;
  return op;
}

/// Erases the ops of a replaced chain that became dead, in any order.
void eraseDeadOps(RewriterBase &rewriter, ArrayRef<Operation *> ops);

} // namespace mlir::tc::fuse

#endif // TC_LIB_DIALECT_TC_TRANSFORMS_PATTERNUTILS_H
