//===- OpUtils.h - helpers shared by the tc op implementations ------------===//
//
// Private to lib/Dialect/Tc/IR. Type inference runs during verification and
// from builders, where there is no op to call emitOpError on; these helpers
// word their diagnostics the way emitOpError does ("'tc.conv' op ...").
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_DIALECT_TC_IR_OPUTILS_H
#define TC_LIB_DIALECT_TC_IR_OPUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "tc/Dialect/Tc/IR/ShapeUtils.h"

namespace mlir::tc::detail {

/// Emits "'<opName>' op <args...>" at `loc` when a location is given, and
/// returns failure either way.
template <typename... Args>
LogicalResult emitInferError(std::optional<Location> loc, StringRef opName,
                             Args &&...args) {
  if (!loc)
    return failure();
  InFlightDiagnostic diag = emitError(*loc);
  diag << "'" << opName << "' op ";
  (diag << ... << std::forward<Args>(args));
  return diag;
}

inline RankedTensorType getRankedType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Checks an axis against a rank: 0 <= axis < rank.
inline bool isValidAxis(int64_t axis, int64_t rank) {
  return axis >= 0 && axis < rank;
}

/// Strides, dilations and padding of a windowed op (conv, pooling), with the
/// ONNX defaults (1, 1, 0) for absent attributes.
struct WindowParams {
  SmallVector<int64_t> strides, dilations, padding;
};

/// Reads and checks the window attributes of an op with `spatial` spatial
/// dimensions: `padding` has 2 * spatial entries, the others `spatial`.
inline FailureOr<WindowParams>
readWindowParams(std::optional<Location> loc, StringRef name, int64_t spatial,
                 std::optional<ArrayRef<int64_t>> strides,
                 std::optional<ArrayRef<int64_t>> dilations,
                 std::optional<ArrayRef<int64_t>> padding) {
  WindowParams params{SmallVector<int64_t>(spatial, 1),
                      SmallVector<int64_t>(spatial, 1),
                      SmallVector<int64_t>(2 * spatial, 0)};
  auto read = [&](std::optional<ArrayRef<int64_t>> attr, StringRef what,
                  SmallVector<int64_t> &out) -> LogicalResult {
    if (!attr)
      return success();
    if (attr->size() != out.size())
      return emitInferError(loc, name, "expects ", out.size(), " ", what,
                            " values, got ", attr->size());
    out.assign(attr->begin(), attr->end());
    return success();
  };
  if (failed(read(strides, "strides", params.strides)) ||
      failed(read(dilations, "dilations", params.dilations)) ||
      failed(read(padding, "padding", params.padding)))
    return failure();
  if (llvm::any_of(params.strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(params.dilations, [](int64_t d) { return d < 1; }))
    return emitInferError(loc, name, "strides and dilations must be >= 1");
  if (llvm::any_of(params.padding, [](int64_t p) { return p < 0; }))
    return emitInferError(loc, name, "padding must be >= 0");
  return params;
}

} // namespace mlir::tc::detail

#endif // TC_LIB_DIALECT_TC_IR_OPUTILS_H
