//===- TcSignature.h - #tc.signature and #tc.slot -------------*- C++ -*-===//
//
// The typed signature of a compiled model (TcAttrDefs.td), and the names
// the module ABI gives element types.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCSIGNATURE_H
#define TC_DIALECT_TC_IR_TCSIGNATURE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"

#include <string>

#define GET_ATTRDEF_CLASSES
#include "tc/Dialect/Tc/IR/TcAttrDefs.h.inc"

namespace mlir::tc {

/// The module ABI's name of an element type ("f32", "u8", "f8e4m3fn"), or ""
/// for a type a compiled model cannot take or return (module_abi.h).
std::string moduleDtypeName(Type elementType);

/// The compile modes a signature may name.
inline constexpr llvm::StringLiteral kCompileModes[] = {
    "default", "reduce-overhead", "max-autotune"};

} // namespace mlir::tc

#endif // TC_DIALECT_TC_IR_TCSIGNATURE_H
