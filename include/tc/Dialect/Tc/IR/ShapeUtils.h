//===- ShapeUtils.h - shape arithmetic shared by tc verifiers and passes --===//
//
// Shapes are ArrayRef<int64_t> with ShapedType::kDynamic for unknown sizes.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_SHAPEUTILS_H
#define TC_DIALECT_TC_IR_SHAPEUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace mlir::tc {

/// Numpy broadcast of two shapes. A dynamic size against 1 or another dynamic
/// size stays dynamic; against a static size N > 1 it becomes N (the only
/// value it may take at run time). Returns std::nullopt when two static sizes
/// differ and neither is 1.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// Describes why two shapes do not broadcast, e.g. "dimension 1 of lhs (3)
/// does not match dimension 0 of rhs (4)"; dimensions are counted in each
/// operand's own numbering.
std::string describeBroadcastMismatch(llvm::ArrayRef<int64_t> lhs,
                                      llvm::StringRef lhsName,
                                      llvm::ArrayRef<int64_t> rhs,
                                      llvm::StringRef rhsName);

/// True when `from` can be broadcast to `to` (one-directional, as for
/// tc.broadcast): rank(from) <= rank(to) and each aligned size of `from` is 1
/// or equal to the size in `to` (dynamic sizes are accepted).
bool isBroadcastableTo(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);

/// Two sizes that may be equal at run time: equal, or at least one dynamic.
inline bool areCompatibleSizes(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

/// The result-type compatibility rule of tc ops: pairwise the same type, or
/// ranked tensors of one element type whose shapes are compatible (a declared
/// type may be more static than the inferred one).
bool areCompatibleReturnTypes(TypeRange inferred, TypeRange declared);

/// Product of the sizes, or std::nullopt when any is dynamic.
std::optional<int64_t> getStaticElementCount(llvm::ArrayRef<int64_t> shape);

/// Output size of a windowed op (conv, pooling) along one dimension, or
/// kDynamic when `input` is dynamic. Returns std::nullopt when the window does
/// not fit (output size < 1).
std::optional<int64_t> getWindowedOutputSize(int64_t input, int64_t window,
                                             int64_t stride, int64_t dilation,
                                             int64_t padBegin, int64_t padEnd,
                                             bool ceilMode);

/// Formats a shape as "4x?x8" for diagnostics.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace mlir::tc

#endif // TC_DIALECT_TC_IR_SHAPEUTILS_H
