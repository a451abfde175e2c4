//===- Sort.h - a stable argsort built from scf loops -----------*- C++ -*-===//
//
// Shared by the lowerings that order data at run time (tc.unique,
// tc.non_max_suppression).
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_CONVERSION_TCTOLINALG_SORT_H
#define TC_LIB_CONVERSION_TCTOLINALG_SORT_H

#include "mlir/IR/Builders.h"

namespace mlir::tc::to_linalg {

/// Compares two positions of the sequence being sorted: an i1 that is true
/// when the element at `lhs` must come before the one at `rhs`.
using LessFn = function_ref<Value(OpBuilder &, Location, Value lhs, Value rhs)>;

/// A tensor<?xindex> permutation of [0, n) that lists the positions in
/// ascending order of `less`, equal ones in their original order. A
/// bottom-up merge sort: O(n log n) calls of `less`.
Value buildStableArgSort(OpBuilder &b, Location loc, Value n, LessFn less);

} // namespace mlir::tc::to_linalg

#endif // TC_LIB_CONVERSION_TCTOLINALG_SORT_H
