//===- Compare.h - comparing and printing tensors for tc-run
//-----------------===//

#ifndef TC_TOOLS_TC_RUN_COMPARE_H
#define TC_TOOLS_TC_RUN_COMPARE_H

#include "tc-runtime/runtime.h"

#include <cstdint>
#include <string>

namespace tc::run {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-5;
};

struct CompareResult {
  bool ok = false;
  std::string line; // one line describing the outcome, without the name
};

/// Compares `actual` with `expected` element-wise: floating types with numpy
/// allclose semantics (|a - e| <= atol + rtol * |e|; NaN matches only NaN,
/// infinities only themselves), integers and bool exactly. Shapes and dtypes
/// must agree.
CompareResult compareTensors(const tc_tensor *actual, const tc_tensor *expected,
                             const Tolerance &tolerance);

/// "f32[2, 3]".
std::string describeType(const tc_tensor *tensor);

/// The first `limit` elements, "[1, 2.5, ...]".
std::string formatValues(const tc_tensor *tensor, int64_t limit);

} // namespace tc::run

#endif // TC_TOOLS_TC_RUN_COMPARE_H
