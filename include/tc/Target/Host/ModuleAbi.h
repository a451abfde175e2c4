//===- ModuleAbi.h - model.so entry points shared by all targets -*- C++ -*-===//

#ifndef TC_TARGET_HOST_MODULEABI_H
#define TC_TARGET_HOST_MODULEABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Dialect/Tc/IR/TcSignature.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tc::host {

// The attributes of shape buckets and of run-time checks are declared with
// the other tc attributes (tc/Dialect/Tc/IR/TcAttributes.h); kernel
// dispatches are `tc_cpu.dispatch` ops.

/// The signature of a model whose tc-level entry is `main` (names, element
/// types including unsignedness, symbolic dims), for the CPU target in the
/// default mode.
SignatureAttr buildSignature(func::FuncOp main, StringRef modelName);
/// The metadata text of module_abi.h that `signature` describes.
std::string moduleMetadataText(SignatureAttr signature);
/// A name as the metadata writes it: bytes outside [A-Za-z0-9_.:/-] as %XX,
/// the empty name as "%".
std::string escapeMetadataName(StringRef name);

/// An input or output of the model as the entry point passes it: its rank
/// and the bytes of one element.
struct TensorSlot {
  int64_t rank;
  int64_t elementBytes;
};

/// The module's `tc.signature` (set by tc-compile), or an error on the module
/// naming the pass `what` that needs it.
FailureOr<SignatureAttr> moduleSignature(ModuleOp module, StringRef what);

/// The inputs' and outputs' slots of `signature`.
void signatureSlots(SignatureAttr signature,
                    SmallVectorImpl<TensorSlot> &inputs,
                    SmallVectorImpl<TensorSlot> &outputs);

/// Small helpers for building LLVM dialect code.
struct Emitter {
  OpBuilder &b;
  Location loc;
  Type ptr, i64, i32;

  /// An emitter building with `b` at `loc`.
  static Emitter at(OpBuilder &b, Location loc) {
    return {b, loc, LLVM::LLVMPointerType::get(b.getContext()), b.getI64Type(),
            b.getI32Type()};
  }

  Value constI64(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  }
  /// Element `index` of an array of `elementType` at `base`.
  Value element(Type elementType, Value base, int64_t index) {
    return LLVM::GEPOp::create(b, loc, ptr, elementType, base,
                               ArrayRef<LLVM::GEPArg>{index});
  }
  Value load(Type type, Value address) {
    return LLVM::LoadOp::create(b, loc, type, address);
  }
};

/// A constant global holding `bytes` (NUL-terminated when `terminate`).
LLVM::GlobalOp constantBytes(OpBuilder &b, Location loc, StringRef name,
                             StringRef bytes, bool terminate);

/// An exported constant array `name` of `count` elements of `elementType`,
/// which `fill` builds in the global's initializer.
void constantTable(OpBuilder &b, Location loc, StringRef name,
                   Type elementType, size_t count,
                   function_ref<SmallVector<Value>(OpBuilder &)> fill);

/// A value of the LLVM struct `type` whose fields are `fields`, in order.
Value structValue(OpBuilder &b, Location loc, Type type, ValueRange fields);

/// An exported constant `uint32_t name = value`.
void constantCount(OpBuilder &b, Location loc, StringRef name, uint32_t value);

/// `tc_module_abi_version` and `tc_module_metadata_v1` (the text of
/// `signature`).
void emitAbiGlobals(ModuleOp module, OpBuilder &b, SignatureAttr signature);

/// The run function `name` (the signature of tc_module_run_v1): builds the
/// input descriptors, calls @main(env, descriptors...), stores the output
/// buffers and extents. When the module has run-time checks (the
/// `tc.check_messages` attribute of --tc-cpu-lower-checks), a failed check
/// returns TC_RUN_CHECK_FAILED + its index, the messages go to the global
/// `checkMessagesSymbol`, and with `releaseOutputsOnError` the outputs' host
/// allocations are freed (the caller owns them only on success).
LogicalResult emitRunFunction(ModuleOp module, LLVM::LLVMFuncOp main,
                              ArrayRef<TensorSlot> inputs,
                              ArrayRef<TensorSlot> outputs, StringRef name,
                              StringRef checkMessagesSymbol,
                              bool releaseOutputsOnError);

/// What a function called like @main reports about run-time checks: whether
/// it returns the failed check's index plus one as its last result, and
/// where its checks start in the module's table of messages.
struct EntryChecks {
  bool returnsCheck = false;
  int64_t offset = 0;
};

/// The type of tc_module_run_v1: i32 (ptr x 6).
LLVM::LLVMFunctionType runFunctionType(MLIRContext *ctx);

/// The body of emitRunFunction for one function `main` (a model or one of
/// its shape buckets), without the messages' table: a failed check k of
/// `main` returns TC_RUN_CHECK_FAILED + checks.offset + k.
FailureOr<LLVM::LLVMFuncOp>
emitEntryCall(ModuleOp module, LLVM::LLVMFuncOp main,
              ArrayRef<TensorSlot> inputs, ArrayRef<TensorSlot> outputs,
              StringRef name, const EntryChecks &checks,
              bool releaseOutputsOnError, LLVM::Linkage linkage);

/// The global `symbol` listing the messages of the module's
/// `tc.check_messages` attribute (module_abi.h), which it then removes; no
/// global without the attribute.
void emitCheckMessages(ModuleOp module, StringRef symbol);

/// Names each constant global (`__constant_*`, from bufferization) after its
/// content and makes it linkonce_odr and hidden, so that the CPU code and
/// the GPU host code linked into one model.so share one copy of every
/// weight; identical constants within `module` become one.
void shareConstants(ModuleOp module);

/// Points every `llvm.mlir.addressof` of a global in `renamed` at its new
/// name, in one walk of `module` (a walk per symbol is quadratic).
void renameGlobalUses(ModuleOp module,
                      const llvm::DenseMap<StringAttr, StringAttr> &renamed);

} // namespace mlir::tc::host

#endif // TC_TARGET_HOST_MODULEABI_H
