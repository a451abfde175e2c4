//===- TcAttributes.h - the discardable attributes of the tc namespace ---===//
//
// Every `tc.*` attribute a pass, the importer or tc-compile puts on an op,
// a function argument or a result is declared here, with the kind of value
// it holds: TcDialect's verifier checks each against its declaration and
// rejects an undeclared `tc.*` name, so a typo or a stale attribute fails
// verification instead of being silently ignored by the pass that looks
// for it.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCATTRIBUTES_H
#define TC_DIALECT_TC_IR_TCATTRIBUTES_H

#include "mlir/IR/Attributes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tc {

// Function arguments and results (the importer): the ONNX name of an input
// or output, and the symbols (dim_param) of its dynamic dimensions, "" for
// a static or anonymous one.
inline constexpr llvm::StringLiteral kNameAttr = "tc.name";
inline constexpr llvm::StringLiteral kDimParamsAttr = "tc.dim_params";

// Precision (ApplyPrecision, tc-compile --calibrate).
/// On a contraction (tc.matmul, tc.batch_matmul, tc.conv, and the
/// linalg.generic each lowers to): its factors hold TF32 values, rounded by
/// `--precision=tf32`, so that a GPU kernel may multiply them on tensor
/// cores in TF32 with the same result. Dropping it is always correct: the
/// contraction then runs in f32 on the same rounded values.
inline constexpr llvm::StringLiteral kTf32FactorsAttr = "tc.tf32_factors";
/// On an op the precision policy would narrow: the largest magnitude among
/// its operands and result over a calibration run (`tc-compile
/// --calibrate`), an f32. Under `--precision=fp16` an op whose value is
/// beyond fp16's range keeps f32.
inline constexpr llvm::StringLiteral kCalibratedMaxAttr = "tc.calibrated_max";

// On a call of a host helper (the image codecs) that reads or writes the
// elements of a buffer through a pointer operand: that operand's index. GPU
// targets, whose buffers are device memory, stage such buffers through host
// memory around the call (--tc-gpu-stage-host-buffers).
inline constexpr llvm::StringLiteral kReadsBufferAttr = "tc.reads_buffer";
inline constexpr llvm::StringLiteral kWritesBufferAttr = "tc.writes_buffer";

// Pass-local markers (unit): the ops one step of a pass tiled, which its
// next step vectorizes, then removes the marker.
inline constexpr llvm::StringLiteral kRegisterTileMarker = "tc.register_tile";
inline constexpr llvm::StringLiteral kElementwiseTileMarker =
    "tc.elementwise_tile";
inline constexpr llvm::StringLiteral kTransposeTileMarker = "tc.transpose_tile";
inline constexpr llvm::StringLiteral kReductionTileMarker = "tc.reduction_tile";
inline constexpr llvm::StringLiteral kGpuKernelMarker = "tc.gpu_kernel";

// The CPU module ABI (tc-cpu-plan-memory, -outline-workgroups, -lower-checks,
// shape buckets, -emit-entry).
/// A view of the arena: its number (CSE must not merge two views), and on
/// the function, the arena's size in bytes.
inline constexpr llvm::StringLiteral kArenaBufferAttr = "tc.arena_buffer";
inline constexpr llvm::StringLiteral kArenaBytesAttr = "tc.arena_bytes";
/// On a shape bucket's entry function (mergeShapeBucket): the input extents
/// it was compiled for, as (index into tc_module_run_v1's input_dims,
/// extent) pairs.
inline constexpr llvm::StringLiteral kBucketGuardAttr = "tc.bucket_guard";
/// On an entry function: where its run-time checks start in the module's
/// table (a merged bucket's checks follow the generic code's).
inline constexpr llvm::StringLiteral kCheckOffsetAttr = "tc.check_offset";
/// On the module: the messages of the run-time checks, in order; the
/// model's #tc.signature (TcSignature.h), which the entry point writes as
/// model.so's metadata text (module_abi.h); and for GPU targets, the kernel
/// names and the compiled images ({target, format, data} dictionaries).
inline constexpr llvm::StringLiteral kCheckMessagesAttr = "tc.check_messages";
inline constexpr llvm::StringLiteral kSignatureAttr = "tc.signature";
inline constexpr llvm::StringLiteral kGpuKernelsAttr = "tc.gpu_kernels";
inline constexpr llvm::StringLiteral kGpuImagesAttr = "tc.gpu_images";

// Marks host functions whose buffers are host memory (the deallocation's
// alias-check helper, --tc-gpu-keep-host-arrays): no kernels, no copies.
inline constexpr llvm::StringLiteral kHostFunctionAttr = "tc.host_function";

/// The value each tc attribute holds.
enum class AttrKind {
  Unit,
  String,
  Integer,
  Float,
  StringArray,
  DictionaryArray,
  I64Array,
  Signature,
};

struct AttrDeclaration {
  llvm::StringLiteral name;
  AttrKind kind;
  /// Whether it belongs on function arguments and results (else on ops).
  bool onArguments;
};

/// Every declared tc attribute.
llvm::ArrayRef<AttrDeclaration> tcAttributes();

/// Why `value` is not a valid `name` ("" when it is, or when `name` is not
/// a tc attribute at all): an undeclared tc name, one used where it does
/// not belong, or a value of the wrong kind.
std::string checkTcAttribute(llvm::StringRef name, Attribute value,
                             bool onArgument);

} // namespace mlir::tc

#endif // TC_DIALECT_TC_IR_TCATTRIBUTES_H
